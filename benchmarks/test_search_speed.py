"""Search speed: ISMCTS and determinized MCTS iterations per second from the opening of each
game, 3 players, one core (one worker). Run with::

    python -m pytest benchmarks/test_search_speed.py --benchmark-enable

or ``python benchmarks/search_speed.py`` for a plain table of iterations per second.
"""
import pytest

import catsearch
from catsearch.search import DeterminizedMCTS, ISMCTS, Limits

ITERATIONS = 20000

SEARCHERS = {
    "ismcts": lambda: ISMCTS(iterations=ITERATIONS, seed=1),
    "ismcts-plain": lambda: ISMCTS(iterations=ITERATIONS, seed=1, prior=0),
    "ismcts-mo": lambda: ISMCTS(iterations=ITERATIONS, seed=1, mode="mo"),
    "ismcts-heuristic": lambda: ISMCTS(iterations=ITERATIONS, seed=1, playout="heuristic"),
    "pimc": lambda: DeterminizedMCTS(iterations=ITERATIONS, seed=1),
}


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_search_iterations(benchmark, game_id, name):
    state = catsearch.new_game(game_id, 3, seed=1)
    player = SEARCHERS[name]()
    result = benchmark.pedantic(player.search, args=(state,), rounds=3, iterations=1,
                                warmup_rounds=1)
    assert result.iterations == ITERATIONS
    benchmark.extra_info["nodes"] = result.nodes
    benchmark.extra_info["bytes_per_node"] = player.bytes_per_node
    if benchmark.stats:          # None when run as a smoke test (--benchmark-disable)
        benchmark.extra_info["iterations_per_second"] = ITERATIONS / benchmark.stats.stats.min
