"""What policy inference costs (docs/search.rst, "Policy inference").

``python benchmarks/policy_cost.py [--games 2] [--moves 40] [--iterations 10000]``

Seat 0 is ISMCTS with ``inference=policy`` at the default budget (10,000 iterations), the
other seats the heuristic; for the first ``--moves`` searches of seat 0 in each game, the
time its belief took (building it, and following every move through ``Player.observe``,
``Belief.stats()["seconds"]``) against the time of its searches. The target: at most 10% of
a move's time. Progress goes to stderr; Ctrl-C stops with what was measured so far.
"""

from __future__ import annotations

import argparse
import sys
import time

import catsearch
from catsearch.search import make_player
from catsearch.search.table import Table


def measure(game_id: str, players: int, games: int, moves: int, iterations: int,
            particles: int) -> dict:
    search = belief = 0.0
    searches = updates = 0
    for g in range(games):
        me = make_player(f"ismcts:iterations={iterations},inference=policy,"
                         f"particles={particles},seed={g}")
        others = [make_player(f"heuristic:seed={g * 10 + s}") for s in range(1, players)]
        table = Table(catsearch.new_game(game_id, players, seed=1000 + g), [me, *others])
        mine = 0
        while not table.is_over() and mine < moves:
            t0 = time.perf_counter()
            seat = table.current_player
            table.step()
            if seat == 0:
                search += time.perf_counter() - t0
                mine += 1
        stats = me.belief.stats() if me.belief is not None else {"seconds": 0.0, "updates": 0}
        belief += stats["seconds"]
        updates += stats["updates"]
        searches += mine
        print(f"  {game_id} {players}p game {g + 1}/{games}: {mine} searches", file=sys.stderr)
    return dict(game=game_id, players=players, searches=searches, updates=updates,
                search_s=search, belief_s=belief,
                share=belief / (search + belief) if search + belief else 0.0)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--moves", type=int, default=40, help="seat 0's searches per game")
    ap.add_argument("--iterations", type=int, default=10_000)
    ap.add_argument("--particles", type=int, default=512)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3])
    ap.add_argument("--game", nargs="+", default=list(catsearch.GAMES))
    a = ap.parse_args(argv)
    print(f"{'game':<14} {'players':>7} {'searches':>8} {'updates':>8} {'search s':>9} "
          f"{'belief s':>9} {'share':>7}")
    try:
        for game_id in a.game:
            for n in a.players:
                r = measure(game_id, n, a.games, a.moves, a.iterations, a.particles)
                print(f"{game_id:<14} {n:>7} {r['searches']:>8} {r['updates']:>8} "
                      f"{r['search_s']:>9.2f} {r['belief_s']:>9.3f} {r['share']:>7.1%}",
                      flush=True)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)


if __name__ == "__main__":
    main()
