"""Herding Cats: one test (at least) per ruling, on explicit positions."""
import collections

import pytest

import catsearch
from catsearch import IllegalMoveError, NotationError

GAME = "herding-cats"
COMPOSITION = collections.Counter({"o": 10, "p": 10, "b": 10, "g": 10, "O": 3, "P": 3, "B": 3,
                                   "G": 3, "S": 4, "W": 4})


def position(hands, herds="-", discard="", out="", won=None, turn=0, deck="rest"):
    """A full state; the cards not named go to the deck (``deck="rest"``, in a fixed order),
    or, with an explicit deck, to the discard pile."""
    players = len(hands)
    used = collections.Counter("".join(hands) + herds.replace(",", "").replace("-", "")
                               + discard + out + (deck if deck != "rest" else ""))
    rest = COMPOSITION - used
    assert not used - COMPOSITION, "the position uses more cards than the deck has"
    rest_text = "".join(sorted(rest.elements(), key="opbgOPBGSW".index))
    if deck == "rest":
        deck = rest_text
    else:
        discard += rest_text
    won = won or [0] * players
    text = (f"players={players} turn={turn} hands={'/'.join(h or '-' for h in hands)} "
            f"deck={deck or '-'} herds={herds} discard={''.join(sorted(discard, key='opbgOPBGSW'.index)) or '-'} "
            f"out={out or '-'} won={','.join(map(str, won))} rng=0000000000000000")
    return catsearch.from_text(GAME, text)


def moves(st):
    return [st.move_to_str(m) for m in st.legal_moves()]


def test_setup_deals_three_each_from_sixty_cards():
    for players in (2, 3, 4):
        st = catsearch.new_game(GAME, players, seed=1)
        cards = st.cards()
        assert all(len(cards[f"hand{p}"]) == 3 for p in range(players))
        assert len(cards["deck"]) == 60 - 3 * players
        assert collections.Counter("".join(cards.values())) == COMPOSITION
        assert st.current_player == 0


def test_a_playable_card_must_be_played():
    st = position(["ooO", "ppp", "bbb"], herds="O")
    assert moves(st) == ["O", "o@0"]
    with pytest.raises(IllegalMoveError):
        st.play("xo")


def test_discard_only_when_nothing_is_playable():
    st = position(["opb", "ppp", "ggg"])          # no herds: no cat can be placed
    assert moves(st) == ["xo", "xp", "xb"]
    st = position(["opW", "ppp", "ggg"])          # a WCL needs some herd on the table
    assert moves(st) == ["xo", "xp", "xW"]
    st.play("xW")
    assert st.cards()["discard"] == "W"


def test_a_cat_goes_on_a_herd_of_its_colour_and_the_player_picks_which():
    st = position(["ooo", "ppp", "bbb"], herds="Oo,P,O")
    assert moves(st) == ["o@0", "o@2"]
    with pytest.raises(IllegalMoveError):
        st.play("o@1")                            # herd 1 is purple


def test_the_third_card_scores_the_herd_for_its_placer():
    st = position(["ooo", "pbg", "bbb"], herds="Oo")
    st.play("o@0")                                # seat 0 puts the second card
    assert st.scores() == [0, 0, 0] and st.cards()["herds"] == "Ooo"
    st.play("xp")                                 # seat 1 cannot play: discards
    st.play("xb")
    st.play("o@0")                                # seat 0 again: third card
    assert st.scores() == [1, 0, 0]
    assert st.cards()["herds"] == "" and st.cards()["out"] == "oooO"


def test_a_herd_completed_by_someone_else_goes_to_them():
    st = position(["pbg", "ooo", "bbb"], herds="Ooo")
    st.play("xp")
    st.play("o@0")
    assert st.scores() == [0, 1, 0]


def test_wild_cat_lady_on_any_colour_and_a_herd_of_wild_cat_ladies_counts():
    st = position(["Wpb", "ppp", "bbb"], herds="OWW,Pp")
    assert moves(st) == ["p@1", "W@0", "W@1"]
    st.play("W@0")
    assert st.scores() == [1, 0, 0]
    assert st.cards()["out"] == "OWWW"


def test_stampede_and_wcl_may_be_played_when_other_cards_are_playable():
    st = position(["OSW", "ppp", "bbb"], herds="B")
    assert moves(st) == ["O", "W@0", "S"]


def test_a_second_herd_of_a_colour_may_be_started():
    st = position(["Ooo", "ppp", "bbb"], herds="O")
    st.play("O")
    assert st.cards()["herds"] == "OO"
    # both orange herds now take orange cats
    st2 = position(["ooo", "ppp", "bbb"], herds="O,O")
    assert moves(st2) == ["o@0", "o@1"]


def test_stampede_places_cats_on_the_fullest_herd_then_the_oldest_and_scores_completions():
    # orange herds: [0] O (0 cards), [1] Oo (1 card); a purple herd [2] Pp.
    st = position(["Spb", "bbb", "ggg"], herds="O,Oo,Pp", discard="oooppW")
    st.play("S")
    # o -> herd 1 (most cards): Ooo; o -> herd 1 again: complete, seat 0 scores;
    # o -> herd 0 (the only orange one left): Oo.  p -> Ppp; p -> complete.
    assert st.scores() == [2, 0, 0]
    assert st.cards()["herds"] == "Oo"
    # the Stampede, the WCL and nothing else stay in the discard pile (no cats left)
    assert collections.Counter(st.cards()["discard"]) >= collections.Counter("SW")
    assert "o" not in st.cards()["discard"] and "p" not in st.cards()["discard"]


def test_stampede_ties_go_to_the_oldest_herd():
    st = position(["Spb", "bbb", "ggg"], herds="Oo,Oo", discard="o")
    st.play("S")
    assert st.to_text().split(" herds=")[1].startswith("Ooo,Oo ")


def test_stampede_that_places_nothing_is_legal():
    st = position(["Spb", "bbb", "ggg"], herds="P")
    assert "S" in moves(st)
    st.play("S")
    assert st.cards()["herds"] == "P" and st.scores() == [0, 0, 0]


def test_end_of_turn_draws_the_top_card():
    st = position(["opb", "ppp", "bbb"], deck="g")
    st.play("xo")
    assert st.cards()["hand0"] == "pbg"
    assert st.cards()["deck"] == ""


def test_players_with_empty_hands_are_skipped_and_the_game_ends_when_all_are_empty():
    st = position(["o", "", "pb"], deck="")
    assert st.current_player == 0
    st.play("xo")
    assert st.current_player == 2                # seat 1 holds nothing
    st.play("xp")
    assert st.current_player == 2                # seat 2 is the only one left
    st.play("xb")
    assert st.is_terminal() and st.current_player == -1


def test_most_herds_wins_and_ties_share():
    st = position(["o", "", ""], deck="", won=[2, 3, 3],
                  out="OoooOoooPpppPpppBbbbBbbbGgggGggg")
    st.play("xo")
    assert st.is_terminal()
    assert st.scores() == [2, 3, 3]
    assert st.returns() == [0.0, 0.5, 0.5]
    st = position(["o", "", ""], deck="", won=[1, 0, 0], out="Oooo")
    st.play("xo")
    assert st.returns() == [1.0, 0.0, 0.0]


def test_the_cards_a_seat_cannot_see_are_hidden():
    st = catsearch.new_game(GAME, 3, seed=9)
    view = st.view(1)
    cards = view.cards()
    assert cards["hand1"] == st.cards()["hand1"]
    assert cards["hand0"] == "???" and cards["hand2"] == "???"
    assert set(cards["deck"]) == {"?"}
    assert "rng=?" in view.to_text()


def test_golden_zobrist_values():
    """The hash is part of the format: it must not change between builds or machines."""
    assert catsearch.new_game(GAME, 3, seed=0).hash == GOLDEN[0]
    assert catsearch.new_game(GAME, 2, seed=1).hash == GOLDEN[1]
    assert catsearch.new_game(GAME, 4, seed=2).hash == GOLDEN[2]


GOLDEN = (15693845135746734902, 8644534145689848364, 18015984920375279117)


# -- observations (docs/rules/herding-cats.rst, "Observations") ---------------------------

from catsearch import ObservationError                      # noqa: E402
from catsearch.testing import check_observations            # noqa: E402


def follow(st, move):
    """Play ``move`` in the full state ``st``; each seat's view, following its observation,
    must become the full state's view. Returns the observations, seat by seat."""
    views = [st.view(s) for s in range(st.players)]
    m = st.str_to_move(move)
    texts = [st.observation(s, m) for s in range(st.players)]
    st.play(m)
    for s, view in enumerate(views):
        assert view.play_observation(texts[s]) == m == st.observe_move(m, s)
        want = st.view(s)
        assert view.to_text() == want.to_text()
        assert view.hash == want.hash == view.recompute_hash()
    return texts


@pytest.mark.parametrize("hands, herds, move", [
    (["oOS", "ppW", "bbP"], "B", "O"),          # a cowdog
    (["oOS", "ppW", "bbP"], "B,O", "o@1"),      # a cat onto a herd
    (["oWS", "ppW", "bbP"], "B", "W@0"),        # a Wild Cat Lady onto a herd
    (["oOS", "ppW", "bbP"], "B", "S"),          # a Stampede (it completes B from the discard)
    (["opb", "ppW", "bbP"], "-", "xb"),         # a discard
])
def test_the_mover_sees_its_draw_and_the_others_see_an_unknown_card(hands, herds, move):
    st = position(hands, herds=herds, deck="gpW")
    assert follow(st, move) == [move + "+g", move + "+?", move + "+?"]
    assert st.view(0).cards()["hand0"].count("g") == 1
    # the next turn: seat 1 draws the purple cat, seat 0 sees it as unknown
    nxt = st.move_to_str(st.legal_moves()[0])
    assert follow(st, nxt) == [nxt + "+?", nxt + "+p", nxt + "+?"]


def test_with_the_deck_empty_nobody_draws_and_everyone_sees_the_move():
    st = position(["oOS", "ppW", "bbP"], herds="B,O", deck="")
    assert follow(st, "o@1") == ["o@1", "o@1", "o@1"]
    assert follow(st, "W@0") == ["W@0", "W@0", "W@0"]
    assert follow(st, "P") == ["P", "P", "P"]


def refused(view, text, reason):
    before = (view.to_text(), view.hash)
    with pytest.raises(ObservationError, match=reason) as err:
        view.play_observation(text)
    assert err.value.text == text and err.value.state == before[0]
    assert (view.to_text(), view.hash) == before


def test_bad_observations_are_refused_and_leave_the_view_unchanged():
    st = position(["oOS", "ppW", "bbP"], herds="B", deck="gpW")
    mover, other = st.view(0), st.view(1)
    for view in (mover, other):
        for text in ("", "O+", "O+gg", "O+x", "O+?+?", "O@0+?", "o @0+?", "Z", "xZ+?", "#"):
            refused(view, text, None)
        refused(view, "cat@0+?", "write the move 'cat@0' as 'b@0'")
        refused(view, "o@0+?", "herd of another colour")
        refused(view, "O", "the deck is not empty")
    # the seat that drew knows its card; another seat cannot
    refused(mover, "O+?", "seat 0 drew the card itself")
    refused(other, "O+g", "hidden from seat 1")
    # not legal in the view: seat 0 holds no blue cat and no green cowdog
    refused(mover, "b@0+g", "not a legal move for seat 0")
    refused(mover, "G+g", "not a legal move for seat 0")
    # cards the seat has seen every copy of: seat 0 holds a Stampede and sees the other three
    # in the discard pile; seat 1 sees all three green cowdogs there
    refused(mover, "O+S", "cannot draw a Stampede")
    refused(mover, "O+O", "cannot draw an orange cowdog")
    refused(other, "G+?", "'G' is not a legal move for seat 0")
    refused(other, "xG+?", "'xG' is not a legal move for seat 0")
    # the same move with the deck empty carries no draw
    empty = position(["oOS", "ppW", "bbP"], herds="B", deck="")
    refused(empty.view(0), "O+g", "the deck is empty")
    refused(empty.view(2), "O+?", "the deck is empty")
    # what is right still goes through
    assert mover.play_observation("O+b") == st.str_to_move("O")
    assert other.play_observation("O+?") == st.str_to_move("O")


def test_a_full_state_does_not_follow_observations():
    st = position(["oOS", "ppW", "bbP"], herds="B", deck="gpW")
    with pytest.raises(ObservationError, match="full state"):
        st.play_observation("O+g")
    with pytest.raises(ValueError, match="written by the full state"):
        st.view(0).observation(0, "O")


def test_a_view_followed_by_observations_determinizes_like_the_seats_view():
    import random
    st = catsearch.new_game(GAME, 3, seed=5)
    views = [st.view(s) for s in range(3)]
    rng = random.Random(5)
    while not st.is_terminal():
        m = rng.choice(st.legal_moves())
        texts = [st.observation(s, m) for s in range(3)]
        st.apply(m)
        for s in range(3):
            views[s].play_observation(texts[s])
            if st.ply % 9 == 0:
                want = st.view(s)
                for k in range(2):
                    d = views[s].determinize(s, seed=k)
                    assert d.to_text() == want.determinize(s, seed=k).to_text()
                    assert d.view(s).to_text() == want.to_text()
                    assert d.hash == d.recompute_hash()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_law_of_observations(players):
    report = check_observations(GAME, players, games=15, seed=100 + players)
    assert report["observations"] == 15 * 60 * players
    assert report["leak_checks"] > 0


# -- tensors (docs/rules/herding-cats.rst, "Tensors") -------------------------------------

import numpy as np                                           # noqa: E402


def parts(st, seat, kind="observation"):
    t = (st.observation_tensor(seat) if kind == "observation"
         else st.information_state_tensor(seat))
    return {p.name: t[p.start:p.stop] for p in st.tensor_layout(kind)}


def test_the_tensor_layouts_per_player_count():
    names = ["turn", "hand", "hand_sizes", "deck", "herds", "discard", "collected", "won"]
    for n, obs, info in ((2, 158, 179), (3, 161, 193), (4, 164, 207)):
        st = catsearch.new_game(GAME, n, seed=1)
        assert [p.name for p in st.tensor_layout("observation")] == names
        assert [p.name for p in st.tensor_layout("information_state")] == names + ["others",
                                                                                   "unseen"]
        assert st.tensor_shape("observation") == (obs,)
        assert st.tensor_shape("information_state") == (info,)


def test_the_tensors_of_a_hand_made_position_by_value():
    st = position(["ooO", "ppW", "bSg"], herds="Oo,PW", discard="gg", out="Gggg", won=[0, 0, 1],
                  turn=1)
    deck = 60 - 9 - 4 - 2 - 4
    for view in (st, st.view(1)):
        t = parts(view, 1)
        assert t["turn"].tolist() == [1, 0, 0]                       # seat 1 is to move
        assert np.allclose(t["hand"], [0, 2 / 3, 0, 0, 0, 0, 0, 0, 0, 1 / 3, 0])
        assert t["hand_sizes"].tolist() == [1, 1, 1]
        assert np.isclose(t["deck"][0], deck / 51)
        herds = t["herds"].reshape(12, 10)
        assert herds[0].tolist() == [1, 0, 0, 0, 0, 1, 0, 1, 0, 0]   # O, 1 cat, no WCL
        assert herds[1].tolist() == [0, 1, 0, 0, 1, 0, 0, 0, 1, 0]   # P, no cat, 1 WCL
        assert not herds[2:].any()
        assert np.allclose(t["discard"], [0, 0, 0, 0.2, 0, 0, 0, 0, 0, 0])
        assert np.allclose(t["collected"], [0, 0, 0, 0.3, 0, 0, 0, 1 / 3, 0, 0])
        assert np.allclose(t["won"], [0, 1 / 12, 0])                  # seats 1, 2, 0
        i = parts(view, 1, "information_state")
        for name in t:
            assert np.array_equal(i[name], t[name])
        others = i["others"].reshape(2, 11)                           # seats 2, 0
        assert others[:, 10].tolist() == [1, 1] and not others[:, :10].any()
        # unseen: all but seat 1's hand, the herds, the discard pile and the collected herds
        unseen = [9 / 10, 8 / 10, 10 / 10, 5 / 10, 2 / 3, 2 / 3, 3 / 3, 2 / 3, 4 / 4, 2 / 4]
        assert np.allclose(i["unseen"], unseen)
    # seat 0 is the observer: itself first, then seat 1 (to move), then seat 2
    t = parts(st, 0)
    assert t["turn"].tolist() == [0, 1, 0]
    assert np.allclose(t["hand"][:5], [2 / 3, 0, 0, 0, 1 / 3])
    assert np.allclose(t["won"], [0, 0, 1 / 12])


def test_another_seats_hand_never_shows_in_the_tensors():
    a = position(["ooO", "ppW", "bbS"], herds="P")
    b = position(["ggG", "ppW", "SWO"], herds="P")
    for kind in ("observation", "information_state"):
        fa, fb = (st.observation_tensor if kind == "observation" else
                  st.information_state_tensor for st in (a, b))
        assert np.array_equal(fa(1), fb(1))               # seat 1 cannot tell them apart
        assert not np.array_equal(fa(0), fb(0))
        assert not np.array_equal(fa(2), fb(2))
    assert a.info_key(1) == b.info_key(1)


def test_a_play_changes_the_information_state_and_only_the_drawer_sees_its_card():
    st = catsearch.new_game(GAME, 3, seed=4)
    before = [st.information_state_tensor(s) for s in range(3)]
    st.play(st.legal_moves()[0])
    after = [st.information_state_tensor(s) for s in range(3)]
    assert all(not np.array_equal(x, y) for x, y in zip(before, after))
    # seat 0 drew: its hand part names the card; for seats 1 and 2 it is one more unknown
    assert parts(st, 0)["hand"][:10].sum() > 0 and parts(st, 0)["hand"][10] == 0
    for s in (1, 2):
        others = parts(st, s, "information_state")["others"].reshape(2, 11)
        seat0 = others[1 if s == 1 else 0]
        assert not seat0[:10].any() and seat0[10] == 1.0



# -- views: what a view may hold, and the moves it lists for another seat (issue 33) --------

def view_of(text):
    return catsearch.from_text(GAME, text)


def test_a_view_refuses_what_its_seat_cannot_know():
    st = catsearch.new_game(GAME, 2, seed=1)
    vt = st.view(1).to_text()            # hands=???/ooW
    h = st.cards()
    cases = {
        vt.replace("hands=???/", f"hands={h['hand0'][0]}??/"): "cannot see another seat's cards",
        vt.replace("hands=???/ooW", f"hands={h['hand0']}/???"): "knows its own cards",
        vt.replace("hands=???/ooW", f"hands={h['hand0']}/ooW"): "cannot see another seat's",
        vt.replace("hands=???/ooW", "hands=???/???"): "knows its own cards",
        vt.replace("hands=???/ooW", "hands=???/oo?"): "knows its own cards",
        vt.replace("hands=???/ooW", "hands=*??/ooW"): "not a card",
        vt.replace("deck=?", f"deck={h['deck'][0]}"): "nobody sees the deck's cards",
        vt.replace("deck=????", "deck=???B"): "nobody sees the deck's cards",
    }
    for text, reason in cases.items():
        with pytest.raises(NotationError, match=reason) as e:
            view_of(text)
        assert str(e.value).startswith(("hands:", "deck:"))
    # a card the seat drew in a view a search played on is * (unknown until chance reveals
    # it), and such views read back, whoever is to move
    v = st.view(0)
    v.apply(v.legal_moves()[0])
    assert v.to_text().count("*") == 1 and "?" not in v.to_text().split()[2].split("/")[0]
    assert view_of(v.to_text()) == v
    v.apply(v.legal_moves()[0])                 # seat 1's move: seat 0 to move, chance first
    assert view_of(v.to_text()) == v and v.chance_outcomes()
    assert v.chance_outcomes() == catsearch.from_text(GAME, v.to_text()).chance_outcomes()
    v.apply_chance(v.chance_outcomes()[0][0])
    assert "*" not in v.to_text()
    with pytest.raises(NotationError, match="cannot be in the deck|not a card"):
        view_of(vt.replace("deck=?", "deck=*"))


def test_every_accepted_view_determinizes_to_itself():
    from catsearch.testing.notations import check_accepted
    for players in (2, 3, 4):
        st = catsearch.new_game(GAME, players, seed=players)
        for ply in range(0, 60, 7):
            if st.is_terminal():
                break
            for s in range(players):
                v = view_of(st.view_text(s))
                for k in range(3):
                    assert v.determinize(s, seed=k).view_text(s) == v.to_text()
                check_accepted(v, seed=ply)
            for _ in range(7):
                if not st.is_terminal():
                    st.play(st.heuristic_move(seed=ply))


def test_out_holds_collected_herds_only():
    with pytest.raises(NotationError, match="orange cats cannot be in 1 collected orange"):
        position(["ppp", "bbb"], out="ooooO", won=[1, 0])
    with pytest.raises(NotationError, match="never a Stampede"):
        position(["ppp", "bbb"], out="ooSO", won=[1, 0])
    assert position(["ppp", "bbb"], out="ooWO", won=[1, 0]).scores() == [1.0, 0.0]


def test_an_opponent_cannot_play_a_card_whose_copies_the_view_has_seen():
    # seat 0 holds 2 Stampedes and sees the other 2 discarded: seat 1 cannot play or
    # discard one (the fuzz found 'xS' here, leaving a view with 5 Stampedes)
    text = ("players=4 turn=1 hands=pSS/ggg/ogg/obb deck=bOBWbogbgPGopboogpBbBgpOoGb herds=Gg "
            "discard=oppbbSS out=ooppppOPPWWW won=1,1,1,0 rng=0d27e7f3310ede27")
    st = catsearch.from_text(GAME, text)
    view = st.view(0)
    ms = [view.move_to_str(m) for m in view.legal_moves()]
    assert "S" not in ms and "xS" not in ms and "O" in ms
    assert set(st.legal_moves()) <= set(view.legal_moves())
    with pytest.raises(IllegalMoveError):
        view.play("xS")
    from catsearch.testing.notations import check_accepted
    check_accepted(st, seed=1)


@pytest.mark.parametrize("hands, herds, discard, want", [
    # a herd on the table: every card type playable but cats of colours without a herd;
    # 29 cats of colours without a herd are unseen: a discard of one is possible
    (["ppp", "???"], "B", "", ["O", "P", "B", "G", "b@0", "W@0", "S", "xo", "xp", "xg"]),
    # every purple cowdog is seat 0's: seat 1 cannot play one; a discard of an unplayable
    # unseen card (p, W: no herd) is possible
    (["PPP", "???"], "-", "ooooooooooppppppbbbbbbbbbbggggggggggOOOBBBGGGSSWWW",
     ["S", "xp", "xW"]),
    # three unknown cards, and only two unplayable unseen cards: no discard
    (["PPP", "???"], "-", "oooooooooopppppppppbbbbbbbbbbggggggggggOOOBBBGGGSSWWW", ["S"]),
])
def test_view_moves_for_another_seat_are_those_of_some_world(hands, herds, discard, want):
    known = sum(map(len, hands)) + len(herds.replace(",", "").replace("-", "")) + len(discard)
    text = (f"players=2 turn=1 hands={'/'.join(hands)} deck={'?' * (60 - known) or '-'} "
            f"herds={herds} discard={discard or '-'} out=- won=0,0 rng=? view=0")
    view = view_of(text)
    assert moves(view) == want
    for k in range(20):         # every world's moves are among the view's
        assert set(view.determinize(0, seed=k).legal_moves()) <= set(view.legal_moves())
