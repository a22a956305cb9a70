"""Players: everything that picks moves, behind one interface (built from one spec string by
:func:`catsearch.search.spec.make_player`: ``make_player("ismcts:iterations=2000,c=0.7")``
builds any registered player; the engine and the arena build players only this way). A player sees a state and answers a move
for the seat to move, using only what that seat knows.
"""

from __future__ import annotations

import abc
import random
import time
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable

from catsearch._core.game import lookup
from catsearch._core.options import SEED, Option
from catsearch._core.state import State
from catsearch.search.limits import Limits, check_limits
from catsearch.search.options import WEIGHTS, configure, declaring_class, differing, spec_text

__all__ = [
    "Limits",
    "MoveStats",
    "RankedMove",
    "SearchResult",
    "Player",
    "RandomPlayer",
    "HeuristicPlayer",
]


@dataclass(frozen=True)
class MoveStats:
    """What a search learned of one root move: how often it was tried and its mean reward
    for the searching seat (a value in [0, 1]), and, where the searcher keeps it, its mean
    reward for every seat (``value``; ``None``: only the searching seat's is known, as in
    MCTS, whose tree keeps each node's reward for the seat that moved into it)."""

    visits: int
    mean: float
    value: tuple[float, ...] | None = None


@dataclass(frozen=True, kw_only=True)
class RankedMove:
    """One line of an analysis (:meth:`SearchResult.ranked`).

    :ivar rank: its place, 1 for the best.
    :ivar move: the move.
    :ivar visits: how often the search tried it (expectimax: the nodes below it).
    :ivar mean: its mean reward for the searching seat (0 to 1).
    :ivar value: its mean reward for every seat, where the searcher keeps that (``None``:
        see :class:`MoveStats`).
    """

    rank: int
    move: int
    visits: int
    mean: float
    value: tuple[float, ...] | None = None


@dataclass(frozen=True)
class SearchResult:
    """The answer of a search (frozen).

    :ivar move: the chosen move (an int of the state's game).
    :ivar value: the estimated returns per seat from the searched state.
    :ivar stats: per root move, its :class:`MoveStats` (read-only mapping).
    :ivar iterations: iterations (MCTS) or completed depth iterations (expectimax) run.
    :ivar seconds: wall time spent.
    :ivar nodes: nodes created or visited.
    :ivar depth: the deepest depth reached.
    """

    move: int
    value: tuple[float, ...]
    stats: Mapping[int, MoveStats] = field(default_factory=lambda: MappingProxyType({}))
    iterations: int = 0
    seconds: float = 0.0
    nodes: int = 0
    depth: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.stats, MappingProxyType):
            object.__setattr__(self, "stats", MappingProxyType(dict(self.stats)))
        object.__setattr__(self, "value", tuple(self.value))

    def ranked(self, k: int = 3) -> tuple[RankedMove, ...]:
        """The ``k`` best moves of the search, best first: the chosen move, then the others
        by visits, then mean, then the lowest move (fewer than ``k`` when the search has
        statistics for fewer moves; none for a player that keeps none, as ``random``).

        :raises TypeError: ``k`` is not a whole number.
        :raises ValueError: ``k`` < 1.
        """
        if isinstance(k, bool) or not isinstance(k, int):
            raise TypeError(f"ranked(k): k must be a whole number, not {type(k).__name__}")
        if k < 1:
            raise ValueError(f"ranked(k): k must be >= 1, not {k}")
        stats = self.stats
        order = sorted(stats, key=lambda m: (m != self.move, -stats[m].visits,
                                             -stats[m].mean, m))
        return tuple(RankedMove(rank=i, move=m, visits=stats[m].visits, mean=stats[m].mean,
                                value=stats[m].value)
                     for i, m in enumerate(order[:k], 1))


def forced_result(view: State, t0: float, forced: str = "instant") -> SearchResult | None:
    """The answer to a view whose seat has one legal move, given at once by every searcher
    (there is nothing to choose; about 44% of Herding Cats' moves are forced): that move,
    valued by the game's evaluation, no search. ``None`` when there is a choice or when the
    searcher's ``forced`` option is ``"search"`` (to learn the position's value).
    ``t0``: when the search began (``time.perf_counter()``)."""
    if forced != "instant":
        return None
    legal = view.legal_moves()
    if len(legal) != 1:
        return None
    value = tuple(view.evaluate())
    return SearchResult(move=legal[0], value=value,
                        stats={legal[0]: MoveStats(visits=0, mean=value[view.current_player],
                                                   value=value)},
                        seconds=time.perf_counter() - t0)


#: ``info(partial)`` is called from the searching thread every so often (about 10 times a
#: second at most) with a partial :class:`SearchResult`: its ``move`` is the best so far.
InfoCallback = Callable[[SearchResult], None]


class Player(abc.ABC):
    """Anything that chooses moves: a searcher, a baseline, an external engine.

    Subclasses implement :meth:`search`; :meth:`choose_move` is its move. A player is told
    of a new game with :meth:`new_game` (searchers that reuse trees drop them there) and
    releases what it holds with :meth:`close`.
    """

    #: the name ``make_player`` knows it by
    name: str = "player"
    #: the options of its constructor (keyword-only) and of its spec, declared once
    OPTIONS: tuple[Option, ...] = ()
    #: short names of options (``{"c": "exploration"}``)
    ALIASES: dict[str, str] = {}

    @abc.abstractmethod
    def search(self, state: State, *, limits: Limits | None = None,
               info: InfoCallback | None = None) -> SearchResult:
        """Search ``state`` for its seat to move, using only what that seat knows.

        :param limits: overrides of the player's own limits for this search.
        :param info: called with partial results while the search runs.
        """

    def choose_move(self, state: State) -> int:
        """The move for ``state.current_player``."""
        return self.search(state).move

    def new_game(self) -> None:
        """Forget anything kept from an earlier game."""

    def weights_for(self, game_id: str) -> Any:
        """The heuristic's weights (``weights.NAME``) for game ``game_id``, checked against
        the game's: their C array (``GameSpec.weight_vector``; ``None`` for the game's own).
        Call it when the game becomes known, so a weight the game lacks is refused then.

        :raises OptionError: a weight the game lacks (the message lists its weights), or a
            value out of its range.
        """
        return lookup(game_id).spec.weight_vector(getattr(self, "weights", None))

    def check_game(self, game_id: str) -> Any:
        """Deprecated: :meth:`weights_for` (the same call, under the name of what it returns)."""
        warnings.warn("Player.check_game is deprecated: use Player.weights_for",
                      DeprecationWarning, stacklevel=2)
        return self.weights_for(game_id)

    def observe(self, view: State, observation: str | int) -> None:
        """Be told what this player's seat saw of a move (any seat's, its own included):
        ``observation`` is the text the game master sends (:meth:`State.observation`) and
        ``view`` the seat's view just before it (the :class:`~catsearch.search.table.Table`
        calls this for every seat and every move). Searchers that reuse their tree
        (``reuse=true``) follow the game with it; players that keep nothing ignore it (the
        default). For callers that follow a game move by move with ints instead,
        ``observation`` may be the move or the code of what the seat saw of it
        (``state.observe_move(move, seat)``, ``>= num_distinct_moves``)."""

    def stop(self) -> None:
        """Ask a running search (from another thread) to finish now with its best move."""

    def close(self) -> None:
        """Release resources (processes, threads)."""

    @property
    def spec(self) -> str:
        """A ``make_player`` spec that builds an equivalent player: its options that differ
        from their defaults, written as :class:`~catsearch.search.spec.PlayerSpec` writes
        them (:func:`~catsearch.search.options.spec_text`)."""
        values = getattr(self, "_values", None)
        if values is None:
            return self.name
        return spec_text(self.name, differing(declaring_class(type(self)).OPTIONS, values))

    def __repr__(self) -> str:
        return f"make_player({self.spec!r})"


def _seat_view(state: State) -> State:
    """The state as its seat to move sees it: a player never looks at anything else."""
    seat = state.current_player
    if seat < 0:
        raise ValueError("the game is over: there is no seat to move")
    if state.view_seat is None:
        return state.view(seat)
    if state.view_seat != seat:
        raise ValueError(f"this is seat {state.view_seat}'s view, but seat {seat} is to move")
    return state


class _SeededBaseline(Player):
    """A baseline whose only option is the seed of its own ``random.Random``."""

    OPTIONS = (SEED,)

    def __init__(self, **options: Any) -> None:
        """:param seed: the seed (0 to 2**64 - 1; ``None``: fresh randomness)."""
        configure(self, options)
        self._rng = random.Random(self.seed)

    def new_game(self) -> None:
        self._rng = random.Random(self.seed)


class RandomPlayer(_SeededBaseline):
    """Plays a uniformly random legal move: the floor every searcher must beat."""

    name = "random"

    def search(self, state: State, *, limits: Limits | None = None,
               info: InfoCallback | None = None) -> SearchResult:
        check_limits(limits)        # nothing in them bounds a random move, but they are checked
        t0 = time.perf_counter()
        move = self._rng.choice(_seat_view(state).legal_moves())
        n = state.players
        return SearchResult(move=move, value=(1.0 / n,) * n, iterations=1,
                            seconds=time.perf_counter() - t0)


class HeuristicPlayer(_SeededBaseline):
    """Plays each game's rule-based move (a sensible beginner's): a floor with some sense."""

    name = "heuristic"
    OPTIONS = (WEIGHTS, SEED)

    def search(self, state: State, *, limits: Limits | None = None,
               info: InfoCallback | None = None) -> SearchResult:
        check_limits(limits)        # nothing in them bounds the heuristic, but they are checked
        t0 = time.perf_counter()
        view = _seat_view(state)
        move = view.heuristic_move(seed=self._rng.randrange(2**63), weights=self.weights)
        return SearchResult(move=move, value=tuple(view.evaluate()), iterations=1,
                            seconds=time.perf_counter() - t0)
