"""OpenSpiel's searchers as catsearch players (openspiel-ismcts, openspiel-mcts): built from
specs through the catsearch.players entry points, playing at a Table, and seeing only what
their seat knows."""

from __future__ import annotations

import pytest

import catsearch
from catsearch import Table, make_player
from catsearch.search.limits import Limits
from catsearch.search.spec import player_names


def test_specs_find_the_plugins(cio):
    from catsearch.interop import openspiel_bots
    assert {"openspiel-ismcts", "openspiel-mcts"} <= set(player_names())
    p = make_player("openspiel-ismcts:iterations=20,c=1.5,seed=3")
    assert isinstance(p, openspiel_bots.OpenSpielISMCTS)
    assert p.spec == "openspiel-ismcts:iterations=20,seed=3,uct_c=1.5"
    assert make_player(p.spec).spec == p.spec
    q = make_player("openspiel-mcts:iters=30,dets=3")
    assert isinstance(q, openspiel_bots.OpenSpielMCTS) and q.determinizations == 3
    with pytest.raises(ValueError, match="uct_c"):
        make_player("openspiel-ismcts:uct_c=-1")
    with pytest.raises(ValueError, match="unknown option 'depth'"):
        make_player("openspiel-mcts:depth=3")


@pytest.mark.parametrize("spec", ["openspiel-ismcts:iterations=12,seed=1",
                                  "openspiel-mcts:iterations=12,determinizations=2,seed=2"])
def test_a_whole_game_at_a_table(cio, spec):
    st = catsearch.new_game("herding-cats", 2, seed=11)
    table = Table(st, [make_player(spec), make_player("random:seed=4")])
    returns = table.run()
    assert abs(sum(returns) - 1.0) < 1e-9
    assert all(p.seat in (0, 1) for p in table.history)


@pytest.mark.parametrize("name", ["openspiel-ismcts", "openspiel-mcts"])
@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_the_player_sees_only_its_view(cio, name, game_id, played):
    """Two states the seat to move cannot tell apart get the same search, move for move:
    the bot is given a determinization of the view, never the state."""
    options = {"setup": "random"} if game_id == "cat-earth" else {}
    cs = played(game_id, 3, 21, 9, **options)
    seat = cs.current_player
    other = cs.determinize(seat, 99)
    assert other.view_text(seat) == cs.view_text(seat) and other != cs
    results = []
    for state in (cs, other, cs.view(seat)):
        p = make_player(f"{name}:iterations=16,seed=5")
        results.append(p.search(state))
    assert len({r.move for r in results}) == 1
    assert len({tuple(sorted((m, s.visits) for m, s in r.stats.items())) for r in results}) == 1
    assert results[0].move in cs.legal_moves()


@pytest.mark.parametrize("name", ["openspiel-ismcts", "openspiel-mcts"])
def test_budgets(cio, name):
    view = catsearch.new_game("cat-cards", 2, seed=5).view(0)
    p = make_player(f"{name}:iterations=25,seed=1")
    assert p.search(view).iterations == 25
    r = p.search(view, limits=Limits(iterations=7))
    assert r.iterations == 7
    r = make_player(f"{name}:seconds=0.2,seed=1").search(view)
    assert r.iterations > 0 and r.seconds < 1.5
    with pytest.raises(ValueError, match="game is over"):
        p.search(played_out())


def played_out():
    st = catsearch.new_game("herding-cats", 2, seed=1)
    while not st.is_terminal():
        st.apply(st.legal_moves()[0])
    return st


def test_a_single_legal_move_needs_no_search(cio):
    st = catsearch.new_game("herding-cats", 2, seed=1)
    while len(st.legal_moves()) != 1:
        st.apply(st.legal_moves()[0])
    r = make_player("openspiel-ismcts:iterations=50").search(st)
    assert r.move == st.legal_moves()[0] and r.iterations == 0


def test_the_arena_matches_catsearch_against_openspiel(cio):
    """The arena (which never imports interop) runs OpenSpiel's ISMCTS through its spec."""
    from catsearch.arena import run_match
    result = run_match("herding-cats", ["ismcts:iterations=30,seed=1",
                                        "openspiel-ismcts:iterations=10,seed=1"],
                       groups=1, seed=2)
    assert result.played == 2
    for record in result.records:
        assert record["failure"] is None and record["terminal"]
        assert abs(sum(record["returns"]) - 1.0) < 1e-9


@pytest.mark.parametrize("spec", ["openspiel-ismcts", "openspiel-mcts", "openspiel-mcts:dets=3"])
def test_tiny_budgets_and_search_seeds(cio, spec):
    """One iteration still answers (OpenSpiel's first simulation only expands the root: the
    players run at least 2), and a search's Limits seed makes it reproducible (the engine's
    bench relies on it)."""
    view = catsearch.new_game("cat-cards", 3, seed=8).view(0)
    assert len(view.legal_moves()) > 1
    p = make_player(spec)
    a = p.search(view, limits=Limits(iterations=1, seed=4))
    assert a.move in view.legal_moves() and a.iterations >= 2
    b = make_player(spec).search(view, limits=Limits(iterations=40, seed=4))
    c = p.search(view, limits=Limits(iterations=40, seed=4))
    assert (b.move, dict(b.stats)) == (c.move, dict(c.stats))
