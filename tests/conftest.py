import os
import random
import sysconfig
from pathlib import Path

import pytest

#: Set by tests/install/wheel.py: the suite runs against the installed wheel, from a copy of
#: the checkout without its package (the tests of the checkout itself skip).
INSTALLED = os.environ.get("CATSEARCH_TEST_INSTALLED", "") not in ("", "0")


def pytest_configure(config):
    """Against the installed wheel, ``import catsearch`` must find the installed package
    (in site-packages), never a checkout's ``catsearch/``: else the run stops here."""
    if not INSTALLED:
        return
    import catsearch
    found = Path(catsearch.__file__).resolve().parent
    site = {Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
    root = Path(str(config.rootpath)).resolve()
    if found.parent not in site or root in found.parents:
        pytest.exit(f"CATSEARCH_TEST_INSTALLED is set but `import catsearch` finds {found}, "
                    f"not the installed package in {sorted(map(str, site))}", returncode=3)

#: Test modules whose every test is slow (playing-strength matches): marked here, so that a
#: new strength test joins the slow tier by its file name alone.
SLOW_MODULES = ("test_strength",)

#: Single slow tests in modules that are otherwise fast (node id prefixes, from the rootdir),
#: with their times in a full run on 2 shared cores. (Tests in arena/ and engine/ carry
#: their own ``slow`` marks.)
SLOW_TESTS: tuple[str, ...] = (
    "tests/search/test_expectimax.py::test_beats_random",        # 41 s for the 4 games
    # long searches on The Cat's long game; the other games and 2 players stay fast
    "tests/search/test_expectimax.py::test_star1_and_star2_agree_with_plain_expectimax"
    "[the-cat-3p]",                                              # 6-7 s
    "tests/search/test_expectimax.py::test_star1_and_star2_agree_with_plain_expectimax"
    "[the-cat-4p]",                                              # 4-5 s
)


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


@pytest.fixture(scope="session")
def load_script():
    """``load_script(path)``: a Python file that is no module of the package (a benchmark
    script), loaded as a module of its own, so that a test can call and patch its functions."""
    import importlib.util

    def load(path: Path):
        spec = importlib.util.spec_from_file_location(f"script_{Path(path).stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    return load
