"""Measure the ladder of strength levels (catsearch.search.ladder) and write its table.

Each level plays the one below it in the arena (2 seats, duplicate deals: every deal is
played from both seats), for each game asked; the Elo of each step has a 95% interval, and a
level's Elo above level 1 is the sum of the steps below it (its interval: the steps' half
widths added in quadrature, the matches being independent). The table replaces the one
between the markers of docs/play.rst (``--doc``), so the page ships what was measured, with
the command that measured it.

    nice -n 10 python benchmarks/levels.py --games herding-cats --groups 30 -j 2 --doc
"""

from __future__ import annotations

import argparse
import math
import pathlib
import shlex
import sys
import time

import catsearch
from catsearch.arena import run_match
from catsearch.search.ladder import LADDER

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "play.rst"
START, END = ".. levels-table-start", ".. levels-table-end"


def measure_step(game: str, level: int, groups: int, jobs: int, seed: int) -> dict:
    """Level ``level`` against level ``level - 1``: its Elo and interval, the games."""
    r = run_match(game, [f"L{level}=level:n={level}", f"L{level - 1}=level:n={level - 1}"],
                  groups=groups, seed=seed, concurrency=jobs)
    e = r.summary["elo"]
    return {"level": level, "elo": e["value"], "low": e["low"], "high": e["high"],
            "games": len(r.records), "failures": sum(1 for g in r.records if g.failure)}


def _num(x: float | None) -> str:
    if x is None or not math.isfinite(x):
        return "inf" if x is not None and x > 0 else "-inf" if x is not None else "?"
    return f"{x:+.0f}"


def table(game: str, steps: list[dict]) -> list[str]:
    """The rst table of one game's ladder."""
    head = ("level", "spec", "step Elo [95%]", "games", "Elo above 1")
    rows = [("1", LADDER[0].spec.replace("ismcts:", "") + f", t={LADDER[0].temperature:g}",
             "", "", "0")]
    total, var = 0.0, 0.0
    for s in steps:
        rg = LADDER[s["level"] - 1]
        half = (s["high"] - s["low"]) / 2 if s["low"] is not None and math.isfinite(
            s["high"] - s["low"]) else math.inf
        total += s["elo"] if math.isfinite(s["elo"]) else 0.0
        var += half * half
        rows.append((str(s["level"]), rg.spec.replace("ismcts:", "") + f", t={rg.temperature:g}",
                     f"{_num(s['elo'])} [{_num(s['low'])}, {_num(s['high'])}]",
                     str(s["games"]), f"{total:+.0f} ± {math.sqrt(var):.0f}"))
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(len(head))]
    rule = "  ".join("=" * w for w in widths)
    out = [f"**{game}** (2 seats):", "", rule,
           "  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip(), rule]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return out + [rule, ""]


def write_doc(blocks: list[str], command: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{DOC} has no {START} / {END} markers")
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    body = [START, "", f"Measured with ``{command}``:", "", *blocks]
    DOC.write_text(head + "\n".join(body) + "\n" + END + tail, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default="herding-cats",
                   help="comma-separated game ids (default herding-cats)")
    p.add_argument("--groups", type=int, default=30,
                   help="deal groups per step (2 games each; default 30)")
    p.add_argument("--levels", default=f"2-{len(LADDER)}",
                   help="the steps to measure, as FIRST-LAST (each against the one below)")
    p.add_argument("-j", "--concurrency", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--doc", action="store_true", help=f"write the table into {DOC.name}")
    args = p.parse_args(argv)
    first, _, last = args.levels.partition("-")
    levels = range(max(2, int(first)), int(last or first) + 1)
    blocks = []
    for game in args.games.split(","):
        if game not in catsearch.GAMES:
            raise SystemExit(f"unknown game {game!r}; games: {', '.join(catsearch.GAMES)}")
        steps = []
        for level in levels:
            t0 = time.monotonic()
            s = measure_step(game, level, args.groups, args.concurrency, args.seed)
            steps.append(s)
            print(f"{game} L{level} vs L{level - 1}: {_num(s['elo'])} [{_num(s['low'])}, "
                  f"{_num(s['high'])}] in {s['games']} games, {s['failures']} failures "
                  f"({time.monotonic() - t0:.0f} s)", flush=True)
        blocks += table(game, steps)
    print("\n".join(blocks))
    if args.doc:
        cmd = "python benchmarks/levels.py " + shlex.join(argv if argv is not None
                                                          else sys.argv[1:])
        write_doc(blocks, cmd.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
