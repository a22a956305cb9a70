"""Compile once (issue 39, item 3): the second editable install of an unchanged checkout
compiles nothing, it copies every module (and Cython's C for it) from the build cache, and
takes at most a quarter of the first's time, both timed in this one test run.

A copy of the checkout's sources (``catsearch/`` without compiled modules or generated C, no
build folder) is installed twice with ``pip install -v -e . --no-deps`` into a fresh virtual
environment (pip's own build isolation, as the README's commands: the build's Cython and
setuptools come from the package index, or pip's cache). Slow: the first install compiles
every extension (a few minutes on 2 cores).
"""
import os
import re
import shutil
import subprocess
import time
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.environ.get("CATSEARCH_TEST_INSTALLED", "") not in ("", "0"),
                       reason="a test of the checkout's build; the suite runs against the "
                              "installed wheel (CATSEARCH_TEST_INSTALLED)"),
]

#: the most a single install may take here (a bound on the test, not a measurement)
INSTALL_TIMEOUT = 1200
PROGRESS = re.compile(r"catsearch build: \[(\d+)/(\d+)\] (\S+) \((.*?)\)")
C_FROM_CACHE = re.compile(r"catsearch build: the C of (\d+) of (\d+) modules from the build cache")


def _copy_checkout(dest: Path) -> None:
    """The checkout's sources: what a build reads, without what a build writes."""
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dest / name)
    shutil.copytree(ROOT / "catsearch", dest / "catsearch",
                    ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__"))


def _install(python: Path, where: Path) -> tuple[float, list[tuple[str, str]], list[str]]:
    """Seconds of one ``pip install -v -e . --no-deps``, its progress lines (module, how)
    and its lines about Cython's translations taken from the cache."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CATSEARCH_JOBS")}
    env["CATSEARCH_BUILD_TTY"] = "0"
    t0 = time.perf_counter()
    r = subprocess.run([str(python), "-m", "pip", "install", "-v", "-e", ".", "--no-deps"],
                       cwd=where, capture_output=True, text=True, env=env,
                       timeout=INSTALL_TIMEOUT)
    seconds = time.perf_counter() - t0
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    out = r.stdout + r.stderr
    lines = [(m.group(3), m.group(4)) for m in PROGRESS.finditer(out)]
    return seconds, lines, [m.group(0) for m in C_FROM_CACHE.finditer(out)]


def test_the_second_install_compiles_nothing(tmp_path):
    src = tmp_path / "checkout"
    src.mkdir()
    _copy_checkout(src)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    first, built, _ = _install(python, src)
    second, again, c_second = _install(python, src)
    print(f"\ncompile once: first install {first:.1f} s, second {second:.1f} s")
    names = sorted(str(p.relative_to(src).with_suffix("")).replace("/", ".")
                   for p in src.glob("catsearch/**/*.pyx"))
    assert sorted(n for n, _ in built) == names
    assert all("from the build cache" not in how for _, how in built), built
    # Cython translates nothing again either (its C comes from the cache: every module)
    n = len(names)
    assert c_second and all(line.endswith(f"the C of {n} of {n} modules from the build cache")
                            for line in c_second), c_second
    assert sorted(n for n, _ in again) == names
    compiled = [n for n, how in again if "from the build cache" not in how]
    assert not compiled, f"the second install compiled {compiled}"
    assert second <= first / 4, f"first install {first:.1f} s, second {second:.1f} s"
