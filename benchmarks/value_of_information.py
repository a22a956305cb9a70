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

The arena never shows a player more than its seat's view, so this script runs its own game
loop. Every finished game is one line of ``--out`` (JSON lines); a rerun with the same file
skips the games already there (resume), so a run can be stopped with Ctrl-C and continued,
and several runs (other games, more groups) add to one file. ``--report`` only reads the
file and prints the table. Progress goes to stderr. The plot needs matplotlib (optional).
"""
from __future__ import annotations

import argparse
import json
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


def play(game: str, players: int, searcher: str, seed: int, group: int, oracle: int) -> dict:
    """One game of deal ``group``, the oracle in seat ``oracle``; its record."""
    st = catsearch.new_game(game, players, seed=derive(seed, game, players, group, "deal"))
    seats = [make_player(f"{searcher},seed={derive(seed, game, players, group, 'seat', s)}")
             for s in range(players)]
    t0 = time.perf_counter()
    moves = 0
    while not st.is_terminal():
        p = st.current_player
        st.apply(seats[p].choose_move(st.view(p, hands=p == oracle)))
        moves += 1
    return {"game": game, "players": players, "searcher": searcher, "seed": seed,
            "group": group, "oracle": oracle, "returns": st.returns(), "moves": moves,
            "seconds": round(time.perf_counter() - t0, 3)}


def key(r: dict) -> tuple:
    return r["game"], r["players"], r["searcher"], r["seed"], r["group"], r["oracle"]


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


def cell_summary(records: list, players: int) -> dict:
    """The oracle's head-to-head score and Elo over the complete deal groups of one cell."""
    by_group: dict = {}
    for r in records:
        by_group.setdefault(r["group"], []).append(r)
    sums, counts, share = [], [], 0.0
    for rs in by_group.values():
        if len(rs) != players:
            continue                    # an unfinished group (a stopped run) does not count
        s = sum(head_to_head(r["returns"], r["oracle"], q) for r in rs
                for q in range(players) if q != r["oracle"])
        sums.append(s)
        counts.append(players * (players - 1))
        share += sum(r["returns"][r["oracle"]] for r in rs)
    score = clustered_mean(sums, counts, bounds=(0.0, 1.0))
    games = len(sums) * players
    return {"groups": len(sums), "games": games, "score": score, "elo": elo_estimate(score),
            "share": share / games if games else float("nan"),
            "seconds": sum(r["seconds"] for r in records) / max(1, len(records))}


def report(done: dict, searcher: str, seed: int, games: list, counts: list) -> list:
    rows = []
    for game in games:
        for n in counts:
            recs = [r for k, r in done.items() if k[:4] == (game, n, searcher, seed)]
            if recs:
                rows.append((game, n, cell_summary(recs, n)))
    print(f"\nISMCTS seeing every hand vs fair, {searcher}, seed {seed}")
    print(f"{'game':14} {'players':>7} {'games':>6} {'h2h score':>16} {'Elo [95%]':>22} "
          f"{'win share':>10} {'s/game':>7}")
    for game, n, c in rows:
        e, s = c["elo"], c["score"]
        print(f"{game:14} {n:7d} {c['games']:6d} {s.value:7.3f} ± {s.pm:5.3f} "
              f"{e.value:+7.0f} [{e.low:+5.0f}, {e.high:+5.0f}] {c['share']:7.3f}/{1 / n:.2f}"
              f" {c['seconds']:7.2f}")
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
    ap.add_argument("--searcher", default=SEARCHER, help="the spec both sides play (no seed)")
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
    done = load(args.out)
    interrupted = False
    if not args.report:
        todo = [(g, n, grp, o) for g in games for n in counts for grp in range(args.groups)
                for o in range(n)
                if (g, n, args.searcher, args.seed, grp, o) not in done]
        print(f"{len(todo)} games to play ({len(done)} in {args.out})", file=sys.stderr)
        t0 = time.perf_counter()
        try:
            with open(args.out, "a") as f:
                for i, (g, n, grp, o) in enumerate(todo):
                    r = play(g, n, args.searcher, args.seed, grp, o)
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
    rows = report(done, args.searcher, args.seed, games, counts)
    if args.plot and rows:
        plot(rows, args.plot, args.searcher)
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
