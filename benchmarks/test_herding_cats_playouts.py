"""Full uniformly random games per second, one core: the speed of the rules themselves.

Target (issue 2): at least 250,000 three-player games of Herding Cats per second.
"""
import catsearch

GAMES = 50_000


def test_herding_cats_playouts(benchmark):
    result = benchmark.pedantic(catsearch.benchmark_playouts, args=("herding-cats", 3),
                                kwargs={"games": GAMES, "seed": 1}, rounds=5, iterations=1)
    assert result["games"] == GAMES
    # the rate of the fastest round, for the report
    benchmark.extra_info["games_per_second"] = GAMES / benchmark.stats.stats.min
    benchmark.extra_info["moves_per_game"] = result["moves"] / GAMES
