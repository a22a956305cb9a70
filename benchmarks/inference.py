"""What rule inference changes and costs (docs/search.rst, "Inference").

``python benchmarks/inference.py [--games 100] [--worlds 20] [--iterations 10000]``

1. Impossible worlds: right after an opponent's discard in Herding Cats (heuristic games,
   2 and 3 players), the share of worlds ``determinize`` deals from the next seat's view in
   which the game seen so far could not have happened (``State.allows``, which
   tests/games/test_herding_cats_inference.py checks against an independent search over the
   move log), with ``inference="none"`` and ``"rules"``.
2. Its cost: the time of one world with and without inference at those positions, and
   ISMCTS's whole search at the default budget with ``inference=rules`` against ``none`` on
   the same positions and seeds (the share of a move's time inference takes).
3. The sampler's counters (``herding_cats.inference_counts``): deals per constrained world,
   fallbacks, configurations cut.

Progress goes to stderr; Ctrl-C stops with what was measured so far.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import catsearch
from catsearch.games import herding_cats
from catsearch.search import make_player


def positions_after_discards(players: int, games: int, seed: int):
    """``(state, discarder)`` right after each discard of ``games`` heuristic games, with
    another seat to move."""
    rng = random.Random(seed)
    for g in range(games):
        st = catsearch.new_game("herding-cats", players, seed=rng.randrange(2**64))
        while not st.is_terminal():
            p = st.current_player
            m = st.heuristic_move(seed=rng.randrange(2**64))
            text = st.move_to_str(m)
            st.apply(m)
            if text.startswith("x") and not st.is_terminal() and st.current_player != p:
                yield st.clone(), p
        print(f"  {players} players: game {g + 1}/{games}", end="\r", file=sys.stderr)
    print(file=sys.stderr)


def impossible_worlds(players: int, games: int, worlds: int, seed: int) -> dict:
    rng = random.Random(seed)
    out = {"discards": 0}
    times = {"none": [], "rules": []}
    for inference in ("none", "rules"):
        out[inference] = [0, 0]             # impossible, dealt
    for st, _ in positions_after_discards(players, games, seed):
        out["discards"] += 1
        seat = st.current_player
        view = st.view(seat)
        for inference in ("none", "rules"):
            t0 = time.perf_counter()
            dealt = [view.determinize(seat, seed=rng.randrange(2**64), inference=inference)
                     for _ in range(worlds)]
            times[inference].append((time.perf_counter() - t0) / worlds)
            out[inference][0] += sum(not view.allows(w) for w in dealt)
            out[inference][1] += worlds
    out["us_per_world"] = {k: 1e6 * statistics.mean(v) for k, v in times.items() if v}
    return out


def search_cost(players: int, positions: int, iterations: int, seed: int) -> dict:
    """ISMCTS at ``iterations`` with inference on and off, same positions and seeds."""
    spent = {"none": 0.0, "rules": 0.0}
    n = 0
    for st, _ in positions_after_discards(players, positions, seed):
        for inference in ("none", "rules"):
            player = make_player(f"ismcts:iterations={iterations},seed=1,inference={inference}")
            t0 = time.perf_counter()
            player.search(st)
            spent[inference] += time.perf_counter() - t0
        n += 1
        if n >= positions:
            break
    return {"positions": n, "seconds": spent,
            "overhead": spent["rules"] / spent["none"] - 1 if spent["none"] else None}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--worlds", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=10_000)
    ap.add_argument("--positions", type=int, default=10, help="positions for the search cost")
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args(argv)
    try:
        for players in (2, 3):
            r = impossible_worlds(players, a.games, a.worlds, a.seed)
            for inference in ("none", "rules"):
                bad, dealt = r[inference]
                print(f"herding-cats {players}p: {r['discards']} discards; inference={inference}: "
                      f"{100 * bad / max(dealt, 1):.1f}% of {dealt} worlds impossible, "
                      f"{r['us_per_world'][inference]:.2f} us a world")
        for players in (2, 3):
            c = search_cost(players, a.positions, a.iterations, a.seed + 1)
            print(f"ismcts iterations={a.iterations}, {players}p, {c['positions']} positions "
                  f"after a discard: {c['seconds']['none']:.2f} s without inference, "
                  f"{c['seconds']['rules']:.2f} s with ({100 * c['overhead']:+.1f}%)")
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
    counts = herding_cats.inference_counts()
    print(f"sampler: {counts['worlds']} constrained worlds, "
          f"{counts['attempts'] / max(counts['worlds'], 1):.2f} deals each, "
          f"{counts['fallbacks']} fallbacks, {counts['cut']} configurations cut")


if __name__ == "__main__":
    main()
