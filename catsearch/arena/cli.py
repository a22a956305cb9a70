"""``catsearch-arena``: matches, round robins, budget sweeps, summaries and replays.

::

    catsearch-arena match herding-cats ismcts:iterations=300 heuristic --groups 50
    catsearch-arena match herding-cats ismcts heuristic random --seats 3 --out rr.jsonl
    catsearch-arena match herding-cats new=engine:./mybot heuristic --sprt elo0=0,elo1=20
    catsearch-arena sweep herding-cats 'ismcts:iterations={}' --budgets 30,100,300,1000 \\
        --opponent heuristic --plot sweep.png
    catsearch-arena tune herding-cats ismcts:iterations=300 --param exploration=0.2:2 \\
        --opponent heuristic --steps 200 --out tune.json
    catsearch-arena summary rr.jsonl
    catsearch-arena replay rr.jsonl 17 --verify
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading

from catsearch._core.options import parse_float, parse_int

__all__ = ["main"]

EXIT_INTERRUPTED = 130


def _add_match_options(p: argparse.ArgumentParser, sweep: bool = False) -> None:
    g = p.add_argument_group("the match")
    g.add_argument("--seats", type=int, default=0,
                   help="players per game, 2 to 4 (default: the number of players, at most 4"
                   + ("; 2 for a sweep" if sweep else "") + ")")
    g.add_argument("--groups", type=int, default=None,
                   help="deal groups: each deal is played by every table in every seating "
                   "(default 100; with --sprt, an upper bound: 100000)")
    g.add_argument("--seed", type=int, default=1, help="the master seed (default 1)")
    g.add_argument("--seatings", choices=("all", "rotate"), default="all",
                   help="all: every seat order (default); rotate: each player takes each "
                   "seat once, the cyclic order kept")
    g.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable)")
    g.add_argument("--move-timeout", type=float, default=None, metavar="SECONDS",
                   help="a move taking longer loses the game (default: none for built-in "
                   "players, 60 s for engines)")
    g.add_argument("--on-failure", choices=("lose", "void"), default="lose",
                   help="a player that crashes, hangs or plays an illegal move loses the "
                   "game (lose, default), or its whole deal group leaves the statistics (void)")
    g.add_argument("--setoption", action="append", default=[], metavar="LABEL:NAME=VALUE",
                   help="an engine option, sent as setoption (repeatable)")
    g.add_argument("--import", dest="imports", action="append", default=[],
                   metavar="MODULE", help="import a module or .py file that registers "
                   "extra players with register_player (repeatable)")
    if not sweep:
        g.add_argument("--tc", default=None, metavar="BASE+INC",
                       help="a time control: each seat's clock starts at BASE seconds and "
                       "gains INC after each of its moves (10+0.1); built-in players and "
                       "engines (go time .. inc ..) spend it by the time manager; a seat "
                       "whose clock runs out loses by a timeout (a flag)")
        g.add_argument("--sprt", default=None, metavar="elo0=E0,elo1=E1,alpha=A,beta=B",
                       help="stop as soon as a GSPRT decides (2 players; default model "
                       "normalized Elo; add model=logistic for plain Elo)")
    r = p.add_argument_group("running")
    r.add_argument("--concurrency", "-j", type=int, default=1, metavar="N",
                   help="games at a time (default 1)")
    r.add_argument("--backend", choices=("auto", "inline", "process", "ray"), default="auto",
                   help="auto: this process for -j 1, worker processes for more; ray: Ray "
                   "actors (pip install catsearch[ray])")
    r.add_argument("--ray-address", default=None, metavar="HOST:PORT",
                   help="a running Ray cluster to join: its head's address (ray start --head "
                   "prints it; port 6379 by default), or auto for one started on this "
                   "machine; the cluster's token, if it requires one, is read from "
                   "RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token (default: a "
                   "local Ray for this match)")
    r.add_argument("--quiet", "-q", action="store_true", help="no progress line")
    r.add_argument("--json", action="store_true", help="print the summary as JSON, not the "
                   "table")


def _game_options(items) -> tuple:
    from catsearch.arena.config import parse_game_option
    return tuple(parse_game_option(x) for x in items)


def _entrants(players, setoptions, imports=()):
    from catsearch.arena.entrants import Entrant, load_imports
    load_imports(imports)           # the players they register may be among ``players``
    ents = [Entrant.parse(p) for p in players]
    for item in setoptions:
        label, colon, rest = item.partition(":")
        name, eq, value = rest.partition("=")
        if not colon or not eq or not name.strip():
            raise ValueError(f"--setoption takes LABEL:NAME=VALUE, not {item!r}")
        hits = [i for i, e in enumerate(ents) if e.label == label]
        if not hits:
            raise ValueError(f"--setoption {item!r}: no player is labelled {label!r}; the "
                             f"labels are {', '.join(e.label for e in ents)}")
        for i in hits:
            ents[i] = ents[i].with_options({name.strip(): value.strip()})
    return ents


def _cmd_match(args) -> int:
    from catsearch.arena.config import MatchConfig, TimeControl
    from catsearch.arena.match import run_match
    from catsearch.arena.stats import SPRT
    sprt = SPRT.parse(args.sprt) if args.sprt else None
    groups = args.groups if args.groups is not None else (100000 if sprt else 100)
    config = MatchConfig(game=args.game, entrants=tuple(_entrants(args.players, args.setoption,
                                                          args.imports)),
                         seats=args.seats, groups=groups, seed=args.seed,
                         seatings=args.seatings, game_options=_game_options(args.option),
                         move_timeout=args.move_timeout, on_failure=args.on_failure,
                         sprt=sprt, imports=tuple(args.imports),
                         time_control=(TimeControl.parse(args.tc) if args.tc else None))
    result = run_match(config, out=args.out, summary=args.summary,
                       concurrency=args.concurrency, backend=args.backend,
                       progress=not args.quiet, resume=not args.fresh,
                       ray_address=args.ray_address)
    if args.json:
        print(json.dumps(result.summary, indent=2))
    else:
        print(result.table())
    if result.out:
        print(f"games: {result.out}" + (f"  summary: {result.summary_path}"
                                         if result.summary_path else ""), file=sys.stderr)
    if result.interrupted:
        where = (f"; the {len(result.records)} games done are in {result.out}: run the same "
                 f"command to resume" if result.out else "; give --out FILE to be able to "
                 "resume")
        print(f"catsearch-arena: interrupted{where}", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def _cmd_sweep(args) -> int:
    from catsearch.arena.sweep import run_sweep
    budgets = []
    for b in args.budgets.split(","):
        b = b.strip()
        try:
            budgets.append(parse_int(b, "--budgets"))
        except ValueError:
            try:
                budgets.append(parse_float(b, "--budgets"))
            except ValueError:
                raise ValueError(f"--budgets takes numbers separated by commas; {b!r} is "
                                 f"not one") from None
    groups = args.groups if args.groups is not None else 100
    res = run_sweep(args.game, args.template, budgets, args.opponent, out_dir=args.out_dir,
                    plot=args.plot, progress=not args.quiet, concurrency=args.concurrency,
                    backend=args.backend, ray_address=args.ray_address, groups=groups,
                    seed=args.seed, seats=args.seats or 2, seatings=args.seatings,
                    game_options=_game_options(args.option), move_timeout=args.move_timeout,
                    on_failure=args.on_failure, imports=tuple(args.imports))
    if args.json:
        print(json.dumps(res.to_dict(), indent=2))
        if res.plot_error:
            print(f"catsearch-arena: no plot: {res.plot_error}", file=sys.stderr)
    else:
        print(res.table())
    if res.interrupted:
        print("catsearch-arena: interrupted" + ("; rerun with the same --out-dir to resume"
                                                if args.out_dir else ""), file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def _cmd_tune(args) -> int:
    from catsearch.arena.tune import TuneConfig, TuneParam, run_tune
    from catsearch.search.spec import PlayerSpec
    template = PlayerSpec.parse(args.template)
    config = TuneConfig(game=args.game, template=str(template), opponent=args.opponent,
                        params=tuple(TuneParam.parse(p, template, args.game)
                                     for p in args.param),
                        steps=args.steps, groups=args.groups, seed=args.seed,
                        game_options=_game_options(args.option))
    res = run_tune(config, out=args.out, concurrency=args.concurrency, backend=args.backend,
                   ray_address=args.ray_address, progress=not args.quiet)
    print(json.dumps({"spec": res.spec, "theta": res.theta, "steps": len(res.steps)}, indent=2)
          if args.json else res.table())
    if res.interrupted:
        print("catsearch-arena: interrupted" + (f"; the steps done are in {args.out}: run the "
                                                f"same command to resume" if args.out else ""),
              file=sys.stderr)
        return EXIT_INTERRUPTED
    if args.check:
        from catsearch.arena.match import run_match
        check = run_match(args.game, [f"tuned={res.spec}", f"before={template}"],
                          groups=args.check, seed=args.seed, seats=2,
                          game_options=_game_options(args.option),
                          concurrency=args.concurrency, backend=args.backend,
                          ray_address=args.ray_address, progress=not args.quiet)
        print("\nthe tuned values against the template's:\n" + check.table())
        if check.interrupted:
            return EXIT_INTERRUPTED
    return 0


def _cmd_summary(args) -> int:
    from catsearch.arena.results import format_table, pool_results, summarize
    from catsearch.arena.stats import SPRT
    config, records, files = pool_results(args.results)
    changes = {}
    if args.on_failure:
        changes["on_failure"] = args.on_failure
    if args.sprt is not None:
        changes["sprt"] = SPRT.parse(args.sprt) if args.sprt else None
    if changes:
        config = config.with_(**changes)
    summary = summarize(config, records)
    if len(files) > 1:
        summary["pooled"] = files
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_table(summary))
    return 0


def _cmd_replay(args) -> int:
    from catsearch.arena.entrants import load_imports
    from catsearch.arena.game import Worker, replay_moves
    from catsearch.arena.results import load_results
    config, records = load_results(args.results)
    rec = next((r for r in records if r.game == args.game_number), None)
    if rec is None:
        numbers = [r.game for r in records]
        raise ValueError(f"game {args.game_number} is not in {args.results}; it holds "
                         f"{len(numbers)} games"
                         + (f", numbered {min(numbers)} to {max(numbers)}" if numbers else ""))
    state = replay_moves(config, rec)
    print(f"game {rec.game}: deal seed {rec.deal_seed}, seats "
          + ", ".join(f"{s}={lab}" for s, lab in enumerate(rec.seats)))
    print("moves: " + " ".join(rec.moves))
    print(state)
    if rec.failure is not None:
        f = rec.failure
        print(f"failure: seat {f.seat} ({f.player}) {f.kind} at ply {f.ply}: {f.message}")
    print(f"returns: {list(rec.returns)}  scores: {list(rec.scores)}")
    if args.verify:
        load_imports(config.imports)
        task = rec.task
        worker = Worker(config)
        try:
            again = worker.play(task)
        finally:
            worker.close()
        same = (again.moves, again.returns, again.scores) == (rec.moves, rec.returns, rec.scores)
        if same:
            print("verify: playing the game again gives the same moves and result")
            return 0
        for i, (a, b) in enumerate(zip(rec.moves, again.moves)):
            if a != b:
                print(f"verify: DIFFERENT at move {i}: recorded {a!r}, played {b!r}")
                break
        else:
            print(f"verify: DIFFERENT: recorded {len(rec.moves)} moves, played "
                  f"{len(again.moves)}; returns {list(rec.returns)} vs {list(again.returns)}")
        return 1
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="catsearch-arena",
        description="Measure search strength: matches and round robins on duplicate deals, "
        "with confidence intervals, Elo, ratings and an SPRT.",
        epilog="A player is a make_player spec (heuristic, ismcts:iterations=300), optionally "
        "labelled (fast=ismcts:iterations=100), or an external engine: engine:COMMAND "
        "(mine=engine:./my_bot).")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    m = sub.add_parser("match", help="play a match (2 players) or a round robin (more)",
                       description="Play every deal group: each deal is played by every "
                       "table of players under every seating.")
    m.add_argument("game", help="the game id (herding-cats, ...)")
    m.add_argument("players", nargs="+", metavar="PLAYER", help="two or more players")
    m.add_argument("--out", "-o", default=None, metavar="FILE.jsonl",
                   help="the results file, one JSON line per game; if it exists, the match "
                   "resumes from it")
    m.add_argument("--summary", default=None, metavar="FILE.json",
                   help="the summary file (default: next to --out, .summary.json)")
    m.add_argument("--fresh", action="store_true", help="refuse to resume an existing --out")
    _add_match_options(m)
    m.set_defaults(run=_cmd_match)

    s = sub.add_parser("sweep", help="one searcher at several budgets against an opponent",
                       description="Play a match per budget, on the same deals, and plot "
                       "the score (Elo with 2 seats) against the budget.")
    s.add_argument("game")
    s.add_argument("template", help="the player with {} for the budget, like "
                   "'ismcts:iterations={}'")
    s.add_argument("--budgets", required=True, help="comma-separated budgets: 30,100,300")
    s.add_argument("--opponent", required=True, metavar="PLAYER")
    s.add_argument("--plot", default=None, metavar="FILE.png", help="write the plot here "
                   "(needs matplotlib: pip install \"catsearch[plot]\")")
    s.add_argument("--out-dir", default=None, metavar="DIR",
                   help="results files per budget and sweep.json (reruns resume)")
    _add_match_options(s, sweep=True)
    s.set_defaults(run=_cmd_sweep)

    t = sub.add_parser("tune", help="SPSA-tune a searcher's numeric options",
                       description="Tune numeric options of a player by SPSA: each step plays "
                       "the two perturbed players and a fixed opponent on duplicate deals and "
                       "moves the options towards the better one. The tuning file (--out) is "
                       "written after every step; the same command resumes it.")
    t.add_argument("game")
    t.add_argument("template", help="the tuned player's spec (the starting values)")
    t.add_argument("--param", action="append", required=True,
                   metavar="NAME=LOW:HIGH[:C_END[:R_END]]",
                   help="a number option to tune, its range, and optionally its perturbation "
                   "and learning rate at the last step (repeatable)")
    t.add_argument("--opponent", required=True, metavar="PLAYER")
    t.add_argument("--steps", type=int, default=100, help="SPSA steps (default 100)")
    t.add_argument("--groups", type=int, default=2,
                   help="deal groups per step; each is 6 games (default 2)")
    t.add_argument("--seed", type=int, default=1, help="the tuning's seed (default 1)")
    t.add_argument("--out", "-o", default=None, metavar="FILE.json",
                   help="the tuning file; if it exists, the tuning resumes from it")
    t.add_argument("--check", type=int, default=0, metavar="GROUPS",
                   help="after tuning, a match of the tuned player against the template "
                   "on this many deal groups")
    t.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a game option (repeatable)")
    t.add_argument("--concurrency", "-j", type=int, default=1, metavar="N")
    t.add_argument("--backend", choices=("auto", "inline", "process", "ray"), default="auto")
    t.add_argument("--ray-address", default=None)
    t.add_argument("--quiet", "-q", action="store_true", help="no line per step")
    t.add_argument("--json", action="store_true", help="the result as JSON")
    t.set_defaults(run=_cmd_tune)

    u = sub.add_parser("summary", help="the results table of a results file",
                       description="The results table of a results file, or of several "
                       "runs of one match on different seeds, pooled by deal group.")
    u.add_argument("results", metavar="FILE.jsonl", nargs="+",
                   help="a results file; several: runs of one match that differ only in "
                   "--seed and --groups, counted as one match")
    u.add_argument("--json", action="store_true", help="the summary as JSON")
    u.add_argument("--on-failure", choices=("lose", "void"), default=None,
                   help="recount with this failure rule")
    u.add_argument("--sprt", default=None, help="recount with this SPRT ('' for none)")
    u.set_defaults(run=_cmd_summary)

    r = sub.add_parser("replay", help="show one game of a results file, or play it again")
    r.add_argument("results", metavar="FILE.jsonl")
    r.add_argument("game_number", type=int, metavar="GAME")
    r.add_argument("--verify", action="store_true",
                   help="play the game again from its seeds and check the same moves come")
    r.set_defaults(run=_cmd_replay)
    return p


def _on_terminate(signum, frame):
    """SIGTERM (``kill``, a job scheduler): stop as Ctrl-C pressed twice does, the games in
    flight dropped, the worker processes stopped, what is done saved for a resume; a second
    SIGTERM while that happens is ignored."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _on_terminate)
    from catsearch.arena.backends import ArenaError
    from catsearch.arena.results import ResultsFileError
    try:
        return args.run(args)
    except (ValueError, TypeError, ResultsFileError, ArenaError, OSError) as e:
        print(f"catsearch-arena: error: {e}", file=sys.stderr)
        return 2 if isinstance(e, ValueError) else 1
    except KeyboardInterrupt:
        print("catsearch-arena: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
