"""How much of each search a reusing searcher already had in its tree, following a live game
by observations only (at a :class:`catsearch.Table`, the way the engine follows a server).

For every move of the reusing seat: the share of its root's visits that were kept from the
earlier searches, ``1 - iterations / root visits``. Prints, per game, the mean share over the
moves after the seat's first, and over all its moves.

    python benchmarks/reuse_share.py [--games 4] [--iterations 400] [--players 2]
"""

from __future__ import annotations

import argparse
import statistics

import catsearch
from catsearch import Table


def shares(game_id: str, players: int, games: int, iterations: int) -> list[float]:
    out = []
    for g in range(games):
        searcher = catsearch.make_player(f"ismcts:iterations={iterations},seed={g},reuse=true")
        others = [catsearch.make_player(f"random:seed={g * 10 + s}") for s in range(1, players)]
        table = Table(catsearch.new_game(game_id, players, seed=1000 + g), [searcher] + others)
        searched = []

        def record(played):
            if played.seat != 0 or played.result is None:
                return
            visits = sum(s.visits for s in played.result.stats.values())
            if visits > 0 and searched:
                out.append(max(0.0, 1.0 - played.result.iterations / visits))
            searched.append(played)

        table.run(on_move=record)
        table.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    for game_id in catsearch.GAMES:
        s = shares(game_id, args.players, args.games, args.iterations)
        mean = statistics.mean(s) if s else 0.0
        print(f"{game_id:13s} moves {len(s):4d}  kept share of root visits: mean {mean:.3f}, "
              f"median {statistics.median(s) if s else 0.0:.3f}", flush=True)


if __name__ == "__main__":
    main()
