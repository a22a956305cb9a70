"""The time manager against a fixed movetime of the same average, at equal clock
(issue 36; docs/protocol.rst, "Clocks").

    python benchmarks/time_manager.py --game herding-cats --tc 2+0.02 --groups 100 \\
        --out tm.jsonl

Two seats of the same searcher (``--searcher``, ISMCTS by default), each on the same clock
(``--tc BASE+INC``, charged the wall time of its searches, as the arena does). One spends its
clock through the time manager (``Limits(clock=...)``: the game's estimate of the moves
left, forced moves at once, a reserve); the other searches a fixed time every move, the
average time the time manager spent on a move that was not forced (``--movetime``; by
default measured first, by ``--pilot`` games of the time manager against itself, and kept
in the results file), never more than its clock holds less 50 ms (a fixed movetime that
flagged would measure nothing). Each deal is played twice, the seats swapped; a move that
overruns its clock is a flag and loses the game.

The table: the time manager's score (1 a win, 1/2 a tie) with the arena's clustered 95%
interval over deal groups, its Elo, the flags of each side, and the mean seconds each side
spent on a move that was not forced (equal by construction, up to the pilot's sample).
Every game is one line of ``--out``; rerunning the command goes on from it (Ctrl-C stops
cleanly). Progress goes to stderr.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import catsearch
from catsearch.arena.stats import clustered_mean, elo_estimate
from catsearch.search import make_player
from catsearch.search.limits import Limits
from catsearch.search.timeman import Clock

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from value_of_information import derive, head_to_head  # noqa: E402

#: what the fixed-movetime seat leaves on its clock (its cap: clock - margin)
MARGIN = 0.05


def parse_tc(text: str) -> tuple[float, float]:
    base, _, inc = text.partition("+")
    return float(base), float(inc or 0)


def play(game: str, searcher: str, tc: tuple[float, float], movetime: float | None,
         seed: int, group: int, tm_seat: int) -> dict:
    """One 2-seat game of deal ``group``: the time manager in ``tm_seat``, the other seat a
    fixed ``movetime`` (``None``: the time manager too, as in the pilot)."""
    st = catsearch.new_game(game, 2, seed=derive(seed, game, group, "deal"))
    sep = "," if ":" in searcher else ":"
    seats = [make_player(f"{searcher}{sep}seed={derive(seed, game, group, 'seat', s)}")
             for s in range(2)]
    clocks = [tc[0], tc[0]]
    spent = [0.0, 0.0]
    searched = [0, 0]
    flag = None
    while not st.is_terminal():
        p = st.current_player
        view = st.view(p)
        forced = len(view.legal_moves()) == 1
        if p == tm_seat or movetime is None:
            limits = Limits(clock=Clock(time=max(0.0, clocks[p]), inc=tc[1])).for_state(view)
        else:
            limits = Limits(seconds=max(0.001, min(movetime, clocks[p] - MARGIN)))
        t0 = time.perf_counter()
        move = seats[p].search(view, limits=limits).move
        took = time.perf_counter() - t0
        clocks[p] -= took
        if not forced:
            spent[p] += took
            searched[p] += 1
        if clocks[p] < 0:
            flag = p
            break
        clocks[p] += tc[1]
        st.apply(move)
    returns = list(st.returns()) if flag is None else [1.0 if s != flag else 0.0
                                                        for s in range(2)]
    return {"game": game, "searcher": searcher, "tc": list(tc), "movetime": movetime,
            "seed": seed, "group": group, "tm_seat": tm_seat, "returns": returns,
            "flag": flag, "spent": spent, "searched": searched}


def key(r: dict) -> tuple:
    return r["game"], r["searcher"], tuple(r["tc"]), r["seed"], r["group"], r["tm_seat"]


def summary(records: list) -> dict:
    by_group: dict = {}
    for r in records:
        by_group.setdefault(r["group"], []).append(r)
    sums = [sum(head_to_head(r["returns"], r["tm_seat"], 1 - r["tm_seat"]) for r in rs)
            for rs in by_group.values() if len(rs) == 2]
    score = clustered_mean(sums, [2] * len(sums), bounds=(0.0, 1.0))
    tm_flags = sum(r["flag"] == r["tm_seat"] for r in records)
    fixed_flags = sum(r["flag"] is not None and r["flag"] != r["tm_seat"] for r in records)

    def mean_move(side):   # 0: the time manager, 1: the fixed movetime
        seats = [(r, r["tm_seat"] if side == 0 else 1 - r["tm_seat"]) for r in records]
        n = sum(r["searched"][s] for r, s in seats)
        return sum(r["spent"][s] for r, s in seats) / n if n else float("nan")
    return {"games": 2 * len(sums), "score": score, "elo": elo_estimate(score),
            "tm_flags": tm_flags, "fixed_flags": fixed_flags,
            "tm_move": mean_move(0), "fixed_move": mean_move(1)}


def pilot(game: str, searcher: str, tc, seed: int, games: int) -> float:
    """The time manager's mean seconds a searched move, over ``games`` games against itself."""
    spent = searched = 0
    for g in range(games):
        r = play(game, searcher, tc, None, seed + 1_000_003, g, 0)
        spent += sum(r["spent"])
        searched += sum(r["searched"])
        print(f"\rpilot {g + 1}/{games}: {spent / max(1, searched):.4f} s a move   ",
              end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return spent / max(1, searched)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="herding-cats", choices=catsearch.GAMES)
    ap.add_argument("--tc", default="2+0.02", help="BASE+INC seconds")
    ap.add_argument("--searcher", default="ismcts", help="the spec both seats play (no seed)")
    ap.add_argument("--groups", type=int, default=100, help="deal groups (2 games each)")
    ap.add_argument("--movetime", type=float, default=None,
                    help="the fixed seat's seconds a move (default: measured by --pilot)")
    ap.add_argument("--pilot", type=int, default=10, help="games of the pilot")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default="time_manager.jsonl")
    args = ap.parse_args(argv)
    tc = parse_tc(args.tc)
    done, movetime = {}, args.movetime
    if os.path.exists(args.out):
        with open(args.out) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    if "pilot" in r:
                        movetime = movetime or r["pilot"]
                    else:
                        done[key(r)] = r
    interrupted = False
    try:
        with open(args.out, "a") as f:
            if movetime is None:
                movetime = pilot(args.game, args.searcher, tc, args.seed, args.pilot)
                f.write(json.dumps({"pilot": movetime}) + "\n")
            todo = [(g, s) for g in range(args.groups) for s in range(2)
                    if (args.game, args.searcher, tc, args.seed, g, s) not in done]
            print(f"fixed movetime {movetime:.4f} s; {len(todo)} games to play",
                  file=sys.stderr)
            t0 = time.perf_counter()
            for i, (g, s) in enumerate(todo):
                r = play(args.game, args.searcher, tc, movetime, args.seed, g, s)
                f.write(json.dumps(r) + "\n")
                f.flush()
                done[key(r)] = r
                el = time.perf_counter() - t0
                print(f"\rgroup {g + 1}/{args.groups}: {i + 1}/{len(todo)} games, {el:.0f} s, "
                      f"~{el / (i + 1) * (len(todo) - i - 1):.0f} s left   ",
                      end="", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        interrupted = True
        print("\nstopped: rerun the same command to go on", file=sys.stderr)
    recs = [r for k, r in done.items() if k[:4] == (args.game, args.searcher, tc, args.seed)]
    if recs:
        c = summary(recs)
        s, e = c["score"], c["elo"]
        print(f"\n{args.game}, {args.searcher}, tc {args.tc}, fixed movetime {movetime:.4f} s")
        print(f"time manager vs fixed movetime: {c['games']} games, score {s.value:.3f} ± "
              f"{s.pm:.3f}, Elo {e.value:+.0f} [{e.low:+.0f}, {e.high:+.0f}]; flags: time "
              f"manager {c['tm_flags']}, fixed {c['fixed_flags']}; seconds a searched move: "
              f"time manager {c['tm_move']:.4f}, fixed {c['fixed_move']:.4f}")
    return 130 if interrupted else 0


if __name__ == "__main__":
    sys.exit(main())
