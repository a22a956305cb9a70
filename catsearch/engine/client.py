"""The client side of the protocol: any engine program as a :class:`Player`.

:class:`EngineClient` starts a program that speaks the engine protocol
(``docs/protocol.rst``), sends it one seat's view at a time and reads its answers, with
timeouts. What can go wrong is one of three exceptions, all :class:`EngineError`:
:class:`EngineCrashed`, :class:`EngineTimeout`, :class:`EngineProtocolError`.
"""

from __future__ import annotations

import collections
import math
import queue
import shlex
import subprocess
import threading
import time
import weakref
from collections.abc import Mapping, Sequence

from catsearch._core.options import check_seed
from catsearch._core.state import State
from catsearch.engine.failures import (EngineCrashed, EngineError, EngineProtocolError,
                                       EngineTimeout)
from catsearch.search.players import InfoCallback, Limits, Player, SearchResult

__all__ = ["EngineClient", "EngineError", "EngineCrashed", "EngineTimeout",
           "EngineProtocolError"]


_EOF = object()


class _NoAnswer(Exception):
    """No line came before the deadline (turned into :class:`EngineTimeout`)."""


def _kill(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        try:
            proc.kill()
        except OSError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


class EngineClient(Player):
    """A program speaking the engine protocol, as a :class:`Player`.

    :param command: the program and its arguments (a list, or one string split like a shell
        would: ``"catsearch-engine -o Player=random"``).
    :param options: engine options, sent as ``setoption name <k> value <v>`` after ``uci``.
    :param limits: the player's own limits, used when :meth:`search` gets none.
    :param timeout: seconds allowed for ``uciok``, ``readyok`` and the ``bestmove`` of a
        search without a time limit.
    :param margin: seconds allowed beyond a search's time limit (and after :meth:`stop` for
        an infinite search).
    :param cwd: the program's working directory.
    :param env: the program's environment.
    :param stderr_lines: how many of its last standard-error lines to keep for messages.
    :raises EngineCrashed: the program could not be started or died during the handshake.
    :raises EngineTimeout: it did not answer ``uci`` / ``isready`` in time.
    :raises EngineProtocolError: it refused one of ``options``.
    """

    name = "engine"

    def __init__(self, command: str | Sequence[str], *, options: Mapping[str, object] | None = None,
                 limits: Limits | None = None, timeout: float = 30.0, margin: float = 2.0,
                 cwd: str | None = None, env: Mapping[str, str] | None = None,
                 stderr_lines: int = 50) -> None:
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise ValueError("command: an engine program to run is needed")
        if timeout <= 0 or margin <= 0:
            raise ValueError("timeout and margin must be positive numbers of seconds")
        self.options = {str(k): str(v) for k, v in (options or {}).items()}
        self.limits = limits
        self.timeout = float(timeout)
        self.margin = float(margin)
        self.cwd = cwd
        self.env = dict(env) if env is not None else None
        #: the ``id name`` / ``id author`` of the program
        self.engine_name: str | None = None
        self.engine_author: str | None = None
        #: the program's ``option`` lines by option name: the text after the name
        self.engine_options: dict[str, str] = {}
        self._stderr: collections.deque[str] = collections.deque(maxlen=max(1, stderr_lines))
        self._lines: queue.Queue = queue.Queue()
        self._proc: subprocess.Popen | None = None
        self._dead: EngineCrashed | None = None
        self._talk = threading.Lock()        # one conversation at a time
        self._write = threading.Lock()       # stop() writes from another thread
        self._searching = False
        self._pondering = False        # a go ponder was sent, its bestmove not read yet
        self._go_sent = False
        self._stop_at: float | None = None
        self._finalizer = None
        # the game as the seat follows it: its first view and its observations since, and
        # the view they lead to (see observe); sent as one position line
        self._first_view: State | None = None
        self._observations: list[str] = []
        self._followed: State | None = None
        self._start()

    # -- life cycle ---------------------------------------------------------------------
    def _start(self) -> None:
        self._pondering = False
        self._lines = queue.Queue()
        self._stderr.clear()
        self._dead = None
        try:
            proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, cwd=self.cwd, env=self.env)
        except OSError as e:
            self._dead = EngineCrashed(f"cannot start engine {shlex.join(self.command)}: {e}",
                                       command=self.command)
            raise self._dead from None
        self._proc = proc
        self._finalizer = weakref.finalize(self, _kill, proc)
        lines, errs = self._lines, self._stderr

        def read_out() -> None:
            for raw in proc.stdout:
                lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
            lines.put(_EOF)

        def read_err() -> None:
            for raw in proc.stderr:
                errs.append(raw.decode("utf-8", "replace").rstrip("\r\n"))

        threading.Thread(target=read_out, daemon=True, name="engine-stdout").start()
        threading.Thread(target=read_err, daemon=True, name="engine-stderr").start()
        try:
            self._handshake()
        except EngineError as e:
            if self._dead is None:
                self._kill_dead(f"the engine was stopped: its handshake failed ({e})")
            raise

    def _handshake(self) -> None:
        self._send("uci")
        deadline = time.monotonic() + self.timeout
        while True:
            line = self._read_or_kill(deadline, "uciok")
            if line == "uciok":
                break
            tokens = line.split()
            if tokens[:2] == ["id", "name"]:
                self.engine_name = line.split(None, 2)[2] if len(tokens) > 2 else ""
            elif tokens[:2] == ["id", "author"]:
                self.engine_author = line.split(None, 2)[2] if len(tokens) > 2 else ""
            elif tokens[:2] == ["option", "name"] and len(tokens) > 2:
                self.engine_options[tokens[2]] = line.split(None, 3)[3] if len(tokens) > 3 else ""
        for k, v in self.options.items():
            self._send(f"setoption name {k} value {v}")
        self._sync("the options")

    def _sync(self, what: str) -> None:
        """Send ``isready`` and wait for ``readyok``; an error line on the way is an
        :class:`EngineProtocolError` about ``what`` (raised after ``readyok``)."""
        self._send("isready")
        deadline = time.monotonic() + self.timeout
        error = None
        while True:
            line = self._read_or_kill(deadline, "readyok")
            if line == "readyok":
                break
            if line.startswith("info string error:") and error is None:
                error = line
        if error is not None:
            raise self._protocol(f"the engine refused {what}: {error}", error)

    def restart(self) -> None:
        """Kill the program if it still runs, start it again and repeat the handshake."""
        with self._talk:
            self._terminate()
            self._start()

    def close(self) -> None:
        """Send ``quit`` and end the program (killed if it does not exit in time)."""
        with self._talk:
            proc = self._proc
            if proc is None:
                return
            if proc.poll() is None and self._dead is None:
                try:
                    self._send("quit")
                    proc.wait(timeout=min(self.timeout, 5.0))
                except (EngineError, subprocess.TimeoutExpired):
                    pass
            self._terminate()
            self._dead = EngineCrashed("the engine was closed", command=self.command,
                                       returncode=proc.returncode)

    def _terminate(self) -> None:
        if self._finalizer is not None:
            self._finalizer()         # kills and reaps the process once
            self._finalizer = None
        self._proc = None

    def __enter__(self) -> EngineClient:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        """True while the program runs and is in step."""
        return self._dead is None and self._proc is not None and self._proc.poll() is None

    # -- the Player interface -------------------------------------------------------------
    def search(self, state: State, *, limits: Limits | None = None,
               info: InfoCallback | None = None) -> SearchResult:
        """Ask the program for the move of ``state.current_player``, sending only that
        seat's view.

        :raises ValueError: the game is over, ``state`` is another seat's view, or the seed
            of ``limits`` is not one (a whole number from 0 to 2**64 - 1).
        :raises EngineCrashed, EngineTimeout, EngineProtocolError: see the class.
        """
        seat = state.current_player
        if seat < 0:
            raise ValueError("the game is over: there is no seat to move")
        if state.view_seat is None:
            view = state.view(seat)
        elif state.view_seat == seat:
            view = state
        else:
            raise ValueError(f"this is seat {state.view_seat}'s view, but seat {seat} is to move")
        limits = limits if limits is not None else (self.limits or Limits())
        go = self._go_line(limits)
        with self._talk:
            self._check_alive()
            self._end_ponder()
            self._drain()
            self._stop_at = None
            self._go_sent = False
            self._searching = True       # from here on stop() counts, even before the go
            try:
                self._send(self._position_line(view))
                self._sync("the position")
                return self._await_bestmove(view, go, limits, time.monotonic(), info)
            finally:
                self._searching = False
                self._go_sent = False

    def ponder(self, view: State) -> None:
        """Let the program think while another seat is to move: send ``view`` (this seat's
        view, another seat to move; the followed game, as for a search) and ``go ponder``,
        and return at once. The next :meth:`search`, :meth:`ponder` or :meth:`new_game`
        first ends it (``stop``, then its ``bestmove (none)`` is read), so the program's
        tree follows the moves played meanwhile (docs/protocol.rst, "Pondering").

        :raises ValueError: ``view`` is a full state, the game is over in it, or its seat
            is to move.
        :raises EngineCrashed, EngineTimeout: see the class.
        """
        if view.view_seat is None:
            raise ValueError("ponder: a full state; pondering sends the seat's view")
        if view.is_terminal() or view.current_player == view.view_seat:
            raise ValueError(f"ponder: seat {view.view_seat} is not waiting for another seat "
                             f"in this view (the game is over or it is to move)")
        with self._talk:
            self._check_alive()
            self._end_ponder()
            self._drain()
            self._send(self._position_line(view))
            self._send("go ponder")
            self._pondering = True

    def _end_ponder(self) -> None:
        """Stop a running ``go ponder`` and read up to its ``bestmove`` (under ``_talk``);
        no answer within the margin kills the program (:class:`EngineTimeout`)."""
        if not self._pondering:
            return
        self._pondering = False
        self._send("stop")
        deadline = time.monotonic() + self.margin
        try:
            while self._read(deadline, "the bestmove of go ponder").split()[:1] != ["bestmove"]:
                pass
        except _NoAnswer:
            self._kill_dead("the engine was killed: no bestmove after stopping go ponder")
            raise EngineTimeout(f"no bestmove within {self.margin:.3g} s of stopping go "
                                f"ponder; it was killed", seconds=self.margin, killed=True,
                                command=self.command, stderr=self.stderr_text) from None

    def observe(self, view: State, observation: str | int) -> None:
        """Follow the game: ``observation`` is the seat's observation of a move played on its
        ``view``. The next search sends the seat's first view and every observation since
        (``position <game> state <view> moves <observation> ...``), so the program can keep
        its search tree from move to move. A move given as an int, or a view that is not the
        one followed, starts afresh from the view sent with the next search."""
        if not isinstance(observation, str) or view.view_seat is None:
            self._forget()
            return
        if self._followed is None or self._followed.to_text() != view.to_text():
            self._first_view, self._observations = view.clone(), []
            self._followed = view.clone()
        self._followed.play_observation(observation)
        self._observations.append(observation)

    def _forget(self) -> None:
        self._first_view, self._observations, self._followed = None, [], None

    def _position_line(self, view: State) -> str:
        """The ``position`` line for a search of ``view``: the followed game when it leads to
        ``view``, else ``view`` alone (and the game is followed from there)."""
        if self._followed is None or self._followed.to_text() != view.to_text():
            self._first_view, self._observations = view.clone(), []
            self._followed = view.clone()
        line = f"position {view.game_id} state {self._first_view.to_text()}"
        if self._observations:
            line += " moves " + " ".join(self._observations)
        return line

    def _go_line(self, limits: Limits) -> str:
        parts = ["go"]
        if limits.infinite:
            parts.append("infinite")
        else:
            if limits.iterations is not None:
                parts += ["iterations", str(int(limits.iterations))]
            if limits.nodes is not None:
                parts += ["nodes", str(int(limits.nodes))]
            if limits.depth is not None:
                parts += ["depth", str(int(limits.depth))]
            if limits.seconds is not None:
                parts += ["movetime", str(max(1, int(round(limits.seconds * 1000))))]
            if limits.clock is not None:       # the engine's own time manager spends it
                c = limits.clock
                parts += ["time", str(int(c.time * 1000)), "inc", str(int(c.inc * 1000))]
                if c.movestogo is not None:
                    parts += ["movestogo", str(c.movestogo)]
        if limits.seed is not None:
            parts += ["seed", str(check_seed(limits.seed, "Limits.seed"))]
        return " ".join(parts)

    def _await_bestmove(self, view: State, go: str, limits: Limits, t0: float,
                        info: InfoCallback | None) -> SearchResult:
        self._send(go)
        self._go_sent = True
        if self._stop_at is not None:         # stop() came before the go: pass it on
            self._send_stop()
        if limits.infinite:
            budget = None
        elif limits.seconds is not None or limits.clock is not None:
            budget = min(limits.seconds if limits.seconds is not None else math.inf,
                         limits.clock.time if limits.clock is not None else math.inf)
            budget += self.margin
        else:
            budget = self.timeout
        last: dict[str, object] = {}
        error: str | None = None
        callback_error: BaseException | None = None
        n = view.players
        while True:
            polling = False
            stop_at = self._stop_at
            if budget is not None:
                deadline = t0 + budget
            elif stop_at is not None:
                deadline = max(stop_at, t0) + self.margin
            else:
                deadline = time.monotonic() + 0.05    # infinite: poll until stop()
                polling = True
            try:
                line = self._read(deadline, "bestmove")
            except _NoAnswer:
                if polling:
                    continue                          # infinite, not stopped yet
                self._timed_out(time.monotonic() - t0)
            tokens = line.split()
            if not tokens:
                continue
            if tokens[0] == "bestmove":
                break
            if line.startswith("info string error:"):
                error = error or line
            elif tokens[0] == "info" and (len(tokens) < 2
                                          or tokens[1] not in ("string", "multipv")):
                fields = _parse_info(tokens[1:])
                last.update(fields)
                if info is not None and callback_error is None and "pv" in fields:
                    try:
                        partial = self._result(view, str(fields["pv"]), last, t0, n)
                    except EngineProtocolError:
                        partial = None
                    if partial is not None:
                        try:
                            info(partial)
                        except BaseException as e:   # re-raised once in step again
                            callback_error = e
        if callback_error is not None:
            raise callback_error
        if error is not None:
            raise self._protocol(f"the engine refused the search: {error}", error)
        if len(tokens) < 2 or tokens[1] == "(none)":
            raise self._protocol(f"the engine gave no move: {line!r}", line)
        return self._result(view, tokens[1], last, t0, n, line=line)

    def _result(self, view: State, move_text: str, fields: Mapping[str, object], t0: float,
                n: int, line: str | None = None) -> SearchResult:
        try:
            move = view.str_to_move(move_text)
        except ValueError as e:
            raise self._protocol(f"the engine's move {move_text!r} is not a "
                                 f"{view.game_id} move: {e}", line) from None
        if move not in view.legal_moves():
            raise self._protocol(f"the engine's move {move_text!r} is not legal for seat "
                                 f"{view.current_player} in {view.to_text()!r}", line)
        value = fields.get("value")
        if not isinstance(value, tuple) or len(value) != n:
            value = (1.0 / n,) * n
        return SearchResult(move=move, value=value, iterations=int(fields.get("iterations", 0)),
                            nodes=int(fields.get("nodes", 0)), depth=int(fields.get("depth", 0)),
                            seconds=time.monotonic() - t0)

    def _timed_out(self, waited: float) -> None:
        """After a search timed out: send ``stop``; if ``bestmove`` follows within the margin
        the program is in step, else kill it. Always raises :class:`EngineTimeout`."""
        killed = False
        try:
            self._send("stop")
            deadline = time.monotonic() + self.margin
            while True:
                line = self._read(deadline, "bestmove")
                if line.split()[:1] == ["bestmove"]:
                    break
        except (EngineError, _NoAnswer):
            killed = True
            self._kill_dead("the engine was killed after a timeout")
        raise EngineTimeout(f"no bestmove from the engine within {waited:.3g} s"
                            + ("; it was killed" if killed else "; it answered stop"),
                            seconds=waited, killed=killed, command=self.command,
                            stderr=self.stderr_text)

    def _kill_dead(self, message: str) -> None:
        stderr = self.stderr_text
        self._terminate()
        self._dead = EngineCrashed(message + "; restart it", command=self.command,
                                   stderr=stderr)

    def stop(self) -> None:
        """Ask a running search (from another thread) to end now with its best move."""
        if not self._searching or self._stop_at is not None:
            return
        self._stop_at = time.monotonic()
        if self._go_sent:
            self._send_stop()

    def _send_stop(self) -> None:
        try:
            self._send("stop")
        except EngineError:
            pass          # it died: the searching thread finds out and raises

    def new_game(self) -> None:
        """Send ``ucinewgame`` and wait for the program to be ready."""
        with self._talk:
            self._check_alive()
            self._end_ponder()
            self._forget()
            self._send("ucinewgame")
            self._sync("ucinewgame")

    @property
    def spec(self) -> str:
        return "engine:command=" + shlex.join(self.command)

    def __repr__(self) -> str:
        return f"EngineClient({self.command!r})"

    @property
    def stderr_text(self) -> str:
        """The last lines the program wrote to standard error."""
        return "\n".join(self._stderr)

    # -- lines ----------------------------------------------------------------------------
    def _check_alive(self) -> None:
        if self._dead is not None:
            raise self._dead
        if self._proc is None or self._proc.poll() is not None:
            self._crashed("the engine is not running")

    def _crashed(self, message: str) -> None:
        proc = self._proc
        code = None
        if proc is not None:
            try:
                code = proc.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                code = None
        time.sleep(0.05)  # let the stderr reader catch the last lines
        self._dead = EngineCrashed(
            message + (f" (exit code {code})" if code is not None else ""),
            returncode=code, command=self.command, stderr=self.stderr_text)
        self._terminate()
        raise self._dead

    def _send(self, line: str) -> None:
        proc = self._proc
        if proc is None or self._dead is not None:
            self._check_alive()
        with self._write:
            try:
                proc.stdin.write(line.encode("utf-8") + b"\n")
                proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                self._crashed(f"the engine closed its input (sending {line.split()[0]!r})")

    def _read(self, deadline: float, waiting_for: str) -> str:
        """The next line; :class:`_NoAnswer` if none comes before ``deadline``."""
        remaining = deadline - time.monotonic()
        try:
            item = self._lines.get(timeout=max(0.0, remaining))
        except queue.Empty:
            raise _NoAnswer() from None
        if item is _EOF:
            self._lines.put(_EOF)
            self._crashed(f"the engine exited while the client waited for {waiting_for}")
        return item

    def _read_or_kill(self, deadline: float, waiting_for: str) -> str:
        """:meth:`_read` for the handshake and ``isready``: out of step after a timeout, the
        program is killed."""
        try:
            return self._read(deadline, waiting_for)
        except _NoAnswer:
            self._kill_dead(f"the engine was killed: no {waiting_for} within {self.timeout:.3g} s")
            raise EngineTimeout(f"no {waiting_for} from the engine within {self.timeout:.3g} s; "
                                f"it was killed", seconds=self.timeout, killed=True,
                                command=self.command, stderr=self.stderr_text) from None

    def _drain(self) -> None:
        """Drop lines left over from before (there should be none)."""
        while True:
            try:
                item = self._lines.get_nowait()
            except queue.Empty:
                return
            if item is _EOF:
                self._lines.put(_EOF)
                self._crashed("the engine exited")

    def _protocol(self, message: str, line: str | None) -> EngineProtocolError:
        return EngineProtocolError(message, line=line, command=self.command,
                                   stderr=self.stderr_text)


def _parse_info(tokens: list[str]) -> dict[str, object]:
    """The fields of an ``info`` line (known ones; unknown tokens are skipped)."""
    out: dict[str, object] = {}
    i = 0
    while i < len(tokens):
        key = tokens[i]
        if key in ("depth", "iterations", "nodes", "nps", "time") and i + 1 < len(tokens):
            try:
                out[key] = int(tokens[i + 1])
            except ValueError:
                pass
            i += 2
        elif key == "value" and i + 1 < len(tokens):
            try:
                out[key] = tuple(float(x) for x in tokens[i + 1].split(","))
            except ValueError:
                pass
            i += 2
        elif key == "pv" and i + 1 < len(tokens):
            out[key] = tokens[i + 1]
            i += 2
        elif key == "string":
            break
        else:
            i += 1
    return out
