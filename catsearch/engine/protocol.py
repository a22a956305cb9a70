"""The engine side of the protocol (``docs/protocol.rst``): read commands, answer them.

:class:`Engine` holds the position, the options and the player; :meth:`Engine.run` reads
commands from a binary stream until ``quit`` or the end of input. The pieces it uses:
:mod:`~catsearch.engine.commands` reads command lines, :mod:`~catsearch.engine.options`
holds the options and builds the player, :mod:`~catsearch.engine.session` runs a search (or
a ``perft``, a ``bench``) in the background (so that the reading thread answers ``isready``
and ``stop`` at once), :mod:`~catsearch.engine.perft` counts ``perft`` in stoppable pieces,
and :mod:`~catsearch.engine.bench` runs ``bench``.
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from typing import IO, Callable

import catsearch
from catsearch._core.state import State
from catsearch.engine.bench import BENCH_ITERATIONS, BENCH_PLIES, BenchRun, bench_positions, \
    fnv1a64
from catsearch.engine.commands import COMMANDS, PERFT_MAX, BadInput, check_tokens, clip, \
    no_args, one_line, parse_go, parse_int, parse_position, quote, tokenize
from catsearch.engine.options import ITERATIONS_OPTION_MAX, EngineOptions, build_player, \
    default_player_spec, player_spec, set_option, uci_option_lines
from catsearch.engine.perft import PerftRun
from catsearch.engine.session import Output, SearchJob, TaskJob, format_info
from catsearch.search.players import Player
from catsearch.search.spec import player_names

__all__ = ["Engine", "MAX_LINE", "ENGINE_NAME", "ENGINE_AUTHOR", "BadInput", "Interrupted",
           "bench_positions", "fnv1a64", "format_info", "BENCH_PLIES", "BENCH_ITERATIONS"]

ENGINE_NAME = "catsearch-engine"
ENGINE_AUTHOR = "The catsearch developers"

#: how long a signal waits for the running search (or perft, bench) to write its last lines
SIGNAL_WAIT = 2.0


class Interrupted(BaseException):
    """SIGINT or SIGTERM reached the engine while it waited (see :meth:`Engine.on_signal`)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _join(thread: threading.Thread, timeout: float | None = None) -> None:
    """``thread.join(timeout)``, in short sleeps: a signal handler may raise in it (a
    ``join`` interrupted that way would take the thread for ended, and lose its output)."""
    end = None if timeout is None else time.monotonic() + timeout
    while thread.is_alive() and (end is None or time.monotonic() < end):
        time.sleep(0.01)


#: the longest command line the engine reads, in bytes with its newline (docs/protocol.rst; a
#: whole game of The Cat as a position line is under 250 KB):
#: a longer one is answered with one error line and skipped, never held in memory whole
MAX_LINE = 1 << 20


def _skip_rest_of_line(inp: IO[bytes], head: bytes | str) -> bool:
    """Read and drop the rest of an over-long line whose first part is ``head``, a bounded
    chunk at a time; return False when the input ended before its newline."""
    chunk = head
    while True:
        if chunk[-1:] in (b"\n", "\n"):
            return True
        chunk = inp.readline(MAX_LINE)
        if not chunk:
            return False


class Engine:
    """The protocol engine. ``Engine().run(sys.stdin.buffer)`` is the whole program.

    :param out: where answers go (text, one line per answer).
    :param log: where diagnostics go (never ``out``).
    :param on_gone: called, in the thread that found it, when the output turns out closed by
        its reader (a broken pipe), after any running search was told to stop; the program
        exits there (``catsearch-engine``), else the engine ends at its next command.
    """

    def __init__(self, out: IO[str] | None = None, log: IO[str] | None = None,
                 on_gone: Callable[[], None] | None = None) -> None:
        self.out = Output(out if out is not None else sys.stdout, on_broken=self.output_gone)
        self.on_gone = on_gone
        self.log = log if log is not None else sys.stderr
        self.options = EngineOptions(player=default_player_spec())
        self.player: Player = build_player(self.options)
        self.position: State | None = None
        self._line: tuple[list[str], list[str]] | None = None   # the last position line
        self.job: SearchJob | TaskJob | None = None     # the running go, perft or bench
        self.quitting = False
        self.signalled: int | None = None   # a signal received (see on_signal)
        self._waiting = False               # reading a line or waiting for a search to end
        self._handlers: dict[str, Callable[[list[str]], None]] = {
            "uci": self.cmd_uci, "isready": self.cmd_isready, "setoption": self.cmd_setoption,
            "ucinewgame": self.cmd_ucinewgame, "position": self.cmd_position, "go": self.cmd_go,
            "stop": self.cmd_stop, "quit": self.cmd_quit, "d": self.cmd_d,
            "legal": self.cmd_legal, "perft": self.cmd_perft, "bench": self.cmd_bench,
        }

    # -- the loop -------------------------------------------------------------------------
    def run(self, inp: IO[bytes]) -> int:
        """Read and carry out commands until ``quit`` or the end of input; return the exit
        code: 0, or ``128 + signum`` when ended by a signal (:meth:`on_signal`)."""
        try:
            while not self.quitting:
                try:
                    raw = self._wait(lambda: inp.readline(MAX_LINE + 1))
                except KeyboardInterrupt:
                    raise
                except (OSError, ValueError):
                    raw = b""
                if not raw:
                    self._wait(self._end_of_input)
                    break
                if len(raw) > MAX_LINE:
                    ended = self._wait(lambda: _skip_rest_of_line(inp, raw))
                    self.error(f"the line is longer than {MAX_LINE} bytes (the protocol's "
                               f"limit); it was not read")
                    if not ended:
                        self._wait(self._end_of_input)
                        break
                    continue
                if isinstance(raw, str):
                    line = raw
                else:
                    try:
                        line = raw.decode("utf-8")
                    except UnicodeDecodeError as e:
                        self.error(f"the line is not valid UTF-8 (byte {e.start}); commands "
                                   f"are UTF-8 text")
                        continue
                self.handle(line)
                if self.out.broken:
                    self._abandon_search()
                    break
                if self.signalled is not None:
                    raise Interrupted(self.signalled)
        except Interrupted as e:
            return self._interrupted(e.signum)
        if not self._searching():
            self.player.close()       # e.g. a searcher's worker processes
        return 0

    def _wait(self, wait: Callable[[], object]) -> object:
        """``wait()`` (a blocking read or join) during which a signal ends the loop at once."""
        self._waiting = True
        try:
            if self.signalled is not None:
                raise Interrupted(self.signalled)
            return wait()
        finally:
            self._waiting = False

    def on_signal(self, signum: int) -> None:
        """SIGINT or SIGTERM (the program's handler calls this, in the main thread, which runs
        :meth:`run`): the running search (or perft, bench) is stopped and writes its last
        lines, then :meth:`run` returns ``128 + signum``. At once if the engine is waiting
        for input, else after the command being carried out."""
        if self.signalled is None:
            self.signalled = signum
        if self._waiting:
            self._waiting = False
            raise Interrupted(signum)

    def _interrupted(self, signum: int) -> int:
        job = self.job
        if job is not None and not job.finished:
            job.stop()
            if job.thread is not None:
                _join(job.thread, SIGNAL_WAIT)
        self._abandon_search()
        if not self._searching():
            self.player.close()
        return 128 + signum

    def output_gone(self) -> None:
        """The output was closed by its reader: stop everything; no more is written."""
        self.quitting = True
        job = self.job
        if job is not None and not job.finished:
            job.stop()
        if self.on_gone is not None:
            self.on_gone()

    def handle(self, line: str) -> None:
        """Carry out one command line (answers go to the output)."""
        tokens = tokenize(line)
        if not tokens:
            return
        name, args = tokens[0], tokens[1:]
        handler = self._handlers.get(name)
        try:
            if handler is None:
                raise BadInput(f"unknown command {quote(name)}; the commands are "
                               f"{', '.join(COMMANDS)}")
            check_tokens(name, args)
            handler(args)
        except BadInput as e:
            if name == "go" and not self._going():
                self.out.write(f"info string error: {clip(one_line(str(e)))}", "bestmove (none)")
            else:
                self.error(str(e))
        except Exception as e:  # a bug: report it, keep going
            traceback.print_exc(file=self.log)
            msg = f"internal error: {type(e).__name__}: {e}"
            if name == "go" and not self._going():
                self.out.write(f"info string error: {clip(one_line(msg))}", "bestmove (none)")
            else:
                self.error(msg)

    def error(self, message: str) -> None:
        self.out.write(f"info string error: {clip(one_line(message))}")

    # -- commands -------------------------------------------------------------------------
    def cmd_uci(self, args: list[str]) -> None:
        no_args("uci", args)
        self.out.write(
            f"id name {ENGINE_NAME} {catsearch.__version__}",
            f"id author {ENGINE_AUTHOR}",
            *uci_option_lines(),
            "info string games " + " ".join(catsearch.GAMES),
            "info string players " + " ".join(player_names()),
            "uciok",
        )

    def cmd_isready(self, args: list[str]) -> None:
        no_args("isready", args)
        self.out.write("readyok")

    def cmd_setoption(self, args: list[str]) -> None:
        usage = "expected 'setoption name <name> value <value>'"
        if len(args) < 3 or args[0] != "name" or args[2] != "value":
            raise BadInput(f"setoption: {usage}, got {quote(' '.join(['setoption'] + args))}")
        opts = set_option(self.options, args[1], " ".join(args[3:]))
        player = build_player(opts)      # raises BadInput; nothing changed yet
        self.options = opts
        self._replace_player(player)

    def cmd_ucinewgame(self, args: list[str]) -> None:
        no_args("ucinewgame", args)
        self._replace_player(build_player(self.options))

    def cmd_position(self, args: list[str]) -> None:
        base = args[:args.index("moves")] if "moves" in args else list(args)
        moves = args[len(base) + 1:]
        self._end_ponder()
        st = parse_position(args)
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
                if st.view_seat is None:
                    m = st.str_to_move(mv)
                    self.player.observe(st, m)
                    st.apply(m)
                else:               # the seat's observation, followed on its view
                    self.player.observe(st.clone(), mv)
                    st.play_observation(mv)
        except Exception:       # a player that cannot follow forgets what it kept
            traceback.print_exc(file=self.log)
            self.player.new_game()

    def cmd_go(self, args: list[str]) -> None:
        if self._going():
            raise BadInput("go: a search is already running; send stop and wait for its "
                           "bestmove first")
        self._refuse_while_busy("go")
        go = parse_go(args, self.options.iterations, self.options.movetime, self.options.seed)
        st = self.position
        if st is None:
            raise BadInput("go: no position; send 'position <game-id> ...' first")
        if st.is_terminal():
            raise BadInput("go: the game is over in this position; there is no move to find")
        if go.ponder:
            self._start_ponder(go, st)
            return
        seat = st.current_player
        if st.view_seat is not None and st.view_seat != seat:
            raise BadInput(f"go: the position is seat {st.view_seat}'s view but seat {seat} is "
                           f"to move; send the view of seat {seat}")
        if st.view_seat is not None and st.chance_outcomes():
            raise BadInput(f"go: seat {seat} holds cards unknown to itself in this view; a "
                           f"seat's view knows its own cards (its observations show its "
                           f"draws)")
        try:        # the Player's options that depend on the game, now that it is known
            self.player.weights_for(st.game_id)
        except (TypeError, ValueError) as e:
            raise BadInput(f"go: setoption Player: {e}") from None
        limits, movetime = go.limits, go.movetime
        if limits.clock is not None:         # the time manager: the clock -> this search's time
            limits = limits.for_state(st)
            movetime = max(1, int(round(limits.seconds * 1000)))
        job = SearchJob(player=self.player, state=st.clone(), limits=limits,
                        infinite=go.infinite, out=self.out, log=self.log,
                        current_player=lambda: self.player, multipv=self.options.multipv)
        self.job = job
        job.start(movetime)

    def _start_ponder(self, go, st: State) -> None:
        """``go ponder``: search the seat's view while another seat is to move (see
        :mod:`catsearch.search.ponder`), until ``stop`` or the next ``position``."""
        if st.view_seat is None:
            raise BadInput("go: ponder searches a seat's view, and the position is a full "
                           "state; send 'position <game-id> state <the seat's view>'")
        if st.current_player == st.view_seat:
            raise BadInput(f"go: ponder is for while another seat is to move, and seat "
                           f"{st.view_seat} is to move in its view; send go")
        try:
            self.player.weights_for(st.game_id)
        except (TypeError, ValueError) as e:
            raise BadInput(f"go: setoption Player: {e}") from None
        job = SearchJob(player=self.player, state=st.clone(), limits=go.limits, infinite=True,
                        out=self.out, log=self.log, current_player=lambda: self.player,
                        ponder=True)
        self.job = job
        job.start(None)

    def _end_ponder(self) -> None:
        """A ``position`` while pondering: the ponder search ends (its last ``info ponder``
        and ``bestmove (none)`` are written) before the new position is read, so that the
        tree it grew follows the new moves."""
        job = self.job
        if isinstance(job, SearchJob) and job.ponder and not job.finished:
            job.stop()
            if job.thread is not None:
                self._wait(lambda: _join(job.thread))

    def cmd_stop(self, args: list[str]) -> None:
        no_args("stop", args)
        job = self.job
        if job is not None and not job.finished:
            job.stop()

    def cmd_quit(self, args: list[str]) -> None:
        no_args("quit", args)
        self._abandon_search()

    def cmd_d(self, args: list[str]) -> None:
        no_args("d", args)
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
        no_args("legal", args)
        st = self._need_position("legal")
        try:
            moves = [st.move_to_str(m) for m in st.legal_moves()]
        except ValueError as e:
            raise BadInput(f"legal: {e}") from None
        self.out.write(" ".join(["legal"] + moves))

    def cmd_perft(self, args: list[str]) -> None:
        if len(args) != 1:
            raise BadInput(f"perft: expected 'perft <depth>' with a depth from 1 to {PERFT_MAX}")
        depth = parse_int(args[0], "perft depth", 1, PERFT_MAX)
        st = self._need_position("perft")
        if st.view_seat is not None:
            raise BadInput(f"perft: the position is seat {st.view_seat}'s view; perft needs a "
                           f"full state (position ... startpos, or a full notation)")
        self._refuse_while_busy("perft")
        run = PerftRun(st.clone(), depth)
        self._start_task("perft", run.run, run.stop)

    def cmd_bench(self, args: list[str]) -> None:
        iterations = BENCH_ITERATIONS
        if args:
            if len(args) != 2 or args[0] != "iterations":
                raise BadInput(f"bench: expected 'bench' or 'bench iterations <n>', got "
                               f"{quote(' '.join(['bench'] + args))}")
            iterations = parse_int(args[1], "bench iterations", 1, ITERATIONS_OPTION_MAX)
        self._refuse_while_busy("bench")
        run = BenchRun(player_spec(self.options, seed=0, threads=1), iterations)
        self._start_task("bench", run.run, run.stop)

    def _start_task(self, kind: str, work: Callable[[], list[str]],
                    on_stop: Callable[[], None]) -> None:
        """Run ``perft`` or ``bench`` in the background, as ``go`` runs a search."""
        job = TaskJob(kind=kind, work=work, on_stop=on_stop, out=self.out, log=self.log)
        self.job = job
        job.start()

    # -- the player and the search ----------------------------------------------------------
    def _replace_player(self, player: Player) -> None:
        old = self.player
        self.player = player
        job = self.job
        if job is not None and not job.finished and getattr(job, "player", None) is old:
            return  # the search thread closes it when done
        old.close()

    def _searching(self) -> bool:
        """A ``go``, ``perft`` or ``bench`` runs."""
        job = self.job
        return job is not None and not job.finished

    def _going(self) -> bool:
        """A ``go`` runs (its ``bestmove`` is still to come)."""
        job = self.job
        return isinstance(job, SearchJob) and not job.finished

    def _refuse_while_busy(self, cmd: str) -> None:
        job = self.job
        if job is None or job.finished:
            return
        if isinstance(job, SearchJob):
            raise BadInput(f"{cmd}: a search is running; send stop and wait for its bestmove")
        last = "nodes or perft stopped" if job.kind == "perft" else "bench or bench stopped"
        raise BadInput(f"{cmd}: a {job.kind} is running; send stop and wait for its last "
                       f"line ({last})")

    def _need_position(self, cmd: str) -> State:
        if self.position is None:
            raise BadInput(f"{cmd}: no position; send 'position <game-id> ...' first")
        return self.position

    def _end_of_input(self) -> None:
        """At the end of input: let a limited search finish, stop an infinite one."""
        job = self.job
        if job is None or job.thread is None:
            return
        if job.infinite:
            job.stop()
        _join(job.thread)

    def _abandon_search(self) -> None:
        """``quit``: stop any search and write nothing more."""
        self.quitting = True
        with self.out.lock:
            self.out.closed = True
        job = self.job
        if job is not None and not job.finished:
            job.stop()
