"""Notation speed: ``python benchmarks/text_speed.py [--compare OLD_TREE]``.

For every game, 2 to 4 players and a few positions along a random game: microseconds per
``to_text``, ``view_text``, ``from_text`` of the full notation and of a view, and each as a
multiple of a ``clone`` (best of 5 timeit runs). With ``--compare``, the same probe runs in a
fresh process on each tree (``PYTHONPATH``; both built in place) and the table gives
OLD / NEW (above 1: NEW is faster).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

PROBE = r"""
import json, random, timeit
import catsearch
from catsearch.testing import random_game_states

def us(f, n=1000):
    return min(timeit.repeat(f, number=n, repeat=5)) / n * 1e6

out = {}
for game in catsearch.GAMES:
    for players in (2, 3, 4):
        sums = dict(clone=0.0, to_text=0.0, view_text=0.0, from_full=0.0, from_view=0.0)
        states = [s.clone() for i, (s, _) in enumerate(random_game_states(game, players, games=1,
                  seed=3)) if i in (0, 10, 30, 60)]
        for st in states:
            t, v, seat = st.to_text(), st.view_text(0), 0
            sums["clone"] += us(st.clone)
            sums["to_text"] += us(st.to_text)
            sums["view_text"] += us(lambda: st.view_text(seat))
            sums["from_full"] += us(lambda: catsearch.from_text(game, t))
            sums["from_view"] += us(lambda: catsearch.from_text(game, v))
        out[f"{game}/{players}"] = {k: x / len(states) for k, x in sums.items()}
print(json.dumps(out))
"""

COLS = ("to_text", "view_text", "from_full", "from_view")


def measure(tree: str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, cwd=os.path.abspath(tree),
                         capture_output=True, text=True, timeout=1800)
    if out.returncode != 0:
        raise RuntimeError(f"{tree}: the probe failed:\n{out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", default=os.path.join(os.path.dirname(__file__), ".."))
    ap.add_argument("--compare", metavar="OLD_TREE", default=None)
    args = ap.parse_args(argv)
    new = measure(args.tree)
    old = measure(args.compare) if args.compare else None
    print(f"{'game/players':<16} {'clone':>6} " + " ".join(f"{c:>20}" for c in COLS))
    for key, row in new.items():
        cells = []
        for c in COLS:
            cell = f"{row[c]:6.2f}us x{row[c] / row['clone']:5.0f}"
            if old:
                cell += f" {old[key][c] / row[c]:4.1f}x"
            cells.append(f"{cell:>20}" if not old else f"{cell:>26}")
        print(f"{key:<16} {row['clone']:6.2f} " + " ".join(cells))
    if old:
        print("(per cell: NEW microseconds, as clones; OLD / NEW)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
