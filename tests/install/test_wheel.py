"""The wheel holds every compiled module, the browser mode's pages and the rest of the
package's data, and no Cython ``.c`` or tests (issue 33, "Also packaging").

``CATSEARCH_WHEEL=path`` checks a wheel built already (``.ci/run`` builds one and checks it
with ``tests/install/wheel.py``, which also installs it and runs the suite against it);
otherwise the slow tier builds one here (``pip wheel .``: the compiled modules come from the
build cache of an earlier build, ``setup.py``). The contents are checked against the
checkout's ``catsearch/``: against the installed wheel there is none, and they skip.
"""
import importlib.util
import os
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HAS_CHECKOUT = (ROOT / "setup.py").is_file() and (ROOT / "catsearch").is_dir()
needs_checkout = pytest.mark.skipif(
    not HAS_CHECKOUT, reason="the expected contents come from the checkout's catsearch/; "
    "against the installed wheel tests/install/wheel.py checked them before installing it")


def _wheel_module():
    spec = importlib.util.spec_from_file_location("catsearch_wheel_check",
                                                  Path(__file__).with_name("wheel.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _check(wheel):
    w = _wheel_module()
    files, modules = w.expected_contents(ROOT)
    # the expectations themselves: the browser's pages, the type marker, every extension
    for name in ("index.html", "play.html", "app.css", "play.js", "cat.svg"):
        assert f"catsearch/play/static/{name}" in files
    assert "catsearch/py.typed" in files and "catsearch/_core/state.pxd" in files
    assert len(modules) == len(list((ROOT / "catsearch").glob("**/*.pyx"))) > 0
    assert w.check_wheel(wheel, ROOT) == []
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert sum(n.endswith(".so") for n in names) == len(modules)


@needs_checkout
@pytest.mark.skipif(not os.environ.get("CATSEARCH_WHEEL"),
                    reason="no CATSEARCH_WHEEL given (the slow tier builds one)")
def test_the_wheel_given():
    _check(Path(os.environ["CATSEARCH_WHEEL"]))


@needs_checkout
@pytest.mark.slow
def test_a_wheel_built_here(tmp_path):
    wheel = _wheel_module().build_wheel(tmp_path / "dist", ROOT)
    _check(wheel)


@needs_checkout
def test_the_check_finds_what_is_missing_or_extra(tmp_path):
    """A wheel without a page or a compiled module, or with a ``.c``, is refused."""
    w = _wheel_module()
    files, modules = w.expected_contents(ROOT)
    good = tmp_path / "good.whl"
    with zipfile.ZipFile(good, "w") as z:
        for f in files:
            z.writestr(f, "")
        for m in modules:
            z.writestr(f"{m}.cpython-311-x86_64-linux-gnu.so", "")
        z.writestr("catsearch-0.1.0.dist-info/entry_points.txt", "[console_scripts]\n" + "".join(
            f"{s} = x:y\n" for s in w.SCRIPTS))
    assert w.check_wheel(good, ROOT) == []
    bad = tmp_path / "bad.whl"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w") as z:
        for n in src.namelist():
            if not n.endswith(("static/app.css", "search/ismcts.cpython-311-x86_64-linux-gnu.so")):
                z.writestr(n, src.read(n))
        z.writestr("catsearch/games/the_cat.c", "")
        z.writestr("tests/test_x.py", "")
    problems = w.check_wheel(bad, ROOT)
    assert "missing catsearch/play/static/app.css" in problems
    assert "missing the compiled module catsearch/search/ismcts.*.so" in problems
    assert "should not be in the wheel: catsearch/games/the_cat.c" in problems
    assert "outside the package: tests/test_x.py" in problems
