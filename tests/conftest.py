import random
from pathlib import Path

import pytest

#: Test modules whose every test is slow (playing-strength matches): marked here, so that a
#: new strength test joins the slow tier by its file name alone.
SLOW_MODULES = ("test_strength",)

#: Single slow tests in modules that are otherwise fast (node id prefixes, from the rootdir).
SLOW_TESTS: tuple[str, ...] = ()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark the slow tier (before ``-m "not slow"`` deselects it; see pyproject.toml)."""
    for item in items:
        name = Path(str(item.fspath)).name
        if name.startswith(SLOW_MODULES) or item.nodeid.startswith(SLOW_TESTS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def rng():
    return random.Random(12345)
