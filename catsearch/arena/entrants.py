"""Entrants: the players of a match, built-in (a ``make_player`` spec) or external engines.

An :class:`Entrant` is a description (picklable, JSON-able); a :class:`Slot` is the live
player a worker holds for it. Everything a player does wrong comes out of :meth:`Slot.search`
as a :class:`PlayerFailure` with a kind:

``crash``     an engine that is not running (did not start, exited, closed its output)
``timeout``   no answer within the move time limit
``protocol``  an answer the protocol does not allow (nonsense, an unparsable move)
``illegal``   a well-formed move that is not legal in the position
``error``     a built-in player that raised an exception
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import shlex
import signal
import sys
import threading
import time
from dataclasses import dataclass, field

from catsearch._core.state import State
from catsearch.errors import IllegalMoveError
from catsearch.search.players import Limits, Player, SearchResult
from catsearch.search.spec import PlayerSpec

__all__ = ["Entrant", "PlayerFailure", "Slot", "FAILURE_KINDS", "load_imports",
           "DEFAULT_ENGINE_TIMEOUT"]

FAILURE_KINDS = ("crash", "timeout", "protocol", "illegal", "error")

#: seconds an engine may take for one move when the match sets no ``move_timeout``
DEFAULT_ENGINE_TIMEOUT = 60.0

#: seconds an engine may take to start (``uci`` .. ``uciok``, ``isready``) and to answer
#: ``ucinewgame``, whatever the move time limit
STARTUP_TIMEOUT = 60.0

#: seconds (at most; never more than the move time limit) a built-in player gets after
#: ``stop()`` before it counts as hung
STOP_GRACE = 1.0


class PlayerFailure(Exception):
    """A player failed in a way that loses it the game.

    :ivar kind: one of :data:`FAILURE_KINDS`.
    :ivar message: what happened, in words.
    """

    def __init__(self, kind: str, message: str) -> None:
        assert kind in FAILURE_KINDS, kind
        self.kind = kind
        self.message = message
        super().__init__(f"{kind}: {message}")


@dataclass(frozen=True)
class Entrant:
    """One player of a match.

    Build one with :meth:`builtin`, :meth:`engine` or :meth:`parse`.

    :ivar label: its name in tables and records (unique within a match).
    :ivar spec: the ``make_player`` spec of a built-in player (``None`` for an engine).
    :ivar command: the argument list of an external engine (``None`` for a built-in).
    :ivar options: an engine's ``setoption`` values, as ``(name, value)`` pairs.
    """

    label: str
    spec: str | None = None
    command: tuple[str, ...] | None = None
    options: tuple[tuple[str, str], ...] = field(default=())

    def __post_init__(self) -> None:
        if (self.spec is None) == (self.command is None):
            raise ValueError("an entrant has either a make_player spec or an engine command")
        if self.command is not None and not self.command:
            raise ValueError("an engine command needs at least the program")
        if not self.label or any(c.isspace() for c in self.label):
            raise ValueError(f"an entrant label is a non-empty word, not {self.label!r}")

    @property
    def is_engine(self) -> bool:
        return self.command is not None

    @classmethod
    def builtin(cls, spec: str, label: str | None = None) -> Entrant:
        """A player built by :func:`catsearch.make_player` from ``spec``."""
        PlayerSpec.parse(spec)
        return cls(label=label or spec.strip(), spec=spec.strip())

    @classmethod
    def engine(cls, command, options: dict | None = None, label: str | None = None) -> Entrant:
        """An external program speaking the engine protocol (``docs/protocol.rst``), run
        through :class:`catsearch.engine.EngineClient`.

        :param command: an argument list, or one string split as a shell would.
        :param options: ``setoption`` values sent after ``uci`` (``{"Player": "heuristic"}``).
        """
        argv = tuple(shlex.split(command) if isinstance(command, str) else map(str, command))
        if not argv:
            raise ValueError("an engine command needs at least the program")
        opts = tuple((str(k), str(v)) for k, v in (options or {}).items())
        return cls(label=label or _engine_label(argv), command=argv, options=opts)

    @classmethod
    def parse(cls, text: str) -> Entrant:
        """Read an entrant from the command line: ``[LABEL=]SPEC`` or
        ``[LABEL=]engine:COMMAND`` (``fast=ismcts:iterations=100``,
        ``engine:catsearch-engine``, ``mine=engine:./my_bot --quiet``)."""
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"a player is a spec like 'heuristic' or 'engine:./bot', not {text!r}")
        text = text.strip()
        label = None
        head, eq, rest = text.partition("=")
        if eq and ":" not in head and rest:
            label, text = head.strip(), rest.strip()
        if text.startswith("engine:"):
            return cls.engine(text[len("engine:"):], label=label)
        return cls.builtin(text, label=label)

    def with_options(self, options: dict) -> Entrant:
        if not self.is_engine:
            raise ValueError(f"{self.label}: setoption is for engines; a built-in player takes "
                             f"its options in its spec")
        merged = dict(self.options)
        merged.update({str(k): str(v) for k, v in options.items()})
        return Entrant(self.label, None, self.command, tuple(merged.items()))

    def to_dict(self) -> dict:
        if self.is_engine:
            return {"label": self.label, "command": list(self.command),
                    "options": dict(self.options)}
        return {"label": self.label, "spec": self.spec}

    @classmethod
    def from_dict(cls, d: dict) -> Entrant:
        if "command" in d:
            return cls(label=d["label"], command=tuple(d["command"]),
                       options=tuple((str(k), str(v)) for k, v in d.get("options", {}).items()))
        return cls(label=d["label"], spec=d["spec"])

    def check(self, game_id: str) -> None:
        """Build a built-in player once, so that a bad spec fails before the match starts
        (its options that depend on the game too: ``Player.weights_for``)."""
        if not self.is_engine:
            player = PlayerSpec.parse(self.spec).build()
            try:
                player.weights_for(game_id)
            finally:
                player.close()


def _engine_label(argv: tuple[str, ...]) -> str:
    """A short name for an engine: its script or module when run by an interpreter
    (``python bots/mine.py`` -> ``mine``, ``python -m catsearch.engine`` -> ``engine``),
    else the program's name."""
    prog = os.path.basename(argv[0])
    name = prog
    if prog.startswith(("python", "pypy", "node", "ruby", "perl", "bash", "sh")):
        rest = list(argv[1:])
        if "-m" in rest and rest.index("-m") + 1 < len(rest):
            name = rest[rest.index("-m") + 1].rsplit(".", 1)[-1]
        else:
            scripts = [a for a in rest if not a.startswith("-")]
            if scripts:
                name = os.path.basename(scripts[0])
    return os.path.splitext(name)[0] or "engine"


def load_imports(imports) -> None:
    """Import the modules (names, or paths of ``.py`` files) that register extra players."""
    for name in imports or ():
        if name.endswith(".py") or os.sep in name:
            path = os.path.abspath(name)
            modname = "catsearch_arena_plugin_" + os.path.splitext(os.path.basename(path))[0]
            if modname in sys.modules:
                continue
            spec = importlib.util.spec_from_file_location(modname, path)
            if spec is None or spec.loader is None:
                raise ValueError(f"cannot import {name!r}: not a Python file")
            module = importlib.util.module_from_spec(spec)
            sys.modules[modname] = module
            spec.loader.exec_module(module)
        else:
            importlib.import_module(name)


@contextlib.contextmanager
def sigint_ignored():
    """Start child processes with SIGINT ignored (the setting is inherited across exec), so
    that a Ctrl-C meant for the arena does not kill the engines of the games in flight."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def _engine_module():
    try:
        return importlib.import_module("catsearch.engine")
    except ImportError as e:
        raise RuntimeError(f"external engines need catsearch.engine.EngineClient, which this "
                           f"installation lacks ({e})") from None


class Slot:
    """The live player of one entrant in one worker.

    A built-in player is rebuilt for every game, its ``seed`` option set from the game's
    seed (unless the spec fixes one), so a game depends on nothing but its record. An engine
    is started once and kept; it gets ``ucinewgame`` before every game, and is restarted
    after any failure.
    """

    def __init__(self, entrant: Entrant, move_timeout: float | None) -> None:
        self.entrant = entrant
        self.move_timeout = move_timeout
        self.player: Player | None = None
        self.broken = False
        self.restarts = 0
        self.effective_spec = entrant.spec

    # -- per game ------------------------------------------------------------------------
    def start_game(self, seat_seed: int) -> None:
        """Get ready for a new game whose seed for this seat is ``seat_seed``.

        :raises PlayerFailure: the engine could not be (re)started or did not answer.
        """
        if self.entrant.is_engine:
            self._start_engine_game()
            return
        if self.player is not None:
            self._close_quietly()
        spec = PlayerSpec.parse(self.entrant.spec)
        if spec.accepts("seed") and "seed" not in spec:
            spec = spec.replace(seed=seat_seed)
        self.effective_spec = str(spec)
        try:
            self.player = spec.build()
            self.player.new_game()
        except Exception as e:     # noqa: BLE001 - any failure of a player loses its game
            self.player = None
            raise PlayerFailure("error", f"building {spec!r} failed: {type(e).__name__}: {e}")

    @property
    def seeds_moves(self) -> bool:
        """Whether each search gets its own seed (``Limits.seed``, ``go seed``)."""
        if self.entrant.is_engine:
            return not any(k.lower() == "seed" for k, _ in self.entrant.options)
        return "seed" not in PlayerSpec.parse(self.entrant.spec)

    def _start_engine_game(self) -> None:
        mod = _engine_module()
        try:
            if self.player is None:
                with sigint_ignored():
                    self.player = mod.EngineClient(list(self.entrant.command),
                                                   options=dict(self.entrant.options),
                                                   timeout=STARTUP_TIMEOUT,
                                                   margin=self._margin())
                self.broken = False
            elif self.broken:
                self._restart_engine()
                self.restarts += 1
                self.broken = False
            self._startup_timeouts(self.player.new_game)
            self.player.timeout = self._move_timeout()
        except mod.EngineError as e:
            self.broken = True
            raise _engine_failure(mod, e, None) from None
        except OSError as e:
            self.broken = True
            raise PlayerFailure("crash", f"cannot start {shlex.join(self.entrant.command)}: {e}")

    def _move_timeout(self) -> float:
        return self.move_timeout or DEFAULT_ENGINE_TIMEOUT

    def _margin(self) -> float:
        """Seconds an engine gets after ``stop`` (and past a ``movetime``)."""
        return min(2.0, max(0.25, self._move_timeout() / 2))

    def _startup_timeouts(self, fn) -> None:
        """Run ``fn`` with the client's startup timeout (starting a program, or rebuilding
        its player for a new game, may take longer than a move may)."""
        self.player.timeout = STARTUP_TIMEOUT
        try:
            fn()
        finally:
            if self.player is not None:
                self.player.timeout = self._move_timeout()

    def _restart_engine(self) -> None:
        with sigint_ignored():
            self._startup_timeouts(self.player.restart)

    # -- per move ------------------------------------------------------------------------
    def search(self, view: State, limits: Limits | None) -> tuple[SearchResult, float]:
        """Search ``view`` (the seat to move's view); return the result and its wall time.

        :raises PlayerFailure: anything that loses the game (an illegal move is checked by
            the caller, against the full state).
        """
        if self.player is None:
            raise PlayerFailure("crash" if self.entrant.is_engine else "error",
                                "the player is not running")
        t0 = time.perf_counter()
        if self.entrant.is_engine:
            mod = _engine_module()
            try:
                result = self.player.search(view, limits=limits)
            except mod.EngineError as e:
                self.broken = True
                raise _engine_failure(mod, e, view) from None
        elif self.move_timeout is None:
            try:
                result = self.player.search(view, limits=limits)
            except Exception as e:  # noqa: BLE001
                raise PlayerFailure("error", f"{type(e).__name__}: {e}") from None
        else:
            result = self._search_with_timeout(view, limits)
        seconds = time.perf_counter() - t0
        if not isinstance(result, SearchResult):
            self.broken = True
            raise PlayerFailure("protocol", f"search returned {type(result).__name__}, "
                                f"not a SearchResult")
        if self.move_timeout is not None and seconds > self.move_timeout:
            self.broken = True
            raise PlayerFailure("timeout", f"answered after {seconds:.3f} s, past the "
                                f"{self.move_timeout:g} s limit")
        return result, seconds

    @property
    def ponders(self) -> bool:
        """Whether the arena lets this player think while other seats move: an engine
        given ``setoption Ponder=true`` (``--setoption LABEL:Ponder=true``) is sent its
        view and ``go ponder`` after every move that leaves another seat to move."""
        return self.entrant.is_engine and any(
            k.lower() == "ponder" and v.lower() == "true" for k, v in self.entrant.options)

    def ponder(self, view: State) -> None:
        """Let the engine ponder on ``view`` (its seat's view, another seat to move) until
        its next search (:meth:`catsearch.engine.EngineClient.ponder`).

        :raises PlayerFailure: the engine is not running or did not answer.
        """
        if self.player is None or not self.ponders:
            return
        mod = _engine_module()
        try:
            self.player.ponder(view)
        except mod.EngineError as e:
            self.broken = True
            raise _engine_failure(mod, e, None) from None

    @property
    def follows_moves(self) -> bool:
        """Whether the live player wants to be told every move (:meth:`observe`): a player
        whose ``observe`` does something (searchers with ``reuse=true`` or
        ``inference=policy``; engines, which are then sent their seat's first view and its
        observations)."""
        p = self.player
        if p is None or type(p).observe is Player.observe:
            return False
        follows = getattr(p, "follows_moves", None)     # a searcher says (MCTSPlayer)
        return bool(getattr(p, "reuse", True) if follows is None else follows)

    def observe(self, view: State, observation: str) -> None:
        """Tell the player its seat's ``observation`` of a move about to be played, with the
        seat's ``view`` before it (what lets ``reuse=true`` searchers keep their tree from
        move to move, and engines follow the game).

        :raises PlayerFailure: the player raised (an ``error``: it loses the game).
        """
        if self.player is None:
            return
        try:
            self.player.observe(view, observation)
        except Exception as e:  # noqa: BLE001
            raise PlayerFailure("error", f"observe: {type(e).__name__}: {e}") from None

    def _search_with_timeout(self, view: State, limits: Limits | None) -> SearchResult:
        box: dict = {}
        player = self.player

        def run():
            try:
                box["result"] = player.search(view, limits=limits)
            except BaseException as e:  # noqa: BLE001
                box["error"] = e

        th = threading.Thread(target=run, name=f"arena-{self.entrant.label}", daemon=True)
        th.start()
        th.join(self.move_timeout)
        if th.is_alive():
            player.stop()
            grace = min(STOP_GRACE, self.move_timeout)
            th.join(grace)
            if th.is_alive():
                # a hung built-in player: leave its thread behind and build a new one
                self.player = None
                raise PlayerFailure("timeout", f"no move within {self.move_timeout:g} s, and "
                                    f"still none {grace:g} s after stop()")
            raise PlayerFailure("timeout", f"no move within {self.move_timeout:g} s (it "
                                f"answered only after stop())")
        if "error" in box:
            e = box["error"]
            raise PlayerFailure("error", f"{type(e).__name__}: {e}")
        return box["result"]

    def failed(self) -> bool | None:
        """The player just lost a game by failing: restart an engine now (so that the
        restart belongs to this game, whichever worker plays the next one).

        :returns: for an engine, whether the restart worked (if not, the next game tries
            again); ``None`` for a built-in player, which is rebuilt for every game anyway.
        """
        if not self.entrant.is_engine:
            return None
        self.broken = True
        if self.player is None:
            return False
        mod = _engine_module()
        try:
            self._restart_engine()
        except (mod.EngineError, OSError):
            return False
        self.restarts += 1
        self.broken = False
        return True

    def _close_quietly(self) -> None:
        try:
            self.player.close()
        except Exception:  # noqa: BLE001 - closing a broken player must not fail the match
            pass
        self.player = None

    def close(self) -> None:
        if self.player is not None:
            self._close_quietly()


def _engine_failure(mod, e: Exception, view: State | None) -> PlayerFailure:
    """Turn an engine exception into a failure of the right kind."""
    stderr = (getattr(e, "stderr", "") or "").strip()
    tail = f" (stderr: {stderr.splitlines()[-1][:200]})" if stderr else ""
    if isinstance(e, mod.EngineCrashed):
        return PlayerFailure("crash", f"{e}{tail}")
    if isinstance(e, mod.EngineTimeout):
        return PlayerFailure("timeout", f"{e}{tail}")
    if isinstance(e, mod.EngineProtocolError):
        line = (getattr(e, "line", "") or "").strip()
        parts = line.split()
        if view is not None and len(parts) == 2 and parts[0] == "bestmove" and parts[1] != "(none)":
            try:
                move = view.str_to_move(parts[1])
                legal = move in view.legal_moves()
            except IllegalMoveError:
                legal = False
            except ValueError:
                legal = True        # not a move at all: nonsense, a protocol error
            if not legal:
                return PlayerFailure("illegal", f"illegal move {parts[1]!r}: {e}")
        return PlayerFailure("protocol", f"{e}{tail}")
    return PlayerFailure("error", f"{type(e).__name__}: {e}{tail}")
