"""Does more search still change the move? Each budget's move against a much larger search's.

    python benchmarks/convergence.py [--game the-cat] [--players 2] [--positions 40]
                                     [--budgets 1000,10000,100000] [--reference 1000000]
                                     [--seeds 4] [--every 23] [--searcher ismcts]
                                     [--out FILE.jsonl]

Positions: games of the ``heuristic`` player (seed 1) against itself (deal seeds 100, 101, ...), one
position every ``--every`` moves (from move ``--every // 2`` on) where the seat to move has
more than one legal move, until ``--positions``. At each, one search of ``--reference``
iterations (seed 99) is the yardstick: its move and, per root move, its mean return for the
seat to move. Then each budget searches the same position ``--seeds`` times (seeds 1, 2, ...).
Printed per budget: how often its move is the reference's (``agrees``), and what its move
loses by the reference's own means (``loss``: the reference move's mean minus the move's, in
the mover's expected return; the mean loss over every search and the largest). The
reference moves by visits, so a move it tried less can have the higher mean: such a loss is
below 0; a move it never tried counts at its lowest mean.

A searcher that still converges at a budget agrees more, and loses less, at the next one.
Whether that makes it stronger is a question for games (``catsearch-arena``): the means are
the search's own (its determinizations, its playouts, its cut-off's evaluation), and where
those are wrong, a search can converge to a move no better than the smaller budget's
(docs/search.rst, "The Cat past 10,000, head to head").

``--searcher`` is a player spec without the iterations and seed (``ismcts:cutoff=16``, say).
Each position's results are one line of ``--out`` (JSON lines): a rerun with the same file
and arguments skips the positions already there (resume, after Ctrl-C). Progress to stderr.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

import catsearch  # noqa: E402

REFERENCE_SEED = 99


def positions(game, players, count, every, max_moves=2000):
    """``count`` positions from heuristic self-play, one every ``every`` moves."""
    heuristic = catsearch.make_player("heuristic:seed=1")
    out, deal = [], 100
    while len(out) < count:
        state = catsearch.new_game(game, players, seed=deal)
        for k in range(max_moves):
            if state.is_terminal() or len(out) == count:
                break
            if k % every == every // 2 and len(state.legal_moves()) > 1:
                out.append(state.clone())
            state.apply(heuristic.search(state).move)
        deal += 1
    return out


def player(searcher, iterations, seed):
    sep = "," if ":" in searcher else ":"
    return catsearch.make_player(f"{searcher}{sep}iterations={iterations},seed={seed}")


def measure(state, searcher, reference, budgets, seeds):
    """One position's row: the reference's move and, per budget, each seed's move and loss."""
    ref = player(searcher, reference, REFERENCE_SEED).search(state)
    means = {m: s.mean for m, s in ref.stats.items()}
    worst = min(means.values())
    row = {"reference": ref.move, "legal": len(state.legal_moves()), "budgets": {}}
    for budget in budgets:
        moves = [player(searcher, budget, s).search(state).move for s in range(1, seeds + 1)]
        row["budgets"][str(budget)] = [
            [m, means[ref.move] - means.get(m, worst)] for m in moves]
    return row


def report(rows, budgets, reference):
    print(f"{len(rows)} positions; each budget's move against {reference:,} iterations'")
    print(f"{'budget':>10} {'agrees':>7} {'loss':>8} {'largest':>8}")
    for budget in budgets:
        cells = [(m == r["reference"], loss) for r in rows for m, loss in r["budgets"][str(budget)]]
        agree = sum(a for a, _ in cells) / len(cells)
        loss = sum(x for _, x in cells) / len(cells)
        print(f"{budget:>10,} {agree:>7.2f} {loss:>8.4f} {max(x for _, x in cells):>8.4f}")


def whole_numbers(text):
    try:
        values = [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"whole numbers separated by commas, not {text!r}")
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"budgets are at least 1, not {text!r}")
    return values


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="the-cat", choices=catsearch.GAMES)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--budgets", type=whole_numbers, default=[1000, 10000, 100000])
    ap.add_argument("--reference", type=int, default=1_000_000)
    ap.add_argument("--seeds", type=int, default=4)
    ap.add_argument("--every", type=int, default=23)
    ap.add_argument("--searcher", default="ismcts")
    ap.add_argument("--out", help="the results file (JSON lines; resumed if it exists)")
    args = ap.parse_args(argv)
    for name in ("positions", "reference", "seeds", "every"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} is at least 1, not {getattr(args, name)}")
    try:
        player(args.searcher, 1, 1)             # a bad spec: say so before any search
    except (TypeError, ValueError) as e:
        ap.error(f"--searcher {args.searcher!r}: {e}")
    done = []
    if args.out and os.path.exists(args.out):
        with open(args.out) as f:
            done = [json.loads(line) for line in f if line.strip()]
    states = positions(args.game, args.players, args.positions, args.every)
    with open(args.out, "a") if args.out else open(os.devnull, "w") as f:
        for i, state in enumerate(states):
            if i < len(done):
                continue
            print(f"  position {i + 1}/{len(states)}", file=sys.stderr, flush=True)
            row = measure(state, args.searcher, args.reference, args.budgets, args.seeds)
            done.append(row)
            f.write(json.dumps(row) + "\n")
            f.flush()
    report(done[:len(states)], args.budgets, args.reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
