"""Strength of expectimax against a baseline (the figures of docs/expectimax.rst).

    python benchmarks/expectimax_strength.py --game herding-cats --groups 150 --spec expectimax:depth=3
    python benchmarks/expectimax_strength.py --game herding-cats --groups 150 --spec heuristic

A match is played by the arena (:func:`catsearch.arena.run_match`, the one way every strength
figure is measured): ``--groups`` paired deals, each played by every seating, so the luck of
the deal cancels; it prints the arena's table (score, its 95% interval, Elo).

What seeing the hidden cards is worth is measured by ``benchmarks/value_of_information.py``
(ISMCTS that sees every hand against the fair one); the old ``--oracle-depth`` (an expectimax
searching the full state) is gone with the expectimax core's ``run`` it called.
"""
from __future__ import annotations

import argparse
import time

from catsearch.arena import run_match


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="herding-cats")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--groups", type=int, default=150, help="paired deals of the match")
    ap.add_argument("--seed", type=int, default=1, help="the match seed")
    ap.add_argument("--spec", default="expectimax:depth=3")
    ap.add_argument("--opponent", default="random")
    ap.add_argument("-j", "--concurrency", type=int, default=1, help="games at a time")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    entrants = [args.spec] + [args.opponent] * (args.players - 1)
    result = run_match(args.game, entrants, groups=args.groups, seed=args.seed,
                       seats=args.players, concurrency=args.concurrency)
    print(result.table())
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
