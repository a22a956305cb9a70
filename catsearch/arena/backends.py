"""Where games run: in this process, in worker processes, or on Ray.

Every backend plays each game with :class:`~catsearch.arena.game.Worker` from nothing but the
config and the game's task, so the records are the same on every backend for the same seed
(only the timings differ). A backend takes tasks with :meth:`Backend.submit` (at most
:attr:`Backend.capacity` at a time) and hands back records from :meth:`Backend.wait`.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import queue
import signal
import socket
import threading
import time

from catsearch._core.options import parse_int
from catsearch.arena.config import MatchConfig
from catsearch.arena.game import Worker
from catsearch.arena.schedule import GameTask

__all__ = ["Backend", "InlineBackend", "ProcessBackend", "RayBackend", "make_backend",
           "ArenaError", "ray_token"]


class ArenaError(RuntimeError):
    """The match cannot go on (a worker process died, Ray is missing...); the games done
    so far are in the results file, and running the same command again resumes."""


class Backend:
    capacity = 1

    def submit(self, task: GameTask) -> None:
        raise NotImplementedError

    def wait(self, timeout: float) -> list[dict]:
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

    def wait(self, timeout: float) -> list[dict]:
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


def _process_main(config: dict, tasks, results, parent: int) -> None:
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
            p = ctx.Process(target=_process_main, args=(cfg, q, self.results, os.getpid()),
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

    def wait(self, timeout: float) -> list[dict]:
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


# -- Ray ------------------------------------------------------------------------------------

RAY_DEFAULT_PORT = 6379          # the head's GCS port unless ``ray start --head --port`` says
PROBE_SECONDS = 20.0             # how long a Ray head may take to answer the first call
TOKEN_HELP = ("put the cluster's token (`ray get-auth-token` on the head prints it) in "
              "~/.ray/auth_token, or give the path of a file holding it in RAY_AUTH_TOKEN_PATH, "
              "or the token itself in RAY_AUTH_TOKEN")


def _package_root() -> str:
    import catsearch
    return os.path.dirname(os.path.dirname(os.path.abspath(catsearch.__file__)))


def _split_address(address: str) -> tuple[str, int] | None:
    """``host:port`` -> (host, port); ``None`` for what Ray resolves itself (``auto``,
    ``ray://...``)."""
    if address == "auto" or "://" in address:
        return None
    host, colon, port = address.rpartition(":")
    host = host.strip("[]")
    try:
        number = parse_int(port, "the port", 0, 65535) if colon and host else None
    except ValueError:
        number = None
    if number is None:
        raise ArenaError(f"--ray-address takes the head's HOST:PORT (the port is "
                         f"{RAY_DEFAULT_PORT} unless `ray start --head --port` said otherwise), "
                         f"or auto for a cluster started on this machine; not {address!r}")
    return host, number


def ray_token() -> tuple[str | None, str]:
    """The token this process would send to a Ray cluster, where Ray looks for it (in its
    order: RAY_AUTH_TOKEN, the file RAY_AUTH_TOKEN_PATH, ~/.ray/auth_token), and a
    description of where it came from (or of why there is none)."""
    value = os.environ.get("RAY_AUTH_TOKEN", "").strip()
    if value:
        return value, "RAY_AUTH_TOKEN"
    path = os.environ.get("RAY_AUTH_TOKEN_PATH")
    if path:
        try:
            with open(os.path.expanduser(path), encoding="utf-8") as f:
                value = f.read().strip()
        except OSError as e:
            return None, f"RAY_AUTH_TOKEN_PATH is {path}, which cannot be read ({e.strerror})"
        if not value:
            return None, f"RAY_AUTH_TOKEN_PATH is {path}, which is empty"
        return value, path
    path = os.path.join(os.path.expanduser("~"), ".ray", "auth_token")
    try:
        with open(path, encoding="utf-8") as f:
            value = f.read().strip()
    except OSError:
        return None, ("RAY_AUTH_TOKEN and RAY_AUTH_TOKEN_PATH are not set and there is no "
                      f"{path}")
    if not value:
        return None, f"{path} is empty"
    return value, path


class _RayAuth:
    """This process's Ray token authentication mode (``RAY_AUTH_MODE``), which must be the
    cluster's: a client without a token is refused by a cluster that requires one (Ray logs
    "Authentication token is missing or incorrect" for 20 s), and a client with token
    authentication on cannot run tasks on a cluster without it. ``ray start --head`` turns
    it on by itself when it finds ~/.ray/auth_token (which any ``ray.init()`` of a local Ray
    writes), but ``ray.init(address=host:port)`` never does: so the arena asks the cluster."""

    def __init__(self, raylet) -> None:
        self.raylet = raylet
        self.saved = os.environ.get("RAY_AUTH_MODE")
        self.changed = False

    def set(self, mode: str | None) -> None:
        if mode is None:
            os.environ.pop("RAY_AUTH_MODE", None)
        else:
            os.environ["RAY_AUTH_MODE"] = mode
        self.changed = True
        self.raylet.Config.initialize("")          # Ray reads the mode from its config
        self.raylet.AuthenticationTokenLoader.instance().reset_cache()

    def restore(self) -> None:
        """Put this process's mode back as it was (after ``ray.shutdown()``)."""
        if self.changed:
            self.set(self.saved)
            self.changed = False


def _probe(raylet, gcs: str, seconds: float):
    """One call to the GCS at ``gcs`` in a thread (Ray's client retries for long in C++,
    which neither a timeout nor Ctrl-C would cut short here): ``"ok"``, ``"auth"`` (refused:
    no token or a wrong one), ``"timeout"``, or the error's text. Ray's log lines about the
    attempt are dropped."""
    from ray.exceptions import AuthenticationError
    out: list = []

    def call():
        try:
            raylet.GcsClient(address=gcs).check_alive([], timeout=5)
            out.append("ok")
        except AuthenticationError:
            out.append("auth")
        except Exception as e:  # noqa: BLE001 - reported as text
            out.append(f"{type(e).__name__}: {e}")

    import tempfile
    import threading
    saved = os.dup(2)
    sink = tempfile.TemporaryFile()
    os.dup2(sink.fileno(), 2)
    try:
        t = threading.Thread(target=call, name="catsearch-ray-probe", daemon=True)
        t.start()
        deadline = time.monotonic() + seconds
        while t.is_alive() and time.monotonic() < deadline:
            t.join(0.1)                            # Ctrl-C gets through here
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        sink.close()
    return out[0] if out else "timeout"


class RayBackend(Backend):
    """``concurrency`` Ray actors, each a :class:`Worker`: on a local Ray (started here) or a
    cluster (``address``: the head's ``host:port``, or ``auto``; catsearch must be installed
    on every node). Joining a cluster that requires a token (Ray's token authentication)
    sends the token found where Ray looks for it (:func:`ray_token`).

    Needs the optional extra: ``pip install catsearch[ray]``.
    """

    def __init__(self, config: MatchConfig, concurrency: int, address: str | None = None,
                 log=None) -> None:
        try:
            import ray
        except ImportError:
            raise ArenaError("the ray backend needs Ray: pip install catsearch[ray]") from None
        self.ray = ray
        self.capacity = concurrency
        self.address = address
        self._started_ray = False
        self._auth: _RayAuth | None = None
        self._log = log or (lambda text: None)
        if not ray.is_initialized():
            kwargs = dict(include_dashboard=False, log_to_driver=False, logging_level="ERROR")
            try:
                if address:
                    self._join(address, kwargs, concurrency)
                else:
                    root = _package_root()
                    path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
                    ray.init(num_cpus=max(concurrency, 1),
                             runtime_env={"env_vars": {"PYTHONPATH": path}}, **kwargs)
            except BaseException:
                if ray.is_initialized():
                    ray.shutdown()
                if self._auth is not None:
                    self._auth.restore()
                raise
            self._started_ray = True
        actor = ray.remote(num_cpus=1)(Worker)
        cfg = config.to_dict()
        self.actors = [actor.remote(cfg) for _ in range(concurrency)]
        self.idle = list(range(concurrency))
        self.refs: dict = {}           # ref -> (actor index, game)

    def _join(self, address: str, kwargs: dict, concurrency: int) -> None:
        ray = self.ray
        where = _split_address(address)
        self._log(f"joining the Ray cluster at {address}")
        if where is not None:
            host, port = where
            try:
                socket.create_connection((host, port), timeout=5).close()
            except OSError as e:
                raise ArenaError(
                    f"no Ray cluster at {address}: cannot connect to {host} port {port} "
                    f"({e.strerror or e}); start its head with `ray start --head` (it prints "
                    f"the address to give), or check the host, the port and the firewall"
                ) from None
            self._match_auth(f"{host}:{port}", address)
        try:
            ray.init(address=address, **kwargs)
        except Exception as e:  # noqa: BLE001 - ConnectionError, RuntimeError, ValueError...
            raise ArenaError(f"could not join the Ray cluster at {address}: "
                             f"{type(e).__name__}: {e}") from None
        cpus = ray.cluster_resources().get("CPU", 0)
        nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
        self._log(f"joined the Ray cluster at {address}: {nodes} node"
                  f"{'s' if nodes != 1 else ''}, {cpus:g} CPUs")
        if cpus < concurrency:
            self._log(f"the cluster has {cpus:g} CPUs for {concurrency} games at a time: the "
                      f"others wait for a CPU")

    def _match_auth(self, gcs: str, address: str) -> None:
        """Set this process's token authentication to the cluster's, or say clearly why it
        cannot join (no token here, or one the cluster refuses)."""
        try:
            from ray import _raylet as raylet
            for name in ("Config", "AuthenticationTokenLoader", "GcsClient"):
                getattr(raylet, name)
            from ray.exceptions import AuthenticationError  # noqa: F401
        except (ImportError, AttributeError):
            return                     # a Ray without token authentication (before 2.52)
        self._auth = auth = _RayAuth(raylet)
        auth.set("disabled")
        answer = _probe(raylet, gcs, PROBE_SECONDS)
        if answer == "auth":
            token, source = ray_token()
            if token is None:
                raise ArenaError(f"the Ray cluster at {address} requires a token (Ray's token "
                                 f"authentication) and there is none here: {source}. To join "
                                 f"it, {TOKEN_HELP}")
            auth.set("token")
            answer = _probe(raylet, gcs, PROBE_SECONDS)
            if answer == "auth":
                raise ArenaError(f"the Ray cluster at {address} refused the token from "
                                 f"{source}: it is not the cluster's. {TOKEN_HELP[0].upper()}"
                                 f"{TOKEN_HELP[1:]}")
            if answer == "ok":
                self._log(f"the cluster requires a token: sending the one from {source}")
        if answer == "timeout":
            raise ArenaError(f"no Ray cluster answers at {address} within {PROBE_SECONDS:g} s "
                             f"(something listens on that port: is it the head's GCS port, "
                             f"{RAY_DEFAULT_PORT} unless `ray start --head --port` said "
                             f"otherwise?)")
        if answer != "ok":
            raise ArenaError(f"could not join the Ray cluster at {address}: {answer}")

    def submit(self, task: GameTask) -> None:
        i = self.idle.pop(0)
        self.refs[self.actors[i].play.remote(task)] = (i, task.game)

    def wait(self, timeout: float) -> list[dict]:
        if not self.refs:
            return []
        ready, _ = self.ray.wait(list(self.refs), num_returns=1, timeout=timeout)
        if ready:
            ready, _ = self.ray.wait(list(self.refs), num_returns=len(self.refs), timeout=0)
        out = []
        for ref in ready:
            i, game = self.refs.pop(ref)
            try:
                out.append(self.ray.get(ref))
            except Exception as e:  # noqa: BLE001 - an actor that died or raised
                hint = (" (on a cluster, catsearch must be installed, the same version, on "
                        "every node)" if self.address else "")
                raise ArenaError(f"a Ray worker failed while playing game {game}: "
                                 f"{type(e).__name__}: {e}{hint}") from None
            self.idle.append(i)
        return out

    def drop(self) -> None:
        for a in self.actors:
            self.ray.kill(a)
        self.refs.clear()

    def close(self) -> None:
        for a in self.actors:
            try:
                self.ray.get(a.close.remote(), timeout=10)
            except Exception:  # noqa: BLE001
                pass
            self.ray.kill(a)
        if self._started_ray:
            self.ray.shutdown()
            if self._auth is not None:
                self._auth.restore()


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
        return RayBackend(config, concurrency, ray_address, log=log)
    raise ValueError(f"unknown backend {name!r}; the backends are auto, inline, process, ray")

