"""The Cat (``the-cat``): one test per ruling of RULINGS.md's The Cat section and issue 4,
mostly on explicit positions written in the notation, plus knowledge, views, determinization,
chance in views, notation and perft."""
import collections
import math

import numpy as np
import pytest

import catsearch
import catsearch.testing
from catsearch import IllegalMoveError, InvalidMoveError, NotationError

GAME = "the-cat"
RNG = "0123456789abcdef"

# A 2-player table (moods 1-9, 4 of each): seat 0 holds four finished piles, seat 1 two.
P2_DONE = "1111,2222,3333,4444/5559,6666,7777,8899"
C2_DONE = "5889"
# A 2-player table where pile 0 of each seat is one card short; centre 1 5 8 9.
P2_SHORT = "1119,2222,3333,4444/5559,6666,7777,8889"
C2_SHORT = "1589"


def position(players=2, piles=P2_SHORT, centre=C2_SHORT, held=None, known=None, chosen=None,
             tick=0, rtick=None, rnd=1, scores=None, target=20, turn=None, rng=RNG):
    """A full-state notation; by default each held pile is known to its owner, nothing else."""
    npiles = 3 if players == 4 else 4
    held = held or [None] * players
    if known is None:
        known = "/".join(",".join("oooo" if held[p] == k else "----" for k in range(npiles))
                         for p in range(players))
    chosen = chosen or ["-"] * players
    if turn is None:
        turn = next((p for p in range(players) if chosen[p] == "-"), 0)
    rtick = tick if rtick is None else rtick
    scores = scores or [0] * players
    return (f"players={players} target={target} round={rnd} tick={tick} rtick={rtick} "
            f"scores={','.join(map(str, scores))} turn={turn} chosen={','.join(chosen)} "
            f"held={','.join('-' if h is None else str(h) for h in held)} centre={centre} "
            f"piles={piles} known={known} rng={rng}")


def state(**kw):
    return catsearch.from_text(GAME, position(**kw))


def play_tick(st, *moves):
    """Every seat chooses (in seat order) one of ``moves``; the tick then resolves."""
    assert st.current_player == 0
    for m in moves:
        st.play(m)
    return st


# -- setup -------------------------------------------------------------------------------

@pytest.mark.parametrize("players,npiles,moods", [(2, 4, "123456789"), (3, 4, "123456789abcd"),
                                                  (4, 3, "123456789abcd")])
def test_setup_deck_piles_and_centre(players, npiles, moods):
    st = catsearch.new_game(GAME, players, seed=4)
    cards = st.cards()
    counts = collections.Counter(cards.values())
    assert counts == {m: 4 for m in moods}          # 2 players: moods 10-13 are left out
    assert sum(counts.values()) == 4 * len(moods) == 4 * (players * npiles + 1)
    for p in range(players):
        assert all(f"pile{p}.{k}.{i}" in cards for k in range(npiles) for i in range(4))
        assert f"pile{p}.{npiles}.0" not in cards
    assert len(st.centre) == 4 and all(f"centre.{j}" in cards for j in range(4))
    assert st.held == [None] * players and st.round == 1 and st.tick == 0
    assert st.scores() == [0] * players
    assert st.num_distinct_moves == 22
    assert [st.move_to_str(m) for m in st.legal_moves()] == \
        ["wait", "stop"] + [f"pick{k}" for k in range(npiles)]
    # the centre is public, no pile card is known to anyone yet
    know = st.knowledge()
    assert all(know[f"centre.{j}"] == frozenset(range(players)) for j in range(4))
    assert all(know[loc] == frozenset() for loc in know if loc.startswith("pile"))


def test_four_players_have_no_pile_3():
    st = catsearch.new_game(GAME, 4, seed=1)
    with pytest.raises(IllegalMoveError):
        st.play("pick3")
    with pytest.raises(NotationError):
        catsearch.from_text(GAME, st.to_text().replace("held=-,", "held=3,", 1))


# -- legal moves ---------------------------------------------------------------------------

def test_pick_swap_stop_wait_legality():
    st = state(held=[0, None])
    names = [st.move_to_str(m) for m in st.legal_moves()]
    # holding pile 0: not pick0; all 16 swaps, also between cards of one mood
    assert names == (["wait", "stop", "pick1", "pick2", "pick3"]
                     + [f"swap{i}{j}" for i in range(4) for j in range(4)])
    st.play("pick2")                  # seat 0 (its choice stays hidden until the tick resolves)
    assert st.held == [0, None]
    assert [st.move_to_str(m) for m in st.legal_moves()] == \
        ["wait", "stop", "pick0", "pick1", "pick2", "pick3"]
    with pytest.raises(IllegalMoveError):
        st.play("swap00")             # seat 1 holds nothing
    st.play("wait")
    assert st.held == [2, None]       # pick k puts the held pile back first


def test_a_pick_shows_the_pile_to_its_owner_only():
    st = state()
    play_tick(st, "pick2", "wait")
    know = st.knowledge()
    assert all(know[f"pile0.2.{i}"] == {0} for i in range(4))
    assert st.view(0).pile(0, 2) == "3333" and st.view(1).pile(0, 2) == "????"
    play_tick(st, "pick1", "wait")    # put back, still remembered
    assert st.held == [1, None]
    assert st.view(0).pile(0, 2) == "3333"


# -- first touch, Stop, priority --------------------------------------------------------

def test_first_touch_fails_the_later_swap_on_the_same_slot():
    # tick 0: seat 0 resolves first; both swap their card 3 with centre slot 0 (a 1)
    st = play_tick(state(held=[0, 0]), "swap30", "swap30")
    assert st.pile(0, 0) == "1111" and st.centre[0] == "9"
    assert st.pile(1, 0) == "5559", "seat 1's swap on slot 0 must fail (first touch)"
    assert st.knowledge()["pile1.0.3"] == {1}
    # a swap aimed at another slot in the same tick still happens
    st = play_tick(state(held=[0, 0]), "swap30", "swap31")
    assert st.pile(0, 0) == "1111" and st.pile(1, 0) == "5555" and st.centre == "9989"


def test_first_touch_goes_to_the_seat_with_priority():
    # tick 1: seat 1 resolves first and gets slot 0; seat 0's swap fails
    st = play_tick(state(held=[0, 0], tick=1), "swap30", "swap30")
    assert st.pile(1, 0) == "5551" and st.centre[0] == "9"
    assert st.pile(0, 0) == "1119"


@pytest.mark.parametrize("tick", range(6))
def test_priority_rotates_with_the_tick(tick):
    piles = "1112,2223,3334,4445/5556,6667,7778,8889/999a,aaab,bbbc,cccd"
    st = state(players=3, piles=piles, centre="1ddd", held=[0, 0, 0], tick=tick)
    play_tick(st, "swap30", "swap30", "swap30")
    winner = tick % 3
    for p in range(3):
        assert (st.knowledge()[f"pile{p}.0.3"] == {0, 1, 2}) == (p == winner)
    assert st.centre[0] == "26a"[winner]
    assert st.pile(winner, 0)[3] == "1"


def test_priority_tick_counts_across_rounds():
    piles = "1112,2223,3334,4445/5556,6667,7778,8889/999a,aaab,bbbc,cccd"
    st = state(players=3, piles=piles, centre="1ddd", tick=4)
    play_tick(st, "stop", "wait", "wait")            # ends round 1 after 5 ticks
    assert st.round == 2 and st.tick == 5 and st.round_tick == 0
    play_tick(st, "pick0", "pick0", "pick0")         # tick 5
    before = [st.pile(p, 0) for p in range(3)]
    play_tick(st, "swap00", "swap00", "swap00")      # tick 6: seat 6 % 3 = 0 first, not 1
    know = st.knowledge()
    assert know["pile0.0.0"] == {0, 1, 2}
    assert know["pile1.0.0"] == {1} and know["pile2.0.0"] == {2}
    assert st.pile(1, 0) == before[1] and st.pile(2, 0) == before[2]


def test_stop_voids_the_later_actions_of_its_tick():
    # tick 0: seat 0's Stop resolves first; seat 1's completing swap is void
    st = play_tick(state(held=[None, 0]), "stop", "swap31")
    assert st.scores() == [0, 2]          # caller wrong; seat 1: 6666 and 7777 only
    # tick 1: seat 1's swap resolves first (5555), then seat 0's Stop
    st = play_tick(state(held=[None, 0], tick=1), "stop", "swap31")
    assert st.scores() == [0, 3]
    # of several Stops only the first in priority order counts
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE), "stop", "stop")
    assert st.scores() == [5, 2]          # seat 0 called (tick 0), right
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE, tick=1), "stop", "stop")
    assert st.scores() == [4, 0]          # seat 1 called (tick 1), wrong


def test_between_rounds_nothing_is_held_and_a_new_deal_is_drawn():
    st = play_tick(state(held=[0, 0]), "stop", "wait")
    assert st.held == [None, None] and st.round == 2 and st.round_tick == 0
    assert st.current_player == 0 and st.chosen() == [None, None]
    assert all(v == frozenset() for k, v in st.knowledge().items() if k.startswith("pile"))
    assert sorted(st.cards().values()) == sorted("123456789" * 4)
    # the deal comes from the state's own generator: same generator, same deal
    again = play_tick(state(held=[0, 0]), "stop", "wait")
    other = play_tick(state(held=[0, 0], rng="fedcba9876543210"), "stop", "wait")
    assert again == st and other.cards() != st.cards()


# -- scoring -----------------------------------------------------------------------------

def test_caller_right_scores_piles_plus_bonus():
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE), "stop", "wait")
    assert st.scores() == [4 + 1, 2]


def test_caller_wrong_scores_nothing_and_others_score_their_piles():
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE), "wait", "stop")
    assert st.scores() == [4, 0]          # seat 1 has two finished piles but called wrongly


def test_caller_right_with_four_players_three_piles():
    piles = "1111,2222,3333/4444,5555,6667/7778,8889,999a/aaab,bbbc,cccd"
    st = state(players=4, piles=piles, centre="6ddd")
    play_tick(st, "stop", "wait", "wait", "wait")
    assert st.scores() == [3 + 1, 2, 0, 0]


def test_round_cap_ends_the_round_without_bonus():
    st = state(piles=P2_DONE, centre=C2_DONE, tick=199)
    play_tick(st, "wait", "wait")
    assert st.scores() == [4, 2] and st.round == 2 and st.round_tick == 0 and st.tick == 200
    st = state(piles=P2_DONE, centre=C2_DONE, tick=198)
    play_tick(st, "wait", "wait")
    assert st.scores() == [0, 0] and st.round == 1 and st.round_tick == 199
    st = state(piles=P2_DONE, centre=C2_DONE, tick=199)
    play_tick(st, "wait", "stop")         # a Stop in the 200th tick is a Stop: seat 1 wrong
    assert st.scores() == [4, 0]


# -- the end of the game -----------------------------------------------------------------

def test_game_ends_at_the_target():
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE, scores=[16, 0], rnd=3, tick=9, rtick=0),
                   "stop", "wait")
    assert st.is_terminal() and st.scores() == [21, 2] and st.returns() == [1.0, 0.0]
    assert st.current_player == -1 and st.legal_moves() == []
    # one point short: the game goes on
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE, scores=[14, 0], rnd=3, tick=9, rtick=0),
                   "stop", "wait")
    assert not st.is_terminal() and st.scores() == [19, 2] and st.round == 4
    # a non-caller reaching the target ends it too (seat 1 calls wrongly, seat 0 scores 4)
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE, scores=[16, 17], rnd=3, tick=9, rtick=0),
                   "wait", "stop")
    assert st.is_terminal() and st.scores() == [20, 17] and st.returns() == [1.0, 0.0]


def test_game_end_ties_share():
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE, scores=[15, 18], rnd=3, tick=9, rtick=0),
                   "stop", "wait")
    assert st.scores() == [20, 20] and st.returns() == [0.5, 0.5]


def test_the_twelve_point_option():
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE, scores=[8, 0], target=12, rnd=2,
                         tick=5, rtick=0), "stop", "wait")
    assert st.is_terminal() and st.scores() == [13, 2]
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE, scores=[8, 0], target=20, rnd=2,
                         tick=5, rtick=0), "stop", "wait")
    assert not st.is_terminal()
    g = catsearch.new_game(GAME, 3, seed=1, target=12)
    assert g.target == 12 and "target=12" in g.to_text()
    assert catsearch.new_game(GAME, 3, seed=1).target == 20
    with pytest.raises(ValueError, match="target"):
        catsearch.new_game(GAME, 3, target=15)
    with pytest.raises(ValueError, match="target"):
        catsearch.new_game(GAME, 3, speed=2)
    with pytest.raises(NotationError):
        catsearch.from_text(GAME, g.to_text().replace("target=12", "target=15"))


def test_game_cap_after_fifty_rounds():
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE, scores=[3, 7], rnd=50, tick=120, rtick=3),
                   "wait", "stop")
    assert st.is_terminal() and st.scores() == [7, 7] and st.returns() == [0.5, 0.5]
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE, scores=[3, 9], rnd=50, tick=120, rtick=3),
                   "wait", "stop")
    assert st.is_terminal() and st.returns() == [0.0, 1.0]
    st = play_tick(state(piles=P2_DONE, centre=C2_DONE, scores=[3, 7], rnd=49, tick=120, rtick=3),
                   "wait", "stop")
    assert not st.is_terminal() and st.round == 50


def test_random_games_end_within_the_caps():
    for seed in range(20):
        res = catsearch.benchmark_playouts(GAME, 3, games=1, seed=seed)
        assert 3 <= res["moves"] <= 50 * 200 * 3
    st = catsearch.testing.play_out(catsearch.new_game(GAME, 2, seed=3), seed=3)
    assert st.is_terminal()
    assert max(st.scores()) >= 20 or st.round == 50
    assert all(v == frozenset({0, 1}) for v in st.knowledge().values())


# -- hidden choices, views, knowledge ----------------------------------------------------

def test_a_later_seat_does_not_see_an_earlier_choice():
    st = state(held=[0, 0])
    st.play("swap30")
    assert st.chosen() == ["swap30", None]
    v1 = st.view(1)
    assert v1.chosen() == ["?", None] and "chosen=?,-" in v1.to_text()
    assert st.view(0).chosen() == ["swap30", None]
    # another choice by seat 0 gives seat 1 the same view
    other = state(held=[0, 0])
    other.play("wait")
    assert other.view_text(1) == st.view_text(1) and other.info_key(1) == st.info_key(1)
    assert other.info_key(0) != st.info_key(0)


def test_observe_move_hides_a_choice_from_the_other_seats():
    st = state(held=[0, 0])
    n = st.num_distinct_moves
    for m in st.legal_moves():
        assert st.observe_move(m, 0) == m
        assert st.observe_move(m, 1) == n == 22
    st.play("pick1")
    assert st.observe_move(1, 1) == 1 and st.observe_move(1, 0) == 22


def test_a_swap_is_public():
    st = play_tick(state(held=[0, None]), "swap30", "wait")
    know = st.knowledge()
    assert know["pile0.0.3"] == {0, 1}        # the card taken from the centre, at position 3
    assert know["pile0.0.0"] == {0}
    assert st.view(1).pile(0, 0) == "???1" and st.view(1).centre == "9589"


def test_determinize_draws_hidden_choices_uniformly_from_the_legal_actions():
    st = state(held=[0, None])
    st.play("swap30")
    seen = collections.Counter()
    for i in range(2100):
        d = st.determinize(1, seed=i)
        seen[d.chosen()[0]] += 1
        assert d.chosen()[1] is None
    legal = [st.move_to_str(m) for m in state(held=[0, None]).legal_moves()]
    assert set(seen) == set(legal) and len(legal) == 21
    stat = sum((seen[m] - 100) ** 2 / 100 for m in legal)
    assert stat < 60.0, seen                   # chi-square, 20 degrees of freedom, p ~ 1e-5
    # no peeking: the true choice does not change what the determinization draws
    other = state(held=[0, None])
    other.play("wait")
    assert all(st.determinize(1, seed=s) == other.determinize(1, seed=s) for s in range(20))
    # the seat's own choice is kept
    assert all(st.determinize(0, seed=s).chosen()[0] == "swap30" for s in range(20))


def test_determinize_keeps_public_swaps_and_own_piles():
    st = play_tick(state(held=[0, None]), "swap30", "pick2")
    for seed in range(30):
        d = st.determinize(1, seed=seed)
        assert d.pile(0, 0)[3] == "1" and d.pile(1, 2) == "7777" and d.centre == "9589"
        assert d.view_text(1) == st.view_text(1)


def test_the_next_deal_is_hidden():
    known = "oooo,oooo,oooo,oooo/----,----,----,----"
    st = state(piles=P2_DONE, centre=C2_DONE, known=known)
    v = st.view(0)
    assert "rng=?" in v.to_text()
    a = play_tick(st.determinize(0, seed=1), "stop", "wait")
    b = play_tick(st.determinize(0, seed=2), "stop", "wait")
    assert a.scores()[0] == b.scores()[0] == 5
    assert a.cards() != b.cards()
    assert a.round == b.round == 2


# -- views that play on: chance ------------------------------------------------------------

def test_a_view_waits_for_chance_to_reveal_hidden_choices():
    st = state(held=[0, 0])
    st.play("swap30")
    v = st.view(1)
    v.play("swap30")                    # seat 1 is last: the tick needs seat 0's hidden choice
    assert v.current_player == -1 and "phase=resolve" in v.to_text()
    assert catsearch.from_text(GAME, v.to_text()).to_text() == v.to_text()
    ch = v.chance_outcomes()
    assert len(ch) == 21 and all(math.isclose(w, 1 / 21) for _, w in ch)
    assert {o - 32 for o, _ in ch} == set(state(held=[0, 0]).legal_moves())
    v.apply_chance(32 + st.str_to_move("swap30"))
    # resolved as in the real game: seat 0 took slot 0 first, seat 1's swap failed; the card
    # seat 0 put into the centre is now seen by seat 1, so chance reveals it
    assert v.current_player == 0 and v.pile(1, 0) == "5559" and v.centre == "?589"
    assert v.pile(0, 0) == "???1" and v.hash == v.recompute_hash()
    ch = dict(v.chance_outcomes())
    # seat 1 has seen 5559, the centre's 5 8 9 and the 1 now in seat 0's pile: no 5 is left
    assert 4 not in ch and math.isclose(sum(ch.values()), 1.0)
    v.apply_chance(8)
    assert v.centre == "9589" and v.chance_outcomes() == []


def test_a_view_records_another_seats_choice_as_hidden():
    """``apply_hidden``: in seat 0's view, seat 1's choice of the tick is not seen by seat 0;
    it is recorded as unknown and chance reveals it when the tick resolves."""
    st = state(held=[0, 0])
    assert not st.apply_hidden()                       # a full state sees every choice
    v = st.view(0)
    assert not v.apply_hidden()                        # seat 0 decides its own choice
    v.play("swap30")
    before = v.to_text()
    assert v.current_player == 1 and v.apply_hidden()
    assert v.current_player == -1 and "phase=resolve" in v.to_text() and v.to_text() != before
    assert v.hash == v.recompute_hash()
    assert not v.apply_hidden()                        # nobody left to choose in this tick
    ch = v.chance_outcomes()
    assert {o - 32 for o, _ in ch} == set(st.view(1).legal_moves()) and len(ch) == 21
    v.apply_chance(32 + st.str_to_move("wait"))
    assert v.current_player == 0 and v.centre[0] != "?" and v.hash == v.recompute_hash()


def test_a_view_reveals_a_pile_its_seat_picks_up():
    st = state()
    v = st.view(0)
    play_tick(v, "pick1", "wait")
    ch = dict(v.chance_outcomes())
    # seat 0 has seen the centre (1 5 8 9) only: of the 32 other cards, 4 of each mood but
    # 3 of moods 1, 5, 8, 9
    assert math.isclose(sum(ch.values()), 1.0) and len(ch) == 9
    assert math.isclose(ch[1], 4 / 32) and math.isclose(ch[0], 3 / 32)
    for _ in range(4):
        v.apply_chance(1)
    assert v.pile(0, 1) == "2222" and v.chance_outcomes() == []
    d = v.determinize(0, seed=3)
    assert d.pile(0, 1) == "2222" and "?" not in d.to_text()


def test_a_view_scores_a_round_after_revealing_what_scoring_needs():
    st = state(piles=P2_DONE, centre=C2_DONE, held=[0, None])
    v = st.view(0)
    play_tick(v, "stop", "wait")
    assert "phase=score:0" in v.to_text() and v.current_player == -1
    assert catsearch.from_text(GAME, v.to_text()).to_text() == v.to_text()
    reveals = 0
    with pytest.raises(IllegalMoveError, match="chance"):
        v.legal_moves()
    while v.chance_outcomes():
        v.apply_chance(v.chance_outcomes()[-1][0])   # always the highest mood seen
        reveals += 1
        assert v.hash == v.recompute_hash()
    assert reveals > 0
    assert v.current_player == 0 and v.round == 2
    assert v.scores()[1] == 0 and v.scores()[0] in (0, 5)


# -- notation, moves, picture ---------------------------------------------------------------

def test_move_text():
    st = state(held=[0, None])
    names = [st.move_to_str(m) for m in range(22)]
    assert names[:6] == ["wait", "stop", "pick0", "pick1", "pick2", "pick3"]
    assert names[6 + 4 * 1 + 3] == "swap13"
    assert all(st.str_to_move(t) == m for m, t in enumerate(names))
    assert st.str_to_move("swap 1 3") == 6 + 4 + 3 and st.str_to_move("pick 2") == 4
    for bad in ("swap4", "swap44", "pick", "swop13", "stop!", ""):
        with pytest.raises(InvalidMoveError, match="wait, stop"):
            st.str_to_move(bad)


@pytest.mark.parametrize("change,where", [
    (("centre=1589", "centre=1580"), "centre"),
    (("centre=1589", "centre=158"), "centre"),
    (("piles=1119,", "piles=1119?"), "piles"),
    (("piles=1119", "piles=1118"), "cards"),
    (("held=0,-", "held=4,-"), "held"),
    (("held=0,-", "held=1,-"), "held"),
    (("chosen=-,-", "chosen=swap00,swap00"), "chosen"),
    (("chosen=-,-", "chosen=-,wait"), "chosen"),
    (("chosen=-,-", "chosen=pick0,-"), "chosen"),
    (("chosen=-,-", "chosen=?,-"), "chosen"),
    (("known=oooo", "known=oxoo"), "known"),
    (("turn=0", "turn=1"), "turn"),
    (("turn=0", "turn=-"), "turn"),
    (("tick=0", "tick=5"), "tick"),
    (("rng=0123456789abcdef", "rng=?"), "rng"),
])
def test_bad_notation_names_the_field(change, where):
    text = position(held=[0, None])
    assert change[0] in text
    with pytest.raises(NotationError, match=where):
        catsearch.from_text(GAME, text.replace(*change, 1))


def test_view_notation_shows_only_known_cards():
    view = state(held=[0, None]).view_text(1)
    with pytest.raises(NotationError, match="rng"):
        catsearch.from_text(GAME, view.replace("rng=?", f"rng={RNG}"))
    text = position(held=[0, None], rng="?") + " view=1"
    with pytest.raises(NotationError, match="does not know"):
        catsearch.from_text(GAME, text)       # seat 1's view cannot show seat 0's pile 0
    st = state(held=[0, None])
    assert catsearch.from_text(GAME, st.view_text(1)).pile(0, 0) == "????"


def test_str_shows_centre_piles_scores_tick_and_round():
    st = state(held=[0, None], scores=[3, 4], rnd=2, tick=9, rtick=4)
    text = str(st)
    assert "round 2" in text and "tick 9" in text and "1 5 8 9" in text
    assert "score 3" in text and "score 4" in text and "[1119]" in text
    v = str(st.view(1))
    assert "????" in v and "5559" not in v and "seat 1's view" in v


def test_heuristic_calls_stop_when_right_and_swaps_in_what_it_needs():
    st = state(piles=P2_DONE, centre=C2_DONE)
    # seat 0 has not looked at its piles: it looks before it calls
    assert st.move_to_str(st.heuristic_move()).startswith("pick")
    known = "oooo,oooo,oooo,oooo/----,----,----,----"
    st = state(piles=P2_DONE, centre=C2_DONE, known=known)
    assert st.move_to_str(st.heuristic_move()) == "stop"
    st = state(held=[0, None])
    assert st.move_to_str(st.heuristic_move()) == "swap30"     # the 9 out, the centre 1 in


def test_evaluate_prefers_the_leader():
    st = state(piles=P2_DONE, centre=C2_DONE, scores=[10, 2], rnd=3, tick=9, rtick=0)
    ev = st.evaluate()
    assert math.isclose(sum(ev), 1.0) and ev[0] > ev[1]


# -- observations (issue 15): what the game master sends each seat ------------------------

from catsearch import ObservationError  # noqa: E402

HELD0 = dict(held=[0, None])                       # seat 0 holds pile 0 (1119), centre 1589
BOTH = dict(held=[0, 3], known="oooo,----,----,----/----,----,----,oooo")


def follow(st, moves):
    """Play ``moves`` on ``st``, every seat's view following its observations; the texts."""
    views = [st.view(s) for s in range(st.players)]
    texts = []
    for m in moves:
        row = [st.observation(s, m) for s in range(st.players)]
        codes = [views[s].play_observation(row[s]) for s in range(st.players)]
        assert codes == [st.observe_move(st.str_to_move(m), s) for s in range(st.players)]
        st.play(m)
        for s in range(st.players):
            assert views[s].to_text() == st.view_text(s)
            assert views[s].hash == st.view(s).hash == views[s].recompute_hash()
        texts.append(row)
    return texts, views


def test_observation_a_choice_is_seen_by_its_seat_only():
    texts, _ = follow(state(**HELD0), ["swap30"])
    assert texts == [["swap30", "hidden"]]


def test_observation_the_last_choice_shows_every_seats_effect():
    texts, views = follow(state(**HELD0), ["swap30", "pick3"])
    # seat 0 sees its swap and seat 1's pick; seat 1 also sees the cards it picked up
    assert texts[1] == ["hidden:swap30=9,pick3", "pick3:swap30=9,pick3=8889"]
    assert views[0].pile(0, 0) == "1111" and views[1].pile(0, 0) == "???1"
    assert views[1].pile(1, 3) == "8889" and views[0].pile(1, 3) == "????"


def test_observation_first_touch_a_failed_swap_shows_nothing():
    texts, _ = follow(state(**BOTH), ["swap30", "swap30"])
    assert texts[1] == ["hidden:swap30=9,-", "swap30:swap30=9,-"]
    texts, _ = follow(state(tick=1, **BOTH), ["swap30", "swap30"])
    assert texts[1] == ["hidden:-,swap30=9", "swap30:-,swap30=9"]


def test_observation_a_swap_that_changes_nothing_visible_shows_nothing():
    # seat 0's card 3 (a 9, known to all) goes for the 9 in centre slot 3: nothing to see
    st = state(held=[0, None], known="ooo*,----,----,----/----,----,----,----")
    texts, _ = follow(st, ["swap33", "wait"])
    assert texts[1] == ["hidden:-,-", "wait:-,-"]


SAME_MOOD = dict(players=3, piles="5222,3333,4444,6666/5557,8888,9999,aaaa/bbbb,cccc,dddd,1127",
                 centre="1177", held=[0, 0, None],
                 known="oooo,----,----,----/oooo,----,----,----/----,----,----,----")


def test_observation_same_mood_slots_are_named_in_seat_order():
    # centre 1 1 7 7: seats 0 and 1 each swap their hidden 5 for a 1; seat 2 cannot tell which
    # seat took which slot, both put a 5 in: it is told the first slots in seat order
    st = state(**SAME_MOOD)
    texts, _ = follow(st, ["swap01", "swap00", "wait"])
    assert texts[2] == ["hidden:swap01=5,swap00=5,-", "hidden:swap01=5,swap00=5,-",
                        "wait:swap00=5,swap01=5,-"]
    with pytest.raises(ObservationError, match="first ones"):
        st2 = state(**SAME_MOOD)
        st2.play("swap01")
        st2.play("swap00")
        st2.view(2).play_observation("wait:swap01=5,swap00=5,-")


def test_observation_round_end_shows_points_and_the_new_centre():
    texts, views = follow(state(**HELD0), ["swap30", "pick3", "stop", "wait"])
    assert texts[2] == ["stop", "hidden"]
    assert texts[3] == ["hidden:scored=5,2:centre=6281", "wait:scored=5,2:centre=6281"]
    assert views[0].scores() == [5, 2] and views[0].centre == "6281"


def test_observation_game_end_shows_every_pile():
    texts, views = follow(state(scores=[16, 0], **HELD0), ["swap30", "pick3", "stop", "wait"])
    end = ":scored=5,2:centre=9589:piles=1111,2222,3333,4444/5559,6666,7777,8889"
    assert texts[3] == ["hidden" + end, "wait" + end]
    assert views[1].is_terminal() and views[1].scores() == [21, 2]


def test_the_issue_leak_a_view_refuses_another_seats_choice_in_clear():
    st = catsearch.new_game(GAME, 2, seed=3)
    view = st.view(1)
    before = view.to_text()
    with pytest.raises(ObservationError, match="hidden from seat 1"):
        view.play_observation("wait")
    assert view.to_text() == before
    view.play_observation(st.observation(1, "wait"))
    st.play("wait")
    assert view.to_text() == st.view_text(1) and "chosen=?,-" in view.to_text()


BAD_OBSERVATIONS = [
    # (seat whose view, moves played before, observation, what the message says)
    (0, [], "hidden", "own choice is shown in clear"),
    (0, [], "swap00", "not legal"),                          # seat 0 holds no pile
    (0, [], "pick1:-,-", "does not resolve the tick"),
    (0, [], "jump", "not a choice"),
    (1, [], "pick1", "hidden from seat 1"),
    (1, ["pick1"], "wait", "expected wait:"),
    (1, ["pick1"], "wait:pick1", "expected 2 effects"),
    (1, ["pick1"], "wait:pick1=1234,-", "only seat 0 sees them"),
    (0, ["pick1"], "hidden:pick1,-", "sees the cards of the pile"),
    (0, ["pick1"], "hidden:pick2=2222,-", "chose pick1"),
    (0, ["pick1"], "hidden:-,-", "a pick always happens"),
    (0, ["pick1"], "hidden:swap00=1,-", "holds no pile"),
    (0, ["pick1"], "hidden:pick1=2222,swap00=5,", "expected 2 effects"),
    (0, ["pick1"], "hidden:pick1=2222,swap00=2", "5 cards of mood 2"),
    (0, ["pick1"], "hidden:pick1=2222,swap00=0", "expected 1 card"),
    (1, ["pick1"], "wait:pick1=2222,-", "only seat 0"),
    (1, ["pick1"], "wait:pick5,-", "piles 0 to 3"),
    (1, ["pick1"], "wait:pick1,jump", "not an effect"),
    (1, ["stop"], "wait:pick1,-", None),                     # fine: seat 0's stop is hidden
    (0, ["stop"], "hidden:-,-", "called stop"),
    (0, ["stop"], "hidden:scored=9,0:centre=1234", "cannot be scored"),
    (0, ["stop"], "hidden:scored=0,0:centre=12", "expected 4 card"),
    (0, ["stop"], "hidden:scored=0,0:centre=123d", "expected 4 card"),
    (0, ["stop"], "hidden:scored=0,0:centre=1234:piles=" + P2_SHORT, "game goes on"),
]


@pytest.mark.parametrize("seat,before,text,reason", BAD_OBSERVATIONS)
def test_bad_observations_are_refused_and_leave_the_view_unchanged(seat, before, text, reason):
    st = state(held=[None, 0], known="----,----,----,----/oooo,----,----,----")
    for m in before:
        st.play(m)
    view = st.view(seat)
    was = (view.to_text(), view.hash)
    if reason is None:
        view.play_observation(text)
        return
    with pytest.raises(ObservationError, match=reason):
        view.play_observation(text)
    assert (view.to_text(), view.hash) == was


def test_observation_more_cards_of_a_mood_than_exist_is_refused():
    # seat 1 holds pile 0 (5559) and the centre shows 5: seat 0 cannot be shown a fifth 5
    st = state(held=[None, 0], known="----,----,----,----/oooo,----,----,----")
    st.play("pick1")
    view = st.view(0)
    view_before = view.to_text()
    view2 = st.view(0)
    view2.play_observation("hidden:pick1=2222,-")      # fine
    with pytest.raises(ObservationError, match="5 cards of mood 5"):
        view.play_observation("hidden:pick1=5555,-")
    assert view.to_text() == view_before


def test_observation_a_card_that_contradicts_the_view_is_refused():
    # a swap made card 3 of seat 0's pile 1 public: it is a 1
    st = state(held=[None, 0], known="----,---*,----,----/oooo,----,----,----",
               piles="1119,2221,3333,4444/5559,6666,7777,8889", centre="2589")
    st.play("pick1")
    view = st.view(0)
    with pytest.raises(ObservationError, match="card 3 of seat 0's pile 1 is 1"):
        view.play_observation("hidden:pick1=2222,-")
    view.play_observation("hidden:pick1=2221,-")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_law_of_observations(players):
    report = catsearch.testing.check_observations(GAME, players, games=1, seed=7)
    assert report["observations"] > 0 and report["leak_checks"] > 0


def test_the_law_of_observations_short_game():
    catsearch.testing.check_observations(GAME, 3, games=1, seed=8, options={"target": 12})


@pytest.mark.parametrize("move", ["wait", "stop", "pick2", "swap13"])
def test_observation_of_each_choice_for_the_mover_and_the_others(move):
    st = state(players=3, piles=SAME_MOOD["piles"], centre="1177", held=[0, None, None],
               known="oooo,----,----,----/----,----,----,----/----,----,----,----")
    texts, views = follow(st, [move])
    assert texts == [[move, "hidden", "hidden"]]
    assert views[1].chosen() == ["?", None, None] and views[0].chosen() == [move, None, None]


def test_observation_round_cap():
    # the 200th tick of the round resolves with no Stop: the round ends, no bonus
    st = state(tick=199, rtick=199, **HELD0)
    texts, views = follow(st, ["wait", "wait"])
    assert texts[1][0].startswith("hidden:scored=3,2:centre=")
    assert views[0].round == 2 and views[0].scores() == [3, 2]
    bad = state(tick=199, rtick=199, **HELD0)
    bad.play("wait")
    with pytest.raises(ObservationError, match="round ends"):
        bad.view(1).play_observation("wait:-,-")


# -- tensors (docs/rules/the-cat.rst, "Tensors") -----------------------------------------------

def parts(st, t, kind):
    """The tensor ``t`` of ``kind`` cut into its named parts."""
    return {p.name: t[p.start:p.stop] for p in st.tensor_layout(kind)}


def lit(a):
    """The indices of the non-zero elements."""
    return np.flatnonzero(a).tolist()


OBS_PARTS = ["turn", "priority", "chosen", "own_choice", "held", "centre", "hand", "scores",
             "round", "round_tick", "short_game", "phase", "stop_caller"]
INFO_PARTS = OBS_PARTS + ["others_choices", "piles", "known"]


@pytest.mark.parametrize("players,obs,info", [(2, 117, 491), (3, 158, 970), (4, 163, 1045)])
def test_tensor_layouts(players, obs, info, check_tensor_layouts):
    st = catsearch.new_game(GAME, players, seed=1)
    n, npiles, moods = players, (3 if players == 4 else 4), (9 if players == 2 else 13)
    want = dict(turn=n, priority=n, chosen=n, own_choice=22, held=n * npiles,
                centre=4 * moods, hand=4 * moods, scores=n, round=1, round_tick=1,
                short_game=1, phase=2, stop_caller=n, others_choices=(n - 1) * 22,
                piles=n * npiles * 4 * moods, known=n * npiles * 4 * n)
    check_tensor_layouts(st, want, {"observation": OBS_PARTS, "information_state": INFO_PARTS},
                         {"observation": obs, "information_state": info})


# round 2, tick 5 (seat 1 has priority), the round's third tick: seat 0 holds pile 0 (1119)
# and has chosen swap30; seat 1
# holds pile 3 (8889); the first card of seat 0's pile 1 (a 2) is known to everyone
TENSOR_POS = dict(held=[0, 3], known="oooo,*---,----,----/----,----,----,oooo",
                  chosen=["swap30", "-"], tick=5, rtick=2, scores=[3, 7], rnd=2)


def test_tensor_values_in_a_hand_made_position():
    st = state(**TENSOR_POS)
    o1 = parts(st, st.observation_tensor(1), "observation")
    # seat 1 is "self" (index 0), seat 0 is the next seat (index 1)
    assert lit(o1["turn"]) == [0] and lit(o1["priority"]) == [0] and lit(o1["chosen"]) == [1]
    assert lit(o1["own_choice"]) == []
    assert lit(o1["held"]) == [3, 4 + 0]                     # own pile 3, seat 0's pile 0
    assert lit(o1["centre"]) == [0 * 9 + 0, 1 * 9 + 4, 2 * 9 + 7, 3 * 9 + 8]      # 1 5 8 9
    assert lit(o1["hand"]) == [0 * 9 + 7, 1 * 9 + 7, 2 * 9 + 7, 3 * 9 + 8]        # 8 8 8 9
    assert o1["scores"].tolist() == pytest.approx([7 / 24, 3 / 24])
    assert o1["round"][0] == pytest.approx(2 / 50) and o1["round_tick"][0] == pytest.approx(2 / 200)
    assert lit(o1["short_game"]) == lit(o1["phase"]) == lit(o1["stop_caller"]) == []
    i1 = parts(st, st.information_state_tensor(1), "information_state")
    for name in OBS_PARTS:
        assert np.array_equal(i1[name], o1[name])
    assert lit(i1["others_choices"]) == []                   # seat 0's choice is hidden
    # the cards seat 1 knows: its pile 3, and seat 0's pile 1 card 0 (mood 2)
    slot = lambda r, k, i: (r * 4 + k) * 4 + i
    assert lit(i1["piles"]) == ([slot(0, 3, i) * 9 + c for i, c in enumerate((7, 7, 7, 8))]
                                + [slot(1, 1, 0) * 9 + 1])
    assert lit(i1["known"]) == ([slot(0, 3, i) * 2 + 0 for i in range(4)]      # by seat 1
                                + [slot(1, 0, i) * 2 + 1 for i in range(4)]    # by seat 0
                                + [slot(1, 1, 0) * 2, slot(1, 1, 0) * 2 + 1])  # by both
    # seat 0 sees its own choice, swap30 (move 18), and its own pile 0
    o0 = parts(st, st.observation_tensor(0), "observation")
    assert lit(o0["own_choice"]) == [18] and lit(o0["chosen"]) == [0]
    assert lit(o0["turn"]) == [1] and lit(o0["priority"]) == [1]
    assert lit(o0["hand"]) == [0, 9, 18, 27 + 8]                                  # 1 1 1 9
    assert o0["scores"].tolist() == pytest.approx([3 / 24, 7 / 24])
    assert st.observation_tensor(1).dtype == np.float32


def test_tensors_never_show_another_seats_hidden_cards_or_choice():
    st = state(**TENSOR_POS)
    # seat 0 chose something else and its unseen cards lie elsewhere: the same for seat 1
    other = state(**dict(TENSOR_POS, chosen=["stop", "-"],
                         piles="5559,2223,3332,4444/1119,6666,7777,8889"))
    assert other.info_key(1) == st.info_key(1) and other.info_key(0) != st.info_key(0)
    for f in ("observation_tensor", "information_state_tensor"):
        assert np.array_equal(getattr(st, f)(1), getattr(other, f)(1))
        assert not np.array_equal(getattr(st, f)(0), getattr(other, f)(0))
    assert np.array_equal(st.view(1).information_state_tensor(1),
                          st.information_state_tensor(1))


def test_tensors_of_a_view_waiting_for_chance_and_of_the_end():
    st = state(held=[0, 0])
    st.play("swap30")
    v = st.view(1)
    v.play("swap30")                     # the tick waits for seat 0's hidden choice
    o = parts(v, v.observation_tensor(1), "observation")
    assert lit(o["turn"]) == [] and lit(o["phase"]) == [0] and lit(o["chosen"]) == [0, 1]
    v.apply_chance(32 + st.str_to_move("wait"))  # seat 0 waited: the tick resolves
    assert lit(parts(v, v.observation_tensor(1), "observation")["phase"]) == []
    end = state(piles=P2_DONE, centre=C2_DONE, held=[0, None], scores=[8, 0], target=12)
    play_tick(end, "stop", "wait")
    assert end.is_terminal()
    i = parts(end, end.information_state_tensor(1), "information_state")
    assert lit(i["turn"]) == [] and lit(i["short_game"]) == [0] and lit(i["held"]) == []
    # seat 0 called right (4 piles + 1): 13 points; seat 1 has 2 piles done (of at most 16)
    assert i["scores"].tolist() == pytest.approx([2 / 16, 13 / 16])
    assert len(lit(i["known"])) == 2 * 4 * 4 * 2              # every card known to both
    assert len(lit(i["piles"])) == 2 * 4 * 4


# -- views hold exactly what their seat knows (issue 33) -------------------------------------

def test_a_view_refuses_unknown_cards_its_seat_knows():
    st = catsearch.new_game(GAME, 2, seed=3)
    st.play("pick0")
    st.play("wait")
    vt = st.view_text(0)                       # piles=3731,... known=oooo,...
    assert "known=oooo" in vt
    i = vt.index("piles=") + 6
    with pytest.raises(NotationError, match="^piles: seat 0 knows card 0 of seat 0's pile 0"):
        catsearch.from_text(GAME, vt[:i] + "?" + vt[i + 1:])
    i = vt.index("centre=") + 7
    with pytest.raises(NotationError, match="^centre: the centre is public"):
        catsearch.from_text(GAME, vt[:i] + "?" + vt[i + 1:])
    with pytest.raises(NotationError, match="^phase: phase=reveal waits for cards"):
        catsearch.from_text(GAME, vt.replace(" view=0", " phase=reveal view=0"))
    with pytest.raises(NotationError, match="only a seat's view"):
        catsearch.from_text(GAME, st.to_text() + " phase=reveal")


def test_a_view_a_search_played_on_waits_to_reveal_and_reads_back():
    st = catsearch.new_game(GAME, 2, seed=3)
    v = st.view(0)
    v.play("pick1")
    v.play("wait")                             # seat 1's move, played on seat 0's view
    text = v.to_text()
    assert "known=----,oooo" in text and "phase=reveal" in text and v.chance_outcomes()
    assert catsearch.from_text(GAME, text) == v
    for _ in range(4):
        v.apply_chance(v.chance_outcomes()[0][0])
    assert "phase" not in v.to_text() and catsearch.from_text(GAME, v.to_text()) == v


def test_every_accepted_view_determinizes_to_itself():
    from catsearch.testing.notations import check_accepted
    for players in (2, 3, 4):
        st = catsearch.new_game(GAME, players, seed=players)
        for ply in range(40):
            if st.is_terminal():
                break
            if ply % 5 == 0:
                for s in range(players):
                    v = catsearch.from_text(GAME, st.view_text(s))
                    for k in range(2):
                        assert v.determinize(s, seed=k).view_text(s) == v.to_text()
                    check_accepted(v, seed=ply)
            st.play(st.heuristic_move(seed=ply))
