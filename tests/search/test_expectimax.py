"""Expectimax: exact values on hand-built endgames, pruning that changes nothing but the node
count, no peeking, limits and options, and strength against the random player.

Everything generic is parametrized over ``catsearch.GAMES``, so each game is covered as it
lands; the hand-built endgames are Herding Cats positions written in its notation.
"""
import math
import threading

import pytest

import catsearch
from catsearch.arena import run_match
from catsearch.search import Expectimax, Limits, SearchResult, make_player
from catsearch.search.expectimax import DEFAULT_DEPTH, DEFAULT_NODES
from catsearch.testing import random_game_states

CASES = [(g, p) for g in catsearch.GAMES for p in (2, 3, 4)]
IDS = [f"{g}-{p}p" for g, p in CASES]
#: CASES with The Cat's 3- and 4-player cases in the slow tier (its chance enumeration makes
#: each cost seconds; 2 players keeps it in the fast tier)
FAST_CASES = [pytest.param(g, p, marks=pytest.mark.slow) if g == "the-cat" and p > 2
              else (g, p) for g, p in CASES]


#: The Cat follows a tick's hidden choices past the horizon to their resolution, so the same
#: depth costs it far more nodes: its tests search one ply less deep
SHALLOWER = {"the-cat": 1}


def depth_for(game_id, depth):
    return max(1, depth - SHALLOWER.get(game_id, 0))


def sample_positions(game_id, players, games, seed, every, limit=16):
    """Non-terminal positions along random games (every ``every``-th), cloned; at most
    ``limit`` of them, spread evenly (the games differ much in length)."""
    out = []
    for i, (st, move) in enumerate(random_game_states(game_id, players, games, seed)):
        if move is not None and i % every == 0:
            out.append(st.clone())
    if len(out) > limit:
        out = [out[i * len(out) // limit] for i in range(limit)]
    return out


# -- exact values on tiny Herding Cats endgames ------------------------------------------------

def hc_discard(**taken):
    """The discard pile holding every card of the deck but ``taken`` (type letter -> count)."""
    full = dict(o=10, p=10, b=10, g=10, O=3, P=3, B=3, G=3, S=4, W=4)
    for card, n in taken.items():
        full[card] -= n
    return "".join(card * n for card, n in full.items())


def hc(players, turn, hands, deck, herds, taken, won=None):
    won = won or ",".join("0" * players)
    text = (f"players={players} turn={turn} hands={hands} deck={deck} herds={herds} "
            f"discard={hc_discard(**taken)} out=- won={won} rng=0000000000000001")
    return catsearch.from_text("herding-cats", text)


class TestExactEndgames:
    """Positions small enough to work out by hand. Every card but the few in play lies face up
    in the discard pile (4 Stampedes included, so none is unseen); seat 0 searches."""

    @pytest.mark.parametrize("pruning", ["none", "star1", "star2"])
    def test_one_card_deck_forced_line(self, pruning):
        # Seat 0 holds bbb; a herd Ooo (two cats) is on the table. Unseen by seat 0: seat 1's
        # three cards and the one card of the deck, which are b b b W. Blue cats are never
        # playable (no blue herd, no blue cowdog left), so seat 0 discards, draws the last
        # card, and whoever first holds the W at their turn completes the orange herd: seat
        # 1 (it holds the W with probability 3/4) at once, else seat 0, which drew it (1/4).
        st = hc(2, 0, "bbb/bbb", "W", "Ooo", dict(o=2, O=1, b=6, W=1))
        r = Expectimax(depth=7, pruning=pruning, max_chance=0, forced="search").search(st)
        assert r.move == st.str_to_move("xb")
        assert r.value == pytest.approx((1 / 4, 3 / 4), abs=1e-12)
        assert r.depth == 7        # seven cards left to play: the whole game was searched

    def test_two_card_deck(self):
        # As above with the unseen cards b b b b W: seat 1 holds the W (3/5) and plays it at
        # once; the W is the deck's top card (1/5): seat 0 draws it and completes the herd on
        # its next turn; it is the second card (1/5): seat 1 draws it and completes the herd
        # before seat 0 can. Seat 0 wins with probability 1/5.
        st = hc(2, 0, "bbb/bbb", "bW", "Ooo", dict(o=2, O=1, b=7, W=1))
        r = Expectimax(depth=8, max_chance=0, forced="search").search(st)
        assert r.value[0] == pytest.approx(1 / 5, abs=1e-12)

    @pytest.mark.parametrize("pruning", ["none", "star1", "star2"])
    def test_choice_under_uncertainty(self, pruning):
        # Seat 0 holds W b b; on the table an orange herd Oo and a purple herd Pp, one cat
        # each. Unseen: o b b b (seat 1's three cards and the deck's one). Seat 0 must play
        # its Wild Cat Lady, on one herd or the other:
        # - W@0 (orange herd at two cards): seat 1 holds the o with probability 3/4 and
        #   completes it; else seat 0 draws the o and completes it next turn: value 1/4.
        # - W@1 (purple herd at two cards): nobody holds a purple cat or a W, the o goes onto
        #   the orange herd, which then has two cards and nothing left to complete it: no
        #   herd is won, a tie, value 1/2 whatever the cards.
        st = hc(2, 0, "bbW/obb", "b", "Oo,Pp", dict(o=2, O=1, p=1, P=1, b=5, W=1))
        r = Expectimax(depth=7, pruning=pruning, max_chance=0, forced="search").search(st)
        assert r.move == st.str_to_move("W@1")
        assert r.value == pytest.approx((0.5, 0.5), abs=1e-12)
        assert r.stats[st.str_to_move("W@1")].mean == pytest.approx(0.5, abs=1e-12)
        w0 = r.stats[st.str_to_move("W@0")].mean
        if pruning == "none":
            assert w0 == pytest.approx(0.25, abs=1e-12)
        else:
            assert w0 <= 0.5        # a pruned move's mean is an upper bound on its value

    @pytest.mark.parametrize("mode", ["maxn", "paranoid"])
    def test_three_players(self, mode):
        # Three seats, deck empty. Seat 0 holds W; seats 1 and 2 one card each, o and b in
        # some order (1/2 each). Herds Oo and Pp, one cat each.
        # - W@0: whoever holds the o completes the orange herd and wins: (0, 1/2, 1/2).
        # - W@1: the o only brings the orange herd to two cards: nobody scores, a three-way
        #   tie (1/3, 1/3, 1/3), which seat 0 prefers in both valuations.
        st = hc(3, 0, "W/o/b", "-", "Oo,Pp", dict(o=2, O=1, p=1, P=1, b=1, W=1))
        r = Expectimax(depth=3, mode=mode, pruning="none", max_chance=0).search(st)
        assert r.move == st.str_to_move("W@1")
        assert r.value == pytest.approx((1 / 3,) * 3, abs=1e-12)
        assert r.stats[st.str_to_move("W@0")].mean == pytest.approx(0.0, abs=1e-12)

    def test_the_hidden_cards_do_not_matter_only_what_seat_0_knows(self):
        # the same view with the unseen cards dealt the other way gives the same answer
        a = hc(2, 0, "bbW/obb", "b", "Oo,Pp", dict(o=2, O=1, p=1, P=1, b=5, W=1))
        b = hc(2, 0, "bbW/bbb", "o", "Oo,Pp", dict(o=2, O=1, p=1, P=1, b=5, W=1))
        assert a.view_text(0) == b.view_text(0)
        ra = Expectimax(depth=7, max_chance=0).search(a)
        rb = Expectimax(depth=7, max_chance=0).search(b)
        assert (ra.move, ra.value, ra.nodes) == (rb.move, rb.value, rb.nodes)


# -- pruning returns the value of plain expectimax ---------------------------------------------

@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_star1_and_star2_agree_with_plain_expectimax(game_id, players):
    """On many positions, *-minimax with Star1 or Star2 (2 players) and paranoid search with
    them (3-4 players) give exactly the value plain expectimax gives, and a move of that
    value; with 2 players max-n (no pruning at all) agrees too. Each pruning must prune
    somewhere (fewer nodes than plain expectimax on some position); Star2's probes may cost
    more than they save on others (The Cat's 3-player paranoid search, by 102 nodes in all
    on these positions), so the total saving is not asserted."""
    mode = "auto" if players == 2 else "paranoid"
    positions = sample_positions(game_id, players, games=3, seed=17, every=4)
    assert len(positions) >= 10
    pruned = {"star1": 0, "star2": 0}
    for i, st in enumerate(positions):
        depth = depth_for(game_id, 2 + i % 2)
        seat = st.current_player
        # one seed for all: the same sample at every sampled node (max_chance=6 is passed)
        # chance=top: every chance node whole (or cut to its top outcomes), as Star1/Star2
        # were built for; on sampled nodes test_expectimax_sampling.py checks them
        plain = Expectimax(depth=depth, mode=mode, pruning="none", max_chance=6,
                           chance="top", seed=1).search(st)
        for pruning in ("star1", "star2"):
            r = Expectimax(depth=depth, mode=mode, pruning=pruning, max_chance=6,
                           chance="top", seed=1).search(st)
            assert r.value[seat] == pytest.approx(plain.value[seat], abs=1e-9), (pruning, st.to_text())
            assert plain.stats[r.move].mean == pytest.approx(plain.value[seat], abs=1e-9)
            pruned[pruning] += r.nodes < plain.nodes
        if players == 2:
            maxn = Expectimax(depth=depth, mode="maxn", max_chance=6, chance="top",
                              seed=1).search(st)
            assert maxn.value[seat] == pytest.approx(plain.value[seat], abs=1e-9)
    assert pruned["star1"] > 0 and pruned["star2"] > 0, f"positions where pruning acted: {pruned}"


@pytest.mark.parametrize("game_id", [pytest.param(g, marks=pytest.mark.slow) if g == "the-cat"
                                     else g for g in catsearch.GAMES])
def test_transposition_table_changes_no_value(game_id):
    """A table of one entry (almost no transpositions kept) gives the same values."""
    for st in sample_positions(game_id, 2, games=2, seed=23, every=9):
        depth = depth_for(game_id, 3)
        big = Expectimax(depth=depth, max_chance=6, seed=1).search(st)
        tiny = Expectimax(depth=depth, max_chance=6, tt_size=1, seed=1).search(st)
        assert tiny.value == pytest.approx(big.value, abs=1e-9)


# -- no peeking -------------------------------------------------------------------------------

@pytest.mark.parametrize("game_id,players", FAST_CASES, ids=IDS)
def test_no_peeking(game_id, players):
    """States that the seat to move cannot tell apart (same view, other hidden cards) get the
    same move, value, statistics and node count; so does the view itself."""
    differ = 0
    for i, st in enumerate(sample_positions(game_id, players, games=2, seed=31, every=6)):
        seat = st.current_player
        view = st.view(seat)
        others = [view.determinize(seat, seed=1000 * i + k) for k in range(3)]
        assert all(o.view_text(seat) == view.to_text() for o in others)
        differ += len({o.to_text() for o in [st] + others}) > 1
        results = []
        for s in [st, view] + others:
            r = Expectimax(depth=2, max_chance=8, seed=5, chance="sample").search(s)
            results.append((r.move, r.value, dict(r.stats), r.nodes, r.depth))
        assert all(x == results[0] for x in results[1:]), view.to_text()
    assert differ > 0, "the hidden cards never differed: the test saw nothing"



# -- search control, limits, options ---------------------------------------------------------

@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_result_is_sound(game_id, players):
    for st in sample_positions(game_id, players, games=1, seed=41, every=10):
        r = Expectimax(depth=depth_for(game_id, 2)).search(st)
        assert isinstance(r, SearchResult)
        assert r.move in st.legal_moves()
        assert len(r.value) == players and math.isclose(sum(r.value), 1.0)
        assert all(-1e-12 <= v <= 1 + 1e-12 for v in r.value)
        assert set(r.stats) <= set(st.legal_moves()) and r.move in r.stats
        if len(st.legal_moves()) == 1:      # answered at once (forced="instant")
            assert (r.depth, r.nodes, r.iterations) == (0, 0, 0)
            assert r.value == pytest.approx(st.view(st.current_player).evaluate())
        else:
            assert 1 <= r.depth <= 2 and r.nodes >= 1 and r.iterations == r.depth


def test_same_seed_same_search():
    st = sample_positions(catsearch.GAMES[0], 3, games=1, seed=43, every=15)[1]
    for chance in ("top", "sample"):
        a = Expectimax(depth=3, max_chance=4, chance=chance, seed=9).search(st)
        b = Expectimax(depth=3, max_chance=4, chance=chance, seed=9).search(st)
        assert (a.move, a.value, dict(a.stats), a.nodes) == (b.move, b.value, dict(b.stats), b.nodes)


def test_a_wide_enough_bound_is_exact():
    """A bound above every chance node's width gives the search without bound."""
    st = sample_positions("herding-cats", 2, games=1, seed=47, every=11)[2]
    exact = Expectimax(depth=3, max_chance=0).search(st)
    wide = Expectimax(depth=3, max_chance=500).search(st)
    narrow = Expectimax(depth=3, max_chance=3).search(st)
    assert (wide.value, wide.nodes) == (exact.value, exact.nodes)
    assert narrow.nodes < exact.nodes


def sample_every(game_id, players, every):
    """``every``, or less in a game that declares itself shorter than four times that
    (``GameSpec.max_game_length``), so that a short game gives positions too."""
    longest = catsearch.game_class(game_id).spec.max_game_length
    return every if longest is None else max(1, min(every, longest(players) // 4))


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_limits_are_honoured(game_id):
    st = sample_positions(game_id, 3, games=1, seed=53, every=sample_every(game_id, 3, 12))[1]
    player = Expectimax(depth=6, max_chance=8)
    r = player.search(st, limits=Limits(depth=1))
    assert r.depth == 1
    # iterations count MCTS iterations: they replace the player's budget (depth 6) but set
    # none, which leaves the default: depth 3 within 200,000 nodes (The Cat with 3 players
    # reaches the node budget first)
    r = player.search(st, limits=Limits(iterations=2))
    assert r.iterations == r.depth <= DEFAULT_DEPTH == 3 and r.nodes <= DEFAULT_NODES
    assert r.depth == DEFAULT_DEPTH or (game_id == "the-cat" and r.nodes == DEFAULT_NODES)
    assert player.search(st, limits=Limits(iterations=2000, depth=2)).depth == 2
    r = player.search(st, limits=Limits(nodes=300))
    assert r.nodes <= 300 and r.move in st.legal_moves()
    r = player.search(st, limits=Limits(nodes=1))
    assert r.nodes <= 1 and r.move in st.legal_moves()
    assert Expectimax(nodes=2000).search(st).nodes <= 2000


def test_iterative_deepening_reports_and_orders():
    st = sample_positions("herding-cats", 2, games=1, seed=59, every=9)[3]
    seen = []
    r = Expectimax(depth=4, seed=1).search(st, info=seen.append)
    assert [p.depth for p in seen if p.depth] == sorted(p.depth for p in seen if p.depth)
    assert seen and all(isinstance(p, SearchResult) and p.move in st.legal_moves() for p in seen)
    assert seen[-1].depth == r.depth == 4
    # the same value as a search of depth 4 alone (the table carries no stale value)
    assert r.value == pytest.approx(Expectimax(depth=4, tt_size=1, seed=1).search(st).value,
                                    abs=1e-9)


def test_a_solved_position_stops_deepening():
    st = hc(2, 0, "bbb/bbb", "W", "Ooo", dict(o=2, O=1, b=6, W=1))
    r = Expectimax(depth=30, max_chance=0, forced="search").search(st)
    assert r.depth == 7


def test_stop_from_another_thread():
    st = sample_positions("herding-cats", 3, games=1, seed=61, every=7)[2]
    player = Expectimax(max_chance=0)
    out = []
    t = threading.Thread(target=lambda: out.append(player.search(st, limits=Limits(infinite=True))))
    t.start()
    while not out and t.is_alive():
        player.stop()
        t.join(0.05)
    t.join(60)
    assert not t.is_alive() and out and out[0].move in st.legal_moves()


def test_an_info_callback_error_reaches_the_caller():
    st = sample_positions("herding-cats", 2, games=1, seed=67, every=9)[2]

    def boom(partial):
        raise RuntimeError("from info")

    with pytest.raises(RuntimeError, match="from info"):
        Expectimax(depth=3).search(st, info=boom)


def test_make_player_builds_expectimax():
    p = make_player("expectimax:depth=3")
    assert isinstance(p, Expectimax) and p.depth == 3 and p.spec == "expectimax:depth=3"
    p = make_player("expectimax:d=2,mode=paranoid,prune=star1,width=8,chance=sample,seed=4,"
                    "time=1.5,nodes=900,tt_size=1024,playouts=2")
    assert (p.depth, p.mode, p.pruning, p.max_chance, p.chance, p.seed, p.seconds, p.nodes,
            p.tt_size, p.playouts) == (2, "paranoid", "star1", 8, "sample", 4, 1.5, 900, 1024, 2)
    again = make_player(p.spec)
    assert again.spec == p.spec
    assert "expectimax" in catsearch.search.player_names()


@pytest.mark.parametrize("spec,words", [
    ("expectimax:depth=0", ["depth", "1 to 64"]),
    ("expectimax:depth=65", ["depth", "1 to 64"]),
    ("expectimax:depth=x", ["depth", "whole number"]),
    ("expectimax:mode=best", ["mode", "auto", "maxn", "paranoid"]),
    ("expectimax:pruning=star3", ["pruning", "none", "star1", "star2"]),
    ("expectimax:chance=all", ["chance", "top", "sample"]),
    ("expectimax:max_chance=-1", ["max_chance", "from 0 to"]),
    ("expectimax:tt_size=0", ["tt_size", "from 1 to"]),
    ("expectimax:seed=-1", ["seed", "from 0 to 2**64 - 1"]),
    ("expectimax:seconds=0", ["seconds", "> 0"]),
    ("expectimax:colour=red", ["colour", "depth", "pruning", "max_chance"]),
])
def test_bad_options_are_named(spec, words):
    with pytest.raises(ValueError) as e:
        make_player(spec)
    for w in words:
        assert w in str(e.value)


def test_bad_calls_are_refused():
    with pytest.raises(TypeError):
        Expectimax(3)
    st = catsearch.new_game("herding-cats", 2, seed=1)
    with pytest.raises(ValueError, match="view"):
        Expectimax(depth=1).search(st.view(1 - st.current_player))
    with pytest.raises(TypeError, match="State"):
        Expectimax(depth=1).search("players=2")
    with pytest.raises(ValueError, match="depth"):
        Expectimax().search(st, limits=Limits(depth=0))
    end = st.clone()
    while not end.is_terminal():
        end.play(end.legal_moves()[0])
    with pytest.raises(ValueError, match="over"):
        Expectimax(depth=1).search(end)


# -- hidden simultaneous choices ----------------------------------------------------------

def test_the_other_seats_do_not_see_the_searching_seats_hidden_choice():
    """Matching pennies, seat by seat: seat 1 chooses after seat 0 without seeing its choice
    (``apply_hidden_c``), so each of seat 0's choices is worth 1/2, not 0 (what a seat 1 that
    saw it would leave), and seat 1, to move after seat 0, does not see seat 0's choice
    either: 1/2, not 1."""
    from catsearch.testing.toys import ToyPennies
    st = ToyPennies.new(rounds=1)
    for pruning in ("none", "star1", "star2"):
        r = Expectimax(depth=2, pruning=pruning).search(st)
        assert r.value == pytest.approx((0.5, 0.5))
    r = Expectimax(depth=2, pruning="none").search(st)
    assert [s.mean for s in r.stats.values()] == pytest.approx([0.5, 0.5])
    st.play("heads")
    r = Expectimax(depth=2, pruning="none").search(st)
    assert r.value == pytest.approx((0.5, 0.5))
    assert [s.mean for s in r.stats.values()] == pytest.approx([0.5, 0.5])
    three = ToyPennies.new(rounds=3)
    for mode in ("auto", "maxn"):
        r = Expectimax(depth=6, mode=mode, pruning="none").search(three)
        assert r.value == pytest.approx((0.5, 0.5)) and r.depth < 6     # solved sooner


def test_a_hidden_choice_at_the_horizon_is_seen_to_resolve():
    """In The Cat a seat's action of a tick stays hidden until every seat has chosen and the
    tick resolves. A search that stopped at its depth right after its own choice evaluated
    positions where nothing had happened yet: every move scored the same and depth 1 played
    like random (0.53 against it). The horizon follows a hidden choice through the other
    seats' choices and the chance that resolves them, so depth 1 tells its moves apart."""
    told_apart = 0
    positions = 0
    for i, (st, move) in enumerate(random_game_states("the-cat", 2, games=1, seed=5)):
        if move is None or i % 7 or not any(
                st.move_to_str(m).startswith("swap") for m in st.legal_moves()):
            continue
        r = Expectimax(depth=1, seed=1).search(st)
        told_apart += len({round(s.mean, 9) for s in r.stats.values()}) > 1
        positions += 1
        if positions == 8:
            break
    assert positions == 8 and told_apart == 8


# -- strength -------------------------------------------------------------------------------

def score_against_random(game_id: str, spec: str, groups: int) -> tuple[float, float, float]:
    """``spec``'s score against the random player over ``groups`` paired deals of 2-player
    games (each deal played twice, each player in each seat once), played by the arena:
    (mean, low, high of its 95% interval)."""
    result = run_match(game_id, [spec, "random"], groups=groups, seed=1)
    s = result.summary["players"][0]["score"]
    return s["value"], s["low"], s["high"]


# Per game: the searcher, the number of paired deals (two games each, played by the arena,
# seed 1) and the bar for its score (wins, and half of shared wins) against random. A game
# not listed is held to 0.90 at the default depth. Measured with
# benchmarks/expectimax_strength.py (which plays the same matches):
# * herding-cats: depth 3 scores 0.863 (300 deals), depth 4 with exact chance 0.823 (150).
#   The draws decide much: an expectimax that cheats, seeing both hands and the deck order,
#   scores 0.907 at depth 3 and 0.948 at depth 8 on the same deals; the heuristic player
#   0.808. The 0.90 target is out of reach for a player that does not see the hidden cards;
#   the bar is 0.70 (ISMCTS's is 0.75; see docs/search.rst, Strength).
# * cat-cards: with the evaluation that values toys in hand for the majorities (see its
#   rules page), depth 2 scores 1.000 (20 games of the arena, seed 1, 4 s) and depth 3
#   0.950. Its earlier evaluation counted a toy in hand only as its penalty: depth 2 scored
#   0.16, and only heuristic playouts at the leaves (playouts=8) made it play.
# * cat-earth: depth 3 scores 1.00 (50 deals, 9 s).
# * the-cat: the other seats' choices of a tick are hidden from the searching seat and its
#   own from them (``apply_hidden_c``), and a tick's hidden choices are followed past the
#   horizon to their resolution: depth 1 scores 1.00 (12 games of the arena, seed 1, 32 s);
#   depth 2 takes 3-4 s a move. Six paired deals are the fewest whose interval can lie
#   above 1/2 (all won: exact binomial, low end 0.54).
STRENGTH = {
    "the-cat": ("expectimax:depth=1", 6, 0.90),
    "herding-cats": ("expectimax:depth=3", 50, 0.70),
    "cat-cards": ("expectimax:depth=2", 10, 0.90),
    "cat-earth": ("expectimax:depth=3", 15, 0.90),
}
DEFAULT_STRENGTH = ("expectimax:depth=3", 15, 0.90)


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_beats_random(game_id):
    spec, groups, bar = STRENGTH.get(game_id, DEFAULT_STRENGTH)
    score, low, high = score_against_random(game_id, spec, groups)
    assert score >= bar and low > 0.5, (
        f"{game_id}: {spec} scored {score:.3f} against random over {2 * groups} games "
        f"(95% interval {low:.3f}-{high:.3f}); the bar is {bar}")


def test_the_constructor_checks_like_make_player():
    with pytest.raises(TypeError, match="depth"):
        Expectimax(depth=2.5)
    with pytest.raises(ValueError, match="depth=65 is out of range: expected a whole number "
                                         "from 1 to 64"):
        Expectimax(depth=65)
    with pytest.raises(ValueError, match="seed=-1 is out of range"):
        Expectimax(seed=-1)
    with pytest.raises(ValueError, match="unknown option 'colour'"):
        Expectimax(colour="red")
    assert Expectimax(d=2, width=8).spec == "expectimax:depth=2,max_chance=8"


def test_an_explicit_budget_replaces_the_default_depth():
    """Expectimax(nodes=n) deepens as far as n nodes allow, not to the default depth 3."""
    st = hc(2, 0, "bbW/obb", "b", "Oo,Pp", dict(o=2, O=1, p=1, P=1, b=5, W=1))
    r = Expectimax(nodes=100_000, max_chance=0).search(st)
    assert r.depth > DEFAULT_DEPTH
    assert Expectimax(max_chance=0).search(st).depth == DEFAULT_DEPTH
