"""Reading command lines: numbers, game options, ``position`` and ``go``.

Everything here turns tokens into values or raises :class:`BadInput`, whose message is the
text of the error line the engine writes (``info string error: ...``). Nothing here holds
state: the :class:`~catsearch.engine.protocol.Engine` carries out what is read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import catsearch
from catsearch._core import options
from catsearch._core.game import registered
from catsearch._core.options import SEED_MAX
from catsearch._core.state import State
from catsearch.search.players import Limits
from catsearch.search.timeman import Clock

__all__ = ["BadInput", "COMMANDS", "tokenize", "check_tokens", "clip", "QUOTE_MAX", "parse_int",
           "option_value", "parse_position", "Go", "parse_go", "no_args", "quote", "one_line", "SEED_MAX", "GO_COUNT_MAX",
           "GO_DEPTH_MAX", "MOVETIME_MAX", "MOVESTOGO_MAX", "PERFT_MAX", "DEFAULT_PLAYERS"]

COMMANDS = ("uci", "isready", "setoption", "ucinewgame", "position", "go", "stop", "quit",
            "d", "legal", "perft", "bench")

GO_COUNT_MAX = 10**12
GO_DEPTH_MAX = 1000
MOVETIME_MAX = 86_400_000
MOVESTOGO_MAX = 100_000
PERFT_MAX = 64
DEFAULT_PLAYERS = 3



class BadInput(Exception):
    """A command line the engine cannot carry out; the message is the error line's text."""


#: the most characters of bad input an error line quotes
QUOTE_MAX = 100

_TOKEN_SEPARATORS = re.compile(r"[ \t]+")


def tokenize(line: str) -> list[str]:
    """A command line's tokens: split at runs of spaces and tabs, and at nothing else (a form
    feed, a vertical tab, a no-break space... is part of its token). The line's ``\\n``, and a
    ``\\r`` before it, are not part of it."""
    if line.endswith("\n"):
        line = line[:-1]
    if line.endswith("\r"):
        line = line[:-1]
    return [t for t in _TOKEN_SEPARATORS.split(line) if t]


_OTHER_SPACE = re.compile(r"\s")


def check_tokens(cmd: str, args: list[str]) -> None:
    """Refuse an argument holding a whitespace character: tokens are split at spaces and tabs
    only, so a form feed, a vertical tab, a no-break space... stays in its token, and no
    token of the protocol may hold one (the library's parsers would overlook some)."""
    for k, token in enumerate(args, 1):
        m = _OTHER_SPACE.search(token)
        if m:
            raise BadInput(f"{cmd}: argument {k} {quote(token)} holds {m.group()!r}, a "
                           f"whitespace character that is not a space or a tab; tokens are "
                           f"separated by spaces and tabs only and hold no other whitespace")


def quote(text: str, limit: int = QUOTE_MAX) -> str:
    """``text`` quoted for an error line, cut after ``limit`` characters."""
    if len(text) > limit:
        text = text[:limit] + "..."
    return repr(text)


_QUOTED = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
_LONG_RUN = re.compile(r"\S{%d,}" % (QUOTE_MAX + 21))


def clip(message: str, limit: int = QUOTE_MAX) -> str:
    """An error message with every quoted text of more than ``limit`` characters cut to
    ``limit`` (and ``...``), and any other run of non-space characters much longer than
    that too: the last guard against echoing a long bad input whole (a library's message
    may quote it whole)."""
    if len(message) <= limit:
        return message

    def cut_quoted(m: re.Match) -> str:
        text = m.group()
        if len(text) <= limit + 2:
            return text
        return text[:limit + 1] + "..." + text[-1]

    message = _QUOTED.sub(cut_quoted, message)
    return _LONG_RUN.sub(lambda m: m.group()[:limit] + "...", message)


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines too) made one space."""
    return " ".join(str(text).split())


def no_args(cmd: str, args: list[str]) -> None:
    if args:
        raise BadInput(f"{cmd} takes no arguments, got {quote(' '.join(args))}")


def parse_int(text: str, what: str, lo: int, hi: int) -> int:
    """A whole number from ``lo`` to ``hi`` written in decimal digits (no sign), read by the
    library's one reader of whole numbers (:func:`catsearch._core.options.parse_int`)."""
    try:
        return options.parse_int(text, what, lo, hi)
    except ValueError as e:
        raise BadInput(clip(str(e))) from None


#: a game option's value: an int, else a decimal number, else true/false, else the text
option_value = options.option_value


_POSITION_USAGE = ("expected 'position <game-id> [players <n>] [option <key>=<value> ...] "
                   "(startpos [seed <s>] | state <notation>) [moves <move> ...]' (after a "
                   "seat's view, the moves are that seat's observations)")


def parse_position(args: list[str]) -> State:
    """The state a ``position`` line's arguments describe, its moves played: on a full
    state, moves; on a seat's view (``state`` with unknown cards), the seat's observations
    of the moves (:meth:`State.play_observation`), so a server sends one view and then only
    what the seat saw."""
    usage = _POSITION_USAGE
    if not args:
        raise BadInput(f"position: {usage}")
    game_id = args[0]
    if game_id not in registered():         # a test game too (catsearch.testing's)
        raise BadInput(f"position: unknown game {quote(game_id)}; the games are "
                       f"{', '.join(catsearch.GAMES)}")
    i = 1
    players: int | None = None
    options: dict[str, Any] = {}
    while i < len(args) and args[i] in ("players", "option"):
        kw = args[i]
        if i + 1 >= len(args):
            raise BadInput(f"position: {kw} needs a value; {usage}")
        if kw == "players":
            if players is not None:
                raise BadInput("position: players given twice")
            players = parse_int(args[i + 1], "position players", 2, 4)
        else:
            key, eq, value = args[i + 1].partition("=")
            if not eq or not key or not value:
                raise BadInput(f"position: option {quote(args[i + 1])} is not <key>=<value>")
            if key in options:
                raise BadInput(f"position: option {quote(key)} given twice")
            options[key] = option_value(value)
        i += 2
    if i >= len(args) or args[i] not in ("startpos", "state"):
        got = quote(args[i]) if i < len(args) else "the end of the line"
        raise BadInput(f"position: expected startpos or state, got {got}; {usage}")
    if args[i] == "startpos":
        st, i = _startpos(game_id, players, options, args, i + 1)
    else:
        st, i = _state(game_id, players, options, args, i + 1)
    if i < len(args):
        if args[i] != "moves":
            raise BadInput(f"position: expected moves or the end of the line, got "
                           f"{quote(args[i])}")
        follow = st.play if st.view_seat is None else st.play_observation
        what = "move" if st.view_seat is None else "observation"
        for k, mv in enumerate(args[i + 1:], 1):
            try:
                follow(mv)
            except (ValueError, TypeError) as e:
                raise BadInput(f"position: {what} {k} {quote(mv)}: {e}") from None
    return st


def _startpos(game_id: str, players: int | None, options: dict, args: list[str],
              i: int) -> tuple[State, int]:
    seed = 0
    if i < len(args) and args[i] == "seed":
        if i + 1 >= len(args):
            raise BadInput("position: seed needs a value from 0 to 2**64-1")
        seed = parse_int(args[i + 1], "position seed", 0, SEED_MAX)
        i += 2
    try:
        st = catsearch.new_game(game_id, players if players is not None else DEFAULT_PLAYERS,
                                seed, **options)
    except (ValueError, TypeError) as e:
        raise BadInput(f"position: {e}") from None
    return st, i


def _state(game_id: str, players: int | None, options: dict, args: list[str],
           i: int) -> tuple[State, int]:
    if options:
        raise BadInput("position: option is only for startpos; a notation carries its game's "
                       "options itself")
    j = i
    while j < len(args) and args[j] != "moves":
        j += 1
    if j == i:
        raise BadInput(f"position: state needs a notation; {_POSITION_USAGE}")
    try:
        st = catsearch.from_text(game_id, " ".join(args[i:j]))
    except (ValueError, TypeError) as e:
        raise BadInput(f"position: bad {game_id} notation: {e}") from None
    if players is not None and players != st.players:
        raise BadInput(f"position: players {players} but the notation has {st.players} "
                       f"players")
    return st, j


@dataclass(frozen=True)
class Go:
    """A ``go`` line read: the search's limits (with ``time``, their ``clock``: the engine
    turns it into the search's time with the time manager, :meth:`Limits.for_state`),
    whether it waits for ``stop``, and the milliseconds after which the engine stops it
    (``None``: no time limit, or the clock's plan); ``ponder``: ``go ponder``, a search of
    the seat's view while another seat is to move, until ``stop``."""

    limits: Limits
    infinite: bool
    movetime: int | None
    ponder: bool = False


_GO_VALUED = {"iterations": (1, GO_COUNT_MAX), "nodes": (1, GO_COUNT_MAX),
              "depth": (1, GO_DEPTH_MAX), "movetime": (1, MOVETIME_MAX), "seed": (0, SEED_MAX),
              "time": (0, MOVETIME_MAX), "inc": (0, MOVETIME_MAX),
              "movestogo": (1, MOVESTOGO_MAX)}
#: every keyword of go, in the order the errors list them
_GO_KEYWORDS = ("iterations", "nodes", "depth", "movetime", "time", "inc", "movestogo",
                "infinite", "ponder", "seed")


def parse_go(args: list[str], iterations: int = 0, movetime: int = 0, seed: int = 0) -> Go:
    """Read a ``go`` line's arguments. ``iterations`` and ``movetime`` (the engine's options;
    0: none) are the budget of a ``go`` without limits, ``seed`` the seed of one without
    ``seed``."""
    seen: dict[str, Any] = {}
    i = 0
    while i < len(args):
        kw = args[i]
        if kw in seen:
            raise BadInput(f"go: {kw} given twice")
        if kw in ("infinite", "ponder"):
            seen[kw] = True
            i += 1
        elif kw in _GO_VALUED:
            if i + 1 >= len(args):
                lo, hi = _GO_VALUED[kw]
                raise BadInput(f"go: {kw} needs a value from {lo} to {hi}")
            seen[kw] = parse_int(args[i + 1], f"go {kw}", *_GO_VALUED[kw])
            i += 2
        else:
            raise BadInput(f"go: unknown keyword {quote(kw)}; the keywords are "
                           f"{', '.join(_GO_KEYWORDS)}")
    for kw in ("inc", "movestogo"):
        if kw in seen and "time" not in seen:
            raise BadInput(f"go: {kw} needs time (the seat's remaining time: 'go time <ms> "
                           f"inc <ms> [movestogo <n>]')")
    limited = [k for k in ("iterations", "nodes", "depth", "movetime", "time") if k in seen]
    infinite = bool(seen.get("infinite"))
    if infinite and limited:
        raise BadInput(f"go: infinite cannot be combined with {', '.join(limited)}")
    if "ponder" in seen:
        others = [k for k in seen if k not in ("ponder", "seed")]
        if others:
            raise BadInput(f"go: ponder cannot be combined with {', '.join(others)} (a ponder "
                           f"search runs until stop)")
        return Go(Limits(infinite=True, seed=seen.get("seed", seed)), True, None, ponder=True)
    ms = seen.get("movetime")
    its = seen.get("iterations")
    if not limited and not infinite:
        its = iterations or None
        ms = movetime or None
    clock = None
    if "time" in seen:
        clock = Clock(time=seen["time"] / 1000.0, inc=seen.get("inc", 0) / 1000.0,
                      movestogo=seen.get("movestogo"))
    limits = Limits(iterations=its, nodes=seen.get("nodes"), depth=seen.get("depth"),
                    seconds=None if ms is None else ms / 1000.0, infinite=infinite,
                    seed=seen.get("seed", seed), clock=clock)
    return Go(limits, infinite, ms)
