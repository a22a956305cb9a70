"""The MCTS players: :class:`ISMCTS` and :class:`DeterminizedMCTS` (PIMC).

Each is a configured object over Cython search cores (:mod:`catsearch.search.ismcts`,
:mod:`catsearch.search.pimc`, both on the tree of :mod:`catsearch.search.tree`). What they
share lives in one place each: the option declarations in :mod:`catsearch.search.options`, the
budget in :mod:`catsearch.search.limits`, the running of the cores (threads, processes, info,
stop) in :mod:`catsearch.search.driver`, and the merging of results and the choice of the move
in :mod:`catsearch.search.results`. This module holds the players themselves: their options,
plans, tree reuse and the hooks that differ between the two. See ``docs/search.rst``.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

from catsearch._core.game import lookup
from catsearch._core.state import State
from catsearch.search.driver import Driver, SearchPlan, Track, worker_seed
from catsearch.search.ismcts import ISMCTSCore
from catsearch.search.limits import Limits, resolve
from catsearch.search.particles import Belief
from catsearch.search.options import (
    DEFAULT_ITERATIONS,
    ISMCTS_OPTIONS,
    MCTS_ALIASES,
    MCTS_OPTIONS,
    PIMC_ALIASES,
    PIMC_OPTIONS,
    configure,
    game_default,
    refuse,
)
from catsearch.search.pimc import PIMCCore
from catsearch.search.players import InfoCallback, Player, SearchResult, _seat_view, forced_result
from catsearch.search.results import (decide_drawn, decide_summed, decide_voted, merge, snapshot,
                                      split)
from catsearch.search.tree import AUX_BYTES, NODE_BYTES

__all__ = ["ISMCTS", "DeterminizedMCTS", "MCTSPlayer", "NODE_BYTES"]

#: what bounds an MCTS search (see catsearch.search.limits)
_COUNTS = ("iterations", "nodes", "seconds")
_DEFAULT_BUDGET = Limits(iterations=DEFAULT_ITERATIONS)


class MCTSPlayer(Player):
    """What ISMCTS and determinized MCTS share: options, plans, the driver, reuse.

    Options (keyword-only; declared in :data:`catsearch.search.options.MCTS_OPTIONS`): see
    ``docs/search.rst``. With neither ``iterations`` nor ``seconds`` a search runs
    10,000 iterations; either one given replaces that default (``seconds=2`` searches two
    seconds); both: whichever ends first.
    """

    OPTIONS = MCTS_OPTIONS
    ALIASES = MCTS_ALIASES

    def __init__(self, **options: Any) -> None:
        configure(self, options)
        self._own = Limits(iterations=self.iterations or None, seconds=self.seconds)
        if self.playout_mix is not None and self.playout != "heuristic":
            refuse(self.name, f"playout_mix={self.playout_mix} mixes the heuristic into the "
                   "playouts: it needs playout=heuristic", "playout_mix", self.playout_mix)
        if self.iterations == 0 and self.seconds is None:
            refuse(self.name, "give iterations or seconds (or both): iterations=0 leaves the "
                   "search unbounded (Limits(infinite=True) searches until stop())",
                   "iterations", 0)
        self._seeds = random.Random(self.seed)
        self._driver = Driver(self)
        self._kept: list = []           # cores kept for reuse
        self._track: Track | None = None  # what the kept cores stand for
        # in a worker process: the parent checks that the moves follow on (the notation
        # the views travel in does not carry the ply)
        self._trust_ply = False
        self._belief: Belief | None = None  # inference=policy: the seat's weighted worlds
        self._search_belief: Belief | None = None  # what the cores of this search draw from

    @property
    def budget(self) -> Limits:
        """What a search runs under when its limits set no budget: the player's own
        ``iterations`` and ``seconds``, else the default (``DEFAULT_ITERATIONS``)."""
        return resolve(None, self._own, _DEFAULT_BUDGET, counts=_COUNTS)

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

    def _process_options(self, worker: int, nworkers: int) -> dict:
        """The options of the player of worker process ``worker``: one thread, no seed (the
        parent seeds each search)."""
        return dict(self._values, workers=1, parallel="threads", seed=None,
                    inference="rules" if self.inference == "policy" else self.inference)

    def _core_kwargs(self, game_id: str) -> dict:
        cutoff = self.cutoff if self.cutoff is not None else game_default("cutoff", game_id)
        mix = 0.0
        if self.playout == "heuristic":
            mix = self.playout_mix
            if mix is None:
                mix = game_default("playout_mix", game_id)
        c, prior = self.exploration, self.prior
        if c is None:                       # ISMCTS: the game's (search.options)
            c = game_default("exploration", game_id)
        if prior is None:
            prior = game_default("prior", game_id)
        return dict(c=c, mix=mix, cutoff=cutoff, max_nodes=self.max_nodes, prior=prior,
                    weights=self.weights_for(game_id))

    def _inferring(self, view: State) -> State:
        """A copy of ``view`` whose worlds honour this player's ``inference`` (``policy``:
        the rules', which the belief's worlds honour too, then weighs)."""
        view = view.clone()
        view.inference = "none" if self.inference == "none" else "rules"
        return view

    def _particles(self, game_id: str) -> int:
        return self.particles if self.particles is not None else game_default("particles",
                                                                               game_id)

    @property
    def follows_moves(self) -> bool:
        """Whether :meth:`observe` does anything: it follows the game with the kept trees
        (``reuse=true``) or the belief (``inference=policy``)."""
        return bool(self.reuse) or self.inference == "policy"

    @property
    def belief(self) -> Belief | None:
        """With ``inference=policy``: the seat's belief (its weighted worlds, see
        :mod:`catsearch.search.particles`), as the last search or observation left it."""
        return self._belief

    def _belief_for(self, view: State, seat: int, seed: int) -> Belief | None:
        """The belief this search draws its worlds from: the one followed so far if it stands
        for ``view``, else a fresh one (rule inference's worlds, equal weights)."""
        if self.inference != "policy":
            return None
        b = self._belief
        if b is None or b.seat != seat or not b.agrees(view):
            b = Belief(self._inferring(view), seat, count=self._particles(view.game_id),
                       temperature=self.policy_temperature, seed=seed)
            self._belief = b
        return b

    def _follow_belief(self, state: State, move: str | int) -> None:
        """Weigh the belief's worlds by one move seen (see :meth:`observe`)."""
        b = self._belief
        if b is None:
            if self.inference != "policy" or state.view_seat is None or state.is_terminal():
                return
            b = self._belief = Belief(self._inferring(state), state.view_seat,
                                      count=self._particles(state.game_id),
                                      temperature=self.policy_temperature,
                                      seed=self._seeds.getrandbits(64))
        if state.view_seat is None:
            before = state.view(b.seat)
            if isinstance(move, str):
                raise ValueError("an observation is read on the seat's view, not on the full "
                                 "state")
            code = state.observe_move(move, b.seat) if move < state.num_distinct_moves else move
            after = state.clone()
            after.apply(move)
            after = after.view(b.seat)
        elif state.view_seat == b.seat and isinstance(move, str):
            before, after = state, state.clone()
            code = after.play_observation(move)
        else:       # a move as an int on a view: what a draw showed is unknown; start again
            self._belief = None
            return
        if not b.agrees(before) or before.is_terminal():
            self._belief = None
            return
        if not after.is_terminal():
            after.inference = "rules"
            b.update(after, before.current_player, code)

    @property
    def bytes_per_node(self) -> int:
        """Bytes one tree node takes (the node pool grows by doubling: up to twice that is
        reserved per node in use)."""
        return NODE_BYTES

    # -- searching --------------------------------------------------------------------------
    def _plan(self, limits: Limits | None) -> SearchPlan:
        """The plan of one search (see :class:`~catsearch.search.driver.SearchPlan`)."""
        budget = resolve(limits, self._own, _DEFAULT_BUDGET, counts=_COUNTS)
        if budget.seed is not None:
            seed = budget.seed
        elif self.seed is not None:
            seed = self._seeds.getrandbits(64)
        else:
            seed = int.from_bytes(os.urandom(8), "little")
        return SearchPlan.from_budget(budget, seed)

    def search(self, state: State, *, limits: Limits | None = None,
               info: InfoCallback | None = None) -> SearchResult:
        """Search ``state`` for ``state.current_player`` from that seat's view only.

        :param limits: overrides of this player's budget for this search (see
            :class:`Limits`; ``depth``: no node is expanded deeper than that below the root).
            A search bounded by ``nodes`` alone also ends when the tree stops growing.
        :param info: called with a partial :class:`SearchResult` every ``info_interval``
            seconds (from this thread, between chunks of the C loop).
        :raises ValueError: the game is over, a view of another seat, or bad limits.
        """
        t0 = time.perf_counter()
        view = _seat_view(state)
        seat = state.current_player
        plan = self._plan(limits)
        self.weights_for(view.game_id)       # a weight the game lacks: say so now
        forced = forced_result(view, t0, self.forced)
        if forced is not None:
            return forced
        self._search_belief = self._belief_for(view, seat, plan.seed ^ 0x5EED)
        legal = view.legal_moves()
        decide = self._decider(view, plan.seed)

        def result(snaps: list[dict]) -> SearchResult:
            return merge(snaps, legal, view.players, time.perf_counter() - t0, decide)

        emit = None if info is None else (lambda snaps: info(result(snaps)))
        return result(self._driver.search(view, seat, plan, emit))

    def _decider(self, view: State, seed: int):
        """How this search picks its move from the merged root statistics."""
        return self._decide

    def _snapshot(self, core) -> dict:
        return snapshot(core, self._trees(core))

    def _prepare(self, view: State, seat: int, plan: SearchPlan) -> list:
        """The cores for this search: the kept ones, rebased, if the information set
        continues from the last search (see :meth:`observe`), else fresh ones."""
        n = self.workers
        seeds = [worker_seed(plan.seed, w) for w in range(n)]
        track = self._track
        cores = []
        if (self.reuse and track is not None and len(self._kept) == n
                and track.leads_to(view, seat, trust_ply=self._trust_ply)):
            for core, s in zip(self._kept, seeds):
                core.set_belief(self._search_belief)
                self._rebase(core, view, s)
                cores.append(core)
        else:
            cores = [self._new_core(view, seat, seeds[w], w, n) for w in range(n)]
            for core in cores:
                core.set_belief(self._search_belief)
        self._kept = []
        self._track = None
        for core in cores:
            core.set_max_depth(plan.depth)
        return cores

    def _finish(self, view: State, seat: int, cores: list) -> None:
        if self.reuse:
            self._kept = cores
            self._track = Track(view.game_id, view.players, seat, view.ply)

    def stop(self) -> None:
        """Make a running search (in another thread) return now with its best move so far;
        it returns within one iteration with threads, within milliseconds with processes."""
        self._driver.stop()

    # -- reuse ------------------------------------------------------------------------------
    def observe(self, state: State, move: str | int) -> None:
        """Follow a move played in ``state`` (the seat's view before it, or the full state)
        with the kept tree(s) (``reuse=True``): ``move`` is the seat's observation of it (its
        text, read on the view), or the move, or the code of what the seat saw of it.

        A move this seat sees in full moves every tree to the child it leads to; a move
        hidden from this seat moves only the seat's own tree (MO-ISMCTS) by what it saw, and
        forgets the trees that would need the hidden move. Anything that does not fit the
        kept trees (another game, a ply out of step, another seat's view) drops them.

        With ``inference=policy`` the belief follows the move too: each of its worlds plays
        it and is weighed by how likely it was there (an observation that does not follow on
        from the belief's last view drops the belief; the next search starts a fresh one).
        """
        self._follow_belief(state, move)
        if not self.reuse:
            return
        if isinstance(move, str):
            if state.view_seat is None:
                raise ValueError("an observation is read on the seat's view, not on the full "
                                 "state")
            move = state.clone().play_observation(move)
        if self._driver.pool is not None:
            track = self._driver.pool.track
            if track is not None:
                view = self._observer_view(state, track)
                self._driver.pool.observe(view, move)
            return
        track = self._track
        if track is None:
            return
        view = self._observer_view(state, track, self._trust_ply)
        if view is None:
            self._kept, self._track = [], None
            return
        seat = track.seat
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
        self._track = track.advanced()

    @staticmethod
    def _observer_view(state: State, track: Track, trust_ply: bool = False) -> State | None:
        seat = track.seat
        if state.is_terminal() or not track.leads_to(state, seat, trust_ply=trust_ply):
            return None
        if state.view_seat is None:
            return state.view(seat)
        return state if state.view_seat == seat else None

    def new_game(self) -> None:
        """Forget the kept trees and the belief, and restart the seed sequence."""
        self._kept, self._track = [], None
        self._belief = None
        self._seeds = random.Random(self.seed)
        if self._driver.pool is not None:
            self._driver.pool.new_game()

    def close(self) -> None:
        """Stop the worker processes (if any) and free the trees."""
        self._kept, self._track = [], None
        self._driver.close()

    def __del__(self) -> None:
        try:
            self._driver.close()
        except Exception:
            pass

    def __getstate__(self):
        raise TypeError(f"{type(self).__name__} is not picklable; rebuild it with "
                        f"make_player({self.spec!r})")


class ISMCTS(MCTSPlayer):
    """Information Set MCTS (Cowling, Powley & Whitehouse 2012).

    ``mode``: ``so`` (SO-ISMCTS: one tree over the searching seat's information sets, each
    move as the mover made it), ``mo`` (MO-ISMCTS: one tree per seat, each move as that seat
    saw it; needed where moves are hidden, as The Cat's simultaneous actions), or ``auto``
    (the default: MO when the game declares that a seat may see another's move as other than
    it was, ``GameSpec.hidden_moves``, else SO, which is then the same search done faster). Each iteration draws a fresh determinization; UCB uses availability counts;
    every node keeps the reward of the seat that moved into it (max-n).

    Keyword-only options: see ``docs/search.rst`` (``iterations``, ``seconds``,
    ``exploration`` (``c``), ``final``, ``playout``, ``playout_mix``, ``prior``, ``cutoff``,
    ``seed``, ``reuse``, ``workers``, ``parallel``, ``max_nodes``, ``info_interval``, ``mode``,
    ``select``, ``gamma``).
    """

    name = "ismcts"
    OPTIONS = ISMCTS_OPTIONS

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._decide = decide_summed("visits" if self.final == "draw" else self.final)

    def resolved_mode(self, state: State) -> str:
        """``so`` or ``mo``: what ``mode`` means for ``state``'s game (``auto``: ``mo``
        where the game declares hidden moves, ``GameSpec.hidden_moves``)."""
        if self.mode != "auto":
            return self.mode
        return "mo" if lookup(state.game_id).spec.hidden_moves else "so"

    @property
    def bytes_per_node(self) -> int:
        """Bytes one tree node takes: 32, and 8 more beside it with ``select=rm|exp3`` (the
        node pool grows by doubling: up to twice that is reserved per node in use)."""
        return NODE_BYTES + (AUX_BYTES if self.select in ("rm", "exp3") else 0)

    def resolved_select(self, state: State) -> str:
        """``ucb``, ``rm`` or ``exp3``: the selection at ``state``'s game's hidden-move nodes
        (``select``, else the game's default; ``ucb`` in a game without hidden moves, where
        there are no such nodes)."""
        if not lookup(state.game_id).spec.hidden_moves:
            return "ucb"
        return self.select if self.select is not None else game_default("select",
                                                                        state.game_id)

    def _decider(self, view, seed):
        """With ``final=draw`` at a root whose moves another seat does not see: the move
        drawn from the root's average strategy (:func:`~catsearch.search.results.
        decide_drawn`; less the ``gamma`` exploration with ``select=rm|exp3``); elsewhere
        the ``final`` rule (``draw``: ``visits``)."""
        if self.final == "draw" and _hidden_choice(view):
            gamma = self.gamma if self.resolved_select(view) != "ucb" else 0.0
            return decide_drawn(gamma, seed ^ 0xD2A3)
        return self._decide

    def _new_core(self, view, seat, seed, worker, nworkers):
        core = ISMCTSCore(self._inferring(view), seat, mo=self.resolved_mode(view) == "mo",
                          seed=seed, **self._core_kwargs(view.game_id))
        core.set_select(self.resolved_select(view), self.gamma)
        return core

    def _rebase(self, core, view, seed):
        core.rebase(self._inferring(view), seed)

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


def _hidden_choice(view: State) -> bool:
    """Whether a legal move of the seat to move is seen by another seat as other than it was
    (the root is a hidden, simultaneous choice)."""
    seat = view.current_player
    n = view.num_distinct_moves
    return any(view.observe_move(m, q) != m for m in view.legal_moves() if m < n
               for q in range(view.players) if q != seat)


class DeterminizedMCTS(MCTSPlayer):
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
    OPTIONS = PIMC_OPTIONS
    ALIASES = PIMC_ALIASES

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        if self.determinizations < self.workers:
            refuse(self.name, f"determinizations ({self.determinizations}) must be at least "
                   f"the number of workers ({self.workers}): each worker searches its own",
                   "determinizations", self.determinizations)
        self._decide = decide_voted(self.final, self.combine)

    def _new_core(self, view, seat, seed, worker, nworkers):
        share = split(self.determinizations, nworkers)[worker]
        return PIMCCore(self._inferring(view), seat, determinizations=share, seed=seed,
                        belief=self._search_belief, **self._core_kwargs(view.game_id))

    def _rebase(self, core, view, seed):
        core.rebase_pimc(self._inferring(view), seed)

    def _follow(self, core, view, move, observed, public, seat):
        if public:
            core.advance(move)
        else:
            core.forget_all()

    def _trees(self, core):
        return [core.children(t) for t in range(core.determinizations)]

    def _process_options(self, worker, nworkers):
        return dict(super()._process_options(worker, nworkers),
                    determinizations=split(self.determinizations, nworkers)[worker])
