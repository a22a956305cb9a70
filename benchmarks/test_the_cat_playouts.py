"""Speed of full uniformly random games of The Cat, 3 players, on one core.

Target (issue 4): at least 5,000 games per second. Random games are long: every tick each
seat chooses, a Stop ends a round after a few ticks, and with nobody reaching the target the
game runs to the 50-round cap (about 740 moves per 3-player game).

Run: ``python -m pytest benchmarks/test_the_cat_playouts.py --benchmark-enable -s``
"""
import catsearch

GAMES = 20000


def test_the_cat_random_playouts(benchmark):
    result = benchmark.pedantic(catsearch.benchmark_playouts, args=("the-cat", 3),
                                kwargs={"games": GAMES, "seed": 0}, rounds=3, iterations=1)
    print(f"\nthe-cat, 3 players: {result['games_per_second']:,.0f} games/s, "
          f"{result['moves_per_second']:,.0f} moves/s "
          f"({result['moves'] / result['games']:.0f} moves per game)")
    assert result["games"] == GAMES
