"""Build: cythonize every ``.pyx`` under ``catsearch/`` with optimisation on.

Set ``CATSEARCH_DEBUG=1`` in the environment to build with bounds and wraparound checks, no
C optimisation and debug symbols (for chasing a crash); ``CATSEARCH_ANNOTATE=1`` writes
Cython's HTML annotation next to each module.
"""
import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("CATSEARCH_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": not DEBUG,
    "embedsignature": True,
}
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]


def extensions():
    root = Path(__file__).parent
    exts = []
    for pyx in sorted(root.glob("catsearch/**/*.pyx")):
        rel = pyx.relative_to(root)
        name = ".".join(rel.with_suffix("").parts)
        exts.append(Extension(name, [str(rel)], extra_compile_args=compile_args))
    return exts


setup(
    ext_modules=cythonize(
        extensions(),
        compiler_directives=directives,
        annotate=os.environ.get("CATSEARCH_ANNOTATE", "") not in ("", "0"),
        nthreads=os.cpu_count() or 1,
    ),
)
