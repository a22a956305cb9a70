"""ISMCTS and determinized MCTS: no peeking, determinism, options, limits, stop, reuse."""
import threading

import pytest

import catsearch
from catsearch.search import (
    DeterminizedMCTS,
    HeuristicPlayer,
    ISMCTS,
    Limits,
    RandomPlayer,
    SearchResult,
    make_player,
)
from catsearch.testing.toys import ToyRPS
from catsearch.testing import random_game_states

SEARCHERS = [
    "ismcts:iterations=300,seed=5",
    "ismcts:iterations=300,seed=5,prior=0",
    "ismcts:iterations=300,seed=5,mode=mo",
    "ismcts:iterations=300,seed=5,playout=heuristic,cutoff=4",
    "pimc:iterations=300,seed=5,dets=6",
    "pimc:iterations=300,seed=5,dets=6,prior=0",
    "pimc:iterations=300,seed=5,dets=6,combine=average,final=mean",
    "heuristic:seed=5",
    "random:seed=5",
]


def mid_game_states(game_id, players=3, count=3, seed=7):
    """A few non-terminal states spread along one random game (cloned)."""
    states = [s.clone() for s, m in random_game_states(game_id, players, 1, seed) if m is not None]
    step = max(1, len(states) // (count + 1))
    return [states[step * (i + 1)] for i in range(count)]


def fingerprint(r: SearchResult):
    return (r.move, r.value, dict(r.stats), r.iterations, r.nodes, r.depth)


@pytest.mark.parametrize("spec", SEARCHERS)
@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_no_peeking(game_id, spec):
    """States that differ only in what the seat to move does not know get the same search."""
    checked = 0
    for st in mid_game_states(game_id):
        seat = st.current_player
        variants = [st] + [st.determinize(seat, seed=k) for k in range(4)] + [st.view(seat)]
        assert len({v.view_text(seat) for v in variants}) == 1
        assert len({v.to_text() for v in variants}) > 2, "the variants should differ in hidden cards"
        results = [fingerprint(make_player(spec).search(v)) for v in variants]
        assert all(r == results[0] for r in results), f"{spec} reads hidden cards in {st.to_text()}"
        checked += 1
    assert checked == 3


@pytest.mark.parametrize("spec", ["ismcts:iterations=3000,seed=2,mode=mo",
                                  "ismcts:iterations=3000,seed=2,mode=so",
                                  "pimc:iterations=3000,seed=2"])
def test_no_peeking_at_hidden_simultaneous_moves(spec):
    """Seat 1 of rock-paper-scissors cannot tell what seat 0 chose."""
    results = []
    for first in range(3):
        st = ToyRPS.new(2)
        st.play(first)
        results.append(fingerprint(make_player(spec).search(st)))
    assert results[0] == results[1] == results[2]


@pytest.mark.parametrize("spec", [s for s in SEARCHERS if "random" not in s]
                         + ["ismcts:iterations=400,seed=9,workers=2",
                            "pimc:iterations=400,seed=9,workers=2,dets=4"])
@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_same_seed_same_search(game_id, spec):
    st = mid_game_states(game_id, count=1)[0]
    a = make_player(spec).search(st)
    b = make_player(spec).search(st)
    assert fingerprint(a) == fingerprint(b)
    if not spec.startswith("heuristic"):
        c = make_player(spec.replace("seed=", "seed=1")).search(st)
        assert dict(c.stats) != dict(a.stats) or c.value != a.value, "the seed changes nothing"


@pytest.mark.parametrize("cls", [ISMCTS, DeterminizedMCTS])
def test_a_player_with_a_seed_replays_its_sequence_of_searches(cls):
    st = mid_game_states(catsearch.GAMES[0], count=1)[0]
    p = cls(iterations=200, seed=4)
    first = [fingerprint(p.search(st)) for _ in range(3)]
    assert first[0] != first[1]
    p.new_game()
    assert [fingerprint(p.search(st)) for _ in range(3)] == first
    q = cls(iterations=200, seed=4)
    assert fingerprint(q.search(st, limits=Limits(seed=11))) == fingerprint(
        cls(iterations=200, seed=99).search(st, limits=Limits(seed=11)))


@pytest.mark.parametrize("game_id", catsearch.GAMES)
@pytest.mark.parametrize("cls", [ISMCTS, DeterminizedMCTS])
def test_result_is_sound(game_id, cls):
    for st in mid_game_states(game_id, players=3, count=2, seed=3):
        r = cls(iterations=500, seed=1).search(st)
        legal = st.legal_moves()
        assert r.move in legal
        assert set(r.stats) == set(legal)
        assert sum(s.visits for s in r.stats.values()) == 500
        assert all(0.0 <= s.mean <= 1.0 for s in r.stats.values())
        assert r.iterations == 500
        assert len(r.value) == st.players and abs(sum(r.value) - 1.0) < 1e-9
        assert r.nodes > 1 and r.depth >= 1 and r.seconds > 0
        with pytest.raises(AttributeError):
            r.move = 0
        visits = {m: s.visits for m, s in r.stats.items()}
        if cls is ISMCTS:
            assert visits[r.move] == max(visits.values())


def test_mo_ismcts_is_right_about_simultaneous_moves():
    """Seat 0 of rock-paper-scissors: the opponent cannot see its choice, so every move is
    worth 1/2. SO-ISMCTS (one tree keyed by the actual move) and PIMC let the opponent answer
    the choice it cannot see, and value every move near 0 (the flaw MO-ISMCTS fixes)."""
    st = ToyRPS.new(2)
    assert ISMCTS(iterations=100).resolved_mode(st) == "mo"
    mo = ISMCTS(mode="auto", iterations=6000, seed=3).search(st)
    assert all(abs(s.mean - 0.5) < 0.05 for s in mo.stats.values())
    assert abs(mo.value[0] - 0.5) < 0.05
    for wrong in (ISMCTS(mode="so", iterations=6000, seed=3), DeterminizedMCTS(iterations=6000, seed=3)):
        r = wrong.search(st)
        assert all(s.mean < 0.1 for s in r.stats.values())


@pytest.mark.parametrize("hidden, mode", [(True, "mo"), (False, "so")])
@pytest.mark.parametrize("game_id", ["herding-cats", "the-cat", "toy-rps"])
def test_mode_auto_follows_the_games_declaration(monkeypatch, game_id, hidden, mode):
    """``auto`` reads GameSpec.hidden_moves (no probing): a game declared otherwise is
    searched otherwise, and the core the player builds has that mode."""
    import dataclasses
    import catsearch.search.mcts as mcts
    cls = catsearch.game_class(game_id)
    st = catsearch.new_game(game_id, players=2, seed=1)
    assert ISMCTS().resolved_mode(st) == ("mo" if cls.spec.hidden_moves else "so")
    spec = dataclasses.replace(cls.spec, hidden_moves=hidden)
    monkeypatch.setattr(mcts, "lookup", lambda g: type("Declared", (), {"spec": spec}))
    player = ISMCTS(iterations=20, seed=1)
    assert player.resolved_mode(st) == mode
    assert player._new_core(st.view(st.current_player), st.current_player, 1, 0, 1).mode == mode
    assert ISMCTS(mode="so").resolved_mode(st) == "so"     # an explicit mode wins


def test_mode_auto_is_so_where_every_move_is_public():
    st = catsearch.new_game("herding-cats", 3, seed=1)       # every move public
    assert ISMCTS().resolved_mode(st) == "so"
    so = ISMCTS(mode="so", iterations=800, seed=2).search(st)
    mo = ISMCTS(mode="mo", iterations=800, seed=2).search(st)
    assert dict(so.stats) == dict(mo.stats), "with public moves every seat's tree is the same"
    assert mo.nodes == st.players * (so.nodes - 1) + st.players


# -- limits, stop, info --------------------------------------------------------------------

@pytest.fixture
def opening():
    return catsearch.new_game(catsearch.GAMES[0], 3, seed=21)


@pytest.mark.parametrize("cls", [ISMCTS, DeterminizedMCTS])
def test_limits_override_the_budget(cls, opening):
    p = cls(iterations=5000, seed=1)
    assert p.search(opening, limits=Limits(iterations=123)).iterations == 123
    r = p.search(opening, limits=Limits(nodes=200))
    assert 200 <= r.nodes <= 200 + opening.players + 20
    r = p.search(opening, limits=Limits(iterations=2000, depth=1))
    assert r.depth == 1
    r = p.search(opening, limits=Limits(seconds=0.05))
    assert r.iterations >= 1
    with pytest.raises(ValueError, match="Limits.iterations=0 is out of range"):
        p.search(opening, limits=Limits(iterations=0))
    with pytest.raises(ValueError, match="Limits.seconds"):
        p.search(opening, limits=Limits(seconds=-1))
    with pytest.raises(ValueError, match="Limits.depth"):
        p.search(opening, limits=Limits(iterations=10, depth=0))


@pytest.mark.parametrize("spec", ["ismcts:seed=1", "ismcts:seed=1,workers=2", "pimc:seed=1",
                                  "pimc:seed=1,workers=2"])
def test_infinite_search_stops_on_request_with_info_on_the_way(spec, opening):
    p = make_player(spec + ",info_interval=0.02")
    seen = []

    def info(partial):
        seen.append(partial)
        if len(seen) == 3:
            threading.Thread(target=p.stop).start()

    r = p.search(opening, limits=Limits(infinite=True), info=info)
    assert len(seen) >= 3
    assert all(isinstance(s, SearchResult) and s.move in opening.legal_moves() for s in seen)
    assert [s.iterations for s in seen] == sorted(s.iterations for s in seen)
    assert r.move in opening.legal_moves() and r.iterations >= seen[2].iterations
    # the stop request does not leak into the next search
    assert p.search(opening, limits=Limits(iterations=50)).iterations == 50


def test_stop_before_the_search_starts_ends_it_at_once(opening):
    p = ISMCTS(seed=1)
    barrier = threading.Event()

    def info(partial):
        barrier.set()

    t = threading.Thread(target=lambda: p.search(opening, limits=Limits(infinite=True), info=info))
    t.start()
    barrier.wait(30)
    p.stop()
    t.join(30)
    assert not t.is_alive()


def test_processes_merge_their_statistics(opening):
    p = make_player("ismcts:iterations=600,workers=2,parallel=processes,seed=3")
    try:
        r = p.search(opening)
        assert r.iterations == 600
        assert sum(s.visits for s in r.stats.values()) == 600
        assert r.move in opening.legal_moves()
        seen = []

        def info(partial):
            seen.append(partial)
            if len(seen) == 2:
                p.stop()

        r = p.search(opening, limits=Limits(infinite=True), info=info)
        assert len(seen) >= 2 and r.move in opening.legal_moves()
    finally:
        p.close()


# -- options and the registry ----------------------------------------------------------------

def test_registry_builds_both_searchers_with_aliases():
    p = make_player("ismcts:iters=50,c=1.2,final=mean,playout=heuristic,cutoff=3,seed=2,"
                    "reuse=true,threads=2,max_nodes=5000,mode=so")
    assert isinstance(p, ISMCTS)
    assert (p.iterations, p.exploration, p.final, p.playout, p.cutoff, p.seed, p.reuse,
            p.workers, p.max_nodes, p.mode) == (50, 1.2, "mean", "heuristic", 3, 2, True, 2, 5000, "so")
    assert isinstance(make_player(p.spec), ISMCTS) and make_player(p.spec).spec == p.spec
    q = make_player("pimc:dets=8,combine=average,time=0.5,iterations=0")
    assert isinstance(q, DeterminizedMCTS)
    assert (q.determinizations, q.combine, q.seconds, q.iterations) == (8, "average", 0.5, 0)
    assert q.budget.iterations is None
    assert isinstance(make_player("determinized"), DeterminizedMCTS)
    assert make_player("ismcts").spec == "ismcts"
    assert catsearch.ISMCTS is ISMCTS and "ISMCTS" in catsearch.__all__
    assert catsearch.DeterminizedMCTS is DeterminizedMCTS and "DeterminizedMCTS" in catsearch.__all__
    assert ISMCTS().bytes_per_node == 32


@pytest.mark.parametrize("spec,needle", [
    ("ismcts:bogus=1", "exploration"),
    ("ismcts:final=best", "visits, mean"),
    ("ismcts:playout=smart", "random, heuristic"),
    ("ismcts:playout_mix=0.5", "playout_mix=0.5 mixes the heuristic into the playouts: it "
                               "needs playout=heuristic"),
    ("ismcts:playout=heuristic,playout_mix=1.5", "playout_mix=1.5 is out of range"),
    ("pimc:playout=heuristic,playout_mix=-0.1", "playout_mix=-0.1 is out of range"),
    ("ismcts:mode=xx", "auto, so, mo"),
    ("ismcts:iterations=many", "whole number"),
    ("ismcts:c=-1", "option c=-1.0 is out of range"),
    ("ismcts:workers=0", "workers"),
    ("ismcts:parallel=gpu", "threads, processes"),
    ("ismcts:iterations=0", "give iterations or seconds"),
    ("pimc:dets=0", "option dets=0 is out of range"),
    ("pimc:dets=2,workers=3", "at least the number of workers"),
    ("pimc:combine=max", "vote, average"),
    ("pimc:mode=so", "determinizations"),
    ("ismcts:seconds=0", "seconds"),
    ("ismcts:cutoff=-2", "cutoff"),
    ("ismcts:max_nodes=0", "max_nodes"),
    ("ismcts:prior=1.5", r"prior=1.5 is out of range: expected a finite number from 0.0 to 1.0"),
    ("ismcts:prior=-0.1", "prior"),
    ("pimc:prior=often", "prior='often' is not valid"),
    ("ismcts:threads=100000", "option threads=100000 is out of range: expected a whole number from 1 to 256"),
    ("ismcts:seed=-1", "seed=-1 is out of range"),
    ("ismcts:info_interval=0", "info_interval=0.0 is out of range"),
    ("ismcts:max_nodes=2147483647", "max_nodes"),
])
def test_bad_options_say_what_is_valid(spec, needle):
    with pytest.raises(ValueError, match=needle):
        make_player(spec)


@pytest.mark.parametrize("kind", ["ismcts", "pimc"])
def test_playout_mix_between_random_and_heuristic_playouts(kind):
    """playout_mix=1 is playout=heuristic and 0 plays uniformly random moves, the same
    search as playout=random; a share between them is a third search, the same again for
    the same seed."""
    st = catsearch.new_game("herding-cats", 3, seed=4)

    def stats(spec):
        r = make_player(f"{kind}:iterations=400,seed=3,{spec}").search(st)
        return {m: (s.visits, round(s.mean, 12)) for m, s in r.stats.items()}

    heuristic, random_ = stats("playout=heuristic"), stats("playout=random")
    assert heuristic != random_
    assert stats("playout=heuristic,playout_mix=1") == heuristic
    assert stats("playout=heuristic,playout_mix=0") == random_
    half = stats("playout=heuristic,playout_mix=0.5")
    assert half not in (heuristic, random_) and stats("playout=heuristic,playout_mix=0.5") == half


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        ISMCTS(100)
    with pytest.raises(TypeError):
        DeterminizedMCTS(100)
    with pytest.raises(ValueError, match="seed"):
        ISMCTS(seed=-1)
    with pytest.raises(TypeError, match="reuse"):
        ISMCTS(reuse="yes")


def test_no_search_on_a_finished_game_or_anothers_view():
    st = catsearch.new_game(catsearch.GAMES[0], 2, seed=3)
    while not st.is_terminal():
        st.play(st.legal_moves()[0])
    with pytest.raises(ValueError, match="over"):
        ISMCTS(iterations=10).search(st)
    st = catsearch.new_game(catsearch.GAMES[0], 2, seed=3)
    with pytest.raises(ValueError, match="view"):
        ISMCTS(iterations=10).search(st.view(1))


# -- tree reuse ------------------------------------------------------------------------------

def play_observed(game_id, players, specs, seed, observe=True):
    """One game; each player observes every move. Returns the results seat 0 got."""
    st = catsearch.new_game(game_id, players, seed=seed)
    ps = [make_player(s) for s in specs]
    results = []
    while not st.is_terminal():
        seat = st.current_player
        r = ps[seat].search(st)
        if seat == 0:
            results.append(r)
        assert r.move in st.legal_moves()
        if observe:
            for p in ps:
                p.observe(st, r.move)
        st.play(r.move)
    for p in ps:
        p.close()
    return results


@pytest.mark.parametrize("spec", ["ismcts:iterations=300,seed=1,reuse=true",
                                  "ismcts:iterations=300,seed=1,reuse=true,mode=mo",
                                  "ismcts:iterations=300,seed=1,reuse=true,workers=2",
                                  "ismcts:iterations=300,seed=1,reuse=true,workers=2,"
                                  "parallel=processes",
                                  "pimc:iterations=300,seed=1,reuse=true,dets=4"])
def test_reuse_keeps_the_tree_while_the_information_set_continues(spec):
    game_id = catsearch.GAMES[0]
    spec += ",forced=search"            # every position searched, forced ones too
    reused = play_observed(game_id, 3, [spec, "random:seed=1", "random:seed=2"], seed=8)
    carried = [sum(s.visits for s in r.stats.values()) - r.iterations for r in reused]
    assert all(c >= 0 for c in carried)
    assert sum(c > 0 for c in carried) >= 2, "no search started from a kept tree"
    fresh = play_observed(game_id, 3, [spec, "random:seed=1", "random:seed=2"], seed=8,
                          observe=False)
    assert len(fresh) == len(reused)
    assert all(sum(s.visits for s in r.stats.values()) == r.iterations for r in fresh)


def test_forced_moves_are_answered_at_once_and_a_kept_tree_follows_them():
    """A position with one legal move costs no search (``forced="instant"``, the default):
    no iterations, the game's evaluation as its value; a tree kept for reuse follows the
    forced moves through ``observe`` and later searches still start from it."""
    spec = "ismcts:iterations=300,seed=1,reuse=true"
    results = play_observed(catsearch.GAMES[0], 3, [spec, "random:seed=1", "random:seed=2"],
                            seed=8)
    forced = [r for r in results if len(r.stats) == 1 and r.iterations == 0]
    searched = [r for r in results if r.iterations]
    assert forced and searched and len(forced) + len(searched) == len(results)
    assert all(r.nodes == 0 and r.stats[r.move].visits == 0 for r in forced)
    carried = [sum(s.visits for s in r.stats.values()) - r.iterations for r in searched]
    assert sum(c > 0 for c in carried) >= 2, "no search started from a kept tree"


def test_reuse_in_mo_ismcts_follows_only_what_the_seat_saw():
    """Three rounds of rock-paper-scissors: seat 1 keeps its MO tree across seat 0's hidden
    choices; what it then finds does not depend on which choice seat 0 made."""
    outs = []
    for hidden in range(3):
        st = ToyRPS.new(2, rounds=3)
        p = ISMCTS(iterations=2000, seed=1, reuse=True, mode="mo")
        st.play(0)                       # round 1: seat 0 rock (hidden from seat 1)
        first = p.search(st)
        p.observe(st, first.move)
        st.play(first.move)              # round 1 resolves: choices public
        p.observe(st, hidden)            # round 2: seat 0's hidden choice
        st.play(hidden)
        second = p.search(st)
        assert sum(s.visits for s in second.stats.values()) > second.iterations, "tree not kept"
        outs.append(fingerprint(second))
    assert outs[0] == outs[1] == outs[2]


def test_player_observe_is_a_no_op_for_the_baselines(opening):
    for p in (RandomPlayer(seed=1), HeuristicPlayer(seed=1), ISMCTS(iterations=10)):
        p.observe(opening, opening.legal_moves()[0])


# -- the heuristic prior (PUCT) ----------------------------------------------------------------

@pytest.mark.parametrize("cls", [ISMCTS, DeterminizedMCTS])
@pytest.mark.parametrize("game_id", ["herding-cats", "cat-cards"])
def test_with_a_prior_the_first_iteration_tries_the_heuristics_move(game_id, cls):
    """The heuristic move, scored ``c P(h) sqrt(N + 1)`` above the untried others, is what
    the first iteration expands; without the prior the first move is drawn uniformly. (In
    these games the heuristic reads only what the mover knows, so every determinization
    gives the same heuristic move, up to its own random tie-breaks.)"""
    searched = plain = 0
    for i, st in enumerate(mid_game_states(game_id, 2, count=6, seed=11)):
        view = st.view(st.current_player)
        choices = {view.heuristic_move(seed=k) for k in range(64)}
        legal = st.legal_moves()
        r = cls(iterations=1, prior=0.5, seed=i, forced="search").search(st)
        assert r.move in choices and r.stats[r.move].visits == 1
        searched += 1
        plain += any(cls(iterations=1, prior=0, seed=i + 100 * k).search(st).move not in choices
                     for k in range(8)) and len(legal) > len(choices)
    assert searched == 6 and plain > 0



# -- one declaration of the options, one resolution of the budget ---------------------------

@pytest.mark.parametrize("cls", [ISMCTS, DeterminizedMCTS])
def test_constructors_check_like_specs(cls):
    """The constructor checks the same declarations as make_player: wrong type -> TypeError,
    out of range -> ValueError naming the option, the value and the range."""
    with pytest.raises(TypeError, match="iterations"):
        cls(iterations="500")
    with pytest.raises(TypeError, match="exploration"):
        cls(exploration="high")
    with pytest.raises(ValueError, match=r"workers=100000 is out of range: expected a whole "
                                          r"number from 1 to 256"):
        cls(workers=100000)
    with pytest.raises(ValueError, match="seed=-1 is out of range"):
        cls(seed=-1)
    with pytest.raises(ValueError, match="seed=18446744073709551616"):
        cls(seed=2**64)
    with pytest.raises(ValueError, match="seconds=0.0 is out of range"):
        cls(seconds=0)
    with pytest.raises(ValueError, match="unknown option 'bogus'"):
        cls(bogus=1)
    p = cls(c=1.5, threads=1, iters=20)          # aliases too, as in a spec
    assert (p.exploration, p.workers, p.iterations) == (1.5, 1, 20)


@pytest.mark.parametrize("cls", [ISMCTS, DeterminizedMCTS])
def test_an_explicit_time_limit_replaces_the_default_budget(cls, opening):
    """ISMCTS(seconds=s) searches s seconds, not the default 10,000 iterations."""
    p = cls(seconds=0.3, seed=1)
    assert p.iterations is None and p.seconds == 0.3 and p.budget.iterations is None
    assert p.spec == f"{cls.name}:seconds=0.3,seed=1"
    r = p.search(opening)
    assert r.seconds >= 0.29 and r.iterations != 10_000
    assert cls().iterations is None                          # as given (none)...
    assert cls().budget.iterations == 10_000                 # ...so the default budget
    both = cls(iterations=50, seconds=30, seed=1).search(opening)
    assert both.iterations == 50                             # whichever ends first
    q = make_player(f"{cls.name}:time=0.3,iterations=0")
    assert q.iterations == 0 and q.budget.iterations is None
    assert q.spec == f"{cls.name}:iterations=0,seconds=0.3"


@pytest.mark.parametrize("spec", ["ismcts:seed=1", "ismcts:seed=1,mode=so", "pimc:seed=1,dets=4",
                                  "ismcts:seed=1,max_nodes=64"])
@pytest.mark.parametrize("players", [2, 4])
def test_a_node_limit_alone_ends_when_the_tree_is_complete(spec, players):
    """Rock-paper-scissors has a small tree: a node limit above its size used to run
    forever (3.8 million iterations were seen before it was stopped)."""
    st = ToyRPS.new(players)
    r = make_player(spec).search(st, limits=Limits(nodes=10**7))
    assert r.nodes < 10**7 and r.iterations < 200_000
    assert r.move in st.legal_moves()
    # with a depth limit the tree is complete sooner
    r = make_player(spec).search(st, limits=Limits(nodes=10**7, depth=1))
    assert r.depth == 1 and r.iterations < 200_000


def test_a_node_limit_alone_still_reaches_its_nodes(opening):
    r = ISMCTS(seed=1).search(opening, limits=Limits(nodes=3000))
    assert 3000 <= r.nodes <= 3000 + opening.players + 20


@pytest.mark.parametrize("spec", ["ismcts:iterations=50,seed=1", "pimc:iterations=50,seed=1",
                                  "expectimax:depth=1"])
def test_a_dropped_searcher_is_freed_at_once(spec, opening):
    """No reference cycle keeps a searcher (and its trees) alive until a garbage collection."""
    import weakref
    p = make_player(spec)
    p.search(opening)
    ref = weakref.ref(p)
    del p
    assert ref() is None


def test_the_cutoff_defaults_to_the_games():
    """``cutoff`` left out is the game's (GameSpec.search_defaults: The Cat and Cat Earth
    cut their long random playouts off); given, even as 0, it is the player's own, and its
    spec says so."""
    from catsearch.search.options import game_default
    the_cat_cutoff = dict(catsearch.game_class("the-cat").spec.search_defaults)["cutoff"]
    assert game_default("cutoff", "the-cat") == the_cat_cutoff > 0
    assert game_default("cutoff", "herding-cats") == 0
    player = ISMCTS(iterations=50, seed=1)
    assert player.cutoff is None and player.spec == "ismcts:iterations=50,seed=1"
    own = ISMCTS(iterations=50, seed=1, cutoff=0)
    assert own.spec == "ismcts:cutoff=0,iterations=50,seed=1"
    assert catsearch.make_player(own.spec).cutoff == 0
    state = catsearch.new_game("the-cat", 2, seed=3)
    # left out, the cut-off is the game's: the same search as with it given; not as with none
    by_game = ISMCTS(iterations=300, seed=1).search(state)
    explicit = ISMCTS(iterations=300, seed=1, cutoff=the_cat_cutoff)
    none = ISMCTS(iterations=300, seed=1, cutoff=0).search(state)
    assert by_game.stats == explicit.search(state).stats != none.stats
