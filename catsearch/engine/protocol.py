"""The engine side of the protocol (``docs/protocol.rst``): read commands, answer them.

:class:`Engine` holds the position, the options and the player; :meth:`Engine.run` reads
commands from a binary stream until ``quit`` or the end of input. Searches run in a
background thread so that the reading thread answers ``isready`` and ``stop`` at once.
"""

from __future__ import annotations

import re
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from typing import IO, Any, Callable

import catsearch
from catsearch._core.state import State
from catsearch.search.players import Limits, Player, SearchResult
from catsearch.search.spec import PlayerSpec, player_names

__all__ = ["Engine", "ENGINE_NAME", "ENGINE_AUTHOR", "bench_positions", "fnv1a64",
           "format_info", "BENCH_PLIES", "BENCH_ITERATIONS"]

ENGINE_NAME = "catsearch-engine"
ENGINE_AUTHOR = "The catsearch developers"

COMMANDS = ("uci", "isready", "setoption", "ucinewgame", "position", "go", "stop", "quit",
            "d", "legal", "perft", "bench")

SEED_MAX = 2**64 - 1
GO_COUNT_MAX = 10**12
GO_DEPTH_MAX = 1000
MOVETIME_MAX = 86_400_000
ITERATIONS_OPTION_MAX = 10**9
THREADS_MAX = 256
PERFT_MAX = 64
BENCH_PLIES = (0, 16, 32)
BENCH_ITERATIONS = 2000
DEFAULT_PLAYERS = 3

_DIGITS = re.compile(r"[0-9]+\Z")
_INT_VALUE = re.compile(r"-?[0-9]+\Z")
_DECIMAL_VALUE = re.compile(r"-?[0-9]+\.[0-9]+\Z")


class BadInput(Exception):
    """A command line the engine cannot carry out; the message is the error line's text."""


def default_player_spec() -> str:
    """``ismcts`` when this build has it, else ``heuristic``."""
    return "ismcts" if "ismcts" in player_names() else "heuristic"


def _int(text: str, what: str, lo: int, hi: int) -> int:
    if not _DIGITS.match(text):
        raise BadInput(f"{what}: {_quote(text)} is not a whole number; expected {lo} to {hi}")
    if len(text.lstrip("0")) > len(str(hi)):
        raise BadInput(f"{what}: {_quote(text)} is out of range; expected {lo} to {hi}")
    v = int(text)
    if not lo <= v <= hi:
        raise BadInput(f"{what}: {v} is out of range; expected {lo} to {hi}")
    return v


def _option_value(text: str) -> Any:
    """A game option's value: an int, else a decimal number, else true/false, else the text."""
    if _INT_VALUE.match(text) and len(text) <= 40:
        return int(text)
    if _DECIMAL_VALUE.match(text):
        return float(text)
    if text == "true":
        return True
    if text == "false":
        return False
    return text


def fnv1a64(data: bytes) -> int:
    """The 64-bit FNV-1a hash of ``data`` (the bench signature)."""
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def format_info(result: SearchResult, state: State) -> str:
    """The ``info`` line of a (partial) search result; ``state`` is the searched position."""
    ms = max(0, int(round(result.seconds * 1000)))
    nps = int(result.nodes / result.seconds) if result.seconds > 0 else 0
    value = ",".join(f"{v:.4f}" for v in result.value) or "-"
    return (f"info depth {result.depth} iterations {result.iterations} nodes {result.nodes} "
            f"nps {nps} time {ms} value {value} pv {state.move_to_str(result.move)}")


def bench_positions() -> list[tuple[str, int, int, State]]:
    """The bench positions: ``(game_id, players, plies, state)``, in bench order."""
    out = []
    for game_id in catsearch.GAMES:
        for players in (2, 3, 4):
            for plies in BENCH_PLIES:
                st = catsearch.new_game(game_id, players, seed=players)
                done = 0
                # k moves, then on while the move is forced; never into the end of the game
                while done < plies or len(st.legal_moves()) < 2:
                    nxt = st.clone()
                    nxt.apply(st.heuristic_move(seed=done))
                    if nxt.is_terminal():
                        break
                    st = nxt
                    done += 1
                out.append((game_id, players, done, st))
    return out


@dataclass
class _Options:
    player: str
    iterations: int = 0
    movetime: int = 0
    threads: int = 1
    seed: int = 0


@dataclass
class _Search:
    """One running ``go``."""

    player: Player
    state: State           # the searched position (the worker's own copy)
    limits: Limits
    infinite: bool
    thread: threading.Thread | None = None
    stop_event: threading.Event = field(default_factory=threading.Event)
    finished: bool = False  # set (under the output lock) when bestmove is written
    in_player: bool = True  # the player's search() has not returned yet
    timer: threading.Timer | None = None


class _Output:
    """Line output shared by the reading thread and the search thread: whole lines, in
    blocks, flushed at once; silent after ``quit`` or once the reader went away."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.lock = threading.RLock()
        self.closed = False
        self.broken = False

    def write(self, *lines: str) -> None:
        with self.lock:
            if self.closed:
                return
            try:
                self.stream.write("".join(line + "\n" for line in lines))
                self.stream.flush()
            except (BrokenPipeError, OSError, ValueError):
                self.closed = True
                self.broken = True


class Engine:
    """The protocol engine. ``Engine().run(sys.stdin.buffer)`` is the whole program.

    :param out: where answers go (text, one line per answer).
    :param log: where diagnostics go (never ``out``).
    """

    def __init__(self, out: IO[str] | None = None, log: IO[str] | None = None) -> None:
        self.out = _Output(out if out is not None else sys.stdout)
        self.log = log if log is not None else sys.stderr
        self.options = _Options(player=default_player_spec())
        self.player: Player = self._build_player(self.options)
        self.position: State | None = None
        self._line: tuple[list[str], list[str]] | None = None   # the last position line
        self.search: _Search | None = None
        self.quitting = False
        self._handlers: dict[str, Callable[[list[str]], None]] = {
            "uci": self.cmd_uci, "isready": self.cmd_isready, "setoption": self.cmd_setoption,
            "ucinewgame": self.cmd_ucinewgame, "position": self.cmd_position, "go": self.cmd_go,
            "stop": self.cmd_stop, "quit": self.cmd_quit, "d": self.cmd_d,
            "legal": self.cmd_legal, "perft": self.cmd_perft, "bench": self.cmd_bench,
        }

    # -- the loop -------------------------------------------------------------------------
    def run(self, inp: IO[bytes]) -> int:
        """Read and carry out commands until ``quit`` or the end of input; return the exit
        code (0)."""
        while not self.quitting:
            try:
                raw = inp.readline()
            except KeyboardInterrupt:
                raise
            except (OSError, ValueError):
                raw = b""
            if not raw:
                self._end_of_input()
                break
            if isinstance(raw, str):
                line = raw
            else:
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    self.error(f"the line is not valid UTF-8 (byte {e.start}); commands are "
                               f"UTF-8 text")
                    continue
            self.handle(line)
            if self.out.broken:
                self._abandon_search()
                break
        if not self._searching():
            self.player.close()       # e.g. a searcher's worker processes
        return 0

    def handle(self, line: str) -> None:
        """Carry out one command line (answers go to the output)."""
        tokens = line.split()
        if not tokens:
            return
        name, args = tokens[0], tokens[1:]
        handler = self._handlers.get(name)
        try:
            if handler is None:
                raise BadInput(f"unknown command {_quote(name)}; the commands are "
                               f"{', '.join(COMMANDS)}")
            handler(args)
        except BadInput as e:
            if name == "go" and not self._searching():
                self.out.write(f"info string error: {_one_line(str(e))}", "bestmove (none)")
            else:
                self.error(str(e))
        except Exception as e:  # a bug: report it, keep going
            traceback.print_exc(file=self.log)
            msg = f"internal error: {type(e).__name__}: {e}"
            if name == "go" and not self._searching():
                self.out.write(f"info string error: {_one_line(msg)}", "bestmove (none)")
            else:
                self.error(msg)

    def error(self, message: str) -> None:
        self.out.write(f"info string error: {_one_line(message)}")

    # -- commands -------------------------------------------------------------------------
    def cmd_uci(self, args: list[str]) -> None:
        _no_args("uci", args)
        self.out.write(
            f"id name {ENGINE_NAME} {catsearch.__version__}",
            f"id author {ENGINE_AUTHOR}",
            f"option name Player type string default {default_player_spec()}",
            f"option name Iterations type spin default 0 min 0 max {ITERATIONS_OPTION_MAX}",
            f"option name MoveTime type spin default 0 min 0 max {MOVETIME_MAX}",
            f"option name Threads type spin default 1 min 1 max {THREADS_MAX}",
            f"option name Seed type spin default 0 min 0 max {SEED_MAX}",
            "info string games " + " ".join(catsearch.GAMES),
            "info string players " + " ".join(player_names()),
            "uciok",
        )

    def cmd_isready(self, args: list[str]) -> None:
        _no_args("isready", args)
        self.out.write("readyok")

    def cmd_setoption(self, args: list[str]) -> None:
        usage = "expected 'setoption name <name> value <value>'"
        if len(args) < 3 or args[0] != "name" or args[2] != "value":
            raise BadInput(f"setoption: {usage}, got {_quote(' '.join(['setoption'] + args))}")
        name, value = args[1], " ".join(args[3:])
        opts = _Options(**vars(self.options))
        key = name.lower()
        if key == "player":
            if not value:
                raise BadInput("setoption: Player needs a player spec such as 'heuristic' or "
                               "'random:seed=3'")
            opts.player = value
        elif key == "iterations":
            opts.iterations = _int(value, "setoption Iterations", 0, ITERATIONS_OPTION_MAX)
        elif key == "movetime":
            opts.movetime = _int(value, "setoption MoveTime", 0, MOVETIME_MAX)
        elif key == "threads":
            opts.threads = _int(value, "setoption Threads", 1, THREADS_MAX)
        elif key == "seed":
            opts.seed = _int(value, "setoption Seed", 0, SEED_MAX)
        else:
            raise BadInput(f"setoption: unknown option {_quote(name)}; the options are Player, "
                           f"Iterations, MoveTime, Threads, Seed")
        player = self._build_player(opts)      # raises BadInput; nothing changed yet
        self.options = opts
        self._replace_player(player)

    def cmd_ucinewgame(self, args: list[str]) -> None:
        _no_args("ucinewgame", args)
        self._replace_player(self._build_player(self.options))

    def cmd_position(self, args: list[str]) -> None:
        base = args[:args.index("moves")] if "moves" in args else list(args)
        moves = args[len(base) + 1:]
        st = self._parse_position(args)
        self._follow(base, moves)
        self.position = st
        self._line = (base, moves)

    def _follow(self, base: list[str], moves: list[str]) -> None:
        """If the new position continues the last one (the same ``position`` line with more
        moves), tell the player the new moves (:meth:`Player.observe`), so that a searcher
        with ``reuse=true`` keeps its tree. Not while a search runs (the player is busy;
        it then simply starts afresh)."""
        last = self._line
        if (last is None or self.position is None or self._searching() or last[0] != base
                or len(moves) <= len(last[1]) or moves[:len(last[1])] != last[1]):
            return
        st = self.position.clone()
        try:
            for mv in moves[len(last[1]):]:
                m = st.str_to_move(mv)
                self.player.observe(st, m)
                st.apply(m)
        except Exception:       # a player that cannot follow forgets what it kept
            traceback.print_exc(file=self.log)
            self.player.new_game()

    def cmd_go(self, args: list[str]) -> None:
        if self._searching():
            raise BadInput("go: a search is already running; send stop and wait for its "
                           "bestmove first")
        limits, infinite, movetime = self._parse_go(args)
        st = self.position
        if st is None:
            raise BadInput("go: no position; send 'position <game-id> ...' first")
        if st.is_terminal():
            raise BadInput("go: the game is over in this position; there is no move to find")
        seat = st.current_player
        if st.view_seat is not None and st.view_seat != seat:
            raise BadInput(f"go: the position is seat {st.view_seat}'s view but seat {seat} is "
                           f"to move; send the view of seat {seat}")
        if st.view_seat is not None and st.chance_outcomes():
            raise BadInput(f"go: seat {seat} holds cards unknown to itself in this view (a card "
                           f"drawn after the position was sent); send seat {seat}'s current "
                           f"view")
        job = _Search(player=self.player, state=st.clone(), limits=limits, infinite=infinite)
        self.search = job
        job.thread = threading.Thread(target=self._run_search, args=(job,),
                                      name="catsearch-search", daemon=True)
        if movetime is not None:
            job.timer = threading.Timer(movetime / 1000.0, self._stop_search, args=(job,))
            job.timer.daemon = True
        job.thread.start()
        if job.timer is not None:
            job.timer.start()

    def cmd_stop(self, args: list[str]) -> None:
        _no_args("stop", args)
        job = self.search
        if job is not None and not job.finished:
            self._stop_search(job)

    def cmd_quit(self, args: list[str]) -> None:
        _no_args("quit", args)
        self._abandon_search()

    def cmd_d(self, args: list[str]) -> None:
        _no_args("d", args)
        st = self._need_position("d")
        seat = st.current_player
        picture = str(st).splitlines() or [""]
        self.out.write(
            *picture,
            f"game {st.game_id} players {st.players}",
            f"notation {st.to_text()}",
            f"tomove {seat if seat >= 0 else 'none'}",
            f"hash {st.hash:016x}",
        )

    def cmd_legal(self, args: list[str]) -> None:
        _no_args("legal", args)
        st = self._need_position("legal")
        try:
            moves = [st.move_to_str(m) for m in st.legal_moves()]
        except ValueError as e:
            raise BadInput(f"legal: {e}") from None
        self.out.write(" ".join(["legal"] + moves))

    def cmd_perft(self, args: list[str]) -> None:
        if len(args) != 1:
            raise BadInput(f"perft: expected 'perft <depth>' with a depth from 1 to {PERFT_MAX}")
        depth = _int(args[0], "perft depth", 1, PERFT_MAX)
        st = self._need_position("perft")
        if st.view_seat is not None:
            raise BadInput(f"perft: the position is seat {st.view_seat}'s view; perft needs a "
                           f"full state (position ... startpos, or a full notation)")
        if self._searching():
            raise BadInput("perft: a search is running; send stop and wait for its bestmove")
        divide = st.perft_divide(depth)
        lines = [f"{m}: {n}" for m, n in divide.items()]
        lines.append(f"nodes {sum(divide.values())}")
        self.out.write(*lines)

    def cmd_bench(self, args: list[str]) -> None:
        iterations = BENCH_ITERATIONS
        if args:
            if len(args) != 2 or args[0] != "iterations":
                raise BadInput(f"bench: expected 'bench' or 'bench iterations <n>', got "
                               f"{_quote(' '.join(['bench'] + args))}")
            iterations = _int(args[1], "bench iterations", 1, ITERATIONS_OPTION_MAX)
        if self._searching():
            raise BadInput("bench: a search is running; send stop and wait for its bestmove")
        spec = self._player_spec(self.options, seed=0, threads=1)
        positions = bench_positions()
        lines = []
        signature = bytearray()
        total_nodes = total_iterations = 0
        t0 = time.perf_counter()
        for i, (game_id, players, plies, st) in enumerate(positions):
            player = spec.build()
            try:
                t1 = time.perf_counter()
                res = player.search(st, limits=Limits(iterations=iterations, seed=i))
                ms = int(round((time.perf_counter() - t1) * 1000))
            finally:
                player.close()
            move = st.move_to_str(res.move)
            total_nodes += res.nodes
            total_iterations += res.iterations
            signature += (f"{game_id} {players} {plies} {move} {res.iterations} "
                          f"{res.nodes}\n").encode()
            lines.append(f"info string bench {game_id} players {players} ply {plies} "
                         f"move {move} iterations {res.iterations} nodes {res.nodes} time {ms}")
        seconds = time.perf_counter() - t0
        ms = int(round(seconds * 1000))
        nps = int(total_nodes / seconds) if seconds > 0 else 0
        lines.append(f"bench positions {len(positions)} iterations {total_iterations} "
                     f"nodes {total_nodes} signature {fnv1a64(bytes(signature)):016x} "
                     f"time {ms} nps {nps}")
        self.out.write(*lines)

    # -- parsing ---------------------------------------------------------------------------
    def _parse_position(self, args: list[str]) -> State:
        usage = ("expected 'position <game-id> [players <n>] [option <key>=<value> ...] "
                 "(startpos [seed <s>] | state <notation>) [moves <move> ...]'")
        if not args:
            raise BadInput(f"position: {usage}")
        game_id = args[0]
        if game_id not in catsearch.GAMES:
            raise BadInput(f"position: unknown game {_quote(game_id)}; the games are "
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
                players = _int(args[i + 1], "position players", 2, 4)
            else:
                key, eq, value = args[i + 1].partition("=")
                if not eq or not key or not value:
                    raise BadInput(f"position: option {_quote(args[i + 1])} is not "
                                   f"<key>=<value>")
                if key in options:
                    raise BadInput(f"position: option {key!r} given twice")
                options[key] = _option_value(value)
            i += 2
        if i >= len(args) or args[i] not in ("startpos", "state"):
            got = _quote(args[i]) if i < len(args) else "the end of the line"
            raise BadInput(f"position: expected startpos or state, got {got}; {usage}")
        if args[i] == "startpos":
            i += 1
            seed = 0
            if i < len(args) and args[i] == "seed":
                if i + 1 >= len(args):
                    raise BadInput("position: seed needs a value from 0 to 2**64-1")
                seed = _int(args[i + 1], "position seed", 0, SEED_MAX)
                i += 2
            try:
                st = catsearch.new_game(game_id, players if players is not None
                                        else DEFAULT_PLAYERS, seed, **options)
            except (ValueError, TypeError) as e:
                raise BadInput(f"position: {e}") from None
        else:
            if options:
                raise BadInput("position: option is only for startpos; a notation carries "
                               "its game's options itself")
            i += 1
            j = i
            while j < len(args) and args[j] != "moves":
                j += 1
            if j == i:
                raise BadInput(f"position: state needs a notation; {usage}")
            text = " ".join(args[i:j])
            try:
                st = catsearch.from_text(game_id, text)
            except (ValueError, TypeError) as e:
                raise BadInput(f"position: bad {game_id} notation: {e}") from None
            if players is not None and players != st.players:
                raise BadInput(f"position: players {players} but the notation has "
                               f"{st.players} players")
            i = j
        if i < len(args):
            if args[i] != "moves":
                raise BadInput(f"position: expected moves or the end of the line, got "
                               f"{_quote(args[i])}")
            for k, mv in enumerate(args[i + 1:], 1):
                try:
                    st.play(mv)
                except (ValueError, TypeError) as e:
                    raise BadInput(f"position: move {k} {_quote(mv)}: {e}") from None
        return st

    def _parse_go(self, args: list[str]) -> tuple[Limits, bool, int | None]:
        seen: dict[str, Any] = {}
        i = 0
        valued = {"iterations": (1, GO_COUNT_MAX), "nodes": (1, GO_COUNT_MAX),
                  "depth": (1, GO_DEPTH_MAX), "movetime": (1, MOVETIME_MAX),
                  "seed": (0, SEED_MAX)}
        while i < len(args):
            kw = args[i]
            if kw in seen:
                raise BadInput(f"go: {kw} given twice")
            if kw == "infinite":
                seen[kw] = True
                i += 1
            elif kw in valued:
                if i + 1 >= len(args):
                    lo, hi = valued[kw]
                    raise BadInput(f"go: {kw} needs a value from {lo} to {hi}")
                seen[kw] = _int(args[i + 1], f"go {kw}", *valued[kw])
                i += 2
            else:
                raise BadInput(f"go: unknown keyword {_quote(kw)}; the keywords are iterations, "
                               f"nodes, depth, movetime, infinite, seed")
        limited = [k for k in ("iterations", "nodes", "depth", "movetime") if k in seen]
        infinite = bool(seen.get("infinite"))
        if infinite and limited:
            raise BadInput(f"go: infinite cannot be combined with {', '.join(limited)}")
        movetime = seen.get("movetime")
        iterations = seen.get("iterations")
        if not limited and not infinite:
            iterations = self.options.iterations or None
            movetime = self.options.movetime or None
        limits = Limits(iterations=iterations, nodes=seen.get("nodes"), depth=seen.get("depth"),
                        seconds=None if movetime is None else movetime / 1000.0,
                        infinite=infinite, seed=seen.get("seed", self.options.seed))
        return limits, infinite, movetime

    # -- players -----------------------------------------------------------------------------
    def _player_spec(self, opts: _Options, *, seed: int | None = None,
                     threads: int | None = None) -> PlayerSpec:
        """The spec of the player for ``opts``: the Player option's spec, with the engine's
        Seed and Threads where that spec does not set them."""
        try:
            spec = PlayerSpec.parse(opts.player)
        except (TypeError, ValueError) as e:
            raise BadInput(f"setoption Player: {e}") from None
        seed = opts.seed if seed is None else seed
        threads = opts.threads if threads is None else threads
        extra: dict[str, int] = {}
        if spec.accepts("seed") and "seed" not in spec:
            extra["seed"] = seed
        if threads > 1:
            if not spec.accepts("threads"):
                raise BadInput(f"setoption: Threads {threads} needs a player with a threads "
                               f"option; {spec.name} has none")
            if "threads" not in spec:
                extra["threads"] = threads
        try:
            return spec.replace(**extra)
        except (TypeError, ValueError) as e:
            raise BadInput(f"setoption: {e}") from None

    def _build_player(self, opts: _Options) -> Player:
        spec = self._player_spec(opts)
        try:
            return spec.build()
        except (TypeError, ValueError) as e:
            raise BadInput(f"setoption: cannot build the player {str(spec)!r}: {e}") from None

    def _replace_player(self, player: Player) -> None:
        old = self.player
        self.player = player
        job = self.search
        if job is not None and not job.finished and job.player is old:
            return  # the search thread closes it when done
        old.close()

    # -- searching ---------------------------------------------------------------------------
    def _searching(self) -> bool:
        job = self.search
        return job is not None and not job.finished

    def _need_position(self, cmd: str) -> State:
        if self.position is None:
            raise BadInput(f"{cmd}: no position; send 'position <game-id> ...' first")
        return self.position

    def _stop_search(self, job: _Search) -> None:
        if job.finished:
            return
        first = not job.stop_event.is_set()
        job.stop_event.set()
        if not job.in_player:
            return          # its search already returned: a late stop() could hit the next
        try:
            job.player.stop()
        except Exception:
            traceback.print_exc(file=self.log)
        if first:
            # A stop() that lands before the player's search() has begun may be forgotten
            # when it begins (searchers reset their stop flag there): repeat it until the
            # search has returned.
            threading.Thread(target=self._keep_stopping, args=(job,), daemon=True,
                             name="catsearch-stop").start()

    def _keep_stopping(self, job: _Search) -> None:
        while job.in_player and not self.quitting:
            time.sleep(0.02)
            if job.in_player:
                try:
                    job.player.stop()
                except Exception:
                    traceback.print_exc(file=self.log)
                    return

    def _run_search(self, job: _Search) -> None:
        st = job.state
        searched = st.clone()       # the player gets its own copy; this one names moves

        def on_info(partial: SearchResult) -> None:
            try:
                line = format_info(partial, searched)
            except Exception:
                return
            with self.out.lock:
                if not job.finished:
                    self.out.write(line)

        lines: list[str]
        try:
            try:
                result = job.player.search(st, limits=job.limits, info=on_info)
            finally:
                job.in_player = False
            if result.move not in searched.legal_moves():
                raise RuntimeError(f"the player answered move {result.move}, which is not "
                                   f"legal here")
            lines = [format_info(result, searched), f"bestmove {searched.move_to_str(result.move)}"]
        except Exception as e:
            traceback.print_exc(file=self.log)
            lines = [f"info string error: {_one_line(f'search failed: {type(e).__name__}: {e}')}",
                     "bestmove (none)"]
        if job.timer is not None:
            job.timer.cancel()
        if job.infinite:
            job.stop_event.wait()
        with self.out.lock:
            job.finished = True
            self.out.write(*lines)
        if job.player is not self.player:
            job.player.close()

    def _end_of_input(self) -> None:
        """At the end of input: let a limited search finish, stop an infinite one."""
        job = self.search
        if job is None or job.thread is None:
            return
        if job.infinite:
            self._stop_search(job)
        job.thread.join()

    def _abandon_search(self) -> None:
        """``quit``: stop any search and write nothing more."""
        self.quitting = True
        with self.out.lock:
            self.out.closed = True
        job = self.search
        if job is not None and not job.finished:
            self._stop_search(job)


def _no_args(cmd: str, args: list[str]) -> None:
    if args:
        raise BadInput(f"{cmd} takes no arguments, got {_quote(' '.join(args))}")


def _quote(text: str, limit: int = 80) -> str:
    if len(text) > limit:
        text = text[:limit] + "..."
    return repr(text)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())
