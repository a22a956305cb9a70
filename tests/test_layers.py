"""Imports go one way: arena -> engine -> search -> games -> _core (docs/contract.rst, "Layers").

Every module of ``catsearch/`` is read as text, never imported: ``.py`` files through
:mod:`ast`, Cython ``.pyx``/``.pxd`` files line by line (``import``, ``from ... import``,
``cimport``, ``from ... cimport``). Imports at module level and inside functions both count,
and so do ``importlib.import_module("catsearch....")`` calls with a constant name and the
names reached through the package root (``import catsearch`` then ``catsearch.new_game``, or
``from catsearch import new_game``: the layer of the module that defines the name).

A module may import its own layer and the layers below it. On top sit the programs and
helpers that use everything (``cli``, ``play``, ``interop``, ``testing``); the package root
``catsearch/__init__.py`` re-exports the public surface and is not checked. Across packages
nobody imports a private name (``_seat_view``) or a private module (``search._toy``); the
``_core`` package is the shared base and is not private in that sense.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1] / "catsearch"
if not ROOT.is_dir():
    # against the installed wheel (tests/install/wheel.py: no catsearch/ beside tests/), the
    # installed package's sources, the same .py, .pyx and .pxd files
    import catsearch
    ROOT = Path(catsearch.__file__).resolve().parent

#: lowest first; a module may import only its own layer and the ones below
LAYERS: dict[str, int] = {
    "catsearch._core": 0,
    "catsearch.errors": 0,     # the exceptions every layer raises: imported by _core itself
    "catsearch.games": 1,
    "catsearch.search": 2,
    "catsearch.engine": 3,
    "catsearch.arena": 4,
    "catsearch.cli": 5,
    "catsearch.play": 5,
    "catsearch.interop": 5,
    "catsearch.testing": 5,
}
NAMES = {v: k.rsplit(".", 1)[1] for k, v in sorted(LAYERS.items(), key=lambda kv: -kv[1])}

#: (importing file, imported module prefix) -> why it is tolerated for now.
#: Each entry must still occur (``test_known_exceptions_still_occur``): delete it when fixed.
KNOWN: dict[tuple[str, str], str] = {}


def layer_of(module: str) -> int | None:
    """The layer of a dotted module name (``None``: the package root, or not catsearch)."""
    best = None
    for prefix, level in LAYERS.items():
        if module == prefix or module.startswith(prefix + "."):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, level)
    return None if best is None else best[1]


def package_of(module: str) -> str:
    """``catsearch.search.mcts`` -> ``catsearch.search``; ``catsearch.cli`` -> itself."""
    parts = module.split(".")
    return ".".join(parts[:2])


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@dataclass(frozen=True)
class Import:
    """One import found in a file: the module, the names taken from it, the line."""

    module: str
    names: tuple[str, ...]
    line: int


# -- reading imports ------------------------------------------------------------------------

def _resolve_relative(module: str | None, level: int, importer: str, is_package: bool) -> str:
    if not level:
        return module or ""
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    base = base[:len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def python_imports(source: str, importer: str, is_package: bool = False) -> list[Import]:
    """Every import in a Python source, wherever it stands (module level, functions,
    ``if TYPE_CHECKING``), with ``importlib.import_module("...")`` of a constant name and
    ``catsearch.<name>`` attribute uses after ``import catsearch``."""
    tree = ast.parse(source)
    out: list[Import] = []
    root_aliases: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                out.append(Import(a.name, (), node.lineno))
                if a.name == "catsearch":
                    root_aliases.add(a.asname or "catsearch")
        elif isinstance(node, ast.ImportFrom):
            mod = _resolve_relative(node.module, node.level, importer, is_package)
            out.append(Import(mod, tuple(a.name for a in node.names), node.lineno))
        elif isinstance(node, ast.Call):
            f = node.func
            called = (f.attr if isinstance(f, ast.Attribute) else
                      f.id if isinstance(f, ast.Name) else "")
            if (called in ("import_module", "__import__") and node.args
                    and isinstance(node.args[0], ast.Constant)
                    and isinstance(node.args[0].value, str)):
                out.append(Import(node.args[0].value, (), node.lineno))
    if root_aliases:
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in root_aliases):
                out.append(Import("catsearch", (node.attr,), node.lineno))
    return sorted(out, key=lambda i: i.line)


_CY_FROM = re.compile(r"^\s*from\s+([\w.]+)\s+c?import\b\s*(\(?)\s*(.*)")
_CY_IMPORT = re.compile(r"^\s*c?import\s+(.+)")
_TRIPLE = re.compile(r'"""|\'\'\'')


def _code_of(line: str, in_string: str | None) -> tuple[str, str | None]:
    """The code of one line, without comments and what lies inside triple-quoted strings
    (docstrings hold example code); and the string still open at its end."""
    code = ""
    rest = line
    while rest:
        if in_string:
            end = rest.find(in_string)
            if end < 0:
                break
            rest = rest[end + 3:]
            in_string = None
        else:
            m = _TRIPLE.search(rest)
            hash_at = rest.find("#")
            if m and (hash_at < 0 or m.start() < hash_at):
                code += rest[:m.start()]
                in_string = m.group()
                rest = rest[m.end():]
            else:
                code += rest
                break
    return code.split("#", 1)[0], in_string


def _names(parts: list[str]) -> tuple[str, ...]:
    return tuple(p.strip().split(" as ")[0].strip() for p in parts if p.strip())


def cython_imports(source: str, importer: str, is_package: bool = False) -> list[Import]:
    """Every ``import``/``cimport`` line of a Cython source, outside strings and comments
    (module level or indented in a function)."""
    out: list[Import] = []
    in_string: str | None = None
    pending: tuple[str, list[str], int] | None = None     # a "from x import (" left open
    for number, raw in enumerate(source.splitlines(), 1):
        code, in_string = _code_of(raw, in_string)
        if pending is not None:
            mod, names, first = pending
            head, close, _ = code.partition(")")
            names += [n for n in head.split(",")]
            if close:
                out.append(Import(mod, _names(names), first))
                pending = None
            continue
        m = _CY_FROM.match(code)
        if m:
            dots = len(m.group(1)) - len(m.group(1).lstrip("."))
            mod = _resolve_relative(m.group(1).lstrip(".") or None, dots, importer, is_package)
            names = m.group(3).partition(")")[0].split(",")
            if m.group(2) and ")" not in m.group(3):
                pending = (mod, names, number)
            else:
                out.append(Import(mod, _names(names), number))
            continue
        m = _CY_IMPORT.match(code)
        if m:
            for part in m.group(1).split(","):
                name = part.strip().split(" as ")[0].strip()
                if name:
                    out.append(Import(name, (), number))
    return out


def root_exports() -> dict[str, str]:
    """Names the package root re-exports -> the module they come from."""
    init = ROOT / "__init__.py"
    out = {}
    for imp in python_imports(init.read_text(encoding="utf-8"), "catsearch", True):
        for name in imp.names:
            out[name] = imp.module
    return out


def sources() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*")
                  if p.suffix in (".py", ".pyx", ".pxd") and p.is_file()
                  and "build" not in p.relative_to(ROOT).parts)


def imports_of(path: Path) -> list[Import]:
    text = path.read_text(encoding="utf-8")
    importer = module_name(path)
    is_package = path.stem == "__init__"
    if path.suffix == ".py":
        return python_imports(text, importer, is_package)
    return cython_imports(text, importer, is_package)


def violations(path: Path, imports: list[Import], exports: dict[str, str]) -> list[str]:
    """What ``path`` imports against the layering, one line each."""
    importer = module_name(path)
    mine = layer_of(importer)
    rel = path.relative_to(ROOT.parent).as_posix()
    if mine is None:            # the package root re-exports everything
        return []
    out = []
    for imp in imports:
        targets = [imp.module]
        if imp.module == "catsearch":
            # the package root: judge by the module each name comes from (or the submodule)
            targets = [exports.get(n, f"catsearch.{n}") for n in imp.names] or []
        elif imp.names and layer_of(imp.module) is None:
            continue
        for target in targets:
            theirs = layer_of(target)
            if theirs is None:
                continue
            if theirs > mine and (rel, package_of(target)) not in KNOWN:
                out.append(f"{rel}:{imp.line}: {NAMES[mine]} imports {target} "
                           f"({NAMES[theirs]}, a layer above)")
        if package_of(imp.module) != package_of(importer) and imp.module.startswith("catsearch."):
            private_mods = [p for p in imp.module.split(".")[1:] if p.startswith("_")
                            and p != "_core"]
            private_names = [n for n in imp.names if n.startswith("_") and n != "*"]
            if private_mods or private_names:
                what = ", ".join(private_names) or imp.module
                out.append(f"{rel}:{imp.line}: imports the private {what} from another "
                           f"package ({imp.module})")
    return out


# -- the tests ------------------------------------------------------------------------------

def test_every_catsearch_module_has_a_layer():
    missing = [module_name(p) for p in sources()
               if module_name(p) != "catsearch" and layer_of(module_name(p)) is None]
    assert not missing, (f"modules outside the layers {sorted(LAYERS)}: {missing}; "
                         f"give them a layer in tests/test_layers.py")


def test_imports_go_one_way():
    exports = root_exports()
    found = []
    for path in sources():
        found += violations(path, imports_of(path), exports)
    assert not found, ("imports against the layers (arena -> engine -> search -> games -> "
                       "_core):\n" + "\n".join(found))


def test_known_exceptions_still_occur():
    """An entry of ``KNOWN`` that no longer occurs is stale: remove it."""
    for (rel, target), why in KNOWN.items():
        path = ROOT.parent / rel
        assert path.exists(), f"KNOWN names {rel}, which is gone: remove the entry"
        hits = [i for i in imports_of(path) if package_of(i.module) == target]
        assert hits, f"{rel} no longer imports {target} ({why}): remove it from KNOWN"


def test_the_checker_sees_what_it_must():
    """The checker itself: upward imports at module level, in functions, through the root,
    via importlib and in Cython, and private names across packages, are all caught."""
    exports = {"new_game": "catsearch.games", "make_player": "catsearch.search"}
    fake = ROOT / "games" / "fake.py"
    py = ("import os\n"
          "from catsearch._core.state import State\n"
          "def f():\n"
          "    from catsearch.search.players import Player\n"
          "    import catsearch.arena\n"
          "import importlib\n"
          "importlib.import_module('catsearch.engine')\n"
          "from catsearch import make_player, new_game\n"
          "from catsearch.search.players import _seat_view\n"
          "from .cat_cards import CatCards\n"
          "from ..search import mcts\n")
    found = violations(fake, python_imports(py, "catsearch.games.fake"), exports)
    assert [f.split(":")[1] for f in found] == ["4", "5", "7", "8", "9", "9", "11"], found
    assert any("private _seat_view" in f for f in found)
    fake_pyx = ROOT / "_core" / "fake.pyx"
    pyx = ('"""An example in a docstring is no import:\n'
           "    from catsearch.arena import run_match\n"
           '"""\n'
           "from catsearch._core.rng cimport Rng, rng_seed\n"
           "# from catsearch.search import make_player\n"
           "from catsearch.games.cat_cards cimport CatCards\n"
           "cdef class X:\n"
           "    def __reduce__(self):\n"
           "        from catsearch.games import from_text\n"
           "        cimport catsearch.search.ismcts as ism\n"
           "from catsearch._core.state import (\n"
           "    State, _private_helper,\n"
           ")\n"
           "from catsearch.search.players import (\n"
           "    Limits, _seat_view)\n")
    found = violations(fake_pyx, cython_imports(pyx, "catsearch._core.fake"), exports)
    assert [f.split(":")[1] for f in found] == ["6", "9", "10", "14", "14"], found
    assert "_seat_view" in found[-1] and "_private_helper" not in " ".join(found)


@pytest.mark.parametrize("module,layer", [("catsearch._core.state", 0), ("catsearch.errors", 0),
                                          ("catsearch.arena.stats", 4), ("catsearch", None),
                                          ("numpy", None), ("catsearch.cli", 5)])
def test_layer_of(module, layer):
    assert layer_of(module) == layer
