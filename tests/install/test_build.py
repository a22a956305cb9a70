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
    import tempfile
    # an empty build cache: every module goes to (the stubbed) cythonize
    with tempfile.TemporaryDirectory() as cache:
        r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True,
                           text=True, timeout=120,
                           env={**os.environ, "CATSEARCH_BUILD_CACHE": cache, **env})
        # the stub's "C" (the .pyx itself) is not Cython's output: the cache keeps none of it
        kept = list(Path(cache).rglob("*.c"))
    assert not kept, kept
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


CACHE_SCRIPT = textwrap.dedent("""
    import json, os, sys
    import Cython.Build, setuptools
    captured = {}
    Cython.Build.cythonize = lambda exts, **kw: exts
    setuptools.setup = lambda **kw: captured.update(kw)
    sys.argv = ["setup.py"]
    exec(compile(open("setup.py").read(), "setup.py", "exec"),
         {"__name__": "__main__", "__file__": os.path.abspath("setup.py")})
    import setuptools.command.build_ext as b
    from setuptools import Extension
    from setuptools.dist import Distribution
    work = os.environ["WORK"]
    compiled = []

    def compile_stub(self, ext):      # "compiles" by copying the source to the module's place
        compiled.append(ext.name)
        path = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(open(ext.sources[0]).read())
    b.build_ext.build_extension = compile_stub

    def build(lib, args=()):
        exts = [Extension(f"pkg.m{i}", [os.path.join(work, f"m{i}.c")],
                          extra_compile_args=list(args)) for i in range(2)]
        cmd = captured["cmdclass"]["build_ext"](Distribution({"ext_modules": exts}))
        cmd.build_lib = os.path.join(work, lib)
        cmd.build_temp = os.path.join(work, "temp")
        cmd.ensure_finalized()
        compiled.clear()
        cmd.build_extensions()
        out = {e.name: open(cmd.get_ext_fullpath(e.name)).read() for e in exts}
        return {"compiled": sorted(compiled), "modules": out}

    def write(name, text):
        with open(os.path.join(work, name), "w") as f:
            f.write(text)
    write("m0.c", "zero"); write("m1.c", "one")
    steps = [build("lib1"), build("lib2")]
    write("m1.c", "one, edited")
    steps += [build("lib3"), build("lib4", ["-O0"])]
    root = os.environ["CATSEARCH_BUILD_CACHE"]
    cached = sorted(n for n in os.listdir(root) if os.path.isfile(os.path.join(root, n)))
    print(json.dumps({"steps": steps, "cached": cached}))
""")


def test_a_module_compiles_once(tmp_path):
    """The build cache (setup.py): a module whose C source, flags and interpreter did not
    change is copied from ``build/ext-cache``, not compiled again (the compiler is stubbed);
    an edited source or other flags compile again, and one build a module is kept."""
    import os
    cache = tmp_path / "cache"
    r = subprocess.run([sys.executable, "-c", CACHE_SCRIPT], cwd=ROOT, capture_output=True,
                       text=True, timeout=120,
                       env={**os.environ, "WORK": str(tmp_path),
                            "CATSEARCH_BUILD_CACHE": str(cache)})
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    first, again, edited, flags = out["steps"]
    assert first["compiled"] == ["pkg.m0", "pkg.m1"]
    assert again == {"compiled": [], "modules": {"pkg.m0": "zero", "pkg.m1": "one"}}
    assert edited == {"compiled": ["pkg.m1"],
                      "modules": {"pkg.m0": "zero", "pkg.m1": "one, edited"}}
    assert flags["compiled"] == ["pkg.m0", "pkg.m1"]
    assert len(out["cached"]) == 2 and all(n.startswith(("pkg.m0.", "pkg.m1."))
                                           for n in out["cached"])
    assert "from the build cache" in r.stderr


TRANSLATE_SCRIPT = textwrap.dedent("""
    import json, os, sys
    import Cython.Build, setuptools
    real = Cython.Build.cythonize
    Cython.Build.cythonize = lambda exts, **kw: exts
    setuptools.setup = lambda **kw: None
    sys.argv = ["setup.py"]
    g = {"__name__": "__main__", "__file__": os.path.abspath("setup.py")}
    exec(compile(open("setup.py").read(), "setup.py", "exec"), g)
    translated = []

    def counting(exts, **kw):
        translated.extend(e.name for e in exts)
        return real(exts, **kw)
    g["cythonize"] = counting
    from setuptools import Extension
    os.chdir(os.environ["WORK"])

    def run():
        translated.clear()
        exts = g["translate"]([Extension(f"pkg.{m}", [f"pkg/{m}.pyx"]) for m in ("a", "b")])
        c = {e.name: open(e.sources[0]).read() for e in exts}
        return {"translated": sorted(translated), "sources": [e.sources[0] for e in exts],
                "c_holds_7": "= 7" in c["pkg.a"]}
    steps = [run(), run()]
    os.utime("pkg/a.pyx")          # newer than its C, the same bytes: nothing to translate
    steps.append(run())
    with open("pkg/common.pxd", "w") as f:
        f.write("cdef enum:\\n    SEVEN = 7\\n")
    steps.append(run())
    for name in os.listdir(os.environ["CATSEARCH_BUILD_CACHE"] + "/c"):
        if name.startswith("pkg.b."):    # a file in the cache that Cython did not write
            with open(os.environ["CATSEARCH_BUILD_CACHE"] + "/c/" + name, "w") as f:
                f.write("not C")
    steps.append(run())
    print(json.dumps(steps))
""")


def test_cython_translates_once(tmp_path):
    """Cython's C comes from the build cache when Cython read the same bytes before (pip's
    fresh build environment makes Cython's own files newer than any C: its check of dates
    would translate everything again); an edited ``.pxd`` translates again only the modules
    that cimport it, and a cached file Cython did not write is not used (Cython runs for
    real, on a two-module package)."""
    import os
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "common.pxd").write_text("cdef enum:\n    SEVEN = 6\n")
    (pkg / "a.pyx").write_text("from pkg.common cimport SEVEN\n\ndef seven():\n"
                               "    return SEVEN\n")
    (pkg / "b.pyx").write_text("def one():\n    return 1\n")
    r = subprocess.run([sys.executable, "-c", TRANSLATE_SCRIPT], cwd=ROOT,
                       capture_output=True, text=True, timeout=120,
                       env={**os.environ, "WORK": str(tmp_path),
                            "CATSEARCH_BUILD_CACHE": str(tmp_path / "cache")})
    assert r.returncode == 0, r.stderr
    # the last line: Cython prints what it translates before
    first, again, touched, edited, spoiled = json.loads(r.stdout.splitlines()[-1])
    assert first["translated"] == ["pkg.a", "pkg.b"]
    assert first["sources"] == ["pkg/a.c", "pkg/b.c"]
    assert again["translated"] == [] and again["sources"] == first["sources"]
    assert touched["translated"] == []
    assert edited["translated"] == ["pkg.a"] and edited["c_holds_7"]
    assert not first["c_holds_7"]
    assert spoiled["translated"] == ["pkg.b"]     # what Cython did not write is not used
    assert "the C of 2 of 2 modules from the build cache" in r.stderr


SAY = textwrap.dedent("""
    import os, sys
    import Cython.Build, setuptools
    Cython.Build.cythonize = lambda exts, **kw: exts
    setuptools.setup = lambda **kw: None
    sys.argv = ["setup.py"]
    g = {"__name__": "__main__", "__file__": os.path.abspath("setup.py")}
    exec(compile(open("setup.py").read(), "setup.py", "exec"), g)
    g["say"]("[1/2] catsearch.games.example compiled in 1.0 s")
""")


def _say_on_a_terminal(**env) -> tuple[str, str]:
    """(what reached the terminal, stderr) of ``setup.py``'s progress line in a build whose
    stderr is a pipe, as under ``pip install``, with a pseudo-terminal as its terminal."""
    import fcntl
    import pty
    import select
    import termios
    master, slave = pty.openpty()

    def controlling_terminal():
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
    try:
        # no build cache: the stubbed cythonize translates nothing that could be kept
        r = subprocess.run([sys.executable, "-c", SAY], cwd=ROOT, stdin=slave,
                           capture_output=True, text=True, timeout=120,
                           env={**os.environ, "CATSEARCH_BUILD_CACHE": "0", **env},
                           preexec_fn=controlling_terminal)
        assert r.returncode == 0, r.stderr
        seen = b""
        while select.select([master], [], [], 0.5)[0]:
            chunk = os.read(master, 4096)
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
        os.close(slave)
    return seen.decode(errors="replace"), r.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a Linux pseudo-terminal")
def test_progress_reaches_the_terminal_when_pip_hides_the_output():
    line = "catsearch build: [1/2] catsearch.games.example compiled in 1.0 s"
    seen, err = _say_on_a_terminal()
    assert line in seen and line in err         # the terminal, and the log pip -v shows
    seen, err = _say_on_a_terminal(CATSEARCH_BUILD_TTY="0")
    assert line not in seen and line in err
