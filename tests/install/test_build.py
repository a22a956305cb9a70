"""The build compiles on every core, without the flags that cost time and buy no speed, and
shows its progress (issue 18, item 6). ``setup.py`` is run in a subprocess with ``setup()``
and ``cythonize()`` replaced, so nothing is compiled here."""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# against the installed wheel (tests/install/wheel.py) there is no checkout, and these
# tests run the checkout's setup.py
pytestmark = pytest.mark.skipif(
    os.environ.get("CATSEARCH_TEST_INSTALLED", "") not in ("", "0"),
    reason="tests of the checkout; the suite runs against the installed wheel "
           "(CATSEARCH_TEST_INSTALLED)")

SCRIPT = textwrap.dedent("""
    import json, os, sys
    import Cython.Build, setuptools
    captured = {}
    Cython.Build.cythonize = lambda exts, **kw: (captured.update(cythonize=kw), exts)[1]
    setuptools.setup = lambda **kw: captured.update(setup=kw)
    sys.argv = ["setup.py"]
    exec(compile(open("setup.py").read(), "setup.py", "exec"),
         {"__name__": "__main__", "__file__": os.path.abspath("setup.py")})
    from setuptools.dist import Distribution
    kw = captured["setup"]
    cmd = kw["cmdclass"]["build_ext"](Distribution({"ext_modules": kw["ext_modules"]}))
    cmd.ensure_finalized()
    print(json.dumps({
        "parallel": cmd.parallel,
        "cores": len(os.sched_getaffinity(0)),
        "nthreads": captured["cythonize"].get("nthreads"),
        "args": sorted({a for e in kw["ext_modules"] for a in e.extra_compile_args}),
        "names": [e.name for e in kw["ext_modules"]],
    }))
""")


def _config(**env):
    import os
    r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True,
                       text=True, timeout=120, env={**os.environ, **env})
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_every_core_and_no_costly_flags():
    c = _config()
    assert c["parallel"] == c["cores"] and c["nthreads"] == c["cores"]
    assert c["args"] == ["-O2", "-g0"]
    assert "catsearch._core.state" in c["names"] and len(c["names"]) == len(
        list((ROOT / "catsearch").glob("**/*.pyx")))


def test_jobs_and_debug_from_the_environment():
    c = _config(CATSEARCH_JOBS="3", CATSEARCH_DEBUG="1")
    assert c["parallel"] == 3 and c["args"] == ["-O0", "-g"]


def test_progress_lines():
    """Each extension compiled prints ``[k/n] name (seconds)`` (the compiler is stubbed)."""
    script = SCRIPT.replace(
        "sys.argv = ",
        "import setuptools.command.build_ext as b; b.build_ext.build_extension = "
        "lambda self, ext: None\nsys.argv = ").replace("print(json.dumps(", "cmd.build_extensions()\nprint(json.dumps(")
    # without the build cache: a stubbed compile would otherwise clear build/'s modules
    r = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                       text=True, timeout=120,
                       env={**__import__("os").environ, "CATSEARCH_BUILD_CACHE": "0"})
    assert r.returncode == 0, r.stderr
    n = len(json.loads(r.stdout)["names"])
    lines = [x for x in r.stderr.splitlines() if x.startswith("catsearch build: [")]
    assert len(lines) == n and lines[-1].startswith(f"catsearch build: [{n}/{n}] ")
