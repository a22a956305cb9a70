"""Search control: the output shared by two threads, one ``go`` from start to bestmove, and
one ``perft`` or ``bench`` run the same way (:class:`TaskJob`).

A search runs in a background thread so that the reading thread answers ``isready`` and
``stop`` at once. :class:`SearchJob` is one running ``go``: it streams the player's partial
results as ``info`` lines, stops the player on ``stop`` (or when ``movetime`` runs out), and
writes ``bestmove`` exactly once, after which nothing of it is written any more.
"""

from __future__ import annotations

import dataclasses
import threading
import traceback
from dataclasses import dataclass, field
from typing import IO, Callable

from catsearch._core.state import State
from catsearch.engine.commands import one_line
from catsearch.search.limits import StopToken
from catsearch.search.players import Limits, Player, SearchResult
from catsearch.search.ponder import ponder, ponder_refusal

__all__ = ["Output", "SearchJob", "TaskJob", "format_info", "format_multipv",
           "format_ponder_info"]


def format_info(result: SearchResult, state: State) -> str:
    """The ``info`` line of a (partial) search result; ``state`` is the searched position."""
    ms = max(0, int(round(result.seconds * 1000)))
    nps = int(result.nodes / result.seconds) if result.seconds > 0 else 0
    value = ",".join(f"{v:.4f}" for v in result.value) or "-"
    return (f"info depth {result.depth} iterations {result.iterations} nodes {result.nodes} "
            f"nps {nps} time {ms} value {value} pv {state.move_to_str(result.move)}")


def format_ponder_info(result: SearchResult) -> str:
    """The ``info ponder`` line of a (partial) ponder search: what was searched, and the
    pondering seat's value; no move (none is the seat's to play)."""
    ms = max(0, int(round(result.seconds * 1000)))
    nps = int(result.nodes / result.seconds) if result.seconds > 0 else 0
    value = ",".join(f"{v:.4f}" for v in result.value) or "-"
    return (f"info ponder depth {result.depth} iterations {result.iterations} nodes "
            f"{result.nodes} nps {nps} time {ms} value {value}")


def format_multipv(result: SearchResult, state: State, k: int) -> list[str]:
    """The ``info multipv`` lines of a (partial) search result: its ``k`` best moves
    (:meth:`SearchResult.ranked`), each with its visits, its mean for the searching seat and,
    where the searcher keeps it, its value for every seat."""
    lines = []
    for r in result.ranked(k) if k else ():
        line = (f"info multipv {r.rank} move {state.move_to_str(r.move)} visits {r.visits} "
                f"mean {r.mean:.4f}")
        if r.value is not None:
            line += " value " + ",".join(f"{v:.4f}" for v in r.value)
        lines.append(line)
    return lines


class Output:
    """Line output shared by the reading thread and the search thread: whole lines, in
    blocks, flushed at once; silent after ``quit`` or once the reader went away.

    :ivar on_broken: called (once, in the writing thread) when a write finds the output
        closed by its reader.
    """

    def __init__(self, stream: IO[str], on_broken: Callable[[], None] | None = None) -> None:
        self.stream = stream
        self.lock = threading.RLock()
        self.closed = False
        self.broken = False
        self.on_broken = on_broken

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
                if self.on_broken is not None:
                    self.on_broken()


@dataclass(eq=False)
class SearchJob:
    """One running ``go``.

    :ivar player: the player searching (closed when done if the engine replaced it).
    :ivar state: the searched position (the job's own copy).
    :ivar finished: set, under the output lock, when ``bestmove`` is written.
    :ivar in_player: the player's ``search()`` has not returned yet.
    """

    player: Player
    state: State
    limits: Limits
    infinite: bool
    out: Output
    log: IO[str]
    thread: threading.Thread | None = None
    stop_event: threading.Event = field(default_factory=threading.Event)
    #: the search's stop (``Limits.stop``): set before the search begins, it still ends it
    token: StopToken = field(default_factory=StopToken)
    finished: bool = False
    in_player: bool = True
    timer: threading.Timer | None = None
    #: the engine's player now, asked when the search ends: a player replaced meanwhile
    #: (``setoption``, ``ucinewgame``) is closed by the job
    current_player: Callable[[], Player] | None = None
    #: ``info multipv`` lines after each ``info`` (the MultiPV option; 0: none)
    multipv: int = 0
    #: ``go ponder``: search the seat's view while another seat is to move, keep the tree,
    #: answer ``bestmove (none)`` after ``stop``
    ponder: bool = False

    def start(self, movetime: int | None) -> None:
        """Run the search in its thread; ``movetime`` (ms): stop it then."""
        self.thread = threading.Thread(target=self._run, name="catsearch-search", daemon=True)
        if movetime is not None:
            self.timer = threading.Timer(movetime / 1000.0, self.stop)
            self.timer.daemon = True
        self.thread.start()
        if self.timer is not None:
            self.timer.start()

    def stop(self) -> None:
        """Ask the player to stop (``stop``, ``quit``, the end of ``movetime``): the search's
        token is set, which ends it even if it has not begun yet; a player that does not
        read tokens (a plugin's) is told once more by :meth:`Player.stop`."""
        if self.finished:
            return
        self.stop_event.set()
        self.token.set()
        if not self.in_player:
            return          # its search already returned: a late stop() could hit the next
        try:
            self.player.stop()
        except Exception:
            traceback.print_exc(file=self.log)

    def _run(self) -> None:
        if self.ponder:
            self._ponder()
            return
        st = self.state
        searched = st.clone()       # the player gets its own copy; this one names moves

        def on_info(partial: SearchResult) -> None:
            try:
                lines = [format_info(partial, searched),
                         *format_multipv(partial, searched, self.multipv)]
            except Exception:
                return
            with self.out.lock:
                if not self.finished:
                    self.out.write(*lines)

        lines: list[str]
        try:
            try:
                result = self.player.search(
                    st, limits=dataclasses.replace(self.limits, stop=self.token), info=on_info)
            finally:
                self.in_player = False
            if result.move not in searched.legal_moves():
                raise RuntimeError(f"the player answered move {result.move}, which is not "
                                   f"legal here")
            lines = [format_info(result, searched),
                     *format_multipv(result, searched, self.multipv),
                     f"bestmove {searched.move_to_str(result.move)}"]
        except Exception as e:
            traceback.print_exc(file=self.log)
            lines = [f"info string error: {one_line(f'search failed: {type(e).__name__}: {e}')}",
                     "bestmove (none)"]
        if self.timer is not None:
            self.timer.cancel()
        if self.infinite:
            self.stop_event.wait()
        with self.out.lock:
            self.finished = True
            self.out.write(*lines)
        if self.current_player is not None and self.player is not self.current_player():
            self.player.close()


    def _ponder(self) -> None:
        """``go ponder``: ``info ponder`` lines while it runs, and after ``stop`` the last one
        and ``bestmove (none)``; a player that cannot ponder says why and waits for stop."""
        def on_info(partial: SearchResult) -> None:
            with self.out.lock:
                if not self.finished:
                    self.out.write(format_ponder_info(partial))

        lines: list[str] = []
        why = ponder_refusal(self.player)
        try:
            if why is not None:
                with self.out.lock:
                    self.out.write(f"info string ponder: {one_line(why)}; nothing is searched")
                self.in_player = False
            else:
                try:
                    result = ponder(self.player, self.state,
                                    limits=dataclasses.replace(self.limits, stop=self.token),
                                    info=on_info)
                finally:
                    self.in_player = False
                lines.append(format_ponder_info(result))
        except Exception as e:
            traceback.print_exc(file=self.log)
            lines = [f"info string error: {one_line(f'ponder failed: {type(e).__name__}: {e}')}"]
        self.stop_event.wait()
        with self.out.lock:
            self.finished = True
            self.out.write(*lines, "bestmove (none)")
        if self.current_player is not None and self.player is not self.current_player():
            self.player.close()


@dataclass(eq=False)
class TaskJob:
    """One running ``perft`` or ``bench``: ``work()`` runs in a background thread and returns
    the answer's lines, written as one block; ``on_stop()`` makes it return early (with its
    partial result). Like a search, it is ``finished`` once its lines are written.
    """

    kind: str
    work: Callable[[], list[str]]
    on_stop: Callable[[], None]
    out: Output
    log: IO[str]
    thread: threading.Thread | None = None
    finished: bool = False
    stopping: bool = False
    infinite: bool = False      # it ends by itself (at the end of input it is let finish)

    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, name=f"catsearch-{self.kind}",
                                       daemon=True)
        self.thread.start()

    def stop(self) -> None:
        if self.finished or self.stopping:
            return
        self.stopping = True
        try:
            self.on_stop()
        except Exception:
            traceback.print_exc(file=self.log)

    def _run(self) -> None:
        try:
            lines = self.work()
        except Exception as e:
            traceback.print_exc(file=self.log)
            lines = [f"info string error: "
                     f"{one_line(f'{self.kind} failed: {type(e).__name__}: {e}')}"]
        with self.out.lock:
            self.finished = True
            self.out.write(*lines)
