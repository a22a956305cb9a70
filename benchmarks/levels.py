"""Measure the ladder of strength levels (catsearch.search.ladder) and write its table.

Each level plays the one below it in the arena (2 seats, duplicate deals: every deal is
played from both seats), for each game asked, on the game's own ladder (``GameSpec.ladder``,
else the ladder every game plays by) or on a candidate given with ``--rungs`` (ten
``iterations:temperature`` pairs, to try a ladder before a game declares it). The Elo of
each step has a 95% interval, and a level's Elo above level 1 is the sum of the steps below
it (its interval: the steps' half widths added in quadrature, the matches being
independent). ``--doc`` writes each game's table into its own part of docs/play.rst (between
the markers, ``.. levels: GAME``), with the command that measured it, so the page ships what
was measured. Each step shows its games as they end (stderr); Ctrl-C stops at once, and with
``--record FILE`` the same command goes on where it stopped.

    nice -n 10 python benchmarks/levels.py --games herding-cats --groups 50 --doc
    python benchmarks/levels.py --games cat-earth --groups 40 \
        --rungs 20:100,20:4,20:2,20:1.4,20:1,30:0.7,60:0.5,120:0.35,400:0.2,8000:0
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import shlex
import sys
import time

import catsearch
from catsearch.arena import run_match
from catsearch.search.ladder import Rung, ladder, make_ladder

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "play.rst"
START, END = ".. levels-table-start", ".. levels-table-end"


def spec(r: Rung) -> str:
    """The player spec of rung ``r`` (its iterations and temperature written out)."""
    return f"level:n={r.level},iterations={r.iterations},temperature={r.temperature:g}"


def measure_step(game: str, rungs: tuple[Rung, ...], level: int, groups: int, jobs: int,
                 seed: int) -> dict:
    """Level ``level`` of ``rungs`` against level ``level - 1``: its Elo and interval, the
    games."""
    r = run_match(game, [f"L{level}={spec(rungs[level - 1])}",
                         f"L{level - 1}={spec(rungs[level - 2])}"],
                  groups=groups, seed=seed, concurrency=jobs, progress=True,
                  raise_on_interrupt=True)
    e = {k: None if v is None else float(v) for k, v in r.summary["elo"].items()
         if k in ("value", "low", "high")}       # the summary writes infinities as text
    return {"level": level, "elo": e["value"], "low": e["low"], "high": e["high"],
            "games": len(r.records), "failures": sum(1 for g in r.records if g.failure)}


def _num(x: float | None) -> str:
    if x is None or not math.isfinite(x):
        return "inf" if x is not None and x > 0 else "-inf" if x is not None else "?"
    return f"{x:+.0f}"


def _rung_text(r: Rung) -> str:
    return f"{r.iterations} iterations, t={r.temperature:g}"


def table(game: str, rungs: tuple[Rung, ...], steps: list[dict]) -> list[str]:
    """The rst table of one game's ladder."""
    head = ("level", "plays", "step Elo [95%]", "games", "Elo above 1")
    rows = [("1", _rung_text(rungs[0]), "", "", "0")]
    total, var = 0.0, 0.0
    for s in steps:
        rg = rungs[s["level"] - 1]
        half = (s["high"] - s["low"]) / 2 if s["low"] is not None and math.isfinite(
            s["high"] - s["low"]) else math.inf
        total += s["elo"] if math.isfinite(s["elo"]) else 0.0
        var += half * half
        rows.append((str(s["level"]), _rung_text(rg),
                     f"{_num(s['elo'])} [{_num(s['low'])}, {_num(s['high'])}]",
                     str(s["games"]), f"{total:+.0f} ± {math.sqrt(var):.0f}"))
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(len(head))]
    rule = "  ".join("=" * w for w in widths)
    out = [f"**{game}** (2 seats):", "", rule,
           "  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip(), rule]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    return out + [rule, ""]


GAME_MARK = ".. levels: "


def write_doc(blocks: dict[str, list[str]], command: str) -> None:
    """Each measured game's table into docs/play.rst, between the markers, one part per
    game (``.. levels: GAME``) with the command that measured it; the parts of games not
    measured now stay as they were."""
    text = DOC.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{DOC} has no {START} / {END} markers")
    head, _, rest = text.partition(START)
    body, _, tail = rest.partition(END)
    parts: dict[str, str] = {}
    for chunk in body.split("\n" + GAME_MARK)[1:]:
        game, _, rest_of_chunk = chunk.partition("\n")
        parts[game.strip()] = rest_of_chunk.strip("\n")
    for game, lines in blocks.items():
        parts[game] = "\n".join(["", f"Measured with ``{command}``:", "", *lines]).strip("\n")
    order = [g for g in catsearch.GAMES if g in parts] + sorted(set(parts) - set(catsearch.GAMES))
    out = [START, ""]
    for game in order:
        out += [GAME_MARK + game, "", parts[game], ""]
    DOC.write_text(head + "\n".join(out) + "\n" + END + tail, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", default="herding-cats",
                   help="comma-separated game ids (default herding-cats)")
    p.add_argument("--groups", type=int, default=30,
                   help="deal groups per step (2 games each; default 30)")
    p.add_argument("--rungs", default=None,
                   help="a candidate ladder instead of the game's: ten ITERATIONS:TEMPERATURE "
                        "pairs, comma-separated, level 1 first")
    p.add_argument("--levels", default="2-10",
                   help="the steps to measure, as FIRST-LAST (each against the one below)")
    p.add_argument("-j", "--concurrency", type=int, default=1)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--doc", action="store_true", help=f"write the table into {DOC.name}")
    p.add_argument("--record", default=None, metavar="FILE",
                   help="keep each measured step in FILE (JSON lines) and take the steps "
                        "already there (same game, rungs, groups and seed) instead of playing "
                        "them again: an interrupted run goes on where it stopped")
    args = p.parse_args(argv)
    candidate = None
    if args.rungs:
        try:
            candidate = make_ladder([(int(a), float(b)) for a, _, b in
                                     (x.partition(":") for x in args.rungs.split(","))])
        except (TypeError, ValueError) as e:
            raise SystemExit(f"--rungs {args.rungs!r}: {e}") from None
    if candidate and args.doc and any(candidate != ladder(g) for g in args.games.split(",")):
        raise SystemExit("--doc writes a game's own ladder: declare the rungs in its GameSpec "
                         "(ladder=...) first, then measure without --rungs")
    record = pathlib.Path(args.record) if args.record else None
    done = ({(d["key"], d["level"]): d for d in map(json.loads, record.read_text(
        encoding="utf-8").splitlines()) if d} if record and record.exists() else {})
    first, _, last = args.levels.partition("-")
    levels = range(max(2, int(first)), int(last or first) + 1)
    blocks: dict[str, list[str]] = {}
    for game in args.games.split(","):
        if game not in catsearch.GAMES:
            raise SystemExit(f"unknown game {game!r}; games: {', '.join(catsearch.GAMES)}")
        rungs = candidate or ladder(game)
        steps = []
        key = json.dumps([game, [[r.iterations, r.temperature] for r in rungs], args.groups,
                          args.seed])
        for level in levels:
            t0 = time.monotonic()
            s = done.get((key, level))
            if s is None:
                try:
                    s = measure_step(game, rungs, level, args.groups, args.concurrency,
                                     args.seed)
                except KeyboardInterrupt:
                    kept = (f"the steps measured are in {record}: run the same command to "
                            f"go on" if record else "give --record FILE to keep the steps")
                    print(f"levels.py: interrupted at {game} level {level}; {kept}",
                          file=sys.stderr)
                    return 130
                if record:
                    with record.open("a", encoding="utf-8") as f:
                        f.write(json.dumps({"key": key, **s}) + "\n")
            steps.append(s)
            print(f"{game} L{level} vs L{level - 1}: {_num(s['elo'])} [{_num(s['low'])}, "
                  f"{_num(s['high'])}] in {s['games']} games, {s['failures']} failures "
                  f"({time.monotonic() - t0:.0f} s)", flush=True)
        blocks[game] = table(game, rungs, steps)
        print("\n".join(blocks[game]), flush=True)
    if args.doc:
        given = list(argv if argv is not None else sys.argv[1:])
        if "--record" in given:         # where a run kept its steps is no part of the method
            k = given.index("--record")
            del given[k:k + 2]
        given = [a for a in given if not a.startswith("--record=")]
        cmd = "python benchmarks/levels.py " + shlex.join(given)
        write_doc(blocks, cmd.strip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
