"""``perft`` that can be stopped: the count is made of small subtrees, each counted in C.

``State.perft`` counts a whole tree in one C call that holds the interpreter lock, so the
engine could not read ``stop`` (nor answer ``isready``) until it returned. :class:`PerftRun`
walks the top of the tree in Python and hands every subtree below a cut-off depth to
``State.perft``; the cut-off adapts so that one such call takes about :data:`CHUNK_SECONDS`
of CPU time (measured per thread, so that a loaded machine does not mislead it), and the
stop flag is checked between calls. The Python walk visits only the few nodes above
the cut-off: all the counting is in C.
"""

from __future__ import annotations

import threading
import time

from catsearch._core.state import State

__all__ = ["PerftRun", "CHUNK_SECONDS"]

#: the time one ``State.perft`` call (one chunk) should take: the most a stop waits
CHUNK_SECONDS = 0.01

#: chunks seen at the cut-off before it may grow
WINDOW = 16


class Stopped(Exception):
    """Raised inside the walk when the run is stopped."""


class PerftRun:
    """One ``perft <depth>`` of ``state`` (a full state), stoppable from another thread.

    :meth:`run` returns the answer's lines: ``<move>: <count>`` per legal move then
    ``nodes <total>``; or, when stopped, the lines of the moves counted to their end, then
    ``perft stopped depth <d> moves <done>/<legal> nodes <counted> time <ms>``.
    """

    def __init__(self, state: State, depth: int, chunk_seconds: float = CHUNK_SECONDS) -> None:
        self.state = state
        self.depth = depth
        self.chunk_seconds = chunk_seconds
        self.stop_event = threading.Event()
        self.cut = 2                 # subtrees of this depth or less are counted in one call
        self.ceiling = depth         # the cut-off never grows beyond this depth
        self._window: list[float] = []   # the estimated cost one level deeper, per chunk
        self.counted = 0             # sequences counted so far (complete chunks)
        self.chunks = 0
        self.longest = 0.0           # CPU seconds of the longest chunk (for tests)

    def stop(self) -> None:
        self.stop_event.set()

    def divide(self) -> tuple[list[tuple[str, int]], bool]:
        """``(move, count)`` for the moves counted to their end, and whether all were."""
        st = self.state
        done: list[tuple[str, int]] = []
        try:
            for m in st.legal_moves():
                child = st.clone()
                child.apply(m)
                done.append((st.move_to_str(m), self._count(child, self.depth - 1)))
        except Stopped:
            return done, False
        return done, True

    def run(self) -> list[str]:
        t0 = time.perf_counter()
        legal = len(self.state.legal_moves())
        done, complete = self.divide()
        lines = [f"{m}: {n}" for m, n in done]
        if complete:
            lines.append(f"nodes {sum(n for _, n in done)}")
        else:
            ms = int(round((time.perf_counter() - t0) * 1000))
            lines.append(f"perft stopped depth {self.depth} moves {len(done)}/{legal} "
                         f"nodes {self.counted} time {ms}")
        return lines

    def _count(self, st: State, depth: int) -> int:
        if self.stop_event.is_set():
            raise Stopped
        if depth <= self.cut:
            t = time.thread_time()      # CPU time: what the chunk costs, whatever the load
            n = st.perft(depth)
            took = time.thread_time() - t
            self.counted += n
            self.chunks += 1
            self.longest = max(self.longest, took)
            self._adapt(depth, n, took)
            return n
        if st.is_terminal():
            return 0
        total = 0
        for m in st.legal_moves():
            child = st.clone()
            child.apply(m)
            total += self._count(child, depth - 1)
        return total

    def _adapt(self, depth: int, n: int, took: float) -> None:
        """Move the cut-off so that a chunk takes about ``chunk_seconds``: down at once when
        a chunk took longer (and never up to that depth again), up one level only when the
        last :data:`WINDOW` chunks at the cut-off, all of them, were cheap enough that one
        level deeper (about ``branching`` times more, with a wide margin) stays below it."""
        if took > self.chunk_seconds:
            if self.cut > 1:
                self.cut -= 1
            self.ceiling = self.cut          # that depth was too deep here: stay below it
            self._window = []
            return
        if depth != self.cut or self.cut >= self.ceiling or depth < 1:
            return
        branching = max(2.0, n ** (1.0 / depth)) if n > 0 else 2.0
        self._window.append(took * branching)
        if len(self._window) >= WINDOW:
            if max(self._window) * 8 < self.chunk_seconds:
                self.cut += 1
            self._window = []
