"""ISMCTS's selection at hidden, simultaneous choices (``select=ucb|rm|exp3``, issue 38).

The exploitability tests search ``toy-biased-pennies`` (``catsearch.testing.toys``): a
one-shot simultaneous game whose equilibrium is mixed and not uniform (heads with
probability 1/3, seat 0's value 1/3), so the exploitability of seat 0's root strategy ``x``
(its probability of heads) is exact: ``1/3 - min(x, (1 - x) / 2)``.
"""

import pytest

import catsearch
import catsearch.testing  # noqa: F401  (registers the toy games)
from catsearch._core.options import OptionError
from catsearch.search import make_player
from catsearch.search.ismcts import ISMCTSCore
from catsearch.search.results import average_strategy, decide_drawn
from catsearch.search.tree import GAMMA

SEEDS = range(12)


def gap(x):
    """The best-response gap of playing heads with probability ``x`` (exact, see above)."""
    return 1 / 3 - min(x, (1 - x) / 2)


def exploitability(core, gamma):
    """Seat 0's best-response gap of the root's average strategy."""
    strategy = average_strategy({m: v for m, v, _r, _a in core.children(0)}, gamma)
    return gap(strategy.get(0, 0.0))


def mean_exploitability(rule, iterations):
    view = catsearch.new_game("toy-biased-pennies", seed=1).view(0)
    total = 0.0
    for seed in SEEDS:
        core = ISMCTSCore(view, 0, mo=True, seed=seed)
        core.set_select(rule, GAMMA)
        core.run(iterations)
        total += exploitability(core, 0.0 if rule == "ucb" else GAMMA)
    return total / len(SEEDS)


@pytest.mark.parametrize("rule", ["rm", "exp3"])
def test_exploitability_falls_with_iterations(rule):
    few, many = mean_exploitability(rule, 200), mean_exploitability(rule, 50_000)
    assert many < few / 2, (rule, few, many)
    assert many < 0.03, (rule, many)


def test_ucb_stays_exploitable():
    """UCB's visit frequencies drift off the equilibrium as the search goes on."""
    few, many = mean_exploitability("ucb", 200), mean_exploitability("ucb", 50_000)
    assert many > few, (few, many)
    assert many > 0.08, many
    assert many > 3 * mean_exploitability("rm", 50_000)


def test_exploitability_formula_is_exact():
    """The equilibrium (heads 1/3) has none; pure heads and pure tails the most."""
    assert gap(1 / 3) == pytest.approx(0.0)
    assert gap(1.0) == pytest.approx(1 / 3) and gap(0.0) == pytest.approx(1 / 3)
    s = catsearch.new_game("toy-biased-pennies", seed=1)
    for a, b, want in [(0, 0, [1.0, 0.0]), (1, 1, [0.5, 0.5]), (0, 1, [0.0, 1.0]),
                       (1, 0, [0.0, 1.0])]:
        t = s.clone()
        t.play(a)
        t.play(b)
        assert t.returns() == want


def test_the_rule_only_acts_at_hidden_choices():
    """In a game of public moves ``rm`` changes nothing: the same tree as ``ucb``."""
    view = catsearch.new_game("cat-cards", players=2, seed=3)
    view = view.view(view.current_player)
    trees = []
    for rule in ("ucb", "rm"):
        core = ISMCTSCore(view, view.current_player, mo=True, seed=5)
        core.set_select(rule)
        core.run(300)
        trees.append(sorted(core.children(view.current_player)))
    assert trees[0] == trees[1]


@pytest.mark.parametrize("rule", ["rm", "exp3"])
def test_relayout_keeps_the_statistics(rule):
    """Laying the trees out again (and compacting them for reuse) carries each node's
    regret / Exp3 statistic along: the search goes on exactly as without it."""
    state = catsearch.new_game("the-cat", players=2, seed=2, target=12)
    view = state.view(state.current_player)
    seat = state.current_player
    out = []
    for lay_out in (False, True):
        core = ISMCTSCore(view, seat, mo=True, seed=9, cutoff=8)
        core.set_select(rule)
        core.run(400)
        if lay_out:
            assert core.lay_out()
        core.run(400)
        out.append(sorted(core.children(seat)))
    assert out[0] == out[1]


def test_players_options():
    p = make_player("ismcts:select=exp3,gamma=0.2,iterations=50")
    assert (p.select, p.gamma) == ("exp3", 0.2)
    assert p.spec == "ismcts:gamma=0.2,iterations=50,select=exp3"
    assert make_player("ismcts").select is None
    with pytest.raises(OptionError, match="select"):
        make_player("ismcts:select=duct")
    with pytest.raises(OptionError, match="gamma"):
        make_player("ismcts:gamma=0")
    with pytest.raises(TypeError):
        catsearch.search.ISMCTS(select=1)
    core = ISMCTSCore(catsearch.new_game("toy-rps", seed=1).view(0), 0, mo=True)
    with pytest.raises(ValueError, match="'duct'"):
        core.set_select("duct")
    with pytest.raises(ValueError, match="1.5"):
        core.set_select("rm", 1.5)


def test_resolved_select():
    p = make_player("ismcts:select=rm")
    assert p.resolved_select(catsearch.new_game("herding-cats", players=3, seed=1)) == "ucb"
    assert p.resolved_select(catsearch.new_game("the-cat", players=2, seed=1)) == "rm"
    assert make_player("ismcts").resolved_select(
        catsearch.new_game("toy-rps", seed=1)) == "ucb"


def test_the_move_is_drawn_from_the_average_strategy_seeded():
    """At a hidden root the move is drawn from the purified visit frequencies, the same
    for the same seed; a move explored only by the gamma share is never drawn."""
    trees = [[(0, 900, 0.0, 1000), (1, 50, 0.0, 1000), (2, 50, 0.0, 1000)]]
    strategy = average_strategy({0: 900, 1: 50, 2: 50}, 0.15)
    assert strategy == {0: 1.0, 1: 0.0, 2: 0.0}
    for seed in range(20):
        assert decide_drawn(0.15, seed)(trees, [0, 1, 2])[0] == 0
    even = [[(0, 500, 0.0, 1000), (1, 500, 0.0, 1000)]]
    drawn = {decide_drawn(0.1, seed)(even, [0, 1])[0] for seed in range(30)}
    assert drawn == {0, 1}
    assert decide_drawn(0.1, 7)(even, [0, 1]) == decide_drawn(0.1, 7)(even, [0, 1])


def test_seeded_search_is_reproducible_and_mixes():
    """A seeded rm player plays the same move twice; over seeds its first move in biased
    pennies is mixed, as an equilibrium strategy is (mostly tails)."""
    state = catsearch.new_game("toy-biased-pennies", seed=1)
    moves = []
    for seed in range(24):
        spec = f"ismcts:select=rm,final=draw,iterations=4000,seed={seed}"
        a = make_player(spec).search(state).move
        assert make_player(spec).search(state).move == a
        moves.append(a)
    assert 0 < moves.count(0) < moves.count(1)


def test_the_node_stays_32_bytes():
    """The rules' statistic lives beside the node, only where it is used."""
    assert make_player("ismcts").bytes_per_node == 32
    assert make_player("ismcts:select=ucb").bytes_per_node == 32
    assert make_player("ismcts:select=rm").bytes_per_node == 40
    core = ISMCTSCore(catsearch.new_game("toy-rps", seed=1).view(0), 0, mo=True)
    assert core.bytes_per_node == 32
    before = core.memory_bytes
    core.set_select("exp3")
    assert core.bytes_per_node == 40
    assert core.memory_bytes > before


def test_final_draw_only_at_hidden_roots():
    """``final=draw`` is ISMCTS's; at a root of public moves it is ``visits``."""
    state = catsearch.new_game("cat-cards", players=2, seed=3)
    drawn = make_player("ismcts:final=draw,iterations=300,seed=4").search(state)
    visits = make_player("ismcts:iterations=300,seed=4").search(state)
    assert drawn.move == visits.move and drawn.stats == visits.stats
    with pytest.raises(OptionError, match="final"):
        make_player("pimc:final=draw")
