"""Print random-playout speed for every game: ``python benchmarks/playouts.py [games]``.

One core, full uniformly random games from fresh deals, best of 3 runs.
"""
import sys

import catsearch

OPTIONS = {"cat-earth": {"setup": "random"}}


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    for game in catsearch.GAMES:
        for players in (2, 3, 4):
            best = max((catsearch.benchmark_playouts(game, players, games=games, seed=s,
                                                     **OPTIONS.get(game, {}))
                        for s in range(3)), key=lambda r: r["games_per_second"])
            print(f"{game:14s} {players}p  {best['games_per_second']:12,.0f} games/s  "
                  f"{best['moves'] / games:7.1f} moves/game  "
                  f"{best['moves_per_second'] / 1e6:6.2f} M moves/s", flush=True)


if __name__ == "__main__":
    main()
