"""Strength of expectimax against a baseline, on fixed deals (the figures of docs/expectimax.rst).

    python benchmarks/expectimax_strength.py --game herding-cats --games 300 --spec expectimax:depth=3
    python benchmarks/expectimax_strength.py --game herding-cats --games 300 --spec heuristic
    python benchmarks/expectimax_strength.py --game herding-cats --games 300 --oracle-depth 8

Each deal is played once with the tested player in each seat in turn (deal ``g`` puts it in
seat ``g mod players``). ``--oracle-depth`` replaces the tested player by an expectimax that
cheats: it searches the full state (both hands, the deck order) instead of its view. It is
no player anyone should use; it measures how much of the game the hidden cards decide.
"""
from __future__ import annotations

import argparse
import random
import time

import catsearch
from catsearch.search import Expectimax, make_player


def oracle_move(searcher: Expectimax, state, depth: int) -> int:
    # the searcher's C core, given the full state: everything hidden is visible to it
    r = searcher._core.run(state, seat=state.current_player, vector=int(state.players > 2),
                           pruning=2, max_chance=0, sample=0, seed=0, max_depth=depth,
                           node_limit=0, seconds=0.0)
    return r["moves"][r["best"]]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="herding-cats")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--first", type=int, default=0, help="index of the first deal")
    ap.add_argument("--seed", type=int, default=1000, help="deal g uses seed + g")
    ap.add_argument("--spec", default="expectimax:depth=3")
    ap.add_argument("--opponent", default="random:seed=1")
    ap.add_argument("--oracle-depth", type=int, default=0)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    wins = ties = 0
    score = 0.0
    oracle = Expectimax() if args.oracle_depth else None
    for g in range(args.first, args.first + args.games):
        seat = g % args.players
        st = catsearch.new_game(args.game, args.players, seed=args.seed + g)
        me = None if oracle else make_player(args.spec)
        others = make_player(args.opponent)
        while not st.is_terminal():
            if st.current_player == seat:
                move = oracle_move(oracle, st, args.oracle_depth) if oracle else me.choose_move(st)
            else:
                move = others.choose_move(st)
            st.play(move)
        r = st.returns()[seat]
        score += r
        wins += r == 1.0
        ties += 0.0 < r < 1.0
    who = f"oracle:depth={args.oracle_depth}" if oracle else args.spec
    n = args.games
    print(f"{args.game} {args.players}p {who} vs {args.opponent}: {n} deals, wins {wins} "
          f"({wins / n:.1%}), ties {ties}, losses {n - wins - ties}, score {score / n:.3f}, "
          f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
