"""Build: cythonize every ``.pyx`` under ``catsearch/`` and compile the extensions in parallel.

The C compiler runs with ``-O2 -g0``: measured on 2 cores (see ``benchmarks/README.md``,
"Build flags"), ``-O3`` and the interpreter's default ``-g`` cost more than half the build
time (cat_cards.c: 38.5 s with ``-g -O3``, 15.1 s with ``-g0 -O2``) and buy no speed in the
benchmarks. Extensions compile on every core (``build_ext`` below sets ``parallel``, also
under ``pip install``), and each one prints a progress line (``[3/14] catsearch.games.the_cat
compiled in 9.1 s``: shown by ``python setup.py build_ext`` and ``pip install -v``, and by a
plain ``pip install`` too, which hides the build's output: there the lines go straight to the
terminal, ``/dev/tty``, when there is one; ``CATSEARCH_BUILD_TTY=0`` turns that off).

Set ``CATSEARCH_DEBUG=1`` in the environment to build with bounds and wraparound checks, no
C optimisation and debug symbols (for chasing a crash); ``CATSEARCH_ANNOTATE=1`` writes
Cython's HTML annotation next to each module; ``CATSEARCH_JOBS=N`` compiles on N cores.

Compile once: every compiled extension is kept in ``build/ext-cache/`` at the root of the
checkout, under a key made of the bytes of its C source (Cython's output, which holds every
``.pxd`` it cimports), its name, the compile flags and the interpreter's version and ABI. A
later build of an unchanged module (``pip wheel .`` after ``pip install -e .``, an extra
installed, the editable install again) copies it from there instead of compiling it again.
Cython's translation is kept there too (``build/ext-cache/c/``), under a key made of the bytes
of every file Cython reads for the module (its ``.pyx``, the ``.pxd`` files it cimports,
Cython's own) with Cython's version and the directives: pip builds in a fresh environment
each time, whose Cython is newer than any C file, so Cython's own check of the files' dates
would translate every module again. ``CATSEARCH_BUILD_CACHE=0`` turns the cache off;
``CATSEARCH_BUILD_CACHE=DIR`` puts it in DIR.
"""
import hashlib
import os
import re
import shutil
import sys
import sysconfig
import threading
import time
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.bdist_wheel import bdist_wheel as _bdist_wheel
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


def _terminal():
    """The controlling terminal, opened for writing, when the build's own output goes
    elsewhere: ``pip install`` keeps the backend's output to itself unless ``-v``, so the
    progress lines also go straight to the terminal the command was typed in (``None``: no
    terminal, as in CI, or stderr is the terminal already, or ``CATSEARCH_BUILD_TTY=0``)."""
    if os.environ.get("CATSEARCH_BUILD_TTY", "") == "0":
        return None
    try:
        if sys.stderr.isatty():
            return None
        return open("/dev/tty", "w", encoding="utf-8")
    except OSError:
        return None


TERMINAL = _terminal()


def say(text):
    print(f"catsearch build: {text}", file=sys.stderr, flush=True)
    if TERMINAL is not None:
        try:          # "\r" and erase: the line pip's spinner was drawing starts afresh
            TERMINAL.write(f"\r\033[Kcatsearch build: {text}\n")
            TERMINAL.flush()
        except OSError:
            pass


def cache_dir():
    """Where compiled extensions are kept between builds (``None``: no cache)."""
    env = os.environ.get("CATSEARCH_BUILD_CACHE", "")
    if env == "0":
        return None
    return Path(env) if env else Path(__file__).resolve().parent / "build" / "ext-cache"


def cache_key(ext):
    """What the compiled module depends on: its sources' bytes, name, flags, interpreter."""
    h = hashlib.sha256()
    for part in (ext.name, sysconfig.get_config_var("EXT_SUFFIX") or "", sys.version,
                 sysconfig.get_config_var("CC") or "", sysconfig.get_config_var("CFLAGS") or "",
                 repr(ext.extra_compile_args), repr(ext.extra_link_args),
                 repr(ext.define_macros), repr(ext.include_dirs),
                 *(os.environ.get(v, "") for v in ("CC", "CFLAGS", "CPPFLAGS", "LDFLAGS"))):
        h.update(part.encode() + b"\0")
    for src in list(ext.sources) + list(ext.depends):
        h.update(Path(src).read_bytes() + b"\0")
    return h.hexdigest()[:20]


def keep(path, cached, name):
    """Put the file ``path`` in the build cache as ``cached`` (atomically: no build reads
    half a file), the one build of module ``name`` kept in that folder (older ones go)."""
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        old = re.compile(re.escape(name) + r"\.[0-9a-f]{20}\.")
        for other in cached.parent.iterdir():
            if other != cached and old.match(other.name) and other.suffix != ".tmp":
                other.unlink(missing_ok=True)
        tmp = cached.with_name(cached.name + f".{os.getpid()}.tmp")
        shutil.copy2(path, tmp)
        os.replace(tmp, cached)
    except OSError as e:
        say(f"could not keep {path.name} of {name} in the build cache ({e})")


class build_ext(_build_ext):
    """``build_ext`` compiling on every core, with a progress line per extension, and the
    compiled modules kept in a cache (``cache_dir``) that later builds copy from."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = jobs()

    def build_extensions(self):
        self._done = 0
        self._lock = threading.Lock()
        self._t0 = time.perf_counter()
        n = len(self.extensions)
        say(f"building {n} extensions on {self.parallel} core(s)")
        super().build_extensions()
        say(f"built {n} extensions in {time.perf_counter() - self._t0:.1f} s")

    def build_extension(self, ext):
        t = time.perf_counter()
        how = self._from_cache(ext) or self._compile(ext)
        with self._lock:
            self._done += 1
            say(f"[{self._done}/{len(self.extensions)}] {ext.name} "
                f"({how}{time.perf_counter() - t:.1f} s)")

    def _cached(self, ext):
        root = cache_dir()
        if root is None or self.force:
            return None
        try:
            key = cache_key(ext)
        except OSError:
            return None
        return root / f"{ext.name}.{key}{sysconfig.get_config_var('EXT_SUFFIX') or '.so'}"

    def _from_cache(self, ext):
        """Copy the module from the cache if it holds this build of it: ``''`` if not."""
        cached = self._cached(ext)
        if cached is None or not cached.is_file():
            return ""
        dest = Path(self.get_ext_fullpath(ext.name))
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(cached, dest)
        os.utime(dest)                  # newer than its sources, as if just compiled
        return "from the build cache, "

    def _compile(self, ext):
        cached = self._cached(ext)      # the key of the sources compiled, before compiling
        built = Path(self.get_ext_fullpath(ext.name))
        if cached is not None:
            # compiled here and now: not a module left in build/ by another build's flags
            built.unlink(missing_ok=True)
        super().build_extension(ext)
        if cached is not None and built.is_file():
            keep(built, cached, ext.name)
        return ""


class bdist_wheel(_bdist_wheel):
    """A wheel made from an empty ``build/lib...`` folder: pip builds in the checkout, and a
    file left there by an earlier build (a module since deleted, Cython's ``.c``) would go
    into the wheel. The compiled modules come back from the cache (``cache_dir``)."""

    def run(self):
        build_lib = Path(self.get_finalized_command("build").build_lib)
        if build_lib.is_dir():
            shutil.rmtree(build_lib)
        super().run()


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


def cython_key(ext, tree):
    """What Cython's C for ``ext`` depends on: the bytes of every file it reads (its
    ``.pyx``, each ``.pxd`` it cimports, Cython's own), Cython's version and the directives."""
    import Cython

    h = hashlib.sha256()
    for part in (ext.name, Cython.__version__, repr(sorted(directives.items()))):
        h.update(part.encode() + b"\0")
    for dep in sorted(tree.all_dependencies(ext.sources[0])):
        h.update(Path(dep).read_bytes() + b"\0")
    return h.hexdigest()[:20]


def cython_output(path):
    """Whether ``path`` is a C file Cython wrote (its first line says so): what the cache
    keeps and gives back, never another file under its name."""
    try:
        with open(path, "rb") as f:
            return f.read(64).startswith(b"/* Generated by Cython ")
    except OSError:
        return False


def translate(exts):
    """Cython's translation of every extension, each module's C from the cache when this
    Cython already translated these very sources (pip builds in a fresh environment each
    time, whose Cython files are newer than any C, so Cython's own timestamp check would
    translate everything again), the others by ``cythonize`` (and kept in the cache)."""
    annotate = os.environ.get("CATSEARCH_ANNOTATE", "") not in ("", "0")
    root = cache_dir()
    if root is None or annotate:
        return cythonize(exts, compiler_directives=directives, annotate=annotate,
                         nthreads=jobs())
    from Cython.Build.Dependencies import create_dependency_tree

    tree = create_dependency_tree()
    todo, keys = [], {}
    for ext in exts:
        c_file = Path(ext.sources[0]).with_suffix(".c")
        try:
            key = cython_key(ext, tree)
        except OSError:
            todo.append(ext)
            continue
        keys[ext.name] = cached = root / "c" / f"{ext.name}.{key}.c"
        if cython_output(cached):
            shutil.copyfile(cached, c_file)
            ext.sources = [str(c_file)] + ext.sources[1:]
        else:
            todo.append(ext)
    if len(todo) < len(exts):
        say(f"the C of {len(exts) - len(todo)} of {len(exts)} modules from the build cache")
    if todo:
        # force: what is not in the cache is translated now, whatever the C files' dates
        todo = cythonize(todo, compiler_directives=directives, nthreads=jobs(), force=True)
        for ext in todo:
            cached = keys.get(ext.name)
            if cached is not None and cython_output(ext.sources[0]):
                keep(Path(ext.sources[0]), cached, ext.name)
    done = {ext.name: ext for ext in todo}
    return [done.get(ext.name, ext) for ext in exts]


setup(
    ext_modules=translate(extensions()),
    cmdclass={"build_ext": build_ext, "bdist_wheel": bdist_wheel},
)
