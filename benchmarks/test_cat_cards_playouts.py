"""Full uniformly random games per second, one core: the speed of the rules themselves.

Target (issue 3): at least 30,000 three-player games of Cat Cards per second.
"""
import catsearch

GAMES = 20_000


def test_cat_cards_playouts(benchmark):
    result = benchmark.pedantic(catsearch.benchmark_playouts, args=("cat-cards", 3),
                                kwargs={"games": GAMES, "seed": 1}, rounds=3, iterations=1)
    assert result["games"] == GAMES
    # the rate of the fastest round, for the report
    benchmark.extra_info["games_per_second"] = GAMES / benchmark.stats.stats.min
    benchmark.extra_info["moves_per_game"] = result["moves"] / GAMES
    print(f"\ncat-cards 3p: {GAMES / benchmark.stats.stats.min:,.0f} games/s, "
          f"{result['moves'] / GAMES:.1f} moves/game")
