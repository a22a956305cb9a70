"""The MCTS players: :class:`ISMCTS` and :class:`DeterminizedMCTS` (PIMC).

Each drives one or more Cython search cores (:mod:`catsearch.search.ismcts`,
:mod:`catsearch.search.pimc`): it resolves the options and :class:`Limits`, runs the cores
without the GIL (in this thread, in worker threads, or in worker processes), calls ``info``
between chunks, merges the root statistics and picks the move. See ``docs/search.rst``.
"""

from __future__ import annotations

import math
import multiprocessing
import multiprocessing.connection
import os
import random
import threading
import time
from typing import Any

from catsearch._core.state import State
from catsearch.search.ismcts import ISMCTSCore
from catsearch.search.tree import NODE_BYTES, monotonic
from catsearch.search.pimc import PIMCCore
from catsearch.search.players import (
    InfoCallback,
    Limits,
    MoveStats,
    Player,
    SearchResult,
    _seat_view,
)

__all__ = ["ISMCTS", "DeterminizedMCTS", "NODE_BYTES"]

_M64 = (1 << 64) - 1


def _mix(x: int) -> int:
    """splitmix64's finalizer: a well-spread 64-bit value from any int."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def _split(total: int, parts: int) -> list[int]:
    """``total`` (``-1``: unlimited) shared as evenly as possible among ``parts``."""
    if total < 0:
        return [-1] * parts
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


# (game id, players) -> whether some move is seen differently by some seat (MO needed)
_HIDDEN_MOVES: dict[tuple[str, int], bool] = {}


def _pick(stats: dict[int, tuple[int, float]], final: str) -> int:
    """The move of ``stats`` (move -> (visits, reward sum)) by the ``final`` rule.

    ``visits``: most visits, then best mean, then the lowest move. ``mean``: best mean among
    the moves visited at least a tenth as often as the most visited one (a move tried once
    cannot win by luck), then most visits, then the lowest move.
    """
    def mean(m):
        v, r = stats[m]
        return r / v if v else -1.0

    if final == "visits":
        return min(stats, key=lambda m: (-stats[m][0], -mean(m), m))
    top = max(v for v, _ in stats.values())
    pool = [m for m in stats if stats[m][0] >= max(1, top / 10)] or list(stats)
    return min(pool, key=lambda m: (-mean(m), -stats[m][0], m))


def _check_int(name: str, value: Any, low: int, *, none_ok: bool = False) -> int | None:
    if value is None and none_ok:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        extra = " or None" if none_ok else ""
        raise ValueError(f"{name} must be a whole number >= {low}{extra}, not {value!r}")
    return value


def _check_float(name: str, value: Any, *, positive: bool, none_ok: bool = False) -> float | None:
    if value is None and none_ok:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or (
            value <= 0 if positive else value < 0) or math.isinf(value):
        sign = "> 0" if positive else ">= 0"
        extra = " or None" if none_ok else ""
        raise ValueError(f"{name} must be a finite number {sign}{extra}, not {value!r}")
    return float(value)


def _check_choice(name: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


class _MCTSPlayer(Player):
    """What ISMCTS and determinized MCTS share: options, limits, workers, info, reuse."""

    #: options of the spec string (``make_player``); subclasses extend them
    OPTIONS: dict[str, Any] = {
        "iterations": int,
        "seconds": float,
        "exploration": float,
        "final": ("visits", "mean"),
        "playout": ("random", "heuristic"),
        "prior": float,
        "cutoff": int,
        "seed": int,
        "reuse": bool,
        "workers": int,
        "parallel": ("threads", "processes"),
        "max_nodes": int,
        "info_interval": float,
    }
    ALIASES: dict[str, str] = {"c": "exploration", "iters": "iterations", "time": "seconds",
                               "threads": "workers"}

    def __init__(self, *, iterations: int | None = 10000, seconds: float | None = None,
                 exploration: float = 0.7, final: str = "visits", playout: str = "random",
                 prior: float = 0.5, cutoff: int = 0, seed: int | None = None, reuse: bool = False,
                 workers: int = 1, parallel: str = "threads", max_nodes: int = 10_000_000,
                 info_interval: float = 0.25) -> None:
        if iterations == 0:
            iterations = None
        self.iterations = _check_int("iterations", iterations, 1, none_ok=True)
        self.seconds = _check_float("seconds", seconds, positive=True, none_ok=True)
        if self.iterations is None and self.seconds is None:
            raise ValueError("give iterations or seconds (or both): a search needs a limit "
                             "(Limits(infinite=True) searches until stop())")
        self.exploration = _check_float("exploration", exploration, positive=False)
        self.final = _check_choice("final", final, ("visits", "mean"))
        self.playout = _check_choice("playout", playout, ("random", "heuristic"))
        self.prior = _check_float("prior", prior, positive=False)
        if self.prior > 1.0:
            raise ValueError(f"prior must be from 0 to 1 (the weight of the heuristic's "
                             f"move), not {prior!r}")
        self.cutoff = _check_int("cutoff", cutoff, 0)
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)
                                 or not 0 <= seed <= _M64):
            raise ValueError(f"seed must be a whole number from 0 to 2**64 - 1 or None, "
                             f"not {seed!r}")
        self.seed = seed
        if not isinstance(reuse, bool):
            raise ValueError(f"reuse must be True or False, not {reuse!r}")
        self.reuse = reuse
        self.workers = _check_int("workers", workers, 1)
        self.parallel = _check_choice("parallel", parallel, ("threads", "processes"))
        self.max_nodes = _check_int("max_nodes", max_nodes, 1)
        if self.max_nodes > 2**31 - 1024:
            raise ValueError(f"max_nodes must be at most {2**31 - 1024}, not {max_nodes}")
        self.info_interval = _check_float("info_interval", info_interval, positive=True)
        self._seeds = random.Random(seed)
        self._lock = threading.Lock()
        self._stopping = False
        self._cores: list = []          # the cores of the running search (for stop)
        self._kept: list = []           # cores kept for reuse
        self._track: dict | None = None  # what the kept cores stand for
        self._pool: _ProcessPool | None = None
        # in a worker process: the parent checks that the moves follow on (the notation
        # the views travel in does not carry the ply)
        self._trust_ply = False

    # -- hooks for the two searchers --------------------------------------------------------
    def _new_core(self, view: State, seat: int, seed: int, worker: int, nworkers: int):
        raise NotImplementedError

    def _rebase(self, core, view: State, seed: int) -> None:
        raise NotImplementedError

    def _follow(self, core, view: State, move: int, observed: int, public: bool,
                seat: int) -> None:
        raise NotImplementedError

    def _trees(self, core) -> list[list[tuple]]:
        raise NotImplementedError

    def _decide(self, trees: list[list[tuple]], legal: list[int]) -> tuple[int, dict]:
        raise NotImplementedError

    def _process_options(self, worker: int, nworkers: int) -> dict:
        raise NotImplementedError

    # -- the spec ---------------------------------------------------------------------------
    def _options(self) -> dict:
        return {k: getattr(self, k) for k in self.OPTIONS}

    @property
    def spec(self) -> str:
        defaults = type(self)()._options()
        parts = []
        for k, v in self._options().items():
            if k in defaults and defaults[k] == v:
                continue
            if v is None:
                v = 0 if k == "iterations" else v
                if v is None:
                    continue
            parts.append(f"{k}={str(v).lower() if isinstance(v, bool) else v}")
        return self.name + (":" + ",".join(parts) if parts else "")

    @property
    def bytes_per_node(self) -> int:
        """Bytes one tree node takes (the arena grows by doubling: up to twice that is
        reserved per node in use)."""
        return NODE_BYTES

    # -- searching --------------------------------------------------------------------------
    def _plan(self, limits: Limits | None) -> dict:
        limits = limits or Limits()
        if limits.iterations is not None:
            _check_int("Limits.iterations", limits.iterations, 0)
        if limits.seconds is not None:
            _check_float("Limits.seconds", limits.seconds, positive=True)
        nodes = _check_int("Limits.nodes", limits.nodes, 1, none_ok=True)
        depth = _check_int("Limits.depth", limits.depth, 1, none_ok=True) or 0
        if limits.infinite:
            iterations, seconds = None, None
        elif limits.iterations is None and limits.seconds is None and nodes is None:
            iterations, seconds = self.iterations, self.seconds     # the player's budget
        else:                                                     # the limits' budget alone
            iterations, seconds = limits.iterations, limits.seconds
            if not iterations and seconds is None and nodes is None:
                raise ValueError("these limits leave the search unbounded: give iterations, "
                                 "seconds or nodes, or Limits(infinite=True) and call stop()")
        if limits.seed is not None:
            seed = _check_int("Limits.seed", limits.seed, 0)
        elif self.seed is not None:
            seed = self._seeds.getrandbits(64)
        else:
            seed = int.from_bytes(os.urandom(8), "little")
        return {"iterations": iterations or -1, "seconds": seconds, "nodes": nodes or 0,
                "depth": depth, "seed": seed & _M64}

    def search(self, state: State, *, limits: Limits | None = None,
               info: InfoCallback | None = None) -> SearchResult:
        """Search ``state`` for ``state.current_player`` from that seat's view only.

        :param limits: overrides of this player's limits for this search (``depth``: no
            node is expanded deeper than that below the root).
        :param info: called with a partial :class:`SearchResult` every ``info_interval``
            seconds (from this thread, between chunks of the C loop).
        :raises ValueError: the game is over, a view of another seat, or bad limits.
        """
        t0 = time.perf_counter()
        with self._lock:
            self._stopping = False
            if self._pool is not None:
                self._pool.stop_event.clear()
        view = _seat_view(state)
        seat = state.current_player
        legal = view.legal_moves()
        plan = self._plan(limits)
        deadline = monotonic() + plan["seconds"] if plan["seconds"] is not None else 0.0
        if self.parallel == "processes" and self.workers > 1:
            raws = self._search_processes(view, plan, deadline, info, legal, t0)
        else:
            raws = self._search_threads(view, seat, plan, deadline, info, legal, t0)
        return self._result(raws, legal, view.players, time.perf_counter() - t0)

    def _result(self, raws: list[dict], legal: list[int], players: int,
                seconds: float) -> SearchResult:
        trees = [t for raw in raws for t in raw["trees"]]
        move, stats = self._decide(trees, legal)
        iterations = sum(raw["iterations"] for raw in raws)
        value = [0.0] * players
        for raw in raws:
            for p in range(players):
                value[p] += raw["value"][p]
        value = [v / iterations if iterations else 1.0 / players for v in value]
        return SearchResult(
            move=move, value=tuple(value),
            stats={m: MoveStats(visits=v, mean=r / v if v else 0.0)
                   for m, (v, r) in sorted(stats.items())},
            iterations=iterations, seconds=seconds,
            nodes=sum(raw["nodes"] for raw in raws),
            depth=max((raw["depth"] for raw in raws), default=0))

    def _raw(self, core) -> dict:
        return {"trees": self._trees(core), "value": core.root_value(),
                "iterations": core.total_iterations, "nodes": core.nodes, "depth": core.depth}

    def _prepare(self, view: State, seat: int, plan: dict) -> list:
        """The cores for this search: the kept ones, rebased, if the information set
        continues from the last search (see :meth:`observe`), else fresh ones."""
        n = self.workers
        seeds = [_mix(plan["seed"] + 0x632BE59BD9B4E019 * w) for w in range(n)]
        track = self._track
        cores = []
        if (self.reuse and track is not None and len(self._kept) == n
                and track["game"] == view.game_id and track["players"] == view.players
                and track["seat"] == seat and (self._trust_ply or track["ply"] == view.ply)):
            for core, s in zip(self._kept, seeds):
                self._rebase(core, view, s)
                cores.append(core)
        else:
            cores = [self._new_core(view, seat, seeds[w], w, n) for w in range(n)]
        self._kept = []
        self._track = None
        for core in cores:
            core.set_max_depth(plan["depth"])
        return cores

    def _finish(self, view: State, seat: int, cores: list) -> None:
        if self.reuse:
            self._kept = cores
            self._track = {"game": view.game_id, "players": view.players, "seat": seat,
                           "ply": view.ply}

    @staticmethod
    def _drive(core, iterations: int, deadline: float, node_limit: int,
               chunk: float | None, on_chunk) -> None:
        """Run ``core`` until its limits (``iterations`` -1: none; ``deadline`` 0: none;
        ``node_limit`` 0: none) or stop, returning to Python every ``chunk`` seconds to
        call ``on_chunk(core)``; at least one iteration runs."""
        remaining = iterations
        limit = core.nodes + node_limit if node_limit else 0
        while True:
            end = deadline
            if chunk is not None:
                end = monotonic() + chunk
                if deadline:
                    end = min(end, deadline)
            done = core.run(remaining, end, limit, False)
            if remaining >= 0:
                remaining -= done
            if (core.stopped or remaining == 0 or (deadline and monotonic() >= deadline)
                    or (limit and core.nodes >= limit)):
                break
            if on_chunk is not None:
                on_chunk(core)
        if core.total_iterations == 0:
            core.run_one()

    def _search_threads(self, view: State, seat: int, plan: dict, deadline: float,
                        info: InfoCallback | None, legal: list[int], t0: float) -> list[dict]:
        cores = self._prepare(view, seat, plan)
        with self._lock:
            self._cores = cores
            if self._stopping:
                for core in cores:
                    core.stop()
        n = len(cores)
        iters = _split(plan["iterations"], n)
        nodes = _split(plan["nodes"], n) if plan["nodes"] else [0] * n
        chunk = self.info_interval if info is not None else None
        try:
            if n == 1:
                def emit(core):
                    info(self._result([self._raw(core)], legal, view.players,
                                      time.perf_counter() - t0))
                self._drive(cores[0], iters[0], deadline, nodes[0], chunk, emit)
            else:
                snaps: list[dict | None] = [None] * n
                errors: list[BaseException] = []

                def work(w):
                    def snap(core):
                        snaps[w] = self._raw(core)
                    try:
                        self._drive(cores[w], iters[w], deadline, nodes[w], chunk, snap)
                    except BaseException as e:   # re-raised in the searching thread
                        errors.append(e)
                        for c in cores:
                            c.stop()

                threads = [threading.Thread(target=work, args=(w,), daemon=True,
                                            name=f"catsearch-{self.name}-{w}")
                           for w in range(n)]
                for t in threads:
                    t.start()
                while True:
                    alive = [t for t in threads if t.is_alive()]
                    if not alive:
                        break
                    alive[0].join(chunk)
                    ready = [s for s in snaps if s is not None]
                    if info is not None and ready and any(t.is_alive() for t in threads):
                        info(self._result(ready, legal, view.players, time.perf_counter() - t0))
                if errors:
                    raise errors[0]
            return [self._raw(core) for core in cores]
        finally:
            with self._lock:
                self._cores = []
            self._finish(view, seat, cores)

    def _search_processes(self, view: State, plan: dict, deadline: float,
                          info: InfoCallback | None, legal: list[int], t0: float) -> list[dict]:
        with self._lock:
            if self._pool is None:
                self._pool = _ProcessPool(self)
            if self._stopping:
                self._pool.stop()
        return self._pool.search(view, plan, deadline, info, legal, t0)

    def stop(self) -> None:
        """Make a running search (in another thread) return now with its best move so far;
        it returns within one iteration with threads, within milliseconds with processes."""
        with self._lock:
            self._stopping = True
            for core in self._cores:
                core.stop()
            if self._pool is not None:
                self._pool.stop()

    # -- reuse ------------------------------------------------------------------------------
    def observe(self, state: State, move: int) -> None:
        """Follow ``move`` played in ``state`` with the kept tree(s) (``reuse=True``).

        A move this seat sees in full moves every tree to the child it leads to; a move
        hidden from this seat moves only the seat's own tree (MO-ISMCTS) by what it saw, and
        forgets the trees that would need the hidden move. Anything that does not fit the
        kept trees (another game, a ply out of step, another seat's view) drops them.
        """
        if not self.reuse:
            return
        if self._pool is not None:
            track = self._pool.track
            if track is not None:
                view = self._observer_view(state, track)
                self._pool.observe(view, move)
            return
        track = self._track
        if track is None:
            return
        view = self._observer_view(state, track, self._trust_ply)
        if view is None:
            self._kept, self._track = [], None
            return
        seat = track["seat"]
        ndm = view.num_distinct_moves
        if isinstance(move, bool) or not isinstance(move, int) or move < 0:
            raise ValueError(f"a move is a non-negative int, not {move!r}")
        if move >= ndm:
            observed, public = move, False
        else:
            observed = view.observe_move(move, seat)
            public = observed == move
        for core in self._kept:
            self._follow(core, view, move, observed, public, seat)
        track["ply"] += 1

    @staticmethod
    def _observer_view(state: State, track: dict, trust_ply: bool = False) -> State | None:
        seat = track["seat"]
        if (state.game_id != track["game"] or state.players != track["players"]
                or (state.ply != track["ply"] and not trust_ply) or state.is_terminal()):
            return None
        if state.view_seat is None:
            return state.view(seat)
        return state if state.view_seat == seat else None

    def new_game(self) -> None:
        """Forget the kept trees and restart the seed sequence."""
        self._kept, self._track = [], None
        self._seeds = random.Random(self.seed)
        if self._pool is not None:
            self._pool.new_game()

    def close(self) -> None:
        """Stop the worker processes (if any) and free the trees."""
        self._kept, self._track = [], None
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def __del__(self) -> None:
        try:
            if self._pool is not None:
                self._pool.close()
        except Exception:
            pass

    def __getstate__(self):
        raise TypeError(f"{type(self).__name__} is not picklable; rebuild it with "
                        f"make_player({self.spec!r})")


class ISMCTS(_MCTSPlayer):
    """Information Set MCTS (Cowling, Powley & Whitehouse 2012).

    ``mode``: ``so`` (SO-ISMCTS: one tree over the searching seat's information sets, each
    move as the mover made it), ``mo`` (MO-ISMCTS: one tree per seat, each move as that seat
    saw it; needed where moves are hidden, as The Cat's simultaneous actions), or ``auto``
    (the default: MO when some seat sees some move as other than itself, found by probing
    the game once per game and player count, else SO, which is then the same search done
    faster). Each iteration draws a fresh determinization; UCB uses availability counts;
    every node keeps the reward of the seat that moved into it (max-n).

    Keyword-only options: see ``docs/search.rst`` (``iterations``, ``seconds``,
    ``exploration`` (``c``), ``final``, ``playout``, ``prior``, ``cutoff``, ``seed``, ``reuse``,
    ``workers``, ``parallel``, ``max_nodes``, ``info_interval``, ``mode``).
    """

    name = "ismcts"
    OPTIONS = dict(_MCTSPlayer.OPTIONS, mode=("auto", "so", "mo"))
    ALIASES = dict(_MCTSPlayer.ALIASES)

    def __init__(self, *, mode: str = "auto", **options: Any) -> None:
        super().__init__(**options)
        self.mode = _check_choice("mode", mode, ("auto", "so", "mo"))

    def _core_kwargs(self) -> dict:
        return dict(c=self.exploration, heuristic=self.playout == "heuristic",
                    cutoff=self.cutoff, max_nodes=self.max_nodes, prior=self.prior)

    def resolved_mode(self, state: State) -> str:
        """``so`` or ``mo``: what ``mode`` means for ``state``'s game and player count."""
        if self.mode != "auto":
            return self.mode
        key = (state.game_id, state.players)
        if key not in _HIDDEN_MOVES:
            view = _seat_view(state)
            probe = ISMCTSCore(view, view.current_player, mo=False, max_nodes=2)
            _HIDDEN_MOVES[key] = bool(probe.has_hidden_moves())
        return "mo" if _HIDDEN_MOVES[key] else "so"

    def _new_core(self, view, seat, seed, worker, nworkers):
        return ISMCTSCore(view, seat, mo=self.resolved_mode(view) == "mo", seed=seed,
                          **self._core_kwargs())

    def _rebase(self, core, view, seed):
        core.rebase(view, seed)

    def _follow(self, core, view, move, observed, public, seat):
        if core.mode == "so":
            core.follow(0, move if public else None)
        else:
            for q in range(view.players):
                if q == seat:
                    core.follow(q, observed)
                else:
                    core.follow(q, view.observe_move(move, q) if public else None)

    def _trees(self, core):
        return [core.children(core.searching_seat if core.mode == "mo" else 0)]

    def _decide(self, trees, legal):
        stats: dict[int, list] = {m: [0, 0.0] for m in legal}
        for tree in trees:
            for m, v, r, _avail in tree:
                if m in stats:
                    stats[m][0] += v
                    stats[m][1] += r
        stats = {m: (v, r) for m, (v, r) in stats.items()}
        visited = {m: s for m, s in stats.items() if s[0] > 0} or stats
        return _pick(visited, self.final), stats

    def _process_options(self, worker, nworkers):
        opts = self._options()
        opts.update(workers=1, parallel="threads", seed=None, mode=self.mode)
        return opts


class DeterminizedMCTS(_MCTSPlayer):
    """Determinized MCTS, also called PIMC (Perfect Information Monte Carlo).

    ``determinizations`` full states are drawn from the seat's view at the start of the
    search; each gets its own UCT tree (perfect information: the tree sees every card of its
    determinization) and the iterations go round-robin over them. ``combine``: ``vote``
    (each tree votes for its move by the ``final`` rule; most votes wins, ties by total
    visits) or ``average`` (the trees' root statistics are summed, then the ``final`` rule).
    It is the classic baseline: it suffers strategy fusion and non-locality (Long et al.
    2010), which ISMCTS is built to avoid.

    Options: those of :class:`ISMCTS` but ``mode``, plus ``determinizations`` (``dets``)
    and ``combine``. With several workers the determinizations are shared out among them.
    """

    name = "pimc"
    OPTIONS = dict(_MCTSPlayer.OPTIONS, determinizations=int, combine=("vote", "average"))
    ALIASES = dict(_MCTSPlayer.ALIASES, dets="determinizations")

    def __init__(self, *, determinizations: int = 16, combine: str = "vote",
                 **options: Any) -> None:
        super().__init__(**options)
        self.determinizations = _check_int("determinizations", determinizations, 1)
        if self.determinizations < self.workers:
            raise ValueError(f"determinizations ({determinizations}) must be at least the "
                             f"number of workers ({self.workers}): each worker searches its own")
        self.combine = _check_choice("combine", combine, ("vote", "average"))

    def _new_core(self, view, seat, seed, worker, nworkers):
        share = _split(self.determinizations, nworkers)[worker]
        return PIMCCore(view, seat, determinizations=share, seed=seed, c=self.exploration,
                        heuristic=self.playout == "heuristic", cutoff=self.cutoff,
                        max_nodes=self.max_nodes, prior=self.prior)

    def _rebase(self, core, view, seed):
        core.rebase_pimc(view, seed)

    def _follow(self, core, view, move, observed, public, seat):
        if public:
            core.advance(move)
        else:
            core.forget_all()

    def _trees(self, core):
        return [core.children(t) for t in range(core.determinizations)]

    def _decide(self, trees, legal):
        total: dict[int, list] = {m: [0, 0.0] for m in legal}
        votes = {m: 0 for m in legal}
        for tree in trees:
            mine = {m: (v, r) for m, v, r, _a in tree if m in total and v > 0}
            for m, (v, r) in mine.items():
                total[m][0] += v
                total[m][1] += r
            if mine:
                votes[_pick(mine, self.final)] += 1
        stats = {m: (v, r) for m, (v, r) in total.items()}
        visited = {m: s for m, s in stats.items() if s[0] > 0} or stats
        if self.combine == "average":
            return _pick(visited, self.final), stats
        move = min(visited, key=lambda m: (-votes[m], -stats[m][0], m))
        return move, stats

    def _process_options(self, worker, nworkers):
        opts = self._options()
        opts.update(workers=1, parallel="threads", seed=None,
                    determinizations=_split(self.determinizations, nworkers)[worker])
        return opts


# -- worker processes --------------------------------------------------------------------

def _process_main(conn, stop_event, cls_name: str, options: dict) -> None:
    """A worker process: one single-worker player, driven over ``conn``."""
    from catsearch.games import from_text

    cls = {"ISMCTS": ISMCTS, "DeterminizedMCTS": DeterminizedMCTS}[cls_name]
    player = cls(**options)
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
                    player._drive(cores[0], plan["iterations"], deadline, plan["nodes"],
                                  chunk, lambda core: conn.send(("partial", player._raw(core))))
                finally:
                    done.set()
                conn.send(("done", player._raw(cores[0])))
                player._finish(view, seat, cores)
            except Exception as e:   # the parent raises it
                conn.send(("error", f"{type(e).__name__}: {e}"))


class _ProcessPool:
    """Worker processes for ``parallel="processes"``: each holds its own tree(s); the parent
    merges their root statistics."""

    def __init__(self, player: _MCTSPlayer) -> None:
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
                               args=(child, self.stop_event, type(player).__name__,
                                     player._process_options(w, n)),
                               name=f"catsearch-{player.name}-{w}")
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)

    def search(self, view, plan, deadline, info, legal, t0) -> list[dict]:
        n = len(self.conns)
        track = self.track
        if track is not None and not (
                track["game"] == view.game_id and track["players"] == view.players
                and track["seat"] == view.current_player and track["ply"] == view.ply):
            self.new_game()          # the kept trees do not lead here: the workers drop them
        iters = _split(plan["iterations"], n)
        nodes = _split(plan["nodes"], n) if plan["nodes"] else [0] * n
        chunk = self.player.info_interval if info is not None else None
        text = view.to_text()
        for w, conn in enumerate(self.conns):
            p = dict(plan, iterations=iters[w], nodes=nodes[w],
                     seed=_mix(plan["seed"] + 0x632BE59BD9B4E019 * w))
            conn.send(("search", view.game_id, text, p, deadline, chunk))
        latest: list[dict | None] = [None] * n
        final: list[dict | None] = [None] * n
        error = None
        while any(f is None for f in final):
            waiting = [c for c, f in zip(self.conns, final) if f is None]
            for conn in multiprocessing.connection.wait(waiting, timeout=self.player.info_interval):
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
            if info is not None and ready and any(f is None for f in final):
                info(self.player._result(ready, legal, view.players, time.perf_counter() - t0))
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
        for conn in self.conns:
            try:
                conn.send(("close",))
            except (OSError, BrokenPipeError):
                pass
        for proc in self.procs:
            proc.join(2)
            if proc.is_alive():
                proc.terminate()
        self.conns, self.procs = [], []
