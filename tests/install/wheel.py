"""The wheel, as a user installs it (issue 33, "Also packaging"): build it, check what it
holds, install it in a fresh virtual environment and run the test suite against the
installed package, from a folder where the checkout's ``catsearch/`` cannot be imported.

    python tests/install/wheel.py                      # build, check, install, fast tier
    python tests/install/wheel.py --wheel dist/catsearch-0.1.0-cp311-cp311-linux_x86_64.whl
    python tests/install/wheel.py --check-only         # build (or --wheel) and check only
    python tests/install/wheel.py -- -m slow tests/search   # pytest's arguments after --

The test run is a copy of the checkout without the package (``catsearch/``, ``setup.py``,
``build/``): tests/, docs/, README.md, pyproject.toml (pytest's settings) and the rest, the
files the tests read. ``CATSEARCH_TEST_INSTALLED=1`` tells ``tests/conftest.py`` to stop the
run unless ``import catsearch`` finds the installed package, and the tests of the checkout
itself (tests/install: the build's settings, the README's editable install) to skip.
``.ci/run`` runs this after the editable install: the compiled modules come from its build
cache (``setup.py``), so nothing is compiled again.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The package's files that are not modules and that the code reads at run time or that a
#: user's build needs: the browser mode's pages, the type marker, Cython's declarations.
DATA_SUFFIXES = (".pxd", ".pyx", ".html", ".css", ".js", ".svg", ".typed")
#: What the wheel must not hold: Cython's output, objects, tests, build leftovers.
FORBIDDEN_SUFFIXES = (".c", ".cpp", ".o", ".pyc")
SCRIPTS = ("catsearch-play", "catsearch-engine", "catsearch-arena")


def say(text: str) -> None:
    print(f"wheel: {text}", flush=True)


def source_files(root: Path = ROOT) -> list[str]:
    """The checkout's files under ``catsearch/`` (git's list when there is one, else the
    folder less what a build writes), as paths relative to ``root``."""
    try:
        out = subprocess.run(["git", "ls-files", "catsearch"], cwd=root, capture_output=True,
                             text=True, check=True).stdout.split()
        if out:
            return sorted(out)
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for p in (root / "catsearch").rglob("*"):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and "__pycache__" not in p.parts and not p.name.endswith(
                FORBIDDEN_SUFFIXES + (".so", ".pyd")) and (
                p.suffix != ".html" or "/static/" in rel):
            files.append(rel)
    return sorted(files)


def expected_contents(root: Path = ROOT) -> tuple[list[str], list[str]]:
    """(files the wheel must hold as they are, modules it must hold compiled)."""
    files, modules = [], []
    for rel in source_files(root):
        if rel.endswith(".py") or rel.endswith(DATA_SUFFIXES):
            files.append(rel)
        if rel.endswith(".pyx"):
            modules.append(rel[:-len(".pyx")])
    return files, modules


def check_wheel(wheel: Path, root: Path = ROOT) -> list[str]:
    """What is wrong with the wheel's contents (nothing: ``[]``)."""
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        dist_info = [n for n in names if ".dist-info/" in n]
        entry_points = next((z.read(n).decode() for n in dist_info
                             if n.endswith("/entry_points.txt")), "")
    present = set(names)
    files, modules = expected_contents(root)
    problems = [f"missing {f}" for f in files if f not in present]
    compiled = {n.split(".", 1)[0] for n in names if n.endswith((".so", ".pyd"))}
    problems += [f"missing the compiled module {m}.*.so" for m in modules if m not in compiled]
    problems += [f"compiled module {m} has no .pyx in the checkout"
                 for m in sorted(compiled - set(modules))]
    for n in names:
        top = n.split("/", 1)[0]
        if top != "catsearch" and not top.endswith((".dist-info", ".data")):
            problems.append(f"outside the package: {n}")
        elif n.endswith(FORBIDDEN_SUFFIXES) or "__pycache__" in n or "/tests/" in n:
            problems.append(f"should not be in the wheel: {n}")
    problems += [f"no console script {s} in entry_points.txt" for s in SCRIPTS
                 if f"{s} =" not in entry_points]
    return problems


def build_wheel(out: Path, root: Path = ROOT) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("catsearch-*.whl"):
        old.unlink()
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w",
                    str(out), str(root)], check=True)
    wheel, = out.glob("catsearch-*.whl")
    say(f"built {wheel.name} in {time.perf_counter() - t:.1f} s")
    return wheel


def copy_tree_without_package(dest: Path, root: Path = ROOT) -> None:
    """The checkout's files, less the package and its build: what the tests read."""
    skip_top = {"catsearch", "setup.py", "build", "dist", ".git", ".venv"}
    try:
        rels = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        rels = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()]
    for rel in rels:
        parts = rel.split("/")
        if (parts[0] in skip_top or parts[0].endswith(".egg-info") or "__pycache__" in parts
                or not (root / rel).is_file()):
            continue
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(root / rel, dest / rel)


def installed_env() -> dict[str, str]:
    env = dict(os.environ, CATSEARCH_TEST_INSTALLED="1")
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    return env


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--wheel", type=Path, help="a wheel built already (else: pip wheel .)")
    ap.add_argument("--out", type=Path, default=ROOT / "dist", help="where to build it")
    ap.add_argument("--venv", type=Path, help="the virtual environment to make (a new "
                    "temporary one by default)")
    ap.add_argument("--check-only", action="store_true", help="check the wheel's contents")
    ap.add_argument("pytest_args", nargs="*", help="pytest's arguments (after --)")
    args = ap.parse_args(argv)

    wheel = args.wheel.resolve() if args.wheel else build_wheel(args.out)
    problems = check_wheel(wheel)
    for p in problems:
        say(p)
    if problems:
        return 1
    say(f"{wheel.name}: contents checked")
    if args.check_only:
        return 0

    work = Path(tempfile.mkdtemp(prefix="catsearch-wheel-"))
    venv = args.venv or work / "venv"
    py = venv / "bin" / "python"
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", "--upgrade", "pip"], check=True)
    # the wheel and its test extra (its metadata's, i.e. pyproject.toml's [test])
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", f"{wheel}[test]"], check=True)
    say(f"installed in a fresh venv ({venv}) in {time.perf_counter() - t:.1f} s")

    tree = work / "tree"
    copy_tree_without_package(tree)
    env = dict(installed_env(), CATSEARCH_WHEEL=str(wheel), VIRTUAL_ENV=str(venv),
               PATH=f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    t = time.perf_counter()
    r = subprocess.run([str(py), "-m", "pytest", "-p", "no:cacheprovider", *args.pytest_args],
                       cwd=tree, env=env)
    say(f"pytest against the installed wheel: exit {r.returncode} "
        f"in {time.perf_counter() - t:.1f} s")
    if r.returncode == 0 and not args.venv:
        shutil.rmtree(work, ignore_errors=True)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
