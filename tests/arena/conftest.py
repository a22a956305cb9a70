import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ENGINES = os.path.join(HERE, "engines")
PLUGIN = os.path.join(HERE, "plugin_players.py")


def engine(name: str, *args) -> str:
    """An entrant text for a test engine script."""
    import shlex
    return "engine:" + shlex.join([sys.executable, os.path.join(ENGINES, name + ".py"),
                                   *map(str, args)])


@pytest.fixture
def plugin():
    from catsearch.arena.entrants import load_imports
    load_imports([PLUGIN])
    return PLUGIN


def strip_timings(records):
    """Game records without what depends on the clock."""
    out = []
    for r in records:
        r = dict(r)
        r.pop("move_seconds")
        r.pop("seconds")
        if r.get("failure"):
            f = dict(r["failure"])
            if f["kind"] == "timeout":
                f.pop("message")
            r["failure"] = f
        out.append(r)
    return out


@pytest.fixture(name="engine")
def _engine_fixture():
    return engine


@pytest.fixture(name="strip_timings")
def _strip_fixture():
    return strip_timings
