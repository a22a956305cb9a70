"""Views that show every hand (``State.view(seat, hands=True)``, issue 35): an oracle's view
that hides only what no seat knows. The laws, on every game at 2 and 3 players: such a view
shows every card some seat knows exactly as the real state has it and hides the rest; its
determinizations keep every such card and vary the rest (the deck); a seat's own view is
unchanged; nothing of it leaks into what a seat is given (tensors, ``view``, ``info_key``)."""
import random

import numpy as np
import pytest

import catsearch
import catsearch.testing  # noqa: F401  (registers toy-sum)

GAMES = list(catsearch.GAMES) + ["toy-sum"]


def positions(game_id, players, seed=11, count=6):
    """Full states of random games, the first at its start, the others a few plies on, none
    over."""
    r = random.Random(seed)
    out = []
    for g in range(count):
        st = catsearch.new_game(game_id, players=players, seed=seed + g)
        for _ in range(r.randrange(0, 40) if g else 0):
            if st.is_terminal():
                break
            st.apply(r.choice(st.legal_moves()))
        if not st.is_terminal() and st.current_player >= 0:
            out.append(st)
    assert out
    return out


def known_somewhere(st):
    """The card locations some seat knows (a hand, a pile card seen, the public places)."""
    return {loc for loc, seats in st.knowledge().items() if seats}


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("game_id", GAMES)
def test_a_hands_view_shows_every_known_card_and_hides_the_rest(game_id, players):
    for st in positions(game_id, players):
        real, known = st.cards(), known_somewhere(st)
        for seat in range(players):
            hv = st.view(seat, hands=True)
            assert hv.view_seat == seat
            shown = hv.cards()
            assert shown.keys() == real.keys()
            for loc in real:
                if loc in known:
                    assert shown[loc] == real[loc], (loc, st.to_text())
                else:
                    assert set(shown[loc]) <= {"?"}, (loc, shown[loc], st.to_text())
            assert "rng=?" in hv.to_text()


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("game_id", GAMES)
def test_determinizing_a_hands_view_keeps_every_hand_and_varies_the_deck(game_id, players):
    decks = 0
    for st in positions(game_id, players):
        real, known = st.cards(), known_somewhere(st)
        hidden = [loc for loc in real if loc not in known and len(set(real[loc])) > 1]
        seat = st.current_player
        hv = st.view(seat, hands=True)
        worlds = [hv.determinize(seat, seed=k) for k in range(12)]
        for w in worlds:
            assert w.view_seat is None
            cards = w.cards()
            for loc in known:
                assert cards[loc] == real[loc], (loc, st.to_text(), w.to_text())
            assert hv.allows(w)
            assert w.legal_moves() == st.legal_moves()
        for loc in hidden:                  # what nobody knows is dealt (seeds fixed)
            assert len({w.cards()[loc] for w in worlds}) > 1, (loc, st.to_text())
            decks += loc == "deck"
    if game_id != "the-cat":                # The Cat has no deck
        assert decks > 0


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("game_id", GAMES)
def test_the_seats_own_view_is_unchanged(game_id, players):
    for st in positions(game_id, players):
        for seat in range(players):
            v = st.view(seat)
            assert v.to_text() == st.view(seat, hands=False).to_text() == st.view_text(seat)
            mine = {loc for loc, seats in st.knowledge().items() if seat in seats}
            for loc, cards in v.cards().items():
                if loc not in mine:
                    assert set(cards) <= {"?"}, (loc, cards)
            # a hands view seen as the seat's own view again is that view
            assert st.view(seat, hands=True).view(seat).to_text() == v.to_text()
            assert st.info_key(seat) == v.recompute_hash()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_world_dealt_from_a_hands_view_gives_a_seat_only_its_own_view(game_id):
    for st in positions(game_id, 3, count=3):
        seat = st.current_player
        w = st.view(seat, hands=True).determinize(seat, seed=1)
        for q in range(3):
            own = catsearch.from_text(game_id, w.view_text(q))
            assert w.view(q).to_text() == own.to_text()
            assert np.array_equal(w.information_state_tensor(q), own.information_state_tensor(q))
            assert np.array_equal(w.observation_tensor(q), own.observation_tensor(q))
            assert w.info_key(q) == own.recompute_hash()


def test_the_cat_keeps_another_seats_choice_in_the_tick_hidden():
    st = catsearch.new_game("the-cat", players=3, seed=5)
    st.play("pick0")                     # seat 0 chooses; seat 1 is to choose
    hv = st.view(1, hands=True)
    assert "chosen=?,-,-" in hv.to_text()
    assert "chosen=pick0" in st.to_text()
    choices = {w.to_text().split("chosen=")[1].split()[0]
               for w in (hv.determinize(1, seed=k) for k in range(30))}
    assert len(choices) > 1             # dealt like the fair view's, not the real one


def test_hands_is_a_bool_and_a_seats_view_cannot_show_what_it_hid():
    st = catsearch.new_game("herding-cats", players=2, seed=3)
    with pytest.raises(TypeError, match="hands is a bool"):
        st.view(0, hands=1)
    with pytest.raises(ValueError, match="cannot show the hands it hid"):
        st.view(0).view(0, hands=True)
    hv = st.view(0, hands=True)
    assert hv.view(0, hands=True).to_text() == hv.to_text()
    with pytest.raises(ValueError):
        hv.view(1, hands=True)          # still seat 0's view: no other seat's knowledge


@pytest.mark.parametrize("game_id", list(catsearch.GAMES))
def test_ismcts_searches_a_hands_view_and_plays_a_real_legal_move(game_id):
    st = positions(game_id, 2, count=1)[0]
    player = catsearch.make_player("ismcts:iterations=60,seed=1")
    move = player.choose_move(st.view(st.current_player, hands=True))
    assert move in st.legal_moves()


@pytest.mark.parametrize("game_id", GAMES)
def test_a_hands_view_is_not_a_seats_view_so_its_notation_is_refused(game_id):
    from catsearch.errors import NotationError
    refused = 0
    for st in positions(game_id, 3):
        seat = st.current_player
        hv = st.view(seat, hands=True)
        if hv.to_text() == st.view_text(seat):
            continue                    # nothing shown beyond the seat's own view
        with pytest.raises(NotationError):
            catsearch.from_text(game_id, hv.to_text())
        refused += 1
    assert refused
