"""Strength of expectimax against a baseline (the figures of docs/expectimax.rst).

    python benchmarks/expectimax_strength.py --game herding-cats --groups 150 --spec expectimax:depth=3
    python benchmarks/expectimax_strength.py --game herding-cats --groups 150 --spec heuristic
    python benchmarks/expectimax_strength.py --game herding-cats --deals 300 --oracle-depth 8

A match is played by the arena (:func:`catsearch.arena.run_match`, the one way every strength
figure is measured): ``--groups`` paired deals, each played by every seating, so the luck of
the deal cancels; it prints the arena's table (score, its 95% interval, Elo).

``--oracle-depth`` measures something no match can: an expectimax that cheats, searching the
full state (both hands, the deck order) instead of its view. The arena never shows a player
anything but its seat's view, so the oracle plays its own games here: deal ``g`` (seed
``--seed + g``) puts it in seat ``g mod players`` against ``--opponent``. It is no player anyone
should use; it measures how much of the game the hidden cards decide.
"""
from __future__ import annotations

import argparse
import time

import catsearch
from catsearch.arena import run_match
from catsearch.search import Expectimax, make_player


def oracle_score(game: str, players: int, deals: int, seed: int, depth: int,
                 opponent: str) -> float:
    """The oracle's mean returns over ``deals`` deals (see the module docstring)."""
    searcher = Expectimax()
    score = 0.0
    for g in range(deals):
        seat = g % players
        st = catsearch.new_game(game, players, seed=seed + g)
        others = make_player(opponent)
        while not st.is_terminal():
            if st.current_player == seat:
                # the searcher's C core, given the full state: everything hidden is visible
                r = searcher._core.run(st, seat=seat, vector=int(players > 2), pruning=2,
                                       max_chance=0, sample=0, seed=0, max_depth=depth,
                                       node_limit=0, seconds=0.0)
                st.play(r["moves"][r["best"]])
            else:
                st.play(others.choose_move(st))
        score += st.returns()[seat]
    return score / deals


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="herding-cats")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--groups", type=int, default=150, help="paired deals of the match")
    ap.add_argument("--seed", type=int, default=1, help="the match seed (the oracle: deal "
                    "g uses seed + g)")
    ap.add_argument("--spec", default="expectimax:depth=3")
    ap.add_argument("--opponent", default="random")
    ap.add_argument("-j", "--concurrency", type=int, default=1, help="games at a time")
    ap.add_argument("--oracle-depth", type=int, default=0)
    ap.add_argument("--deals", type=int, default=300, help="the oracle's deals")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    if args.oracle_depth:
        score = oracle_score(args.game, args.players, args.deals, args.seed,
                             args.oracle_depth, args.opponent)
        print(f"{args.game} {args.players}p oracle:depth={args.oracle_depth} vs "
              f"{args.opponent}: {args.deals} deals, score {score:.3f}, "
              f"{time.perf_counter() - t0:.0f} s")
        return
    entrants = [args.spec] + [args.opponent] * (args.players - 1)
    result = run_match(args.game, entrants, groups=args.groups, seed=args.seed,
                       seats=args.players, concurrency=args.concurrency)
    print(result.table())
    print(f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
