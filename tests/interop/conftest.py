"""The interop tests: they need the ``[openspiel]`` and ``[pettingzoo]`` extras.

Without an extra, its tests skip and say which extra to install (the README's fast tier runs
without them); ``.ci/run`` installs both and sets ``CATSEARCH_REQUIRE_INTEROP=1``, which turns
those skips into failures, so a broken install cannot pass as skipped tests.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

#: set by .ci/run: there a missing extra fails the interop tests instead of skipping them
REQUIRED = os.environ.get("CATSEARCH_REQUIRE_INTEROP") == "1"


def require(module: str, extra: str) -> ModuleType:
    """Import ``module`` of catsearch.interop, or skip the test (fail it under
    ``CATSEARCH_REQUIRE_INTEROP=1``), naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        why = f"{module} needs the [{extra}] extra: pip install -e '.[{extra}]' ({e})"
        if REQUIRED:
            pytest.fail(f"{why} (CATSEARCH_REQUIRE_INTEROP=1)", pytrace=False)
        pytest.skip(why)


@pytest.fixture(scope="session")
def cio() -> ModuleType:
    """catsearch.interop.openspiel (the [openspiel] extra)."""
    return require("catsearch.interop.openspiel", "openspiel")


@pytest.fixture(scope="session")
def cpz() -> ModuleType:
    """catsearch.interop.pettingzoo (the [pettingzoo] extra)."""
    return require("catsearch.interop.pettingzoo", "pettingzoo")


@pytest.fixture
def played():
    """``played(game_id, players, seed, plies, **options)``: a full state after random
    moves."""
    return random_state_at


def random_state_at(game_id: str, players: int, seed: int, plies: int, **options):
    """A full catsearch state after ``plies`` random moves (fewer if the game ends)."""
    import random

    import catsearch
    st = catsearch.new_game(game_id, players, seed, **options)
    r = random.Random(seed)
    for _ in range(plies):
        if st.is_terminal():
            break
        st.apply(r.choice(st.legal_moves()))
    return st
