import contextlib
import os
import sys
import tempfile

try:
    import fcntl
except ImportError:       # Windows: the Ray tests do not take turns there
    fcntl = None

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
        r = dict(r) if isinstance(r, dict) else r.to_json()     # a game line, or a record
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


#: The file whose lock the Ray tests hold (see ``one_ray``): one path for the machine, so
#: that pytest-xdist's workers, and two test runs at once, take turns.
RAY_LOCK = os.path.join(tempfile.gettempdir(), "catsearch-ray-tests.lock")
_ray_lock = {"fd": None, "depth": 0}        # this process's hold on it (reentrant)


@contextlib.contextmanager
def one_ray():
    """Hold the machine's Ray to this process while the block runs: a Ray test starts a
    local Ray or a head and stops it with ``ray stop --force``, which stops every Ray on the
    machine, so no two run at once (the workers of ``-n 2`` wait their turn). Reentrant: the
    module's cluster fixture and its tests both hold it."""
    if _ray_lock["depth"] == 0 and fcntl is not None:
        fd = os.open(RAY_LOCK, os.O_RDWR | os.O_CREAT, 0o666)
        fcntl.flock(fd, fcntl.LOCK_EX)
        _ray_lock["fd"] = fd
    _ray_lock["depth"] += 1
    try:
        yield
    finally:
        _ray_lock["depth"] -= 1
        if _ray_lock["depth"] == 0 and _ray_lock["fd"] is not None:
            fcntl.flock(_ray_lock["fd"], fcntl.LOCK_UN)
            os.close(_ray_lock["fd"])
            _ray_lock["fd"] = None


@pytest.fixture
def ray_alone():
    """A test that uses Ray runs while no other test on the machine does (``one_ray``)."""
    with one_ray():
        yield


@pytest.fixture(scope="module")
def ray_alone_module():
    """``ray_alone`` for a module's fixture (a Ray head kept up for the module's tests)."""
    with one_ray():
        yield
