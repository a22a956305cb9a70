"""Every game's perft file: one format, one reader (catsearch.testing.read_perft)."""
from pathlib import Path

import pytest

import catsearch
from catsearch.testing import PerftFileError, check_perft, read_perft

DATA = Path(__file__).parents[1] / "data"


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_perft_file(game_id):
    path = DATA / f"{game_id}-perft.txt"
    assert len(read_perft(path)) >= 5
    assert check_perft(game_id, path) >= 15


def test_a_count_that_differs_names_file_line_and_depth(tmp_path):
    good = read_perft(DATA / "herding-cats-perft.txt")[0]
    path = tmp_path / "bad-perft.txt"
    path.write_text(f"# one position\n{good.text} ; D1 {good.counts[1] + 1}\n")
    with pytest.raises(AssertionError, match=r"bad-perft.txt:2: perft\(1\) is"):
        check_perft("herding-cats", path)


@pytest.mark.parametrize("line", ["players=2 ; 3 5", "players=2 ; D1", "players=2", "; D1 3",
                                  "players=2 ; D1 3 ; D1 4"])
def test_a_malformed_line_is_refused(tmp_path, line):
    path = tmp_path / "x-perft.txt"
    path.write_text(line + "\n")
    with pytest.raises(PerftFileError, match="x-perft.txt:1"):
        read_perft(path)
