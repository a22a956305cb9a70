"""Print ISMCTS and determinized MCTS iterations per second from the opening of each game
(3 players, one worker, so one core), best of ``--repeat`` searches of ``--iterations``.

    python benchmarks/search_speed.py [--iterations 50000] [--repeat 3] [--players 3]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

import catsearch  # noqa: E402
from catsearch.search import DeterminizedMCTS, ISMCTS  # noqa: E402

CONFIGS = [
    ("ISMCTS (auto mode, random playouts)", lambda n: ISMCTS(iterations=n, seed=1)),
    ("ISMCTS, plain UCB (prior=0)", lambda n: ISMCTS(iterations=n, seed=1, prior=0)),
    ("ISMCTS, MO (one tree per seat)", lambda n: ISMCTS(iterations=n, seed=1, mode="mo")),
    ("ISMCTS, heuristic playouts", lambda n: ISMCTS(iterations=n, seed=1, playout="heuristic")),
    ("PIMC (16 determinizations)", lambda n: DeterminizedMCTS(iterations=n, seed=1)),
]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=50000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--players", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"{'game':<14} {'searcher':<38} {'iterations/s':>14} {'nodes':>9} {'MB':>6}")
    for game_id in catsearch.GAMES:
        state = catsearch.new_game(game_id, args.players, seed=1)
        for label, make in CONFIGS:
            best = None
            for _ in range(args.repeat):
                player = make(args.iterations)
                r = player.search(state)
                best = r if best is None or r.seconds < best.seconds else best
            mb = best.nodes * player.bytes_per_node / 2**20
            print(f"{game_id:<14} {label:<38} {best.iterations / best.seconds:>14,.0f} "
                  f"{best.nodes:>9,} {mb:>6.1f}", flush=True)


if __name__ == "__main__":
    main()
