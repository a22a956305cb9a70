"""catsearch's ISMCTS against OpenSpiel's ISMCTSBot on Herding Cats (the figures of
docs/interop.rst).

    python benchmarks/vs_openspiel.py --games 40 --jobs 2
    python benchmarks/vs_openspiel.py --iterations-games 24 --time-games 40 --seconds 0.1

Needs the [openspiel] extra. Three measurements, 2 players:

1. **Equal iterations**: ``ismcts:iterations=N`` against OpenSpiel's Python ``ISMCTSBot``
   with its defaults (random rollouts, UCT, the most visited move; ``uct_c=2``, OpenSpiel's
   examples' value) and ``N`` simulations (``openspiel-ismcts:iterations=N``).
2. **Equal time per move**: both searchers given the same ``--seconds`` per move (wall
   clock, each move searched alone on one core); the CPU seconds each side used are
   reported too.
3. **Speed**: iterations per second of each searcher on the same positions (from random
   play of ``--positions`` deals), ``N`` iterations a search, CPU time.

Games come in duplicate pairs: each deal is played twice with the seats swapped, so the
luck of the deal cancels; the score is catsearch's mean return (a win 1, a shared win 1/2)
with its 95% Wilson interval (:func:`catsearch.arena.stats.wilson_interval`) over the games.
Every move is searched on the seat's view only. Progress goes to stderr, one line a game;
``--budget-minutes`` (per setting) stops starting new pairs once spent (the report says
how many were played), so a run is bounded. ``--iterations-games 0`` or ``--time-games 0``
leaves a setting out, ``--positions 0`` the speed test.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import sys
import time

from catsearch.arena.stats import wilson_interval
from catsearch.search import make_player

GAME = "herding-cats"
PLAYERS = 2


def play_one(task: tuple) -> dict:
    """One game: ``(setting, deal, catsearch_seat, specs)`` -> catsearch's return and each
    side's iterations and CPU seconds."""
    setting, deal, cs_seat, specs = task
    import catsearch.interop.openspiel  # noqa: F401  (the player plugins' module)
    st = catsearch.new_game(GAME, PLAYERS, seed=deal)
    players = {cs_seat: make_player(specs["catsearch"]),
               1 - cs_seat: make_player(specs["openspiel"])}
    side = {cs_seat: "catsearch", 1 - cs_seat: "openspiel"}
    used = {s: {"iterations": 0, "cpu": 0.0, "searches": 0} for s in ("catsearch", "openspiel")}
    while not st.is_terminal():
        seat = st.current_player
        view = st.view(seat)
        t = time.process_time()
        r = players[seat].search(view)
        dt = time.process_time() - t
        if r.iterations:                       # forced moves are not searched
            u = used[side[seat]]
            u["iterations"] += r.iterations
            u["cpu"] += dt
            u["searches"] += 1
        st.play(r.move)
    return {"setting": setting, "deal": deal, "seat": cs_seat,
            "score": st.returns()[cs_seat], "used": used}


def specs_for(setting: str, args, deal: int) -> dict:
    if setting == "iterations":
        n = args.iterations
        return {"catsearch": f"ismcts:iterations={n},seed={deal}",
                "openspiel": f"openspiel-ismcts:iterations={n},seed={deal}"}
    s = args.seconds
    return {"catsearch": f"ismcts:iterations=0,seconds={s},seed={deal}",
            "openspiel": f"openspiel-ismcts:seconds={s},seed={deal}"}


def run_setting(setting: str, games: int, args, pool, deadline: float) -> dict:
    pairs = (games + 1) // 2
    tasks = []
    for k in range(pairs):
        deal = args.seed + k
        for seat in (0, 1):
            tasks.append((setting, deal, seat, specs_for(setting, args, deal)))
    results = []
    total = 0.0
    batch = max(1, (args.jobs + 1) // 2) * 2          # whole pairs, about --jobs at a time
    for start in range(0, len(tasks), batch):
        if start and time.time() > deadline:
            print(f"[{setting}] the budget is spent: {len(results)} games played",
                  file=sys.stderr, flush=True)
            break
        for res in pool.map(play_one, tasks[start:start + batch]):
            results.append(res)
            total += res["score"]
            print(f"[{setting}] game {len(results)}/{len(tasks)}: deal {res['deal']}, "
                  f"catsearch seat {res['seat']}, catsearch scores {res['score']:g}; running "
                  f"{total / len(results):.3f}", file=sys.stderr, flush=True)
    n = len(results)
    score = total / n
    est = wilson_interval(score, n)
    side = {}
    for who in ("catsearch", "openspiel"):
        its = sum(r["used"][who]["iterations"] for r in results)
        cpu = sum(r["used"][who]["cpu"] for r in results)
        searches = sum(r["used"][who]["searches"] for r in results)
        side[who] = {"iterations_per_second": its / cpu if cpu else float("nan"),
                     "iterations_per_search": its / searches if searches else 0.0,
                     "cpu_per_search": cpu / searches if searches else 0.0}
    return {"setting": setting, "games": n, "score": score, "low": est.low, "high": est.high,
            "sides": side, "specs": specs_for(setting, args, args.seed)}


def speed(args) -> dict:
    """Iterations per CPU second of each searcher on the same positions."""
    import catsearch.interop.openspiel  # noqa: F401
    positions = []
    for k in range(args.positions):
        st = catsearch.new_game(GAME, PLAYERS, seed=10_000 + k)
        r = random.Random(k)
        for _ in range(r.randrange(0, 40)):
            st.apply(r.choice(st.legal_moves()))
        if len(st.legal_moves()) > 1:
            positions.append(st.view(st.current_player))
    out = {}
    for who, spec in (("catsearch", f"ismcts:iterations={args.iterations},seed=1"),
                      ("openspiel", f"openspiel-ismcts:iterations={args.iterations},seed=1")):
        p = make_player(spec)
        its, cpu = 0, 0.0
        for view in positions:
            t = time.process_time()
            res = p.search(view)
            cpu += time.process_time() - t
            its += res.iterations
        out[who] = its / cpu
        print(f"[speed] {who}: {its / cpu:,.0f} iterations/s over {len(positions)} positions",
              file=sys.stderr, flush=True)
    out["positions"] = len(positions)
    out["ratio"] = out["catsearch"] / out["openspiel"]
    return out


def report(results: list[dict], sp: dict | None, args) -> str:
    lines = [f"catsearch ISMCTS against OpenSpiel ISMCTSBot, {GAME}, {PLAYERS} players",
             "",
             "| setting | games | catsearch score (95% Wilson) | catsearch it/s | OpenSpiel it/s |"
             " catsearch it/move | OpenSpiel it/move |",
             "|---|---|---|---|---|---|---|"]
    for r in results:
        name = (f"equal iterations ({args.iterations})" if r["setting"] == "iterations"
                else f"equal time ({args.seconds} s/move)")
        c, o = r["sides"]["catsearch"], r["sides"]["openspiel"]
        lines.append(f"| {name} | {r['games']} | {r['score']:.3f} ({r['low']:.3f}-"
                     f"{r['high']:.3f}) | {c['iterations_per_second']:,.0f} | "
                     f"{o['iterations_per_second']:,.0f} | {c['iterations_per_search']:,.0f} | "
                     f"{o['iterations_per_search']:,.0f} |")
    if sp:
        lines += ["", f"Speed on the same {sp['positions']} positions ({args.iterations} "
                  f"iterations a search, CPU time): catsearch {sp['catsearch']:,.0f} it/s, "
                  f"OpenSpiel {sp['openspiel']:,.0f} it/s ({sp['ratio']:,.0f}x)."]
    return "\n".join(lines)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40,
                    help="games per setting (even: pairs of one deal, seats swapped)")
    ap.add_argument("--iterations-games", type=int, default=None,
                    help="games at equal iterations (default --games)")
    ap.add_argument("--time-games", type=int, default=None,
                    help="games at equal time (default --games)")
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=0.1, help="time per move, equal time")
    ap.add_argument("--positions", type=int, default=12, help="positions of the speed test")
    ap.add_argument("--seed", type=int, default=1, help="deal g of a setting is seed + g")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="games at a time (processes)")
    ap.add_argument("--budget-minutes", type=float, default=30.0,
                    help="per setting: start no new deal pair after this many minutes "
                         "(the pairs played are reported)")
    ap.add_argument("--json", help="write the results to this file too")
    args = ap.parse_args(argv)
    try:
        import catsearch.interop.openspiel  # noqa: F401  (needs the [openspiel] extra)
    except ImportError as e:
        sys.exit(str(e))
    t0 = time.time()
    results = []
    with mp.get_context("spawn").Pool(max(1, args.jobs)) as pool:
        for setting, games in (("iterations", args.iterations_games), ("time", args.time_games)):
            games = args.games if games is None else games
            if games > 0:
                deadline = time.time() + 60 * args.budget_minutes
                results.append(run_setting(setting, games, args, pool, deadline))
    sp = speed(args) if args.positions > 0 else None
    text = report(results, sp, args)
    print(text)
    print(f"\n({time.time() - t0:.0f} s wall, --jobs {args.jobs})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "speed": sp, "args": vars(args)}, f, indent=1)


if __name__ == "__main__":
    main()
