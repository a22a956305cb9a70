"""The Herding Cats evaluation (what expectimax reads at its cut-off nodes)."""
import math

import pytest

import catsearch
from catsearch.testing import random_game_states


def discard(**taken):
    full = dict(o=10, p=10, b=10, g=10, O=3, P=3, B=3, G=3, S=4, W=4)
    for card, n in taken.items():
        full[card] -= n
    return "".join(card * n for card, n in full.items())


def hc(turn, hands, deck, herds, taken, won="0,0", out="-"):
    return catsearch.from_text(
        "herding-cats", f"players=2 turn={turn} hands={hands} deck={deck} herds={herds} "
                        f"discard={discard(**taken)} out={out} won={won} rng=0000000000000001")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_win_chances_in_views_and_full_states(players):
    for st, _ in random_game_states("herding-cats", players, games=3, seed=3):
        for s in [st] + [st.view(p) for p in range(players)]:
            ev = s.evaluate()
            assert len(ev) == players and math.isclose(sum(ev), 1.0)
            assert all(0.0 <= x <= 1.0 for x in ev)
        if st.is_terminal():
            assert st.evaluate() == st.returns()


def test_symmetric_positions_are_even_and_mirrors_swap():
    even = hc(0, "bbg/bbg", "-", "Oo", dict(o=1, O=1, b=4, g=2))
    assert even.evaluate() == pytest.approx([0.5, 0.5])
    taken = dict(b=2, g=2, o=6, O=2, p=3, P=1)
    a = hc(0, "bb/gg", "-", "-", taken, won="2,1", out="ooooooOOpppP")
    b = hc(1, "gg/bb", "-", "-", taken, won="1,2", out="ooooooOOpppP")
    assert a.evaluate()[0] > 0.5
    assert a.evaluate() == pytest.approx(b.evaluate()[::-1])


def test_a_herd_lead_counts_for_more_with_fewer_herds_to_play_for():
    lead1 = hc(0, "b/g", "-", "-", dict(b=1, g=1, o=3, O=1), won="1,0", out="oooO")
    lead2 = hc(0, "b/g", "-", "-", dict(b=1, g=1, o=3, O=1, p=3, P=1), won="2,0",
               out="oooOpppP")
    assert 0.5 < lead1.evaluate()[0] < lead2.evaluate()[0]
    # a lead of one herd with 9 cowdogs left (not in collected herds) against 11
    later = hc(0, "b/g", "-", "-", dict(b=1, g=4, o=3, O=1, p=3, P=1, G=1), won="2,1",
               out="oooOpppPgggG")
    assert later.evaluate()[0] > lead1.evaluate()[0]


def test_a_herd_one_short_goes_to_the_seat_to_move_that_can_complete_it():
    # herd Ooo (two cats); one orange cat left, in a hand
    mine = hc(0, "ob/bb", "-", "Ooo", dict(o=3, O=1, b=3))
    theirs = hc(0, "bb/ob", "-", "Ooo", dict(o=3, O=1, b=3))
    neither = hc(0, "bb/bb", "-", "Ooo", dict(o=2, O=1, b=4))
    assert mine.evaluate()[0] > neither.evaluate()[0] > theirs.evaluate()[0]
    assert neither.evaluate() == pytest.approx([0.5, 0.5])
    # both can: the seat to move completes it first
    both = hc(1, "oW/ob", "-", "Ooo", dict(o=4, O=1, b=1, W=1))
    assert both.evaluate()[1] > 0.5


def test_unknown_cards_count_by_their_chances():
    # seat 0's view: seat 1 holds three of the unseen o b b b, the deck the fourth; seat 1
    # is to move and completes the herd Ooo if it holds the o (probability 3/4)
    yes = hc(1, "bbb/obb", "b", "Ooo", dict(o=3, O=1, b=6))
    no = hc(1, "bbb/bbb", "o", "Ooo", dict(o=3, O=1, b=6))
    view = yes.view(0)
    assert view.to_text() == no.view_text(0)
    lo, mid, hi = no.evaluate()[1], view.evaluate()[1], yes.evaluate()[1]
    assert lo < mid < hi
    # the credit is linear in the chance before the softmax: 3/4 of the way in log-odds
    logit = lambda p: math.log(p / (1 - p))
    assert logit(mid) == pytest.approx(logit(lo) + 0.75 * (logit(hi) - logit(lo)))
