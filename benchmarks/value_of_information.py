"""The value of information per game (docs/search.rst, "The value of information").

    python benchmarks/value_of_information.py --games herding-cats,cat-cards --players 2,3 \\
        --groups 100 --out voi.jsonl --plot voi.png

ISMCTS that sees every hand (``State.view(seat, hands=True)``: every seat's hand and
whatever else a seat holds privately, but not the deck's order, the future draws or another
seat's hidden choice in the same tick) against the fair ISMCTS, both with the same
``--searcher`` spec (equal iterations). This is the gap inference could close: the fair
searcher's worlds are drawn from its own view, the oracle's only from what no seat knows.

A deal group is one deal played ``players`` times, the oracle in each seat in turn and the
fair searcher in the others (seats swapped: the luck of the deal cancels); the deal's seed
and every seat's search seed are derived from ``--seed``, the game, the player count and the
group (a seat keeps its search seed whichever searcher sits there). The oracle's score is its
head-to-head result against each fair seat (1 ahead, 1/2 level, 0 behind; 1/2 is equal
strength at any player count), averaged with the arena's clustered interval over deal groups
(``catsearch.arena.stats.clustered_mean``) and mapped to Elo (``elo_estimate``).

The same loop measures a searcher against other opponents (``--opponent SPEC``: the spec of
every other seat, ``heuristic`` say) and, with ``--fair``, a searcher that sees only its own
view: ``--opponent heuristic`` gives the ceiling of policy inference with an exact opponent
model (docs/search.rst, "Policy inference"), the measured seat being ``rules``, ``policy``
or the oracle in turn on the same deals. Every player that follows the game
(``Player.follows_moves``: ``inference=policy``, ``reuse=true``) is told each move
(``Player.observe`` with the full state, which gives it only its seat's observation).

The arena never shows a player more than its seat's view, so this script runs its own game
loop. Every finished game is one line of ``--out`` (JSON lines); a rerun with the same file
skips the games already there (resume), so a run can be stopped with Ctrl-C and continued,
and several runs (other games, more groups) add to one file. ``--report`` only reads the
file and prints the table. Progress goes to stderr. The plot needs matplotlib (optional).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time

import catsearch
from catsearch.arena.stats import clustered_mean, elo_estimate
from catsearch.search import make_player

SEARCHER = "ismcts:iterations=1000,inference=none"


def derive(*parts) -> int:
    """A 64-bit seed from ``parts`` (a str seed: the same in every Python run)."""
    return random.Random(":".join(map(str, parts))).randrange(2**64)


def play(game: str, players: int, searcher: str, seed: int, group: int, oracle: int, *,
         opponent: str | None = None, hands: bool = True, options: dict | None = None) -> dict:
    """One game of deal ``group``, ``searcher`` in seat ``oracle`` (seeing every hand if
    ``hands``), ``opponent`` (``None``: ``searcher``) in the others; its record."""
    st = catsearch.new_game(game, players, seed=derive(seed, game, players, group, "deal"),
                            **(options or {}))
    seats = []
    for s in range(players):
        spec = searcher if s == oracle or opponent is None else opponent
        sep = ":" if ":" not in spec else ","
        seats.append(make_player(f"{spec}{sep}seed={derive(seed, game, players, group, 'seat', s)}"))
    follow = [s for s in range(players) if getattr(seats[s], "follows_moves", False)]
    t0 = time.perf_counter()
    moves = 0
    while not st.is_terminal():
        p = st.current_player
        move = seats[p].choose_move(st.view(p, hands=hands and p == oracle))
        for s in follow:
            seats[s].observe(st, move)
        st.apply(move)
        moves += 1
    r = {"game": game, "players": players, "searcher": searcher, "seed": seed,
         "group": group, "oracle": oracle, "returns": st.returns(), "moves": moves,
         "seconds": round(time.perf_counter() - t0, 3)}
    if opponent is not None or not hands or options:    # old records keep their form
        r.update(opponent=opponent, hands=hands, options=options or {})
    return r


def key(r: dict) -> tuple:
    return (r["game"], r["players"], r["searcher"], r["seed"], r["group"], r["oracle"],
            r.get("opponent"), r.get("hands", True),
            tuple(sorted((r.get("options") or {}).items())))


def load(path: str) -> dict:
    done = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    done[key(r)] = r
    return done


def head_to_head(returns: list, a: int, b: int) -> float:
    return 1.0 if returns[a] > returns[b] + 1e-9 else 0.5 if abs(returns[a] - returns[b]) <= 1e-9 \
        else 0.0


def group_scores(records: list, players: int) -> dict:
    """Per complete deal group: the measured seat's head-to-head points and their count."""
    by_group: dict = {}
    for r in records:
        by_group.setdefault(r["group"], []).append(r)
    out = {}
    for g, rs in by_group.items():
        if len(rs) != players:
            continue                    # an unfinished group (a stopped run) does not count
        s = sum(head_to_head(r["returns"], r["oracle"], q) for r in rs
                for q in range(players) if q != r["oracle"])
        out[g] = (s, players * (players - 1))
    return out


def cell_summary(records: list, players: int) -> dict:
    """The oracle's head-to-head score and Elo over the complete deal groups of one cell."""
    groups = group_scores(records, players)
    full = [r for r in records if r["group"] in groups]
    score = clustered_mean([s for s, _ in groups.values()], [c for _, c in groups.values()],
                           bounds=(0.0, 1.0))
    games = len(groups) * players
    share = sum(r["returns"][r["oracle"]] for r in full)
    return {"groups": len(groups), "games": games, "score": score, "elo": elo_estimate(score),
            "share": share / games if games else float("nan"),
            "seconds": sum(r["seconds"] for r in records) / max(1, len(records))}


def cells(done: dict, seed: int, games: list, counts: list) -> dict:
    """The records of ``seed`` by cell: (game, players, searcher, opponent, hands, options)."""
    out: dict = {}
    for k, r in done.items():
        if k[3] == seed and k[0] in games and k[1] in counts:
            out.setdefault((k[0], k[1], k[2], k[6], k[7], k[8]), []).append(r)
    return out


def _elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def gap_closed(base: dict, oracle: dict, other: dict, *, boots: int = 2000,
               seed: int = 0) -> tuple:
    """The share of the oracle's Elo gap over ``base`` that ``other`` closes, ``(other -
    base) / (oracle - base)`` in Elo, on the deal groups all three played (paired deals),
    with a 95% percentile bootstrap interval over those groups: (value, low, high, groups)."""
    common = sorted(set(base) & set(oracle) & set(other))
    if not common:
        return float("nan"), float("nan"), float("nan"), 0

    def share(gs):
        e = [_elo(sum(c[g][0] for g in gs) / sum(c[g][1] for g in gs))
             for c in (base, oracle, other)]
        return (e[2] - e[0]) / (e[1] - e[0]) if e[1] != e[0] else float("nan")

    rng = random.Random(seed)
    draws = [share([rng.choice(common) for _ in common]) for _ in range(boots)]
    draws = sorted(d for d in draws if d == d)
    lo = draws[int(0.025 * len(draws))] if draws else float("nan")
    hi = draws[int(0.975 * len(draws)) - 1] if draws else float("nan")
    return share(common), lo, hi, len(common)


def report(done: dict, searcher: str, seed: int, games: list, counts: list,
           baseline: str | None = None) -> list:
    """Print every cell of ``seed`` (and, with ``baseline``, the share of the oracle's gap
    closed by each other fair searcher); the plot's rows: the oracle cells of ``searcher``
    against itself."""
    by_cell = cells(done, seed, games, counts)
    rows = []
    print(f"\nThe measured seat (a searcher that sees every hand: 'hands') against the others, "
          f"seed {seed}")
    print(f"{'game':14} {'p':>2} {'measured seat':44} {'opponents':>24} {'games':>6} "
          f"{'h2h score':>15} {'Elo [95%]':>22} {'s/game':>7}")
    for ck in sorted(by_cell, key=lambda c: (c[0], c[1], str(c[3]), str(c[5]), not c[4], c[2])):
        game, n, spec, opp, hands, opts = ck
        c = cell_summary(by_cell[ck], n)
        if not c["groups"]:
            continue
        if spec == searcher and opp is None and hands and not opts:
            rows.append((game, n, c))
        e, s = c["elo"], c["score"]
        label = ("hands " if hands else "") + spec
        extra = "".join(f",{k}={v}" for k, v in opts)
        print(f"{game + extra:14} {n:2d} {label:44} {opp or '(same)':>24} {c['games']:6d} "
              f"{s.value:6.3f} ± {s.pm:5.3f} {e.value:+7.0f} [{e.low:+5.0f}, {e.high:+5.0f}]"
              f" {c['seconds']:7.2f}")
    if baseline:
        print(f"\nShare of the oracle's gap over {baseline} closed (Elo; paired deals, "
              f"95% bootstrap over deals)")
        for ck in sorted(by_cell, key=str):
            game, n, spec, opp, hands, opts = ck
            if spec != baseline or hands:
                continue
            orc = by_cell.get((game, n, baseline, opp, True, opts))
            if orc is None:
                continue
            b, o = group_scores(by_cell[ck], n), group_scores(orc, n)
            for ck2, recs in sorted(by_cell.items(), key=str):
                if ck2[:2] != (game, n) or ck2[3:] != (opp, False, opts) or ck2[2] == baseline:
                    continue
                v, lo, hi, m = gap_closed(b, o, group_scores(recs, n))
                print(f"{game:14} {n:2d} vs {opp or '(same)':20} {ck2[2]:44} "
                      f"{v:+6.2f} [{lo:+6.2f}, {hi:+6.2f}] over {m} deals")
    return rows


def plot(rows: list, path: str, searcher: str) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no matplotlib: no plot", file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(7, 3.6))
    games = list(dict.fromkeys(g for g, _, _ in rows))
    for n, dx, mark in ((2, -0.12, "o"), (3, 0.12, "s"), (4, 0.24, "^")):
        pts = [(games.index(g) + dx, c["elo"]) for g, m, c in rows if m == n]
        if pts:
            xs = [x for x, _ in pts]
            ys = [e.value for _, e in pts]
            err = [[e.value - e.low for _, e in pts], [e.high - e.value for _, e in pts]]
            ax.errorbar(xs, ys, yerr=err, fmt=mark, capsize=4, label=f"{n} players")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xticks(range(len(games)), games)
    ax.set_ylabel("Elo of seeing every hand (95%)")
    ax.set_title(f"The value of information: {searcher}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"plot: {path}", file=sys.stderr)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(catsearch.GAMES), help="comma-separated ids")
    ap.add_argument("--players", default="2,3", help="comma-separated player counts")
    ap.add_argument("--groups", type=int, default=100, help="deal groups a cell (games: "
                    "groups x players)")
    ap.add_argument("--searcher", default=SEARCHER, help="the measured seat's spec (no seed); "
                    "every seat's without --opponent")
    ap.add_argument("--opponent", default=None, help="the other seats' spec (no seed; "
                    "default: --searcher)")
    ap.add_argument("--fair", action="store_true", help="the measured seat sees only its own "
                    "view (default: every hand, the oracle)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a game option (repeatable), e.g. target=12 for The Cat's short game")
    ap.add_argument("--baseline", default=None, help="with --report: the fair spec whose gap "
                    "to its oracle the others close (e.g. ismcts:iterations=1000,inference=rules)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="value_of_information.jsonl")
    ap.add_argument("--plot", default=None, help="a PNG of Elo with intervals (matplotlib)")
    ap.add_argument("--report", action="store_true", help="only print the table of --out")
    args = ap.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    for g in games:
        if g not in catsearch.GAMES:
            ap.error(f"unknown game {g!r}: the games are {', '.join(catsearch.GAMES)}")
    counts = [int(n) for n in args.players.split(",")]
    options = {}
    for o in args.option:
        name, sep, value = o.partition("=")
        if not sep:
            ap.error(f"--option {o!r}: give NAME=VALUE")
        options[name] = int(value) if value.lstrip("-").isdigit() else value
    hands = not args.fair
    extra = (args.opponent, hands, tuple(sorted(options.items())))
    done = load(args.out)
    interrupted = False
    if not args.report:
        todo = [(g, n, grp, o) for g in games for n in counts for grp in range(args.groups)
                for o in range(n)
                if (g, n, args.searcher, args.seed, grp, o) + extra not in done]
        print(f"{len(todo)} games to play ({len(done)} in {args.out})", file=sys.stderr)
        t0 = time.perf_counter()
        try:
            with open(args.out, "a") as f:
                for i, (g, n, grp, o) in enumerate(todo):
                    r = play(g, n, args.searcher, args.seed, grp, o, opponent=args.opponent,
                             hands=hands, options=options)
                    f.write(json.dumps(r) + "\n")
                    f.flush()
                    done[key(r)] = r
                    el = time.perf_counter() - t0
                    print(f"\r{g} {n}p group {grp + 1}/{args.groups} oracle in seat {o}: "
                          f"{i + 1}/{len(todo)} games, {el:.0f} s, "
                          f"~{el / (i + 1) * (len(todo) - i - 1):.0f} s left   ",
                          end="", file=sys.stderr, flush=True)
        except KeyboardInterrupt:
            interrupted = True
            print("\nstopped: rerun the same command to go on", file=sys.stderr)
    rows = report(done, args.searcher, args.seed, games, counts, args.baseline)
    if args.plot and rows:
        plot(rows, args.plot, args.searcher)
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
