"""``catsearch-play``: play one game between players and print it move by move; with
``--human SEAT``, play a seat yourself in the terminal; ``--replay FILE`` shows a recorded
game (:mod:`catsearch.play.terminal`)."""

from __future__ import annotations

import argparse
import sys

import catsearch
from catsearch.play import terminal
from catsearch.search.table import Table


def play_main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if "--web" in argv:     # the browser: catsearch-play --web [--host H] [--port N]
        return _web_main(argv)
    parser = argparse.ArgumentParser(
        prog="catsearch-play",
        description="Play one game between players (make_player specs), printing the table "
                    "after every move.")
    parser.add_argument("game", nargs="?", choices=catsearch.GAMES, help="the game to play")
    parser.add_argument("--players", type=int, default=3, help="number of seats (2-4)")
    parser.add_argument("--seed", type=int, default=None,
                        help="the deal's seed (default: a fresh random one, told at the end); "
                             "a seed you give deals, and with --human seats, the same game "
                             "every time, and whoever knows it knows every card")
    parser.add_argument("--player", action="append", default=[], metavar="SPEC",
                        help="a player spec per AI seat, in seat order (repeat the option); "
                             "missing seats play --level, else 'heuristic'")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option")
    parser.add_argument("--quiet", action="store_true", help="print only the result")
    # -- the terminal (issue 16): --human, --level, --record, --replay ---------------------
    # (its options and modes live in catsearch.play.terminal; the browser's --web is apart)
    terminal.add_arguments(parser)
    args = parser.parse_args(argv)
    outcome = terminal.main(args)        # --replay or --human; None: watch the bots below
    if outcome is not None:
        return outcome
    record = None
    # -- end of the terminal's part ---------------------------------------------------------
    try:
        terminal.resolve_seed(args)
        state, options = terminal.start_state(args)
        specs = terminal.seat_specs(state.players, None, args.player, args.level, args.seed)
        players = [spec.build() for spec in specs]
        if args.record:
            record = terminal.GameRecord(
                game=state.game_id, players=state.players, options=options,
                seed=None if args.deal_text else args.seed, deal=state.to_text(),
                seats=[str(spec) for spec in specs], level=args.level)
    except (ValueError, TypeError) as e:
        print(f"catsearch-play: error: {e}", file=sys.stderr)
        return 2
    for seat, p in enumerate(players):
        print(f"seat {seat}: {p.spec}")
    print(state, end="\n\n")
    table = Table(state, players)
    try:
        while not table.is_over():
            played = table.step()
            if record is not None:
                record.moves.append({"seat": played.seat, "move": played.text})
            if not args.quiet:
                print(f"seat {played.seat} plays {played.text}")
                print(table.state, end="\n\n")   # the host watches every card
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        table.close()
        if record is not None:
            if table.is_over():
                record.result = {"scores": table.scores(), "returns": table.returns()}
            record.write(args.record)
    state = table.state
    print(f"scores: {state.scores()}  returns: {state.returns()}")
    if not args.seed_given and not args.deal_text:
        print(f"the deal's seed: {args.seed}")
    return 0


def _web_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="catsearch-play --web",
                                     description="Serve a page to play against the AI.")
    parser.add_argument("--web", action="store_true", required=True)
    parser.add_argument("--host", default="127.0.0.1",
                        help="the address to listen on (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="the port (default 8000)")
    parser.add_argument("--max-games", type=int, default=16,
                        help="games going at once (default 16)")
    parser.add_argument("--seed-links", action="store_true",
                        help="also deal from a seed given in a link or on the start page "
                             "(practice, tests): whoever reads such a link knows every card")
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        print(f"catsearch-play: error: --port {args.port}: ports are 0..65535", file=sys.stderr)
        return 2
    if args.max_games < 1:
        print(f"catsearch-play: error: --max-games {args.max_games}: at least 1",
              file=sys.stderr)
        return 2
    try:
        from catsearch.play.web import serve
    except ImportError as e:
        print(f"catsearch-play: error: {e}", file=sys.stderr)
        return 2
    try:
        return serve(args.host, args.port, max_games=args.max_games,
                     seed_links=args.seed_links)
    except OSError as e:    # the port is busy, the address not this machine's
        print(f"catsearch-play: error: cannot listen on {args.host}:{args.port}: "
              f"{e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(play_main())
