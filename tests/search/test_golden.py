"""Golden outputs: every game and searcher gives what it gave when the goldens were made.

The files in ``tests/data/golden/`` are written by ``tests/golden/make_golden.py`` (see its
docstring for what they hold); this test recomputes each with the same functions and names
the first field that differs (game, section, position, searcher, field). A change that is
meant to change behaviour regenerates them:
``python tests/golden/make_golden.py --game <id>``.
"""
import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIR = ROOT / "tests" / "data" / "golden"


def _load_generator():
    spec = importlib.util.spec_from_file_location(
        "catsearch_make_golden", ROOT / "tests" / "golden" / "make_golden.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_golden = _load_generator()
FILES = sorted(GOLDEN_DIR.glob("*.json"))


def test_every_game_has_a_golden_file():
    assert sorted(p.stem for p in FILES) == sorted(make_golden.games())


# The Cat's golden searches (whole games of expectimax and playouts) take about 15 s, the
# others 1-3 s: it runs in the slow tier (CI runs both), which keeps the fast one under its
# 4 minutes
SLOW_GOLDEN = {"the-cat"}


@pytest.mark.parametrize("path", [
    pytest.param(p, marks=pytest.mark.slow) if p.stem in SLOW_GOLDEN else p for p in FILES],
    ids=[p.stem for p in FILES])
def test_golden(path):
    stored = json.loads(path.read_text())
    game_id = stored["game"]
    assert stored["format"] == make_golden.FORMAT, f"{path.name}: regenerate it (format changed)"
    now = make_golden.build(game_id, make_golden.stored_positions(stored))
    diff = make_golden.first_difference(stored, now)
    if diff is not None:
        pytest.fail(f"{game_id}: {diff}\n(regenerate with `python tests/golden/make_golden.py "
                    f"--game {game_id}` only if the change is meant)", pytrace=False)
    # the file is exactly what the generator writes (sorted keys, rounding, layout)
    assert path.read_text() == make_golden.dumps(now), f"{path.name}: not in the generator's layout"
