"""The kit's shared hand-and-deck pieces, through the games that use them (issue 34: no code
copied between game modules): move glosses by a table (``notation.words_for``), the deck and
turn readers (``text.read_deck``, ``text.read_turn``) and the knowledge methods of
``cards.pxd`` (``hide_hands_deck``, ``determinize_hands_deck``, ``hand_chance_outcomes``)."""
import pytest

import catsearch
import catsearch.testing  # noqa: F401  (registers toy-sum)
from catsearch._core.notation import words_for
from catsearch.errors import NotationError

WORDS = ((r"end", "ended the turn"), (r"H:([a-g][1-7])", r"built a house on \1"),
         (r"TP:([a-g][1-7])-([a-g][1-7])", r"teleported the cat on \1 to \2"))


def test_words_for_takes_the_first_whole_match_and_its_groups():
    assert words_for("end", WORDS) == "ended the turn"
    assert words_for("H:c3", WORDS) == "built a house on c3"
    assert words_for("TP:a1-g7", WORDS) == "teleported the cat on a1 to g7"
    assert words_for("H:c3x", WORDS) is None        # the whole text, not a prefix
    assert words_for("ending", WORDS) is None
    assert words_for("anything", ()) is None


@pytest.mark.parametrize("game_id,text,words", [
    ("cat-earth", "H:d2", "built a house on d2"),
    ("cat-earth", "HS:a1-b2+0ab", "swapped the houses on a1 and b2; seat 0 drew 2 cards"),
    ("the-cat", "swap13", "swapped card 1 of the pile in hand with centre card 3"),
    ("the-cat", "wait", "waited"),
    ("the-cat", "dance", None),
])
def test_the_games_glosses_by_their_tables(game_id, text, words):
    assert catsearch.game_class(game_id).spec.gloss(text, None) == words


@pytest.mark.parametrize("game_id", ["herding-cats", "toy-sum"])
def test_the_deck_reader_refuses_more_cards_than_the_deal_leaves(game_id):
    st = catsearch.new_game(game_id, 2, seed=3)
    text = st.to_text()
    deck = next(t for t in text.split() if t.startswith("deck="))
    with pytest.raises(NotationError, match="more than the deck holds after the deal"):
        catsearch.from_text(game_id, text.replace(deck, deck + deck[5:7]))


@pytest.mark.parametrize("game_id", ["herding-cats", "toy-sum"])
def test_the_turn_reader_refuses_a_seat_without_cards_and_a_finished_game_s_seat(game_id):
    st = catsearch.new_game(game_id, 2, seed=5)
    while not st.is_terminal():
        st.play(st.legal_moves()[0])
    text = st.to_text()
    assert " turn=- " in f" {text} "
    with pytest.raises(NotationError, match="the game is over .*: turn must be -"):
        catsearch.from_text(game_id, text.replace("turn=-", "turn=0"))


@pytest.mark.parametrize("game_id", ["herding-cats", "toy-sum"])
def test_the_knowledge_methods_keep_the_hash_and_the_chance_of_the_unknown(game_id):
    st = catsearch.new_game(game_id, 3, seed=9)
    view = st.view(1)
    assert view.hash == view.recompute_hash()
    d = view.determinize(1, seed=4)
    assert d.hash == d.recompute_hash() and d.view(1) == view
    outcomes = view.chance_outcomes()              # seat 0 to move holds unknown cards
    assert outcomes and abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
    view.apply_chance(outcomes[0][0])
    assert view.hash == view.recompute_hash()
    view.apply(view.legal_moves()[0])
    assert view.hash == view.recompute_hash()
    assert catsearch.new_game(game_id, 3, seed=9).chance_outcomes() == []   # a full state
