"""The conformance suite: one contract, every game, every player count.

Written once; each game in ``catsearch.GAMES`` must pass it unchanged.
"""
import collections
import math
import pickle
import random

import numpy as np
import pytest

import catsearch
from catsearch import IllegalMoveError, InvalidMoveError, NotationError
from catsearch.testing import random_game_states

CASES = [(g, p) for g in catsearch.GAMES for p in (2, 3, 4)]
IDS = [f"{g}-{p}p" for g, p in CASES]


def multiset(cards: dict) -> collections.Counter:
    c = collections.Counter()
    for text in cards.values():
        c.update(text)
    return c


def sample_states(game_id, players, games=6, seed=1, every=1):
    """States along random games (every ``every``-th), cloned so they can be kept."""
    out = []
    for i, (st, _) in enumerate(random_game_states(game_id, players, games, seed)):
        if i % every == 0:
            out.append(st.clone())
    return out


@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_thousands_of_random_games_end(game_id, players):
    r = catsearch.benchmark_playouts(game_id, players, games=2000, seed=3)
    assert r["games"] == 2000
    assert r["moves"] >= 2000


@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_every_move_keeps_the_contract(game_id, players):
    """Along random games: cards accounted for, incremental hash, legal move list, text."""
    composition = None
    for st, move in random_game_states(game_id, players, games=8, seed=11):
        cards = st.cards()
        if composition is None:
            composition = multiset(cards)
            assert "?" not in composition
        assert multiset(cards) == composition, "a card appeared or vanished"
        assert st.hash == st.recompute_hash(), "incremental hash differs from recomputation"
        assert st.view_seat is None
        text = st.to_text()
        assert "\n" not in text and text.isprintable()
        back = catsearch.from_text(game_id, text)
        assert back.to_text() == text
        assert back.hash == st.hash
        assert back == st
        if st.is_terminal():
            assert st.current_player == -1
            assert st.legal_moves() == []
            ret = st.returns()
            assert len(ret) == players
            assert all(0.0 <= x <= 1.0 for x in ret)
            assert math.isclose(sum(ret), 1.0)
            assert max(ret) > 0
            winners = [p for p in range(players) if ret[p] > 0]
            assert all(math.isclose(ret[p], 1.0 / len(winners)) for p in winners)
            assert len(st.scores()) == players
            with pytest.raises(IllegalMoveError):
                st.play(0)
            continue
        assert 0 <= st.current_player < players
        assert st.returns() == [0.0] * players
        legal = st.legal_moves()
        assert legal, "a non-terminal state must have a legal move"
        assert legal == sorted(set(legal))
        assert all(0 <= m < st.num_distinct_moves for m in legal)
        mask = st.legal_mask()
        assert mask.dtype == np.bool_ and mask.shape == (st.num_distinct_moves,)
        assert list(np.flatnonzero(mask)) == legal
        for m in legal:
            s = st.move_to_str(m)
            assert " " not in s and s.isprintable() and s
            assert st.str_to_move(s) == m, f"{s!r} does not read back as {m}"
        ev = st.evaluate()
        assert len(ev) == players and math.isclose(sum(ev), 1.0)
        assert all(0.0 <= x <= 1.0 for x in ev)
        assert st.heuristic_move(seed=7) in legal


@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_clone_is_equal_and_independent(game_id, players):
    for st in sample_states(game_id, players, games=2, every=7):
        if st.is_terminal():
            continue
        text = st.to_text()
        c = st.clone()
        assert c == st and c.hash == st.hash and c is not st
        c.play(c.legal_moves()[-1])
        assert st.to_text() == text, "playing on a clone changed the original"
        assert pickle.loads(pickle.dumps(st)) == st
        assert eval(repr(st), {"catsearch": catsearch}) == st


@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_views_hide_exactly_what_a_seat_does_not_know(game_id, players):
    for st in sample_states(game_id, players, games=3, every=3):
        cards = st.cards()
        knowledge = st.knowledge()
        assert set(knowledge) == set(cards)
        for seat in range(players):
            vt = st.view_text(seat)
            assert "\n" not in vt and vt.isprintable()
            view = catsearch.from_text(game_id, vt)
            assert view.view_seat == seat
            assert view.to_text() == vt
            assert view.view_text(seat) == vt
            assert view.info_key(seat) == st.info_key(seat)
            assert view.hash == view.recompute_hash()
            vcards = view.cards()
            for loc, text in cards.items():
                if seat in knowledge[loc]:
                    assert vcards[loc] == text, f"seat {seat} knows {loc} but its view hides it"
                else:
                    assert vcards[loc] == "?" * len(text), f"seat {seat}'s view shows {loc}"
            assert view.current_player == st.current_player
            assert view.is_terminal() == st.is_terminal()
            if seat == st.current_player:
                assert view.legal_moves() == st.legal_moves()
            chance = view.chance_outcomes()
            if chance:
                assert math.isclose(sum(w for _, w in chance), 1.0)
                assert len({o for o, _ in chance}) == len(chance)
                assert all(w > 0 for _, w in chance)
                view.apply_chance(chance[0][0])
                assert view.hash == view.recompute_hash()


@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_determinize_keeps_what_the_seat_knows(game_id, players):
    composition = None
    for i, st in enumerate(sample_states(game_id, players, games=2, every=5)):
        if composition is None:
            composition = multiset(st.cards())
        for seat in range(players):
            view_text = st.view_text(seat)
            for source in (st, catsearch.from_text(game_id, view_text)):
                d = source.determinize(seat, seed=i * 10 + seat)
                assert d.view_seat is None
                assert "?" not in "".join(d.cards().values())
                assert multiset(d.cards()) == composition
                assert d.view_text(seat) == view_text
                assert d.info_key(seat) == st.info_key(seat)
                assert d.hash == d.recompute_hash()
                if seat == st.current_player:
                    assert d.legal_moves() == st.legal_moves()
                assert catsearch.from_text(game_id, d.to_text()) == d
            again = st.determinize(seat, seed=99)
            assert again == st.determinize(seat, seed=99), "determinize is not reproducible"


def chi2_critical(df: int, p: float = 1e-4) -> float:
    from scipy.stats import chi2
    return float(chi2.isf(p, df))


@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_determinize_draws_uniformly(game_id, players):
    """The cards of the first hidden location follow the unseen pool (chi-square)."""
    states = [s for s in sample_states(game_id, players, games=1, seed=5, every=4) if not s.is_terminal()]
    st = states[len(states) // 2]
    seat = st.current_player
    knowledge, cards = st.knowledge(), st.cards()
    hidden = [loc for loc in sorted(cards) if seat not in knowledge[loc] and cards[loc]]
    assert hidden, "mid-game, some cards must be hidden from the seat to move"
    loc = hidden[0]
    pool = multiset(cards) - multiset({k: v for k, v in cards.items() if seat in knowledge[k]})
    total = sum(pool.values())
    draws = 3000
    seen = collections.Counter()
    for i in range(draws):
        seen.update(st.determinize(seat, seed=i).cards()[loc])
    slots = draws * len(cards[loc])
    types = sorted(pool)
    expected = {t: slots * pool[t] / total for t in types}
    assert set(seen) <= set(types), "a determinization put a card the seat has seen into a hidden place"
    stat = sum((seen[t] - expected[t]) ** 2 / expected[t] for t in types)
    if len(types) > 1:
        assert stat < chi2_critical(len(types) - 1), f"non-uniform: {dict(seen)} vs {expected}"


@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_perft_is_reproducible(game_id, players):
    st = catsearch.new_game(game_id, players, seed=2024)
    n = st.perft(3)
    assert n > 0
    assert st.perft(3) == n
    assert catsearch.new_game(game_id, players, seed=2024).perft(3) == n
    assert catsearch.from_text(game_id, st.to_text()).perft(3) == n
    assert sum(st.perft_divide(3).values()) == n
    assert st.perft(1) == len(st.legal_moves())
    assert st.perft(0) == 1


@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_same_seed_same_game(game_id, players):
    a = catsearch.new_game(game_id, players, seed=77)
    b = catsearch.new_game(game_id, players, seed=77)
    assert a == b and a.hash == b.hash
    assert catsearch.new_game(game_id, players, seed=78) != a


@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_bad_input_is_refused_cleanly(game_id, players):
    st = catsearch.new_game(game_id, players, seed=5)
    text = st.to_text()
    with pytest.raises(IllegalMoveError) as e:
        illegal = next(m for m in range(st.num_distinct_moves) if m not in st.legal_moves())
        st.play(illegal)
    assert "legal" in str(e.value)
    with pytest.raises(InvalidMoveError):
        st.play("no-such-move")
    with pytest.raises(InvalidMoveError):
        st.play(st.num_distinct_moves)
    with pytest.raises(InvalidMoveError):
        st.play(-1)
    assert st.to_text() == text, "a refused move changed the state"
    with pytest.raises(NotationError):
        catsearch.from_text(game_id, "")
    with pytest.raises(NotationError):
        catsearch.from_text(game_id, text + " bogus=1")
    with pytest.raises(NotationError):
        catsearch.from_text(game_id, text.replace("players=", "players=x", 1))
    for cut in range(0, len(text), max(1, len(text) // 25)):
        broken = text[:cut] + "#" + text[cut + 1:]
        try:
            catsearch.from_text(game_id, broken)
        except NotationError:
            pass
    with pytest.raises(ValueError):
        catsearch.new_game(game_id, players=5)
    with pytest.raises(ValueError):
        catsearch.new_game(game_id, players, no_such_option=1)
    with pytest.raises(ValueError):
        st.view_text(players)


def test_unknown_game_lists_the_games():
    with pytest.raises(ValueError) as e:
        catsearch.new_game("tic-tac-toe")
    for g in catsearch.GAMES:
        assert g in str(e.value)
