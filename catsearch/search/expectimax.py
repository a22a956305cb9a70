"""Expectimax for hidden information, over one seat's view (``expectimax``).

The search never sees a full state: it starts from ``state.view(seat)`` and treats every
unknown the next decision needs as a chance node, through the contract's
``chance_outcomes_c`` / ``apply_chance_c``: a draw from the unknown deck, the hidden cards of
an opponent about to act. The outcomes are the card types the seat has not seen, weighted by
how many of each remain unseen, never the true hidden cards. Consecutive chance steps (an
opponent's three hidden cards, one after the other) are resolved into one chance node whose
children are merged by Zobrist hash, so the order of the reveals costs nothing. A node with
more outcomes than ``max_chance`` is sampled (sparse sampling, Kearns, Mansour & Ng 2002):
``samples`` resolutions drawn with a generator seeded by the search seed and the node.

Decision nodes are valued either as one number, the searching seat's utility (two players:
*-minimax with Star1 and Star2 pruning, Ballard 1983, Hauk, Buro & Schaeffer 2004; three or
four players on request: paranoid, the others as one minimising coalition), or as one number
per seat (max-n, the default for three and four players). Iterative deepening runs under a
depth, node or time limit, with a transposition table keyed by the Zobrist hash of the node
together with the ply, the searching seat and the valuation; the table's best moves order the
next iteration. Cut-off nodes are valued by the game's ``evaluate_c`` (or by heuristic
playouts). Where a game records the hidden simultaneous choices of the other seats as unknown
(``apply_hidden_c``), the search does so instead of branching on them: chance reveals them
once the step resolves, after the searching seat's own choice.

The search loop runs without the GIL and touches no Python object: states live on a stack of
preallocated clones addressed by C pointers, and chance children are snapshots of the game's
C struct (one ``memcpy`` each): :class:`catsearch.search.chance.ChanceStack`. The search is
:class:`catsearch.search.expectimax_core.ExpectimaxCore`; this module holds the player, its
options (declared in :mod:`catsearch.search.options`) and its limits (resolved by
:mod:`catsearch.search.limits`).
"""

from __future__ import annotations

import os
import time
from typing import Any

from catsearch._core.state import State
from catsearch.search.expectimax_core import MAX_DEPTH, PRUNINGS, ExpectimaxCore
from catsearch.search.limits import Limits, StopToken, resolve
from catsearch.search.options import EXPECTIMAX_ALIASES, EXPECTIMAX_OPTIONS, configure
from catsearch.search.players import (InfoCallback, MoveStats, Player, SearchResult, _seat_view,
                                      forced_result)

__all__ = ["Expectimax", "DEFAULT_DEPTH", "DEFAULT_NODES", "MAX_DEPTH"]

#: the depth searched when no limit at all is given, within DEFAULT_NODES nodes
DEFAULT_DEPTH = 3
#: the node budget when no limit at all is given (0.1-0.2 s in The Cat, where it reaches
#: depth 2 with its wide chance nodes sampled; the other games reach depth 3 well within it)
DEFAULT_NODES = 200_000

#: what bounds an expectimax search, and its budget when nothing does (catsearch.search.limits)
_COUNTS = ("depth", "nodes", "seconds")
_DEFAULT_BUDGET = Limits(depth=DEFAULT_DEPTH, nodes=DEFAULT_NODES)


class Expectimax(Player):
    """Expectimax over the searching seat's view: chance nodes for what it cannot see.

    Every option is keyword-only; :func:`catsearch.make_player` builds the same player from
    ``"expectimax:depth=3,mode=paranoid"``.

    :param depth: deepest iteration, in decision plies (1 to 64). When none of ``depth``,
        ``nodes`` and ``seconds`` is given the search goes to depth 3 within 200,000 nodes;
        any one given replaces that default (``nodes=5000``: as deep as 5,000 nodes allow).
    :param nodes: stop after this many nodes (decision, chance and leaf nodes visited).
    :param seconds: stop after this much wall time.
    :param mode: how decision nodes are valued with 3 or 4 players: ``maxn`` (each seat
        maximises its own value), ``paranoid`` (the others minimise the searching seat's);
        ``auto`` (default) is max-n for 3-4 players and *-minimax for 2. ``maxn`` with 2
        players gives the same values as *-minimax, without its pruning.
    :param pruning: in *-minimax and paranoid search: ``star2`` (default: alpha-beta at
        decision nodes, Star1 windows and Star2 probing at chance nodes), ``star1``, or
        ``none`` (plain expectimax). All three return the same value; they differ in nodes.
    :param max_chance: the most outcomes one chance node may have (0: no bound). Where the
        exact outcomes are more (default 16), the search draws ``samples`` resolutions of
        the node with the seed (``chance="sample"``, the default: sparse sampling, without
        enumerating the node), or keeps the ``max_chance`` most probable ones
        (``chance="top"``, also at each step of a multi-card resolution) and renormalises.
        Below the bound both search every outcome, exactly.
    :param chance: ``sample`` (default) or ``top``, see ``max_chance``.
    :param samples: the resolutions a sampled chance node draws (default 6), merged where
        the same; the node's value is their average, which Star1/Star2 bound exactly.
    :param tt_size: transposition table entries (rounded up to a power of two).
    :param playouts: cut-off nodes are valued by the mean returns of this many playouts of
        the game's heuristic player (0, the default: by the game's evaluation).
    :param seed: seeds the sampling of wide chance nodes (``None``: a fresh seed per
        search); a node's sample depends on the seed and the node alone, so the same seed
        gives the same search; with ``chance="top"`` it is deterministic whatever the seed.
    :param forced: ``instant`` (default): a position with one legal move is answered at once,
        valued by the game's evaluation; ``search``: searched like any other.
    """

    name = "expectimax"
    OPTIONS = EXPECTIMAX_OPTIONS
    ALIASES = EXPECTIMAX_ALIASES

    def __init__(self, **options: Any) -> None:
        configure(self, options)
        self._own = Limits(depth=self.depth, nodes=self.nodes, seconds=self.seconds)
        entries = 1
        while entries < self.tt_size:
            entries *= 2
        self._core = ExpectimaxCore(entries)

    # -- Player -------------------------------------------------------------------------
    def search(self, state: State, *, limits: Limits | None = None,
               info: InfoCallback | None = None) -> SearchResult:
        """Search ``state`` for its seat to move, from that seat's view only.

        :param limits: for this search: a budget (``nodes``, ``seconds``, ``infinite``,
            or ``iterations``, which counts MCTS iterations and so limits nothing here)
            replaces this player's depth, nodes and seconds as a whole; ``depth`` and
            ``seed`` override where given; with no limit left, depth 3 within 200,000 nodes.
            ``infinite`` searches until :meth:`stop`, the deepest depth (64) or the whole
            game tree.
        :param info: called with a partial :class:`SearchResult` after each iteration and
            about every 0.1 s (at most), from the searching thread.
        :raises ValueError: the game is over, or the state is another seat's view.
        """
        t0 = time.perf_counter()
        if not isinstance(state, State):
            raise TypeError(f"search needs a catsearch State, not {type(state).__name__}")
        view = _seat_view(state)
        if view is state:
            view = view.clone()
        view.inference = self.inference     # what its chance nodes deal
        seat = view.current_player
        if view.chance_outcomes():
            raise ValueError(f"seat {seat}'s own view {view.to_text()!r} asks for chance "
                             f"outcomes before its decision: a seat's view must show what it "
                             f"needs to decide (the game's chance_outcomes_c is wrong here)")
        budget = resolve(limits, self._own, _DEFAULT_BUDGET, counts=_COUNTS,
                         depth_max=MAX_DEPTH)
        weights = self.weights_for(view.game_id)
        forced = forced_result(view, t0, self.forced)
        if forced is not None:
            return forced
        depth, nodes, seconds = budget.depth, budget.nodes, budget.seconds
        seed = budget.seed if budget.seed is not None else self.seed
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        players = view.players
        vector = self.mode == "maxn" or (self.mode == "auto" and players > 2)
        n = players

        def to_result(r):
            if r["best"] < 0:
                move = view.heuristic_move(seed=seed, weights=self.weights)
                value = tuple(view.evaluate())
            else:
                move = r["moves"][r["best"]]
                value = self._value(r["values"][r["best"]], seat, n)
            stats = {}
            for m, v, k in zip(r["moves"], r["values"], r["nodes"]):
                if v is not None:
                    stats[m] = MoveStats(visits=k, mean=v[seat] if isinstance(v, tuple) else v)
            return SearchResult(move=move, value=value, stats=stats,
                                iterations=r["iterations"], seconds=time.perf_counter() - t0,
                                nodes=r["total_nodes"], depth=r["depth"])

        def callback(r):
            info(to_result(r))

        r = _deepen(self._core, view, seat=seat, vector=vector,
                    pruning=PRUNINGS[self.pruning], max_chance=self.max_chance,
                    sample=self.chance == "sample", samples=self.samples, seed=seed,
                    max_depth=depth or MAX_DEPTH,
                    node_limit=nodes or 0, seconds=seconds or 0.0, playouts=self.playouts,
                    weights=weights, stop=budget.stop,
                    info=None if info is None else callback)
        return to_result(r)

    @staticmethod
    def _value(v, seat: int, n: int) -> tuple[float, ...]:
        if isinstance(v, tuple):
            return v
        if n == 2:
            return (v, 1.0 - v) if seat == 0 else (1.0 - v, v)
        rest = (1.0 - v) / (n - 1)
        return tuple(v if p == seat else rest for p in range(n))

    def stop(self) -> None:
        """Ask a running search (from another thread) to finish now with its best move."""
        self._core.stop()

    def close(self) -> None:
        """Free the transposition table (``tt_size`` entries, 48 bytes each) and the search
        stacks now; a later search allocates them again."""
        self._core.close()


def _deepen(core: ExpectimaxCore, root: State, *, max_depth: int, seconds: float,
            node_limit: int, info=None, stop: StopToken | None = None,
            **options) -> dict[str, Any]:
    """Iterative deepening of ``core`` over ``root``: depth 1, 2, ... up to ``max_depth``, each
    iteration in C, until a limit stops one, the tree is solved or the next iteration would
    not finish in time; each iteration searches the previous best move first, then the others
    by value.

    :returns: a dict with ``moves`` (root moves), ``values`` (per root move, the value per
        seat or the scalar value, ``None`` if never searched), ``exact`` (per root move),
        ``nodes`` (per root move), ``best`` (index), ``depth`` (completed), ``iterations``,
        ``total_nodes``, ``aborted``, ``solved`` and ``seconds``.
    """
    t0 = time.perf_counter()
    best, depth_done, solved, aborted = -1, 0, False, False

    def snapshot(b: int) -> dict[str, Any]:
        _, total, per_move = core.progress()
        return dict(moves=list(moves), values=list(values), exact=list(exact), nodes=per_move,
                    best=b, depth=depth_done, iterations=depth_done, total_nodes=total,
                    aborted=aborted, solved=solved, seconds=time.perf_counter() - t0)

    def hook() -> None:
        # the last completed iteration's best, or the best so far of the first
        b = best if best >= 0 else core.progress()[0]
        if b >= 0:
            info(snapshot(b))

    moves = core.begin(root, max_depth=max_depth, seconds=seconds, node_limit=node_limit,
                       info=None if info is None else hook, **options)
    # the token's hook after begin(), which clears the stop flag: a token set before is kept
    unhook = stop.on_set(core.stop) if stop is not None else (lambda: None)
    n = len(moves)
    values: list[Any] = [None] * n
    exact = [False] * n
    try:
        for d in range(1, max_depth + 1):
            found, index, aborted, solved_now = core.iterate(d)
            for i, v in enumerate(found):      # this iteration's values of the moves it did
                if v is not None:
                    values[i], exact[i] = (v, True) if options["vector"] else v
            if aborted:
                # a partial iteration counts once it has searched the previous best move
                if found[0] is not None and index >= 0:
                    best = index
                break
            best, depth_done, solved = index, d, solved_now
            if info is not None:
                info(snapshot(best))
            if solved or (n == 1 and (seconds > 0 or node_limit > 0)):
                break          # deeper gives the same (solved), or the only move is known
            if seconds > 0 and time.perf_counter() - t0 > 0.5 * seconds:
                break          # the next iteration would not finish in time
            # the best move first, then the others by value (most promising first)
            seat = options["seat"]
            score = [-1.0 if v is None else (v[seat] if isinstance(v, tuple) else v)
                     for v in values]
            order = [best] + sorted((i for i in range(n) if i != best), key=lambda i: -score[i])
            core.reorder(order)
            moves[:] = [moves[i] for i in order]
            values[:] = [values[i] for i in order]
            exact[:] = [exact[i] for i in order]
            best = 0
        return snapshot(best)
    finally:
        unhook()
        core.end()
