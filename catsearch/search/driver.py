"""The parallel driver of the MCTS searchers: it runs their C cores under a plan.

A :class:`Driver` belongs to one player. Each search it runs the player's cores without the
GIL, in this thread (one worker), in worker threads, or in worker processes
(``parallel="processes"``, each holding its own tree(s)), returning to Python every
``info_interval`` seconds when an ``info`` callback wants partial results, and ends them on
the plan's limits or on :meth:`Driver.stop` (from any thread). The budget is shared out among
the workers (:func:`~catsearch.search.results.split`); the player merges what they report
(:func:`~catsearch.search.results.merge`).

The player provides the searcher's side (see :class:`catsearch.search.mcts.MCTSPlayer`):
``_prepare(view, seat, plan)`` gives the cores of a search (fresh, or kept ones rebased),
``_snapshot(core)`` what a core reports, ``_finish(view, seat, cores)`` keeps them for reuse,
and ``_process_options(worker, workers)`` the options of a worker process's own player.

A search runs under a :class:`SearchPlan` (:meth:`catsearch.search.mcts.MCTSPlayer._plan`
makes it from the search's limits) and ends at its limits or when its
:class:`~catsearch.search.limits.StopToken` is set: the plan's, which the caller may set
before the search begins, or the one :meth:`Driver.stop` sets. A worker's error reaches the
caller as itself, from threads and from processes alike.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import multiprocessing.connection
import pickle
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from catsearch._core.options import mix64
from catsearch.search.limits import Limits, StopToken
from catsearch.search.results import split
from catsearch.search.tree import monotonic

__all__ = ["Driver", "SearchPlan", "Track", "drive", "worker_seed"]

#: what the driver calls with the workers' latest snapshots while a search runs
OnInfo = Callable[[list[dict]], None]


@dataclass(frozen=True, kw_only=True)
class SearchPlan:
    """What one search runs under.

    :ivar iterations: iterations in all (-1: no limit).
    :ivar seconds: wall time (``None``: none).
    :ivar nodes: nodes to add in all (0: none).
    :ivar depth: the deepest node below the root (0: none).
    :ivar seed: the search's seed (each worker's is :func:`worker_seed` of it).
    :ivar stall: end when the tree stops growing (a search bounded by nodes alone).
    :ivar stop: the caller's stop token (``None``: the search gets one of its own).
    """

    iterations: int
    seconds: float | None
    nodes: int
    depth: int
    seed: int
    stall: bool
    stop: StopToken | None = dataclasses.field(default=None, compare=False, repr=False)

    @classmethod
    def from_budget(cls, budget: Limits, seed: int) -> SearchPlan:
        """The plan of a search under ``budget`` (:func:`~catsearch.search.limits.resolve`)."""
        return cls(iterations=budget.iterations or -1, seconds=budget.seconds,
                   nodes=budget.nodes or 0, depth=budget.depth or 0, seed=seed,
                   stall=(budget.nodes is not None and budget.iterations is None
                          and budget.seconds is None), stop=budget.stop)

    def deadline(self) -> float:
        """The monotonic time the search ends by (0.0: none), from now."""
        return monotonic() + self.seconds if self.seconds is not None else 0.0

    def for_worker(self, w: int, n: int) -> SearchPlan:
        """Worker ``w``'s share of ``n`` (its iterations, nodes and seed; no token: a worker
        process is stopped by its pool)."""
        return dataclasses.replace(self, iterations=split(self.iterations, n)[w],
                                   nodes=split(self.nodes, n)[w] if self.nodes else 0,
                                   seed=worker_seed(self.seed, w), stop=None)


@dataclass(frozen=True)
class Track:
    """Where kept trees stand (reuse): the game, its player count, the searching seat and the
    ply of the position they were searched from, advanced by one with each move followed."""

    game: str
    players: int
    seat: int
    ply: int

    def leads_to(self, view, seat: int, *, trust_ply: bool = False) -> bool:
        """Whether a search of ``view`` for ``seat`` continues from here (``trust_ply``: the
        ply is not compared, for a worker process whose parent already matched it)."""
        return (self.game == view.game_id and self.players == view.players
                and self.seat == seat and (trust_ply or self.ply == view.ply))

    def advanced(self) -> Track:
        """The track after one more move."""
        return dataclasses.replace(self, ply=self.ply + 1)


def worker_seed(seed: int, worker: int) -> int:
    """The seed of worker ``worker`` of a search seeded ``seed``."""
    return mix64(seed + 0x632BE59BD9B4E019 * worker)


def drive(core, iterations: int, deadline: float, node_limit: int, chunk: float | None,
          on_chunk: Callable | None, stall: bool = False) -> None:
    """Run ``core`` until its limits (``iterations`` -1: none; ``deadline`` 0: none;
    ``node_limit`` 0: none; ``stall``: the tree no longer grows) or stop, returning to
    Python every ``chunk`` seconds to call ``on_chunk(core)``; at least one iteration runs."""
    remaining = iterations
    limit = core.nodes + node_limit if node_limit else 0
    while True:
        end = deadline
        if chunk is not None:
            end = monotonic() + chunk
            if deadline:
                end = min(end, deadline)
        done = core.run(remaining, end, limit, stall)
        if remaining >= 0:
            remaining -= done
        if (core.stopped or remaining == 0 or (deadline and monotonic() >= deadline)
                or (limit and core.nodes >= limit) or (stall and core.stalled)):
            break
        if on_chunk is not None:
            on_chunk(core)
    if core.total_iterations == 0:
        core.run_one()


class Driver:
    """Runs the searches of one player (see the module docstring)."""

    def __init__(self, player) -> None:
        # a weak reference: the player owns its driver, and is freed as soon as it is dropped
        # (its trees with it), not at the next garbage collection
        self.player = weakref.proxy(player)
        self.pool: ProcessPool | None = None
        self._lock = threading.Lock()
        self._token: StopToken | None = None     # the running search's (for stop)

    def search(self, view, seat: int, plan: SearchPlan, on_info: OnInfo | None) -> list[dict]:
        """Run one search of ``view`` for ``seat`` under ``plan``: the workers' final
        snapshots (``on_info``, if given, is called with the latest ones between chunks)."""
        token = plan.stop if plan.stop is not None else StopToken()
        with self._lock:
            self._token = token
        try:
            deadline = plan.deadline()
            player = self.player
            if player.parallel == "processes" and player.workers > 1:
                if self.pool is None:
                    self.pool = ProcessPool(player)
                return self.pool.search(view, plan, deadline, on_info, token)
            return self._threads(view, seat, plan, deadline, on_info, token)
        finally:
            with self._lock:
                self._token = None

    def _threads(self, view, seat: int, plan: SearchPlan, deadline: float,
                 on_info: OnInfo | None, token: StopToken) -> list[dict]:
        player = self.player
        cores = player._prepare(view, seat, plan)
        unhook = token.on_set(lambda: [core.stop() for core in cores])
        n = len(cores)
        shares = [plan.for_worker(w, n) for w in range(n)]
        chunk = player.info_interval if on_info is not None else None
        snaps: list[dict | None] = [None] * n
        errors: list[BaseException] = []

        def work(w: int) -> None:
            def snap(core):
                snaps[w] = player._snapshot(core)
                if n == 1 and on_info is not None:
                    on_info(snaps)
            try:
                drive(cores[w], shares[w].iterations, deadline, shares[w].nodes, chunk, snap,
                      plan.stall)
            except BaseException as e:   # re-raised in the searching thread
                errors.append(e)
                for c in cores:
                    c.stop()

        try:
            if n == 1:
                work(0)
            else:
                threads = [threading.Thread(target=work, args=(w,), daemon=True,
                                            name=f"catsearch-{player.name}-{w}")
                           for w in range(n)]
                for t in threads:
                    t.start()
                while True:
                    alive = [t for t in threads if t.is_alive()]
                    if not alive:
                        break
                    alive[0].join(chunk)
                    ready = [s for s in snaps if s is not None]
                    if on_info is not None and ready and any(t.is_alive() for t in threads):
                        on_info(ready)
            if errors:
                raise errors[0]
            return [player._snapshot(core) for core in cores]
        finally:
            unhook()
            player._finish(view, seat, cores)

    def stop(self) -> None:
        """Make the running search (in another thread) return now with its best move so far;
        it returns within one iteration with threads, within milliseconds with processes. No
        search running: nothing happens (a stop that must reach a search about to begin is
        its plan's token: ``Limits(stop=token)``)."""
        with self._lock:
            token = self._token
        if token is not None:
            token.set()

    def close(self) -> None:
        """Stop the worker processes, if any."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None


# -- worker processes --------------------------------------------------------------------

def _sendable(e: BaseException) -> BaseException:
    """``e`` if it survives pickling (the caller raises it as itself), else a RuntimeError
    naming its type and message."""
    try:
        pickle.loads(pickle.dumps(e))
        return e
    except Exception:
        return RuntimeError(f"{type(e).__name__}: {e}")


def _search_worker_main(conn, stop_event, name: str, options: dict) -> None:
    """A search worker process: one single-worker player, driven over ``conn``. An error of
    ``observe`` (which has no answer) is kept and answered to the next search."""
    from catsearch.games import from_text
    from catsearch.search.spec import player_class

    player = player_class(name)(**options)
    player._trust_ply = True
    pending: BaseException | None = None
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        kind = msg[0]
        if kind == "close":
            return
        if kind == "new_game":
            player.new_game()
        elif kind == "observe":
            _, game_id, text, move = msg
            try:
                player.observe(from_text(game_id, text), move)
            except Exception as e:
                player._kept, player._track = [], None
                pending = pending or e
        elif kind == "search":
            _, game_id, text, plan, deadline, chunk = msg
            if pending is not None:
                conn.send(("error", _sendable(pending)))
                pending = None
                continue
            try:
                view = from_text(game_id, text)
                seat = view.current_player
                cores = player._prepare(view, seat, plan)
                done = threading.Event()

                def watch():
                    while not done.is_set():
                        if stop_event.wait(0.01):
                            for c in cores:
                                c.stop()
                            return

                watcher = threading.Thread(target=watch, daemon=True)
                watcher.start()
                try:
                    drive(cores[0], plan.iterations, deadline, plan.nodes, chunk,
                          lambda core: conn.send(("partial", player._snapshot(core))),
                          plan.stall)
                finally:
                    done.set()
                conn.send(("done", player._snapshot(cores[0])))
                player._finish(view, seat, cores)
            except Exception as e:   # the parent raises it
                conn.send(("error", _sendable(e)))


class ProcessPool:
    """Worker processes for ``parallel="processes"``: each holds its own tree(s); the parent
    merges their root statistics."""

    def __init__(self, player) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.player = player
        self.stop_event = ctx.Event()
        self.conns = []
        self.procs = []
        self.track: Track | None = None
        n = player.workers
        for w in range(n):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_search_worker_main, daemon=True,
                               args=(child, self.stop_event, player.name,
                                     player._process_options(w, n)),
                               name=f"catsearch-{player.name}-{w}")
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)

    def search(self, view, plan: SearchPlan, deadline: float, on_info: OnInfo | None,
               token: StopToken) -> list[dict]:
        n = len(self.conns)
        if self.track is not None and not self.track.leads_to(view, view.current_player):
            self.new_game()          # the kept trees do not lead here: the workers drop them
        interval = self.player.info_interval
        chunk = interval if on_info is not None else None
        text = view.to_text()
        self.stop_event.clear()
        for w, conn in enumerate(self.conns):
            conn.send(("search", view.game_id, text, plan.for_worker(w, n), deadline, chunk))
        unhook = token.on_set(self.stop_event.set)
        latest: list[dict | None] = [None] * n
        final: list[dict | None] = [None] * n
        error: BaseException | None = None
        try:
            while any(f is None for f in final):
                waiting = [c for c, f in zip(self.conns, final) if f is None]
                for conn in multiprocessing.connection.wait(waiting, timeout=interval):
                    w = self.conns.index(conn)
                    try:
                        kind, payload = conn.recv()
                    except EOFError:
                        kind, payload = "error", RuntimeError(f"search worker process {w} died")
                    if kind == "partial":
                        latest[w] = payload
                    elif kind == "done":
                        final[w] = latest[w] = payload
                    else:
                        error = error or payload
                        final[w] = {}
                        self.stop_event.set()
                ready = [r for r in latest if r]
                if on_info is not None and ready and any(f is None for f in final):
                    on_info(ready)
        finally:
            unhook()
        if error is not None:
            self.track = None
            raise error
        self.track = (Track(view.game_id, view.players, view.current_player, view.ply)
                      if self.player.reuse else None)
        return final

    def observe(self, view, move) -> None:
        if view is None:
            self.new_game()
            return
        for conn in self.conns:
            conn.send(("observe", view.game_id, view.to_text(), move))
        self.track = self.track.advanced()

    def stop(self) -> None:
        self.stop_event.set()

    def new_game(self) -> None:
        self.track = None
        for conn in self.conns:
            conn.send(("new_game",))

    def close(self) -> None:
        """Ask every worker to end, then end those that do not within two seconds."""
        conns, procs = self.conns, self.procs
        self.conns, self.procs = [], []
        for conn in conns:
            with contextlib.suppress(OSError, BrokenPipeError):
                conn.send(("close",))
        deadline = time.monotonic() + 2
        for proc in procs:
            proc.join(max(0.0, deadline - time.monotonic()))
        for proc in filter(lambda p: p.is_alive(), procs):
            proc.terminate()
