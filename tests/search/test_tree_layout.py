"""The search tree's memory layout and counters: laying the trees out again (breadth first, as
the run loop does while a tree grows) changes nothing a search computes; the moves counter
counts the game moves of the iterations; ``play_random_from`` is the playouts' yardstick."""
import random

import pytest

import catsearch
from catsearch._core.counting import play_random_from
from catsearch.search.ismcts import ISMCTSCore
from catsearch.search.pimc import PIMCCore


def walk(core, tree=0):
    """Every root child's statistics: what selection reads."""
    return sorted(core.children(tree))


@pytest.mark.parametrize("game_id", catsearch.GAMES)
@pytest.mark.parametrize("mo", [False, True])
def test_laying_the_tree_out_again_changes_no_result(game_id, mo):
    state = catsearch.new_game(game_id, 3, seed=5)
    view = state.view(0)
    plain = ISMCTSCore(view, 0, mo=mo, prior=0.5, seed=9)
    moved = ISMCTSCore(view, 0, mo=mo, prior=0.5, seed=9)
    rng = random.Random(1)
    done = 0
    while done < 3000:
        k = rng.randrange(1, 400)
        plain.run(k)
        moved.run(k)
        assert moved.lay_out()
        done += k
    assert moved.nodes == plain.nodes
    for tree in range(3 if mo else 1):
        assert walk(moved, tree) == walk(plain, tree)
        assert moved.tree_size(tree) == plain.tree_size(tree)
    assert moved.root_value() == plain.root_value()
    assert moved.moves_played == plain.moves_played


def test_a_tree_grown_past_several_layouts_stays_whole():
    """The run loop lays the tree out at 16,384 nodes and then every quarter more: the tree
    keeps every node, its root's visits are the iterations, and a kept tree follows a move."""
    state = catsearch.new_game("herding-cats", 2, seed=3)
    core = ISMCTSCore(state.view(0), 0, prior=0.5, seed=1)
    core.run(40000)
    assert core.nodes == core.tree_size() > 30000
    assert core.root_visits() == core.total_iterations == 40000
    assert sum(v for _, v, _, _ in core.children()) == 40000


def test_pimc_trees_are_laid_out_too():
    state = catsearch.new_game("herding-cats", 3, seed=2)
    view = state.view(0)
    plain = PIMCCore(view, 0, determinizations=4, seed=3)
    moved = PIMCCore(view, 0, determinizations=4, seed=3)
    for _ in range(5):
        plain.run(500)
        moved.run(500)
        assert moved.lay_out()
    for tree in range(4):
        assert walk(moved, tree) == walk(plain, tree)


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_moves_played_counts_the_iterations_game_moves(game_id):
    """From a position a few moves before the end, every iteration plays the game out: the
    counter is the iterations' moves, between one and the most moves left, per iteration."""
    state = catsearch.new_game(game_id, 2, seed=4)
    rng = random.Random(4)
    line = [state.clone()]
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
        line.append(state.clone())
    start = line[-4]
    seat = start.current_player
    core = ISMCTSCore(start.view(seat), seat, seed=1)
    core.run(200)
    assert 200 <= core.moves_played <= 200 * 40
    assert 200 <= core.tree_moves_played <= core.moves_played
    core.reset_counters()
    assert core.moves_played == 0 and core.tree_moves_played == 0


@pytest.mark.parametrize("core_class", [ISMCTSCore, PIMCCore])
def test_tree_moves_played_counts_one_a_tree_level(core_class):
    """With the tree one level deep, each iteration chooses exactly one move in the tree
    (the rest are playout moves); without a limit, more."""
    state = catsearch.new_game("herding-cats", 3, seed=5)
    core = core_class(state.view(0), 0, seed=2)
    core.set_max_depth(1)
    core.run(300)
    assert core.tree_moves_played == 300
    assert core.moves_played > 300 * 10
    core.set_max_depth(0)
    core.reset_counters()
    core.run(300)
    assert 300 < core.tree_moves_played < core.moves_played


def test_play_random_from_a_view():
    state = catsearch.new_game("herding-cats", 3, seed=8)
    view = state.view(0)
    moves, seconds = play_random_from(view, 0, 50, 7)
    assert moves >= 50 and seconds >= 0
    assert play_random_from(view, 0, 50, 7)[0] == moves       # seeded
    assert view.to_text() == state.view(0).to_text()           # the view is left alone


def test_wide_nodes_are_looked_up_in_the_index():
    """Cat Cards' information sets gather hundreds of children (every move seen in any
    determinization): past 32 a node's children go into the index, which stays in step with
    the sibling lists through growth, layouts and tree reuse."""
    state = catsearch.new_game("cat-cards", 2, seed=1)
    core = ISMCTSCore(state.view(0), 0, prior=0.5, seed=1)
    core.run(30000)
    assert core.wide_nodes > 0
    assert core._index_agrees()
    assert core.lay_out() and core._index_agrees()
    assert core.root_visits() == sum(v for _, v, _, _ in core.children()) == 30000
    # a kept tree (reuse) follows a move, is compacted, and its index rebuilt
    move = state.legal_moves()[0]
    core.follow(0, move)
    nxt = state.clone()
    nxt.apply(move)
    core.rebase(nxt.view(0), 5)
    assert core._index_agrees()
    core.run(2000)
    assert core._index_agrees()


@pytest.mark.parametrize("mo", [False, True])
def test_a_search_with_wide_nodes_is_seeded(mo):
    state = catsearch.new_game("cat-cards", 3, seed=2)
    a = ISMCTSCore(state.view(0), 0, mo=mo, prior=0.5, seed=4)
    b = ISMCTSCore(state.view(0), 0, mo=mo, prior=0.5, seed=4)
    a.run(20000)
    b.run(7000)
    b.run(13000)
    assert a.wide_nodes > 0
    assert walk(a) == walk(b) and a.nodes == b.nodes
