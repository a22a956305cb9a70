"""A new game runs the whole generic suite: the example game ``toy-sum``, and a scratch copy
of its module compiled from a temporary folder (slow).

``docs/contract.rst``, "Adding a game", promises that a game is its module (and ``.pxd``),
its rules page, its perft file and one registry line; this checks the promise on the shipped
example (``catsearch/testing/example.pyx``, a test game: not in ``catsearch.GAMES``):

- the conformance suite: ``check_game``, ``check_observations``, ``check_tensors`` and the
  perft file, for every player count;
- every generic test of the suite, as written: each test function parametrized over all the
  games of ``catsearch.GAMES`` (and over nothing else that needs a fixture) is found in its
  module and called with the example game in their place (``GENERIC``), so a generic test that
  assumes more of a game than the contract asks fails here, naming itself;
- the players and the engine on it: every searcher plays a game, the engine's ``position``
  and ``go`` through its Python API (``catsearch.engine.Engine``).
"""

from __future__ import annotations

import importlib.util
import io
import itertools
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import catsearch
from catsearch.engine import Engine
from catsearch.testing import (EXAMPLE_GAME, ToySum, check_game, check_observations,
                               check_perft, check_tensors, read_perft)

TESTS = Path(__file__).parents[1]
ROOT = Path(catsearch.__file__).resolve().parents[1]
G = EXAMPLE_GAME

#: the folders whose generic tests run on the example game (interop needs its extras; the
#: arena, engine-subprocess, browser and terminal tests need fixtures: see the engine test)
GENERIC_DIRS = ("conformance", "core", "games", "search")


def test_the_example_is_a_test_game_with_its_declaration():
    assert G == "toy-sum" and catsearch.game_class(G) is ToySum
    assert G not in catsearch.GAMES
    spec = ToySum.spec
    assert spec.deck and spec.seats == (2, 4) and spec.moves == 15
    assert [o.name for o in spec.heuristic_weights] == ["fit", "bust"]
    # the fast C text path, as the real games (not the toys' _write)
    assert hasattr(ToySum, "_write_text")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_conformance_suite(players):
    check_game(G, players)
    check_observations(G, players, games=12)
    check_tensors(G, players)


@pytest.mark.parametrize("bound", [15, 40, 120])
def test_the_conformance_suite_with_options(bound):
    check_game(G, 3, games=2, options={"bound": bound})


def test_the_perft_file():
    path = TESTS / "data" / f"{G}-perft.txt"
    assert len(read_perft(path)) >= 5
    assert check_perft(G, path) >= 15


# -- the generic tests of the suite, called with the example game ----------------------------

def _load(path: Path):
    """A test module of the suite, loaded anew under a private name (None if it skips)."""
    name = "generic_" + "_".join(path.relative_to(TESTS).with_suffix("").parts)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except pytest.skip.Exception:
        return None
    return module


def _rows(mark, game_key):
    """The rows of one ``parametrize`` mark as dicts, with the example game in place of
    every game; with the row's marks. None if the mark is not over all of GAMES."""
    names = mark.args[0]
    names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
    rows = []
    for value in mark.args[1]:
        marks = ()
        if hasattr(value, "values") and hasattr(value, "marks"):       # pytest.param
            value, marks = value.values, value.marks
            value = value if len(names) > 1 else value[0]
        row = dict(zip(names, value)) if len(names) > 1 else {names[0]: value}
        rows.append((row, marks))
    if game_key not in names:
        return [(row, marks) for row, marks in rows], False
    games = {row[game_key] for row, _ in rows}
    if not set(catsearch.GAMES) <= games:
        return None, True
    # the rest of a row is generic where it comes with every game (a row of one game's
    # options is that game's)
    by_rest: dict[str, set] = {}
    for row, _ in rows:
        by_rest.setdefault(repr(dict(row, **{game_key: None})), set()).add(row[game_key])
    out, seen = [], set()
    for row, marks in rows:
        key = repr(dict(row, **{game_key: None}))
        if key not in seen and set(catsearch.GAMES) <= by_rest[key]:
            seen.add(key)
            out.append((dict(row, **{game_key: G}), marks))
    return out, True


def _generic_cases():
    cases = []
    for folder in GENERIC_DIRS:
        for path in sorted((TESTS / folder).glob("test_*.py")):
            if path.resolve() == Path(__file__).resolve():
                continue
            module = _load(path)
            if module is None:
                continue
            for fname, fn in vars(module).items():
                if not fname.startswith("test_") or not callable(fn):
                    continue
                marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"]
                keys = {k for m in marks for k in
                        ([n.strip() for n in m.args[0].split(",")] if isinstance(m.args[0], str)
                         else m.args[0])}
                game_key = "game_id" if "game_id" in keys else "game" if "game" in keys else None
                if game_key is None:
                    continue
                parts, over_games = [], False
                for m in marks:
                    rows, has_game = _rows(m, game_key)
                    if rows is None:
                        break
                    over_games = over_games or has_game
                    parts.append(rows)
                else:
                    params = set(fn.__code__.co_varnames[:fn.__code__.co_argcount])
                    if not over_games or params != keys:        # a fixture: not called here
                        continue
                    slow = any(m.name == "slow" for m in getattr(fn, "pytestmark", []))
                    rel = path.relative_to(TESTS).as_posix()
                    slow = slow or any(f"tests/{rel}::{fname}".startswith(s)
                                       for s in _slow_tests())
                    for combo in itertools.product(*parts):
                        kwargs = {}
                        row_marks = []
                        for row, ms in combo:
                            kwargs.update(row)
                            row_marks += list(ms)
                        if slow:
                            row_marks.append(pytest.mark.slow)
                        label = "-".join(f"{v}" for k, v in kwargs.items() if k != game_key)
                        cases.append(pytest.param(fn, kwargs, marks=row_marks,
                                                  id=f"{rel}::{fname}" + (f"[{label}]" if label
                                                                          else "")))
    return cases


def _slow_tests():
    """The suite's single slow tests (tests/conftest.py's SLOW_TESTS), without game ids."""
    spec = importlib.util.spec_from_file_location("generic_conftest", TESTS / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    slow = [s for s in conftest.SLOW_TESTS if "[" not in s]     # not one game's
    return slow + [f"tests/{d}/{m}" for d in GENERIC_DIRS for m in conftest.SLOW_MODULES]


GENERIC = _generic_cases()


def test_the_generic_tests_are_found():
    """The collection above finds the suite's generic tests (if it found none, the tests
    below would pass for nothing)."""
    ids = " ".join(p.id for p in GENERIC)
    assert len(GENERIC) >= 20
    for name in ("test_perft_file", "test_fast_reader_matches_precise_reader",
                 "test_mutated_notation_parses_consistently_or_raises_notation_error",
                 "test_the_evaluation_beats_the_uniform_prediction", "test_no_peeking",
                 "test_baselines_play_legal_moves_from_full_states_and_views"):
        assert name in ids, name


@pytest.mark.parametrize("fn,kwargs", GENERIC)
def test_generic(fn, kwargs):
    """One generic test of the suite, with the example game in place of every game."""
    fn(**kwargs)


# -- the players and the engine ---------------------------------------------------------------

@pytest.mark.parametrize("spec", ["random", "heuristic", "heuristic:weights.fit=2",
                                  "ismcts:iterations=100", "ismcts:iterations=100,mode=mo",
                                  "pimc:iterations=60", "determinized:iterations=60",
                                  "expectimax:depth=2"])
@pytest.mark.parametrize("players", [2, 4])
def test_every_player_plays_a_whole_game(spec, players):
    table = catsearch.Table(catsearch.new_game(G, players=players, seed=3),
                            [catsearch.make_player(spec) for _ in range(players)])
    returns = table.run()
    assert len(returns) == players and abs(sum(returns) - 1.0) < 1e-9
    assert len(table.history) == 15      # every card is played


def _bestmove(out: io.StringIO, before: int, timeout: float = 30.0) -> str:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        lines = out.getvalue().splitlines()[before:]
        for line in lines:
            if line.startswith("bestmove "):
                return line.split()[1]
        time.sleep(0.01)
    raise AssertionError(f"no bestmove within {timeout} s: {out.getvalue()[-500:]}")


@pytest.mark.parametrize("player", ["ismcts", "expectimax", "heuristic"])
def test_the_engine_searches_it(player):
    out = io.StringIO()
    eng = Engine(out=out, log=io.StringIO())
    eng.handle(f"setoption name Player value {player}")
    st = catsearch.new_game(G, 3, seed=5)
    first = st.move_to_str(st.legal_moves()[0])
    st.play(first)
    eng.handle(f"position {G} players 3 startpos seed 5 moves {first}")
    n = len(out.getvalue().splitlines())
    assert "error" not in out.getvalue(), out.getvalue()
    eng.handle("go nodes 200")
    move = _bestmove(out, n)
    assert st.str_to_move(move) in st.legal_moves()
    # the same from the seat's view, sent as its notation
    view = st.view_text(st.current_player)
    eng.handle(f"position {G} state {view}")
    n = len(out.getvalue().splitlines())
    eng.handle("go nodes 200")
    assert st.str_to_move(_bestmove(out, n)) in st.legal_moves()


# -- a scratch game module, compiled from a temporary folder -----------------------------------

SCRATCH_SETUP = """
from Cython.Build import cythonize
from setuptools import Extension, setup
setup(ext_modules=cythonize([Extension("scratch_sum", ["scratch_sum.pyx"], include_dirs=[{inc!r}])],
                            language_level=3, compiler_directives={{"boundscheck": False}}),
      script_args=["build_ext", "--inplace", "-q"])
"""

SCRATCH_TEST = """
import catsearch
import catsearch.testing
import scratch_sum
from catsearch.testing import check_game, check_observations, check_tensors
assert catsearch.new_game("scratch-sum", 3, seed=1).to_text().startswith("players=3 bound=21")
for players in (2, 3, 4):
    check_game("scratch-sum", players)
    check_observations("scratch-sum", players, games=6)
    check_tensors("scratch-sum", players)
print("ok")
"""


@pytest.mark.slow
def test_a_scratch_copy_of_the_module_compiles_and_conforms(tmp_path):
    """The example's module and .pxd copied under a new name and id, compiled alone (as a
    user's own game module outside the package), registers and passes the suite."""
    src = ROOT / "catsearch" / "testing"
    pyx = (src / "example.pyx").read_text()
    pyx = pyx.replace('id="toy-sum"', 'id="scratch-sum"').replace(
        "register(ToySum, listed=False)", "register(ToySum, listed=False)  # scratch")
    (tmp_path / "scratch_sum.pyx").write_text(pyx)
    shutil.copy(src / "example.pxd", tmp_path / "scratch_sum.pxd")
    (tmp_path / "setup.py").write_text(SCRATCH_SETUP.format(inc=str(ROOT)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    subprocess.run([sys.executable, "setup.py"], cwd=tmp_path, env=env, check=True,
                   capture_output=True, timeout=600)
    done = subprocess.run([sys.executable, "-c", SCRATCH_TEST], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-3000:]
