"""Speed of Cat Earth: full uniformly random 3-player games from a random setup.

Target (issue 5): at least 2,000 games per second on one core. Run with
``python -m pytest benchmarks/test_cat_earth_playouts.py --benchmark-enable``, or measure with
``python -c "import catsearch; print(catsearch.benchmark_playouts('cat-earth', 3,
games=20000, setup='random'))"``.
"""
import catsearch

GAMES = 2000


def test_cat_earth_random_playouts(benchmark):
    result = benchmark.pedantic(catsearch.benchmark_playouts, args=("cat-earth", 3),
                                kwargs={"games": GAMES, "setup": "random"},
                                rounds=3, iterations=1)
    assert result["games"] == GAMES
    print(f"\ncat-earth, 3 players, random setup: {result['games_per_second']:.0f} games/s, "
          f"{result['moves'] / result['games']:.0f} moves per game, "
          f"{result['moves_per_second']:.0f} moves/s")
