"""``catsearch-play``: play one game between players and print it move by move; with
``--human SEAT``, play a seat yourself in the terminal; ``--replay FILE`` shows a recorded
game (:mod:`catsearch.play.terminal`); ``--web`` serves the browser mode
(:mod:`catsearch.play.web`). ``--help`` lists the options of every mode."""

from __future__ import annotations

import argparse
import sys

import catsearch
from catsearch.play import terminal
from catsearch.search.table import Table


class _PlayParser(argparse.ArgumentParser):
    """``catsearch-play``'s parser: an error in the arguments is one line (no usage block)."""

    def error(self, message: str):  # type: ignore[override]
        self.exit(2, f"catsearch-play: error: {message} (catsearch-play --help lists the "
                     "options)\n")


class _Formatter(argparse.HelpFormatter):
    """Wraps every text but the list of modes (kept as written)."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("modes:"):
            return text + "\n"
        return super()._fill_text(text, width, indent)


MODES = """\
modes:
  catsearch-play GAME                 watch AI players play a game, every card shown
  catsearch-play GAME --human SEAT    play a seat yourself in the terminal (hint, view,
                                      help; long move lists grouped; colour unless NO_COLOR)
  catsearch-play GAME --human SEAT --record FILE
                                      ... and write the game as JSON (a record file)
  catsearch-play --replay FILE        show a recorded game move by move (also: the
                                      browser's replay viewer, /replay)
  catsearch-play --web                play in a browser (the [web] extra): open the page it
                                      prints (--host, --port, --max-games, --seed-links);
                                      --host 0.0.0.0 lets other devices of the network
                                      open the secret links of a table's other seats"""


def make_parser() -> argparse.ArgumentParser:
    """``catsearch-play``'s arguments: every mode's (the terminal's, the browser's)."""
    parser = _PlayParser(
        prog="catsearch-play",
        description="Play one game between players (make_player specs), printing the table "
                    "after every move; or play a seat yourself, in the terminal (--human) or "
                    "in a browser (--web).",
        epilog=MODES, formatter_class=_Formatter)
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
    # (its options and modes live in catsearch.play.terminal)
    terminal.add_arguments(parser)
    # -- the browser (issue 31): --web and its options ---------------------------------------
    web = parser.add_argument_group(
        "playing in a browser (--web)",
        "Serve the start page and the games (needs the [web] extra: pip install "
        "'catsearch[web]'); the game, seats and level are chosen on the page.")
    web.add_argument("--web", action="store_true",
                     help="serve the browser mode; prints the address to open")
    web.add_argument("--host", default="127.0.0.1",
                     help="the address to listen on (default 127.0.0.1: this machine only)")
    web.add_argument("--port", default="8000",
                     help="the port, 0..65535 (default 8000; 0: any free port)")
    web.add_argument("--max-games", default="16", metavar="N",
                     help="games going at once (default 16)")
    web.add_argument("--seed-links", action="store_true",
                     help="also deal from a seed given in a link or on the start page "
                          "(practice, tests): whoever reads such a link knows every card")
    return parser


#: the options that belong to the terminal's and the bots' modes, not to --web
_NOT_WEB = ("game", "human", "replay", "record", "player", "option", "seed", "level",
            "deal_text")
#: the browser's options, meaningless without --web
_WEB_ONLY = {"host": "127.0.0.1", "port": "8000", "max_games": "16", "seed_links": False}


def play_main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    args = make_parser().parse_args(argv)
    if args.web:
        return _web_main(args)
    stray = [k for k, v in _WEB_ONLY.items() if getattr(args, k) != v]
    if stray:
        print(f"catsearch-play: error: --{stray[0].replace('_', '-')} is an option of --web",
              file=sys.stderr)
        return 2
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


def _whole(text: str, name: str, lo: int, hi: int, what: str) -> int:
    """``--port``/``--max-games``: a whole number in lo..hi, else ValueError (one line)."""
    t = text.strip()
    if not (t.isascii() and t.lstrip("-").isdigit()) or len(t) > 12:
        raise ValueError(f"{name} {text[:20]!r} is not a whole number; {what}")
    value = int(t)
    if not lo <= value <= (hi if hi is not None else value):
        raise ValueError(f"{name} {value}: {what}")
    return value


def _web_main(args: argparse.Namespace) -> int:
    """``catsearch-play --web``: bind the port, then print where to open the page."""
    # given: anything but the defaults (None, False, []); seat 0 is given (0 == False, so
    # not a membership test)
    given = [k for k in _NOT_WEB
             if not any(getattr(args, k, None) is d for d in (None, False))
             and getattr(args, k, None) != []]
    if given:
        name = "game argument" if given[0] == "game" else f"--{given[0].replace('_', '-')}"
        print(f"catsearch-play: error: --web takes no {name}: the game, seats and level "
              "are chosen on the start page", file=sys.stderr)
        return 2
    try:
        port = _whole(args.port, "--port", 0, 65535, "ports are 0..65535")
        max_games = _whole(args.max_games, "--max-games", 1, None, "at least 1")
    except ValueError as e:
        print(f"catsearch-play: error: {e}", file=sys.stderr)
        return 2
    try:
        from catsearch.play.web import serve
    except ImportError as e:
        print(f"catsearch-play: error: {e}", file=sys.stderr)
        return 2
    try:
        return serve(args.host, port, max_games=max_games, seed_links=args.seed_links)
    except OSError as e:    # the port is busy, the address not this machine's
        print(f"catsearch-play: error: cannot listen on {args.host}:{port}: "
              f"{e.strerror or e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(play_main())
