"""Plot the Elo of sampled-chance expectimax in arena matches, with 95% intervals.

    python benchmarks/expectimax_sampling_plot.py vs_top.jsonl vs_ismcts.jsonl \\
        --names "top-24 (before)" ISMCTS --out docs/_static/expectimax-sampling.png

Each argument is a results file of ``catsearch-arena match`` (2 seats); the plot shows, per
file, the Elo of its first player against the second (the arena's estimate and its 95%
interval over deal groups, as ``catsearch-arena summary`` prints them), labelled by the
opponent and the games counted. Needs matplotlib (``pip install "catsearch[plot]"``).
"""
from __future__ import annotations

import argparse
import math

from catsearch.arena.results import load_results, summarize

#: where an interval is open (a score of 0 or 1 at one end), the plot stops it here
CLIP = 800.0


def elo_points(paths, names=None):
    """Per results file: ``(label, elo, low, high)`` of its first player (``names``: the
    opponents' names to show, else their arena labels)."""
    out = []
    for i, path in enumerate(paths):
        config, records = load_results(path)
        s = summarize(config, records)
        e = s["elo"]
        score = s["players"][0]["score"]["value"]
        # no estimate (a score of 0 or 1): the clip on its side
        edge = CLIP if score > 0.5 else -CLIP
        bound = [edge if x is None else max(-CLIP, min(CLIP, float(x)))
                 for x in (e["value"], e["low"], e["high"])]
        name = names[i] if names else e["opponent"]
        label = f"vs {name}\n({s['games']['counted']} games)"
        out.append((label, *bound))
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--out", default="expectimax-sampling.png")
    ap.add_argument("--names", nargs="+", help="the opponents' names, one per file")
    ap.add_argument("--title", default="expectimax (sampled chance) on The Cat, equal time")
    args = ap.parse_args(argv)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    points = elo_points(args.results, args.names)
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.8 * len(points)))
    for i, (label, v, lo, hi) in enumerate(points):
        ax.errorbar([v], [i], xerr=[[v - lo], [hi - v]], fmt="o", capsize=4, color="C0")
        print(f"{label.splitlines()[0]}: Elo {v:+.0f} [{lo:+.0f}, {hi:+.0f}]"
              + (" (interval clipped)" if math.isclose(abs(lo), CLIP) or
                 math.isclose(abs(hi), CLIP) else ""))
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_yticks(range(len(points)), [p[0] for p in points])
    ax.set_xlabel("Elo of the sampled-chance expectimax (95% interval)")
    ax.set_ylim(-0.7, len(points) - 0.3)
    ax.set_title(args.title, fontsize=10)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"plot: {args.out}")


if __name__ == "__main__":
    main()
