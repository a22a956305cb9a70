"""How long each difficulty level (``catsearch.play.levels``) takes to answer, per game: the
figures of the Play page of the docs.

    python benchmarks/level_times.py [--players 4] [--games 2] [--every 10] [games ...]

For each game: ``--games`` games of the heuristic player (seeds 1, 2, ...), every
``--every``-th position of each, searched from the seat to move's view by each level; the
worst and the mean wall time a move. One search at a time (the levels' default of one
worker); run it on an otherwise idle machine.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

import catsearch  # noqa: E402
from catsearch.play import levels  # noqa: E402


def positions(game_id, players, games, every):
    """The seat to move's view at every ``every``-th ply of ``games`` heuristic games."""
    views = []
    for g in range(games):
        st = catsearch.new_game(game_id, players, seed=g + 1)
        ply = 0
        while not st.is_terminal():
            if ply % every == 0:
                views.append(st.view(st.current_player))
            st.apply(st.heuristic_move(seed=ply))
            ply += 1
    return views


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", help="game ids (default: all)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=2, dest="ngames")
    ap.add_argument("--every", type=int, default=10)
    args = ap.parse_args(argv)
    names = list(levels.LEVELS)
    print(f"{args.players} players, every {args.every}th position of {args.ngames} heuristic "
          "games; worst / mean seconds a move")
    print(f"{'game':<14} {'positions':>9} " + " ".join(f"{n:>15}" for n in names))
    for game_id in args.games or catsearch.GAMES:
        views = positions(game_id, args.players, args.ngames, args.every)
        cells = []
        for name in names:
            player = levels.opponent(name, seed=1)
            times = []
            for k, view in enumerate(views):
                t0 = time.perf_counter()
                player.search(view)
                times.append(time.perf_counter() - t0)
                print(f"  {game_id} {name}: {k + 1}/{len(views)}", file=sys.stderr, end="\r",
                      flush=True)
            player.close()
            cells.append(f"{max(times):.3f} / {sum(times) / len(times):.3f}")
        print(f"{game_id:<14} {len(views):>9} " + " ".join(f"{c:>15}" for c in cells),
              flush=True)
    print(file=sys.stderr)


if __name__ == "__main__":
    main()
