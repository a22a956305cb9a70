"""The depth expectimax reaches within its budget at every position of random games.

    nice -n 10 python benchmarks/expectimax_depth.py --game the-cat --players 2 --games 20 -j 2
    nice -n 10 python benchmarks/expectimax_depth.py --spec expectimax:seed=1,depth=2,nodes=200000
    nice -n 10 python benchmarks/expectimax_depth.py --game the-cat --spec expectimax:chance=top

Each game is played by uniformly random moves (seed ``--seed + g``); at every position where
the seat to move has more than one legal move, a fresh ``--spec`` player (default: the
default expectimax, depth 3 within 200,000 nodes) searches the seat's view and the depth of
its last completed iteration is recorded. A node budget makes the depth a function of the
position and the seed, not of the machine. Prints, per game, the positions and the depths
reached (how many at each), then the least depth over all positions and the mean seconds a
search. ``--per-position`` also prints one line per position (game, move number, depth,
nodes).

The second command answers "does the default reach depth 2?" at a third of the cost: the
iterations of a search do not depend on its depth limit, so the default (depth 3 within
200,000 nodes) completes depth 2 exactly where ``depth=2,nodes=200000`` does, and stops
there instead of spending the rest of the budget on depth 3.
"""
from __future__ import annotations

import argparse
import collections
import random
import time
from concurrent.futures import ProcessPoolExecutor

import catsearch
from catsearch.search import make_player


def depths(game: str, players: int, seed: int, spec: str, options: dict,
           per_position: bool = False):
    """``(depth per searched position, seconds searching)`` over one random game."""
    state = catsearch.new_game(game, players, seed=seed, **options)
    rng = random.Random(seed)
    found, spent, ply = [], 0.0, 0
    while not state.is_terminal():
        moves = state.legal_moves()
        if len(moves) > 1:
            t0 = time.perf_counter()
            result = make_player(spec).search(state)
            spent += time.perf_counter() - t0
            found.append(result.depth)
            if per_position:
                print(f"  game {seed} ply {ply}: depth {result.depth}, {result.nodes} nodes")
        state.play(rng.choice(moves))
        ply += 1
    return found, spent


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="the-cat")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1, help="game g is dealt and played with "
                    "seed + g")
    ap.add_argument("--spec", default="expectimax:seed=1", help="the searcher (a fixed seed: "
                    "the same depths on every run)")
    ap.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                    help="a game option, e.g. target=12 (repeatable)")
    ap.add_argument("--per-position", action="store_true")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="games at a time (processes)")
    args = ap.parse_args(argv)
    options = {}
    for item in args.option:
        key, _, value = item.partition("=")
        options[key] = int(value) if value.lstrip("-").isdigit() else value
    total: collections.Counter = collections.Counter()
    seconds = 0.0
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        runs = [pool.submit(depths, args.game, args.players, args.seed + g, args.spec, options,
                            args.per_position) for g in range(args.games)]
        for g, run in enumerate(runs):
            found, spent = run.result()
            seconds += spent
            hist = collections.Counter(found)
            total.update(hist)
            print(f"game {g} (seed {args.seed + g}): {len(found)} positions, depth "
                  + ", ".join(f"{d}: {hist[d]}" for d in sorted(hist)), flush=True)
    n = sum(total.values())
    print(f"{args.game} {args.players}p {args.spec}: {args.games} games, {n} positions; "
          f"least depth {min(total)}; depth "
          + ", ".join(f"{d}: {total[d]}" for d in sorted(total))
          + f"; {seconds / max(n, 1) * 1000:.0f} ms a search")


if __name__ == "__main__":
    main()
