"""Where games run: in this process, in worker processes, or on Ray.

Every backend plays each game with :class:`~catsearch.arena.game.Worker` from nothing but the
config and the game's task, so the records are the same on every backend for the same seed
(only the timings differ). A backend takes tasks with :meth:`Backend.submit` (at most
:attr:`Backend.capacity` at a time) and hands back records from :meth:`Backend.wait`. The Ray
backend is in :mod:`catsearch.arena.ray_cluster`.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import signal
import threading
import time

from catsearch.arena.config import MatchConfig
from catsearch.arena.game import Worker
from catsearch.arena.record import GameRecord
from catsearch.arena.schedule import GameTask

__all__ = ["Backend", "InlineBackend", "ProcessBackend", "RayBackend", "make_backend",
           "ArenaError", "ray_token"]


def __getattr__(name: str):
    # the Ray backend's names, from their module (imported only when asked for)
    if name in ("RayBackend", "ray_token"):
        from catsearch.arena import ray_cluster
        return getattr(ray_cluster, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class ArenaError(RuntimeError):
    """The match cannot go on (a worker process died, Ray is missing...); the games done
    so far are in the results file, and running the same command again resumes."""


class Backend:
    capacity = 1

    def submit(self, task: GameTask) -> None:
        raise NotImplementedError

    def wait(self, timeout: float) -> list[GameRecord]:
        """Records of games finished since the last call (waits up to ``timeout`` for one)."""
        raise NotImplementedError

    def drop(self) -> None:
        """Abandon the games in flight at once (Ctrl-C twice, or a decided SPRT)."""

    def close(self) -> None:
        """Release the workers (after the games in flight are done or dropped)."""


class InlineBackend(Backend):
    """One game at a time in this process: the simplest, and what the others must equal."""

    def __init__(self, config: MatchConfig) -> None:
        self.worker = Worker(config)
        self._task: GameTask | None = None

    def submit(self, task: GameTask) -> None:
        assert self._task is None
        self._task = task

    def wait(self, timeout: float) -> list[GameRecord]:
        if self._task is None:
            return []
        task, self._task = self._task, None
        return [self.worker.play(task)]

    def drop(self) -> None:
        self._task = None

    def close(self) -> None:
        self.worker.close()


# -- worker processes -----------------------------------------------------------------------

def _die_with_parent(parent: int) -> None:
    """End this worker when the arena process ``parent`` dies, even by SIGKILL: on Linux the
    kernel sends SIGTERM (``PR_SET_PDEATHSIG``); elsewhere a watchdog thread polls. Once the
    workers are gone, multiprocessing's resource tracker (whose pipe they hold) ends too."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(1, signal.SIGTERM, 0, 0, 0) == 0:     # PR_SET_PDEATHSIG
            if os.getppid() != parent:                       # it died before the call
                os._exit(0)
            return
    except (OSError, AttributeError):
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)
    threading.Thread(target=watch, daemon=True, name="catsearch-arena-watchdog").start()


def _arena_worker_main(config: dict, tasks, results, parent: int) -> None:
    """The main function of an arena worker process: plays the tasks it is sent with one
    :class:`Worker` and puts their records (or its error) on ``results``."""
    # Ctrl-C is the parent's business; the engines started here inherit the ignore.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker = None

    def on_term(signum, frame):
        if worker is not None:
            worker.close()
        os._exit(0)

    signal.signal(signal.SIGTERM, on_term)
    _die_with_parent(parent)
    try:
        worker = Worker(config)
    except BaseException as e:  # noqa: BLE001 - reported to the parent, which stops loudly
        results.put(("error", None, f"{type(e).__name__}: {e}"))
        return
    try:
        while True:
            task = tasks.get()
            if task is None:
                break
            try:
                results.put(("game", task.game, worker.play(task)))
            except BaseException as e:  # noqa: BLE001
                results.put(("error", task.game, f"{type(e).__name__}: {e}"))
                break
    finally:
        worker.close()


def _reap(procs, wait: float, then: str) -> None:
    """Join every process for up to ``wait`` seconds; one still running gets ``then``
    (``terminate``: SIGTERM, then 5 more seconds; ``kill``: SIGKILL)."""
    for p in procs:
        p.join(wait)
        if p.is_alive():
            getattr(p, then)()
            if then == "terminate":
                p.join(5)


class ProcessBackend(Backend):
    """``concurrency`` worker processes (``spawn``), each with its own players and engines.

    Each process has its own task queue, so the parent knows which game each one plays.
    """

    def __init__(self, config: MatchConfig, concurrency: int) -> None:
        self.capacity = concurrency
        ctx = mp.get_context("spawn")
        self.results = ctx.Queue()
        self.procs = []
        self.queues = []
        self.busy: dict[int, int | None] = {}
        cfg = config.to_dict()
        for i in range(concurrency):
            q = ctx.Queue()
            p = ctx.Process(target=_arena_worker_main, args=(cfg, q, self.results, os.getpid()),
                            name=f"catsearch-arena-{i}", daemon=True)
            p.start()
            self.procs.append(p)
            self.queues.append(q)
            self.busy[i] = None
        self._owner: dict[int, int] = {}

    def submit(self, task: GameTask) -> None:
        for i, game in self.busy.items():
            if game is None:
                self.busy[i] = task.game
                self._owner[task.game] = i
                self.queues[i].put(task)
                return
        raise RuntimeError("no idle worker")

    def wait(self, timeout: float) -> list[GameRecord]:
        out = []
        deadline = time.monotonic() + timeout
        while True:
            try:
                kind, game, payload = self.results.get(
                    timeout=max(0.0, deadline - time.monotonic()) if not out else 0.0)
            except queue.Empty:
                break
            if kind == "error":
                where = f" while playing game {game}" if game is not None else ""
                raise ArenaError(f"a worker process failed{where}: {payload}")
            self.busy[self._owner.pop(game)] = None
            out.append(payload)
        if not out:
            for i, p in enumerate(self.procs):
                if not p.is_alive() and self.busy[i] is not None:
                    raise ArenaError(f"worker process {i} died (exit code {p.exitcode}) while "
                                     f"playing game {self.busy[i]}")
        return out

    def drop(self) -> None:
        for p in self.procs:
            if p.is_alive():
                p.terminate()          # SIGTERM: the worker closes its engines and exits
        _reap(self.procs, 5, "kill")
        self.busy = dict.fromkeys(self.busy)
        self._release_queues()

    def _release_queues(self) -> None:
        """Close every queue without waiting for its feeder thread: a task put for a worker
        that is gone would otherwise hold the interpreter's exit forever
        (``Queue._finalize_join``, seen after SIGTERM)."""
        for q in self.queues + [self.results]:
            q.cancel_join_thread()
            q.close()

    def close(self) -> None:
        for i, p in enumerate(self.procs):
            if p.is_alive():
                try:
                    self.queues[i].put(None)
                except (OSError, ValueError):
                    pass
        _reap(self.procs, 10, "terminate")
        self._release_queues()


def make_backend(name: str, config: MatchConfig, concurrency: int,
                 ray_address: str | None = None, log=None) -> Backend:
    """``auto``: inline for one game at a time, processes for more; or ``inline``,
    ``process``, ``ray``. ``log`` takes the lines saying what a backend is doing while it
    starts (joining a Ray cluster)."""
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise ValueError(f"concurrency must be a whole number >= 1, not {concurrency!r}")
    if name == "auto":
        name = "inline" if concurrency == 1 else "process"
    if name == "inline":
        if concurrency != 1:
            raise ValueError("the inline backend plays one game at a time: concurrency 1")
        return InlineBackend(config)
    if name == "process":
        return ProcessBackend(config, concurrency)
    if name == "ray":
        from catsearch.arena.ray_cluster import RayBackend
        return RayBackend(config, concurrency, ray_address, log=log)
    raise ValueError(f"unknown backend {name!r}; the backends are auto, inline, process, ray")

