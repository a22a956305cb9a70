"""The Ray backend: the arena's workers as Ray actors, on a local Ray started for the match or
on a running cluster (``--ray-address``), on Ray's public API only.

Joining a cluster with Ray's token authentication takes this process's mode
(``RAY_AUTH_MODE``) to be the cluster's: a client without a token is refused by a cluster that
requires one (Ray retries, logging "Authentication token is missing or incorrect", for about
20 s), and a client with token authentication on cannot run tasks on a cluster without it.
``ray.init(address=host:port)`` never turns it on by itself, and Ray reads the mode once per
process: so the arena asks the cluster first, by a ``ray.init`` in a short-lived child process
(:func:`_probe`), and sets ``RAY_AUTH_MODE`` here before its own ``ray.init``.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import threading
import time

from catsearch._core.options import parse_int
from catsearch.arena.backends import ArenaError, Backend
from catsearch.arena.config import MatchConfig
from catsearch.arena.game import Worker
from catsearch.arena.record import GameRecord
from catsearch.arena.schedule import GameTask

__all__ = ["RayBackend", "ray_token", "RAY_DEFAULT_PORT"]

RAY_DEFAULT_PORT = 6379          # the head's GCS port unless ``ray start --head --port`` says
PROBE_SECONDS = 20.0             # how long a Ray head may take to answer the first call
TOKEN_HELP = ("put the cluster's token (`ray get-auth-token` on the head prints it) in "
              "~/.ray/auth_token, or give the path of a file holding it in RAY_AUTH_TOKEN_PATH, "
              "or the token itself in RAY_AUTH_TOKEN")
#: what Ray logs when the cluster refuses this process's token (or its lack of one); its
#: ``ray.init`` goes on retrying for about 20 s before it raises, so the probe stops there
REFUSED_LINE = "Authentication token is missing or incorrect"

#: the probe: a ``ray.init`` on the address; exit 0 joined, 3 refused (AuthenticationError),
#: 4 another error (its text on stdout)
_PROBE = """
import sys
try:
    import ray
    from ray.exceptions import AuthenticationError
except ImportError as e:
    print(f"ImportError: {e}"); sys.exit(4)
try:
    ray.init(address=sys.argv[1], include_dashboard=False, log_to_driver=False,
             logging_level="ERROR")
except AuthenticationError:
    sys.exit(3)
except Exception as e:
    print(f"{type(e).__name__}: {e}"); sys.exit(4)
ray.shutdown()
"""


def _refresh_ray_config() -> bool:
    """Make a Ray imported earlier in this process read ``RAY_AUTH_MODE`` and its token
    again.

    The one private corner left (the fallback the public API leaves): Ray reads the mode
    once, when it is imported, and caches the token once read; its public API has no way to
    change either afterwards (Ray's own ``ray.init`` makes these very calls when it turns
    token authentication on). Only needed when this process imported Ray before the arena set
    the mode (a program, or a test, that imported ray first); a ``catsearch-arena`` run
    imports Ray after, on the public path. Returns whether it could (a Ray without token
    authentication, before 2.52, has nothing to refresh)."""
    try:
        from ray._raylet import AuthenticationTokenLoader, Config
    except ImportError:
        return False
    Config.initialize("")
    AuthenticationTokenLoader.instance().reset_cache()
    return True


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


def _probe(address: str, mode: str, seconds: float) -> str:
    """Join ``address`` with token authentication ``mode`` (``disabled``, ``token``) from a
    child process: ``"ok"``, ``"auth"`` (refused: no token or a wrong one), ``"timeout"``, or
    the error's text. Ray's log lines go to the child's stderr, read here and dropped.

    A child process, because Ray reads its authentication mode once per process and has no
    public call to ask a cluster without joining it; and reading its stderr for
    :data:`REFUSED_LINE`, because a refused ``ray.init`` retries for about 20 s before it
    raises (there is no public timeout for it). Ctrl-C here ends the child."""
    env = {**os.environ, "RAY_AUTH_MODE": mode}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [_package_root(), env.get("PYTHONPATH")]))
    child = subprocess.Popen([sys.executable, "-c", _PROBE, address], env=env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, errors="replace")
    refused = threading.Event()

    def read_stderr():
        for line in child.stderr:
            if REFUSED_LINE in line:
                refused.set()
    reader = threading.Thread(target=read_stderr, daemon=True, name="catsearch-ray-probe")
    reader.start()
    deadline = time.monotonic() + seconds
    try:
        while child.poll() is None and not refused.is_set() and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        if child.poll() is None:
            child.kill()
        out = child.communicate()[0].strip()
    if refused.is_set() or child.returncode == 3:
        return "auth"
    if child.returncode == 0:
        return "ok"
    if child.returncode == 4:
        return out.splitlines()[-1] if out else "the probe failed"
    return "timeout"


class RayBackend(Backend):
    """``concurrency`` Ray actors, each a :class:`~catsearch.arena.game.Worker`: on a local
    Ray (started here) or a cluster (``address``: the head's ``host:port``, or ``auto``;
    catsearch must be installed on every node). Joining a cluster that requires a token
    (Ray's token authentication) sends the token found where Ray looks for it
    (:func:`ray_token`).

    Needs the optional extra: ``pip install catsearch[ray]``.
    """

    def __init__(self, config: MatchConfig, concurrency: int, address: str | None = None,
                 log=None) -> None:
        if importlib.util.find_spec("ray") is None:
            raise ArenaError("the ray backend needs Ray: pip install catsearch[ray]")
        self.capacity = concurrency
        self.address = address
        self._started_ray = False
        self._saved_mode: tuple[bool, str | None] | None = None   # RAY_AUTH_MODE to put back
        self._refreshed = False
        self._log = log or (lambda text: None)
        imported = "ray" in sys.modules
        was_initialized = imported and sys.modules["ray"].is_initialized()
        joining = address and not was_initialized
        try:
            if joining:
                self._match_auth(address)       # before `import ray`, which reads the mode
            import ray
            self.ray = ray
            if ray.is_initialized():
                self._restore_mode()
            else:
                kwargs = dict(include_dashboard=False, log_to_driver=False,
                              logging_level="ERROR")
                if address:
                    if imported and self._saved_mode is not None:
                        self._refreshed = _refresh_ray_config()
                    self._join(address, kwargs, concurrency)
                else:
                    root = _package_root()
                    path = os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))
                    ray.init(num_cpus=max(concurrency, 1),
                             runtime_env={"env_vars": {"PYTHONPATH": path}}, **kwargs)
                self._started_ray = True
        except BaseException:
            ray_ = sys.modules.get("ray")
            if ray_ is not None and not was_initialized and ray_.is_initialized():
                ray_.shutdown()
            self._restore_mode()
            raise
        actor = ray.remote(num_cpus=1)(Worker)
        cfg = config.to_dict()
        self.actors = [actor.remote(cfg) for _ in range(concurrency)]
        self.idle = list(range(concurrency))
        self.refs: dict = {}           # ref -> (actor index, game)

    def _set_mode(self, mode: str) -> None:
        if self._saved_mode is None:
            self._saved_mode = ("RAY_AUTH_MODE" in os.environ, os.environ.get("RAY_AUTH_MODE"))
        os.environ["RAY_AUTH_MODE"] = mode

    def _restore_mode(self) -> None:
        """Put this process's ``RAY_AUTH_MODE`` back as it was (after ``ray.shutdown()``)."""
        if self._saved_mode is not None:
            was_set, value = self._saved_mode
            if was_set:
                os.environ["RAY_AUTH_MODE"] = value
            else:
                os.environ.pop("RAY_AUTH_MODE", None)
            self._saved_mode = None
            if self._refreshed:
                _refresh_ray_config()
                self._refreshed = False

    def _join(self, address: str, kwargs: dict, concurrency: int) -> None:
        ray = self.ray
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

    def _match_auth(self, address: str) -> None:
        """Set this process's token authentication (``RAY_AUTH_MODE``) to the cluster's at
        ``host:port``, or say clearly why it cannot join (nothing there, no token here, or
        one the cluster refuses). ``auto`` and ``ray://`` addresses are left to Ray."""
        where = _split_address(address)
        self._log(f"joining the Ray cluster at {address}")
        if where is None:
            return
        host, port = where
        try:
            socket.create_connection((host, port), timeout=5).close()
        except OSError as e:
            raise ArenaError(
                f"no Ray cluster at {address}: cannot connect to {host} port {port} "
                f"({e.strerror or e}); start its head with `ray start --head` (it prints "
                f"the address to give), or check the host, the port and the firewall"
            ) from None
        answer = _probe(address, "disabled", PROBE_SECONDS)
        if answer == "auth":
            token, source = ray_token()
            if token is None:
                raise ArenaError(f"the Ray cluster at {address} requires a token (Ray's token "
                                 f"authentication) and there is none here: {source}. To join "
                                 f"it, {TOKEN_HELP}")
            answer = _probe(address, "token", PROBE_SECONDS)
            if answer == "auth":
                raise ArenaError(f"the Ray cluster at {address} refused the token from "
                                 f"{source}: it is not the cluster's. {TOKEN_HELP[0].upper()}"
                                 f"{TOKEN_HELP[1:]}")
            if answer == "ok":
                self._log(f"the cluster requires a token: sending the one from {source}")
                self._set_mode("token")
        elif answer == "ok":
            self._set_mode("disabled")
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

    def wait(self, timeout: float) -> list[GameRecord]:
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
            self._restore_mode()
