"""The exploitability of ISMCTS's root strategy in a one-shot simultaneous game, by selection
rule (``select=ucb|rm|exp3``) and iterations (issue 38; docs/search.rst, "Simultaneous
choices").

The game is ``toy-biased-pennies`` (catsearch.testing.toys): heads-heads wins for seat 0, a
mismatch loses, tails-tails draws. Its equilibrium picks heads with probability 1/3 and gives
seat 0 the value 1/3, so the exploitability of seat 0's root strategy ``x`` (probability of
heads) is exact: ``1/3 - min(x, (1 - x) / 2)``. The root strategy is the average strategy of
``catsearch.search.results.average_strategy``: the visit frequencies, less the ``gamma``
exploration for rm and exp3. Each point is the mean over ``--seeds`` searches, with a 95%
interval (1.96 standard errors).

    python benchmarks/simultaneous.py --seeds 32 --plot docs/_static/exploitability-pennies.png
"""

from __future__ import annotations

import argparse
import math

import catsearch
import catsearch.testing  # noqa: F401  (registers the toy games)
from catsearch.search.ismcts import ISMCTSCore
from catsearch.search.results import average_strategy
from catsearch.search.tree import GAMMA

RULES = ("ucb", "rm", "exp3")
BUDGETS = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)


def exploitability(rule: str, iterations: int, seed: int, gamma: float = GAMMA) -> float:
    view = catsearch.new_game("toy-biased-pennies", seed=1).view(0)
    core = ISMCTSCore(view, 0, mo=True, seed=seed)
    core.set_select(rule, gamma)
    core.run(iterations)
    visits = {m: v for m, v, _r, _a in core.children(0)}
    x = average_strategy(visits, 0.0 if rule == "ucb" else gamma).get(0, 0.0)
    return 1 / 3 - min(x, (1 - x) / 2)


def table(seeds: int) -> dict[str, list[tuple[int, float, float]]]:
    """Per rule: (iterations, mean, 95% half-width) over the seeds."""
    out = {}
    for rule in RULES:
        rows = []
        for n in BUDGETS:
            xs = [exploitability(rule, n, s) for s in range(seeds)]
            mean = sum(xs) / len(xs)
            sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / max(1, len(xs) - 1))
            rows.append((n, mean, 1.96 * sd / math.sqrt(len(xs))))
        out[rule] = rows
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=32)
    ap.add_argument("--plot", help="write the figure here (matplotlib)")
    args = ap.parse_args()
    result = table(args.seeds)
    print("iterations " + " ".join(f"{r:>16}" for r in RULES))
    for i, n in enumerate(BUDGETS):
        print(f"{n:>10} " + " ".join(f"{result[r][i][1]:.3f} +- {result[r][i][2]:.3f}".rjust(16)
                                     for r in RULES))
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 3.6))
        for rule in RULES:
            ns, ms, hs = zip(*result[rule])
            ax.errorbar(ns, ms, yerr=hs, marker="o", capsize=3, label=f"select={rule}")
        ax.set_xscale("log")
        ax.set_xlabel("iterations")
        ax.set_ylabel("exploitability of the root strategy")
        ax.set_title(f"toy-biased-pennies, mean of {args.seeds} seeds, 95% intervals")
        ax.legend()
        fig.tight_layout()
        fig.savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
