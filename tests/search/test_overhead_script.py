"""benchmarks/search_overhead.py's ``scaling --floor``: the plain C ISMCTS
(``c_reference/ismcts_floor.c``) grows from catsearch's own position (the hashes agree), in
chunks of a hundredth of its size, by the same search whether its nodes sit on 2 MB pages or
not, and the script reports it beside catsearch's search."""
import sys
import tempfile
from pathlib import Path

import pytest

import catsearch

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "search_overhead.py"


@pytest.fixture(scope="module")
def overhead(load_script):
    sys.path.insert(0, str(SCRIPT.parent))      # it imports playouts_vs_c from beside it
    try:
        yield load_script(SCRIPT)
    finally:
        sys.path.remove(str(SCRIPT.parent))


@pytest.fixture(scope="module")
def libs(overhead):
    with tempfile.TemporaryDirectory() as tmp:
        yield overhead.floor_libs(tmp)


def test_the_c_floor_grows_from_catsearchs_position_in_chunks(overhead, libs):
    state = catsearch.new_game("herding-cats", 2, seed=1)
    for lib in libs.values():
        rows = overhead.c_grow(lib, 2, 20_000, 0.7, 5, state, False)
        assert rows[0][0] == 1                          # the root alone
        assert rows[-1][1] >= 20_000 > rows[-1][0]      # grown just past the size asked
        for before, after, seconds, levels in rows:
            assert after - before == max(500, int(before) // 100)   # a node an iteration
            assert seconds > 0 and levels >= 1
        assert [r[:2] + r[3:] for r in rows] == [
            r[:2] + r[3:] for r in overhead.c_grow(lib, 2, 20_000, 0.7, 5, state, True)]


def test_the_c_floor_refuses_a_deal_that_is_not_catsearchs(overhead, libs):
    other = catsearch.new_game("herding-cats", 2, seed=2)
    with pytest.raises(RuntimeError, match="not catsearch's"):
        overhead.c_grow(libs["C, list"], 2, 1_000, 0.7, 5, other, False)


def test_scaling_reports_the_floor_beside_catsearch(overhead, capsys):
    overhead.main(["scaling", "--floor", "--nodes", "10000", "--rounds", "1"])
    lines = capsys.readouterr().out.splitlines()
    sides = [line.rsplit(" 10,000 ", 1)[0].strip() for line in lines[2:]]
    assert sides == ["catsearch", "C, list", "C, table", "C, list, 2M", "C, table, 2M"]
    assert all(" 1.00 " in line for line in lines[2:])


def test_the_floor_is_herding_cats_only(overhead):
    with pytest.raises(SystemExit, match="Herding Cats'"):
        overhead.main(["scaling", "--floor", "--game", "cat-cards", "--nodes", "10000"])
