"""The time manager (catsearch.search.timeman), the games' moves_left, Limits(clock=...) and
SearchResult.ranked."""

import math

import pytest

import catsearch
from catsearch._core.game import GENERIC_MOVES_LEFT, GameSpec
from catsearch.search import Clock, Limits, MoveStats, RankedMove, SearchResult, TimeManager
from catsearch.search.limits import resolve
from catsearch.search.timeman import FORCED_SECONDS, MIN_SECONDS, TIME_MANAGER, plan_time


def _choice_state(game="herding-cats", players=3):
    """A state (a few moves in) whose seat to move has more than one legal move."""
    for seed in range(50):
        st = catsearch.new_game(game, players, seed=seed)
        h = catsearch.make_player("heuristic:seed=1")
        for _ in range(6):
            if len(st.legal_moves()) > 1:
                return st
            st.play(h.choose_move(st))
    raise AssertionError("no state with a choice")


def _forced_state():
    for seed in range(50):
        st = catsearch.new_game("herding-cats", 3, seed=seed)
        if len(st.legal_moves()) == 1:
            return st
    raise AssertionError("no forced state")


# -- Clock ---------------------------------------------------------------------------------

@pytest.mark.parametrize("kw, err", [
    (dict(time=-1), ValueError), (dict(time=math.nan), ValueError),
    (dict(time=math.inf), ValueError), (dict(time=1, inc=-0.1), ValueError),
    (dict(time=1, movestogo=0), ValueError), (dict(time="1"), TypeError),
    (dict(time=True), TypeError), (dict(time=1, movestogo=1.5), TypeError),
    (dict(time=1, movestogo=True), TypeError),
])
def test_clock_refuses_bad_values(kw, err):
    with pytest.raises(err, match="Clock"):
        Clock(**kw)


def test_clock_is_frozen_and_keyword_only():
    c = Clock(time=3, inc=0.5)
    assert (c.time, c.inc, c.movestogo) == (3.0, 0.5, None)
    with pytest.raises(TypeError):
        Clock(3)            # noqa
    with pytest.raises(AttributeError):
        c.time = 4


# -- the plan ------------------------------------------------------------------------------

def test_forced_move_is_planned_instant():
    st = _forced_state()
    plan = plan_time(Clock(time=100.0, inc=1.0), st)
    assert plan.forced and plan.seconds == FORCED_SECONDS and plan.horizon == 1


def test_plan_spends_by_the_games_estimate():
    st = _choice_state()
    plan = plan_time(Clock(time=10.0), st)
    horizon = st.spec.estimate_moves_left(st)
    assert not plan.forced and plan.horizon == horizon
    spare = 10.0 - TIME_MANAGER.floor(Clock(time=10.0))
    assert spare == pytest.approx(10.0 - 10 * 0.01 - 0.05)
    assert plan.seconds == pytest.approx((spare * 0.95 - 0.01 * horizon) / horizon)
    # the increments to come are the horizon's too
    with_inc = plan_time(Clock(time=10.0, inc=0.5), st)
    spare_inc = 10.0 - TIME_MANAGER.floor(Clock(time=10.0, inc=0.5))
    assert with_inc.seconds == pytest.approx(
        (spare_inc * 0.95 + 0.5 * (horizon - 1) - 0.01 * horizon) / horizon)
    # a shorter horizon spends more a move; movestogo caps the horizon
    assert plan_time(Clock(time=10.0), st, moves_left=2).seconds > plan.seconds
    assert plan_time(Clock(time=10.0, movestogo=2), st).horizon == 2


@pytest.mark.parametrize("game", catsearch.GAMES)
def test_plan_keeps_a_reserve_and_never_exceeds_the_clock(game):
    st = _choice_state(game)
    tm = TIME_MANAGER
    for t in (0.0, 0.001, 0.02, 0.05, 0.3, 1.0, 7.0, 60.0, 3600.0):
        for inc in (0.0, 0.01, 0.1, 2.0):
            for mtg in (None, 1, 2, 40):
                for left in (None, 1, 5, 1000):
                    plan = tm.plan(Clock(time=t, inc=inc, movestogo=mtg), st, moves_left=left)
                    assert plan.seconds >= MIN_SECONDS
                    if t - tm.overhead > MIN_SECONDS:
                        # never the last overhead of the clock
                        assert plan.seconds <= t - tm.overhead + 1e-12
                    if mtg != 1 and t > inc and plan.seconds > MIN_SECONDS:
                        # never more than a share of the clock (and the increment)
                        assert plan.seconds <= tm.max_share * t + inc + 1e-12
                    if mtg != 1 and t < tm.floor(Clock(time=t, inc=inc)):
                        # below the floor: no more than the increment less a move's cost
                        assert plan.seconds <= max(MIN_SECONDS, inc - tm.move_cost) + 1e-12


def test_simulated_games_never_flag():
    """Spending every plan in full, plus a move's cost (up to the manager's move_cost, and
    a rare spike of 0.1 s): with an increment the clock never runs out, even in a game far
    longer than estimated, and it holds its level; without one, in a game as long as
    estimated, with most of the clock spent."""
    tm = TimeManager()
    for base, inc in ((2.0, 0.02), (10.0, 0.1), (0.5, 0.015)):
        for horizon in (lambda m: max(1, 20 - m), lambda m: 250, lambda m: 5):
            t = base
            for move in range(500):
                plan = tm.plan(Clock(time=t, inc=inc), moves_left=horizon(move))
                t -= plan.seconds + (0.1 if move % 97 == 50 else tm.move_cost)
                assert t > 0, (base, inc, move)
                t += inc
            # the clock holds at least about its floor (no slow drain to nothing)
            assert t > 0.5 * tm.floor(Clock(time=t, inc=inc)), (base, inc, t)
    for base in (1.0, 10.0, 300.0):
        t = base
        for move in range(40):
            plan = tm.plan(Clock(time=t), moves_left=40 - move)
            t -= plan.seconds + 0.002
            assert t > 0, (base, move)
        if base >= 10:
            assert t < 0.2 * base            # the clock was spent, not hoarded


def test_time_manager_checks_its_fields():
    with pytest.raises(ValueError):
        TimeManager(max_share=1.5)
    with pytest.raises(TypeError):
        TimeManager(reserve="a")
    with pytest.raises(ValueError):
        TimeManager(overhead=-1)
    with pytest.raises(TypeError):
        TIME_MANAGER.plan(5.0)
    with pytest.raises(ValueError):
        TimeManager(floor_moves=-1)
    with pytest.raises(TypeError):
        TimeManager(floor_moves=2.5)


# -- moves_left ----------------------------------------------------------------------------

@pytest.mark.parametrize("game", catsearch.GAMES)
def test_moves_left_estimate_from_a_view(game):
    """Declared or generic, the estimate is a whole number >= 1, and the seat's view
    estimates as the full state (it reads only what the seat sees)."""
    st = catsearch.new_game(game, seed=2)
    h = catsearch.make_player("heuristic:seed=3")
    for _ in range(60):
        if st.is_terminal():
            break
        seat = st.current_player
        if seat >= 0:
            n = st.spec.estimate_moves_left(st)
            assert isinstance(n, int) and n >= 1
            assert st.spec.estimate_moves_left(st.view(seat)) == n
            st.play(h.choose_move(st))
        else:
            break


def test_the_games_declare_moves_left():
    for game in ("herding-cats", "the-cat", "cat-cards", "cat-earth"):
        st = catsearch.new_game(game, 3, seed=2)
        assert st.spec.moves_left is not None, game
        assert st.spec.estimate_moves_left(st) >= 10, game   # more than a few moves to come


def test_herding_cats_moves_left_is_exact():
    """Every turn of Herding Cats plays or discards a card: the seat to move's turns are the
    cards left shared by seats."""
    st = catsearch.new_game("herding-cats", 3, seed=4)
    h = catsearch.make_player("heuristic:seed=1")
    history = []
    while not st.is_terminal():
        history.append((st.current_player, st.spec.estimate_moves_left(st)))
        st.play(h.choose_move(st))
    for i, (seat, est) in enumerate(history):
        assert est == sum(1 for s, _ in history[i:] if s == seat)


def test_generic_fallback_from_max_game_length():
    base = catsearch.new_game("herding-cats", 3, seed=1)
    import dataclasses
    spec = dataclasses.replace(base.spec, moves_left=None)
    assert spec.estimate_moves_left(base) == 20            # 60 moves shared by 3 seats
    spec = dataclasses.replace(base.spec, moves_left=None, max_game_length=None)
    assert spec.estimate_moves_left(base) == GENERIC_MOVES_LEFT
    assert isinstance(spec, GameSpec)


# -- Limits(clock=...) ---------------------------------------------------------------------

def test_limits_clock_for_state():
    st = _choice_state()
    lim = Limits(clock=Clock(time=4.0, inc=0.1), seed=3)
    bound = lim.for_state(st)
    assert bound.clock is None and bound.seed == 3
    assert bound.seconds == pytest.approx(plan_time(lim.clock, st).seconds)
    # seconds given too: the fewer
    assert Limits(clock=Clock(time=4.0), seconds=0.01).for_state(st).seconds == 0.01
    assert Limits(seed=1).for_state(st) == Limits(seed=1)
    with pytest.raises(TypeError, match="Limits.clock"):
        Limits(clock=5.0)
    with pytest.raises(ValueError, match="infinite"):
        Limits(clock=Clock(time=1), infinite=True)


def test_unbound_clock_is_a_budget_of_seconds():
    budget = resolve(Limits(clock=Clock(time=40.0)), Limits(iterations=5),
                     Limits(iterations=10), counts=("iterations", "nodes", "seconds"))
    assert budget.iterations is None and budget.clock is None
    assert budget.seconds == pytest.approx(plan_time(Clock(time=40.0)).seconds)


def test_searcher_on_a_clock_takes_about_its_plan():
    import time
    st = _choice_state()
    p = catsearch.make_player("ismcts:seed=1")
    lim = Limits(clock=Clock(time=2.0, inc=0.0)).for_state(st)
    t0 = time.perf_counter()
    r = p.search(st, limits=lim)
    took = time.perf_counter() - t0
    assert r.iterations > 1
    assert took < lim.seconds + 0.2
    p.close()


# -- SearchResult.ranked ----------------------------------------------------------------------

def test_ranked_best_first():
    r = SearchResult(move=7, value=(0.5, 0.5), stats={
        1: MoveStats(10, 0.4), 7: MoveStats(8, 0.6), 3: MoveStats(10, 0.5), 9: MoveStats(0, 0.0)})
    top = r.ranked(3)
    assert [x.move for x in top] == [7, 3, 1]           # the chosen move, then by visits, mean
    assert top[0] == RankedMove(rank=1, move=7, visits=8, mean=0.6, value=None)
    assert [x.rank for x in top] == [1, 2, 3]
    assert len(r.ranked(10)) == 4
    assert SearchResult(move=1, value=(0.5, 0.5)).ranked(3) == ()
    for bad, error in ((0, ValueError), (2.0, TypeError), (True, TypeError)):
        with pytest.raises(error):
            r.ranked(bad)


@pytest.mark.parametrize("spec", ["ismcts:iterations=300,seed=1", "pimc:iterations=300,seed=1",
                                  "expectimax:depth=2,seed=1"])
def test_ranked_of_real_searches(spec):
    st = _choice_state()
    p = catsearch.make_player(spec)
    r = p.search(st)
    top = r.ranked(3)
    assert top and top[0].move == r.move
    assert len(top) == min(3, len(r.stats))
    assert all(x.move in st.legal_moves() for x in top)
    if spec.startswith("ismcts"):
        assert [x.visits for x in top[1:]] == sorted((x.visits for x in top[1:]), reverse=True)
    p.close()


def test_ranked_of_a_forced_move_has_every_seats_value():
    st = _forced_state()
    r = catsearch.make_player("ismcts:iterations=50").search(st)
    (only,) = r.ranked(3)
    assert only.value == r.value and only.mean == r.value[st.current_player]
