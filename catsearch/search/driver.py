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

A plan (:meth:`catsearch.search.mcts.MCTSPlayer._plan`) is a dict: ``iterations`` (-1: no
limit), ``seconds`` (``None``: none), ``nodes`` (0: none), ``depth`` (0: none), ``seed``, and
``stall`` (end when the tree stops growing: a search bounded by nodes alone).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import threading
import time
import weakref
from collections.abc import Callable

from catsearch._core.options import mix64
from catsearch.search.results import split
from catsearch.search.tree import monotonic

__all__ = ["Driver", "drive", "worker_seed"]

#: what the driver calls with the workers' latest snapshots while a search runs
OnInfo = Callable[[list[dict]], None]


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
        self._stopping = False
        self._cores: list = []          # the cores of the running search (for stop)

    def search(self, view, seat: int, plan: dict, on_info: OnInfo | None) -> list[dict]:
        """Run one search of ``view`` for ``seat`` under ``plan``: the workers' final
        snapshots (``on_info``, if given, is called with the latest ones between chunks)."""
        with self._lock:
            self._stopping = False
            if self.pool is not None:
                self.pool.stop_event.clear()
        deadline = monotonic() + plan["seconds"] if plan["seconds"] is not None else 0.0
        player = self.player
        if player.parallel == "processes" and player.workers > 1:
            with self._lock:
                if self.pool is None:
                    self.pool = ProcessPool(player)
                if self._stopping:
                    self.pool.stop()
            return self.pool.search(view, plan, deadline, on_info)
        return self._threads(view, seat, plan, deadline, on_info)

    def _threads(self, view, seat: int, plan: dict, deadline: float,
                 on_info: OnInfo | None) -> list[dict]:
        player = self.player
        cores = player._prepare(view, seat, plan)
        with self._lock:
            self._cores = cores
            if self._stopping:
                for core in cores:
                    core.stop()
        n = len(cores)
        iters = split(plan["iterations"], n)
        nodes = split(plan["nodes"], n) if plan["nodes"] else [0] * n
        chunk = player.info_interval if on_info is not None else None
        snaps: list[dict | None] = [None] * n
        errors: list[BaseException] = []

        def work(w: int) -> None:
            def snap(core):
                snaps[w] = player._snapshot(core)
                if n == 1 and on_info is not None:
                    on_info(snaps)
            try:
                drive(cores[w], iters[w], deadline, nodes[w], chunk, snap, plan["stall"])
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
            with self._lock:
                self._cores = []
            player._finish(view, seat, cores)

    def stop(self) -> None:
        """Make a running search (in another thread) return now with its best move so far;
        it returns within one iteration with threads, within milliseconds with processes."""
        with self._lock:
            self._stopping = True
            for core in self._cores:
                core.stop()
            if self.pool is not None:
                self.pool.stop()

    def close(self) -> None:
        """Stop the worker processes, if any."""
        if self.pool is not None:
            self.pool.close()
            self.pool = None


# -- worker processes --------------------------------------------------------------------

def _process_main(conn, stop_event, name: str, options: dict) -> None:
    """A worker process: one single-worker player, driven over ``conn``."""
    from catsearch.games import from_text
    from catsearch.search.spec import player_class

    player = player_class(name)(**options)
    player._trust_ply = True
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
            except Exception:
                player._kept, player._track = [], None
        elif kind == "search":
            _, game_id, text, plan, deadline, chunk = msg
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
                    drive(cores[0], plan["iterations"], deadline, plan["nodes"], chunk,
                          lambda core: conn.send(("partial", player._snapshot(core))),
                          plan["stall"])
                finally:
                    done.set()
                conn.send(("done", player._snapshot(cores[0])))
                player._finish(view, seat, cores)
            except Exception as e:   # the parent raises it
                conn.send(("error", f"{type(e).__name__}: {e}"))


class ProcessPool:
    """Worker processes for ``parallel="processes"``: each holds its own tree(s); the parent
    merges their root statistics."""

    def __init__(self, player) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.player = player
        self.stop_event = ctx.Event()
        self.conns = []
        self.procs = []
        self.track: dict | None = None
        n = player.workers
        for w in range(n):
            parent, child = ctx.Pipe()
            proc = ctx.Process(target=_process_main, daemon=True,
                               args=(child, self.stop_event, player.name,
                                     player._process_options(w, n)),
                               name=f"catsearch-{player.name}-{w}")
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)

    def search(self, view, plan: dict, deadline: float, on_info: OnInfo | None) -> list[dict]:
        n = len(self.conns)
        track = self.track
        if track is not None and not (
                track["game"] == view.game_id and track["players"] == view.players
                and track["seat"] == view.current_player and track["ply"] == view.ply):
            self.new_game()          # the kept trees do not lead here: the workers drop them
        iters = split(plan["iterations"], n)
        nodes = split(plan["nodes"], n) if plan["nodes"] else [0] * n
        interval = self.player.info_interval
        chunk = interval if on_info is not None else None
        text = view.to_text()
        for w, conn in enumerate(self.conns):
            p = dict(plan, iterations=iters[w], nodes=nodes[w],
                     seed=worker_seed(plan["seed"], w))
            conn.send(("search", view.game_id, text, p, deadline, chunk))
        latest: list[dict | None] = [None] * n
        final: list[dict | None] = [None] * n
        error = None
        while any(f is None for f in final):
            waiting = [c for c, f in zip(self.conns, final) if f is None]
            for conn in multiprocessing.connection.wait(waiting, timeout=interval):
                w = self.conns.index(conn)
                try:
                    kind, payload = conn.recv()
                except EOFError:
                    kind, payload = "error", f"worker process {w} died"
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
        if error is not None:
            raise RuntimeError(f"a search worker process failed: {error}")
        if self.player.reuse:
            self.track = {"game": view.game_id, "players": view.players,
                          "seat": view.current_player, "ply": view.ply}
        return final

    def observe(self, view, move) -> None:
        if view is None:
            self.new_game()
            return
        for conn in self.conns:
            conn.send(("observe", view.game_id, view.to_text(), move))
        self.track["ply"] += 1

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
