"""Two builds of catsearch side by side, as ratios: ``python benchmarks/compare_trees.py OLD NEW``.

``OLD`` and ``NEW`` are checkouts with their extensions built in place (``python setup.py
build_ext --inplace``). Each measurement runs in a fresh subprocess per tree, the trees
alternating, ``--rounds`` times; the best of each tree's rounds is kept (the least disturbed
by other work on the machine), and the table gives NEW / OLD (above 1: NEW is faster).

Measured, from fixed deals and seeds, one core: random playouts (moves/s, 3 players),
single-thread ISMCTS from the opening (iterations/s, 3 players), expectimax at depth 2
(nodes/s, 2 players), and notation: ``from_text`` of a full state and ``to_text`` (calls/s)
after 15 random moves.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

PROBE = r"""
import json, random, sys, time
import catsearch
from catsearch.search import make_player
kind, game = sys.argv[1], sys.argv[2]
opts = {"setup": "random"} if game == "cat-earth" else {}

def best_rate(work, count, repeat=3):
    best = 0.0
    for _ in range(repeat):
        t = time.perf_counter()
        done = work()
        best = max(best, (done or count) / (time.perf_counter() - t))
    return best

if kind == "playouts":
    r = max(catsearch.benchmark_playouts(game, 3, games=3000, seed=s, **opts)["moves_per_second"]
            for s in range(3))
elif kind == "ismcts":
    st = catsearch.new_game(game, 3, seed=5, **opts)
    p = make_player("ismcts:iterations=4000,seed=1,threads=1")
    r = best_rate(lambda: p.search(st).iterations, 4000)
elif kind == "expectimax":
    st = catsearch.new_game(game, 2, seed=5, **opts)
    depth = 1 if game == "the-cat" else 2
    p = make_player(f"expectimax:depth={depth},seed=1")       # the opening: not forced
    r = best_rate(lambda: p.search(st).nodes, 1)
else:
    st = catsearch.new_game(game, 3, seed=5, **opts)
    rng = random.Random(1)
    for _ in range(15):
        st.play(rng.choice(st.legal_moves()))
    text = st.to_text()
    if kind == "from_text":
        r = best_rate(lambda: [catsearch.from_text(game, text) for _ in range(2000)] and 2000, 2000)
    else:
        r = best_rate(lambda: [st.to_text() for _ in range(2000)] and 2000, 2000)
print(json.dumps(r))
"""

KINDS = ("playouts", "ismcts", "expectimax", "from_text", "to_text")


def measure(tree: str, kind: str, game: str) -> float:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    out = subprocess.run([sys.executable, "-c", PROBE, kind, game], env=env, cwd=tree,
                         capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"{tree}: {kind} {game} failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--games", default=None, help="comma-separated (default: every game)")
    args = ap.parse_args(argv)
    sys.path.insert(0, os.path.abspath(args.new))
    import catsearch
    games = args.games.split(",") if args.games else list(catsearch.GAMES)
    kinds = args.kinds.split(",")
    print(f"{'measure':12s} {'game':13s} {'old':>12s} {'new':>12s}  new/old", flush=True)
    for kind in kinds:
        for game in games:
            best = {"old": 0.0, "new": 0.0}
            try:
                for _ in range(args.rounds):
                    for name in ("old", "new"):
                        best[name] = max(best[name], measure(getattr(args, name), kind, game))
            except KeyboardInterrupt:
                print("interrupted", file=sys.stderr)
                return 130
            print(f"{kind:12s} {game:13s} {best['old']:12,.0f} {best['new']:12,.0f}  "
                  f"{best['new'] / best['old']:.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
