"""The observation of a move and its draw in a hand-and-deck game (catsearch._core.draws)."""
import pytest

import catsearch
from catsearch._core.draws import draw_observation, read_draw
from catsearch.testing import perft_line, read_perft

LETTERS = "123456789ABCDEF"


def test_the_drawer_sees_its_card_the_others_a_question_mark():
    assert draw_observation("7", seat=0, mover=0, drawn="A") == "7+A"
    assert draw_observation("7", seat=1, mover=0, drawn="A") == "7+?"
    assert draw_observation("7", seat=1, mover=0, drawn=None) == "7"


def test_reading_a_draw_back():
    assert read_draw("7+A", seat=0, mover=0, deck_left=True, letters=LETTERS) == ("7", 9)
    assert read_draw("7+?", seat=1, mover=0, deck_left=True, letters=LETTERS) == ("7", -1)
    assert read_draw("7", seat=1, mover=0, deck_left=False, letters=LETTERS) == ("7", -1)


@pytest.mark.parametrize("text,seat,deck_left,words", [
    ("7", 1, True, "ends with the card drawn"),
    ("7+", 1, True, "ends with the card drawn"),
    ("7+Z", 0, True, "ends with the card drawn"),
    ("7+AB", 0, True, "ends with the card drawn"),
    ("7+?", 0, True, "drew the card itself"),
    ("7+A", 1, True, "hidden from seat 1"),
    ("7+?", 1, False, "the deck is empty"),
])
def test_what_a_seat_could_not_have_been_sent_is_refused(text, seat, deck_left, words):
    with pytest.raises(ValueError, match=words):
        read_draw(text, seat=seat, mover=0, deck_left=deck_left, letters=LETTERS)


def test_perft_line_reads_back(tmp_path):
    import catsearch.testing  # noqa: F401  (registers toy-sum)
    st = catsearch.new_game("toy-sum", 2, seed=4)
    line = perft_line(st, 3)
    assert line == f"{st.to_text()} ; D1 3 ; D2 9 ; D3 27"
    path = tmp_path / "x-perft.txt"
    path.write_text(line + "\n")
    assert read_perft(path)[0].counts == {1: 3, 2: 9, 3: 27}
    with pytest.raises(ValueError):
        perft_line(st, 0)
    with pytest.raises(TypeError):
        perft_line(st, 2.0)
