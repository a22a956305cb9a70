"""Build: cythonize every ``.pyx`` under ``catsearch/`` and compile the extensions in parallel.

The C compiler runs with ``-O2 -g0``: measured on 2 cores (see ``benchmarks/README.md``,
"Build flags"), ``-O3`` and the interpreter's default ``-g`` cost more than half the build
time (cat_cards.c: 38.5 s with ``-g -O3``, 15.1 s with ``-g0 -O2``) and buy no speed in the
benchmarks. Extensions compile on every core (``build_ext`` below sets ``parallel``, also
under ``pip install``), and each one prints a progress line (``[3/14] catsearch.games.the_cat
compiled in 9.1 s``: shown by ``python setup.py build_ext`` and ``pip install -v``).

Set ``CATSEARCH_DEBUG=1`` in the environment to build with bounds and wraparound checks, no
C optimisation and debug symbols (for chasing a crash); ``CATSEARCH_ANNOTATE=1`` writes
Cython's HTML annotation next to each module; ``CATSEARCH_JOBS=N`` compiles on N cores.
"""
import os
import sys
import threading
import time
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext as _build_ext

DEBUG = os.environ.get("CATSEARCH_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}
compile_args = ["-O0", "-g"] if DEBUG else ["-O2", "-g0"]


def jobs():
    """How many extensions compile at once: every core (``CATSEARCH_JOBS`` overrides)."""
    env = os.environ.get("CATSEARCH_JOBS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def say(text):
    print(f"catsearch build: {text}", file=sys.stderr, flush=True)


class build_ext(_build_ext):
    """``build_ext`` compiling on every core, with a progress line per extension."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = jobs()

    def build_extensions(self):
        self._done = 0
        self._lock = threading.Lock()
        self._t0 = time.perf_counter()
        n = len(self.extensions)
        say(f"compiling {n} extensions on {self.parallel} core(s)")
        super().build_extensions()
        say(f"compiled {n} extensions in {time.perf_counter() - self._t0:.1f} s")

    def build_extension(self, ext):
        t = time.perf_counter()
        super().build_extension(ext)
        with self._lock:
            self._done += 1
            say(f"[{self._done}/{len(self.extensions)}] {ext.name} "
                f"({time.perf_counter() - t:.1f} s)")


def extensions():
    root = Path(__file__).parent
    exts = []
    for pyx in sorted(root.glob("catsearch/**/*.pyx")):
        rel = pyx.relative_to(root)
        name = ".".join(rel.with_suffix("").parts)
        exts.append(Extension(name, [str(rel)], extra_compile_args=compile_args))
    # the biggest modules first, so that no core is left with one big file at the end
    exts.sort(key=lambda e: -(root / e.sources[0]).stat().st_size)
    return exts


setup(
    ext_modules=cythonize(
        extensions(),
        compiler_directives=directives,
        annotate=os.environ.get("CATSEARCH_ANNOTATE", "") not in ("", "0"),
        nthreads=jobs(),
    ),
    cmdclass={"build_ext": build_ext},
)
