"""The budget of a search, resolved in one place for every searcher.

A budget bounds one search: ``iterations`` (MCTS), ``nodes``, ``seconds``, and for expectimax
the ``depth`` it deepens to. It is resolved by :func:`resolve`, from three sources:

1. **the player's default budget**, used when nothing else bounds the search (ISMCTS and PIMC:
   10,000 iterations; expectimax: depth 3 within 200,000 nodes);
2. **the player's own budget options**: any one given replaces the default as a whole
   (``ISMCTS(seconds=2)`` searches 2 seconds, not 10,000 iterations; ``Expectimax(nodes=5000)``
   deepens until 5,000 nodes, not to depth 3);
3. **a search's** :class:`Limits`: any of ``iterations``, ``nodes``, ``seconds``, ``clock``
   and ``infinite`` replaces the player's budget as a whole (as a ``go movetime`` would);
   ``depth`` and ``seed`` override only themselves. A ``clock`` is spent by the time
   manager (:mod:`catsearch.search.timeman`): :meth:`Limits.for_state` turns it into the
   ``seconds`` of a search of that state (the engine and the arena call it, so the game's
   estimate of the moves to come and forced moves count); a clock that reaches a searcher
   unbound is planned over a generic horizon.

A budget that bounds nothing the searcher counts (``Limits(iterations=...)`` for expectimax,
which counts no iterations) leaves the default.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from catsearch._core.options import SEED, Option
from catsearch.search.timeman import Clock, TimePlan, plan_time

__all__ = ["Limits", "StopToken", "resolve", "check_limits", "MAX_COUNT", "BUDGET_LIMITS",
           "Clock"]

#: the largest iteration or node count a budget may ask for
MAX_COUNT = 2**62
#: a C int's largest value (counts the cores keep in C ints)
C_INT_MAX = 2**31 - 1


@dataclass(frozen=True)
class Positive(Option):
    """An option holding a finite number > 0 (a time): its range excludes its low end, 0."""

    low: float | None = 0.0

    def describe(self) -> str:
        return "a finite number > 0" + (" or None" if self.none_ok else "")

    def check(self, value: Any, owner: str = "") -> Any:
        value = super().check(value, owner)
        if value is not None and value <= 0:
            raise self._range_error(value, owner)
        return value


# -- the budget: the fields of Limits, and the options every searcher takes for them ------

ITERATIONS = Option("iterations", int, None, 0, MAX_COUNT, none_ok=True,
                    doc="iterations per search (0: no iteration limit)")
NODES = Option("nodes", int, None, 1, MAX_COUNT, none_ok=True, doc="nodes per search")
SECONDS = Positive("seconds", float, None, none_ok=True, doc="seconds per search")
DEPTH = Option("depth", int, None, 1, C_INT_MAX, none_ok=True, doc="the deepest depth")
#: the fields of :class:`Limits` that replace a player's budget as a whole
BUDGET_LIMITS = ("iterations", "nodes", "seconds")


class StopToken:
    """The stop of one search: :meth:`set` (from any thread, any number of times) ends the
    search it was given to (``Limits(stop=token)``) with its best move so far, whether that
    search is already running or has not begun yet: a search that starts with its token set
    runs its one obligatory iteration and returns. Searchers hook their cores to it
    (:meth:`on_set`); a token stays in its process (it does not pickle).
    """

    __slots__ = ("_lock", "_set", "_hooks")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._set = False
        self._hooks: list[Callable[[], None]] = []

    def set(self) -> None:
        """Stop the search (again: nothing more happens)."""
        with self._lock:
            if self._set:
                return
            self._set = True
            hooks, self._hooks = self._hooks, []
        for hook in hooks:
            hook()

    def is_set(self) -> bool:
        return self._set

    def on_set(self, hook: Callable[[], None]) -> Callable[[], None]:
        """Call ``hook()`` when the token is set (at once if it is); return a function that
        takes the hook back (a search does when it ends, so that a late :meth:`set` touches
        nothing of the next search)."""
        with self._lock:
            if not self._set:
                self._hooks.append(hook)
                return lambda: self._forget(hook)
        hook()
        return lambda: None

    def _forget(self, hook) -> None:
        with self._lock:
            if hook in self._hooks:
                self._hooks.remove(hook)

    def __reduce__(self):
        raise TypeError("a StopToken cannot leave its process (it stops searches there)")

    def __repr__(self) -> str:
        return f"<StopToken {'set' if self._set else 'not set'}>"


@dataclass(frozen=True)
class Limits:
    """Limits for one search, overriding the player's own options.

    The budget (``iterations``, ``nodes``, ``seconds``, ``infinite``): if any of it is given,
    it replaces the player's own budget as a whole (``Limits(seconds=2)`` searches 2 seconds,
    whatever iteration count the player was built with), as a ``go movetime`` would; if none
    is, the player's own budget applies. ``depth`` and ``seed`` override where not ``None``.
    See :mod:`catsearch.search.limits` for the whole rule.

    :ivar iterations: MCTS iterations (at least 1).
    :ivar nodes: nodes to create or visit (at least 1).
    :ivar depth: depth (expectimax plies; the deepest tree node below the root in MCTS).
    :ivar seconds: wall time (> 0).
    :ivar infinite: search until :meth:`Player.stop` is called, or ``stop`` is set (no other
        budget).
    :ivar seed: the seed of this search (0 to 2**64 - 1).
    :ivar clock: the seat's :class:`~catsearch.search.timeman.Clock` (its remaining time,
        increment, moves to go): the search takes the time the time manager plans
        (:meth:`for_state`); ``seconds``, ``iterations`` or ``nodes`` given too bound it as
        well (whichever ends first).
    :ivar stop: a :class:`StopToken` that ends this search when set, even if set before the
        search begins (``None``: :meth:`Player.stop` only, which reaches a running search).
        Not part of the budget: it compares and hashes as no field.
    """

    iterations: int | None = None
    nodes: int | None = None
    depth: int | None = None
    seconds: float | None = None
    infinite: bool = False
    seed: int | None = None
    stop: StopToken | None = field(default=None, compare=False, repr=False)
    clock: Clock | None = None

    def __post_init__(self) -> None:
        """Check every field (so that every ``Limits`` is a valid one, whichever player it
        is given to) and normalise it (numpy integers to ``int``, a whole number of
        seconds to ``float``).

        :raises TypeError: a field of the wrong type (``seed=1.5``, ``iterations="5"``,
            ``infinite=1``; ``True`` is not a count).
        :raises OptionError: a field out of range (``seconds=nan``, ``iterations=0``), the
            message naming it, the value and the range.
        """
        for name, opt in _limit_options().items():
            object.__setattr__(self, name, opt.check(getattr(self, name)))
        if not isinstance(self.infinite, bool):
            raise TypeError(f"Limits.infinite must be True or False, not "
                            f"{type(self.infinite).__name__} {self.infinite!r}")
        if self.stop is not None and not isinstance(self.stop, StopToken):
            raise TypeError(f"Limits.stop must be a StopToken or None, not "
                            f"{type(self.stop).__name__}")
        if self.clock is not None:
            if not isinstance(self.clock, Clock):
                raise TypeError(f"Limits.clock must be a catsearch.search.timeman.Clock or "
                                f"None, not {type(self.clock).__name__}")
            if self.infinite:
                raise ValueError("Limits: infinite cannot be combined with a clock")

    def time_plan(self, state=None) -> TimePlan | None:
        """The time manager's plan of a search of ``state`` on :attr:`clock` (``None``: no
        clock)."""
        return None if self.clock is None else plan_time(self.clock, state)

    def for_state(self, state) -> Limits:
        """These limits for a search of ``state`` (the seat to move's state or view): a
        clock becomes the ``seconds`` the time manager plans (the fewer, with ``seconds``
        given too); without a clock, these limits themselves."""
        plan = self.time_plan(state)
        if plan is None:
            return self
        seconds = plan.seconds if self.seconds is None else min(plan.seconds, self.seconds)
        return dataclasses.replace(self, clock=None, seconds=seconds)


_OPTIONS: dict[str, Option] = {}


def _limit_options(depth_max: int = 2**31 - 1) -> dict[str, Option]:
    """The declarations the fields of :class:`Limits` are checked with (made once)."""
    if not _OPTIONS:
        _OPTIONS.update({
            "iterations": dataclasses.replace(ITERATIONS, name="Limits.iterations", low=1),
            "nodes": dataclasses.replace(NODES, name="Limits.nodes"),
            "seconds": dataclasses.replace(SECONDS, name="Limits.seconds"),
            "depth": dataclasses.replace(DEPTH, name="Limits.depth"),
            "seed": dataclasses.replace(SEED, name="Limits.seed"),
        })
    if depth_max != _OPTIONS["depth"].high:
        return dict(_OPTIONS, depth=dataclasses.replace(_OPTIONS["depth"], high=depth_max))
    return _OPTIONS


def check_limits(limits: Limits | None, depth_max: int = 2**31 - 1) -> Limits:
    """``limits`` (``None``: no limits) checked for a searcher whose deepest depth is
    ``depth_max`` (its fields were checked when it was made: :meth:`Limits.__post_init__`).

    :raises TypeError: not a :class:`Limits`.
    :raises OptionError: a depth deeper than ``depth_max``.
    """
    if limits is None:
        return Limits()
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be a catsearch.search.Limits or None, "
                        f"not {type(limits).__name__} {limits!r:.60}")
    if limits.depth is not None and limits.depth > depth_max:
        _limit_options(depth_max)["depth"].check(limits.depth)
    return limits


def resolve(limits: Limits | None, own: Limits, default: Limits, *,
            counts: tuple[str, ...], depth_max: int = 2**31 - 1) -> Limits:
    """The budget of one search (see the module docstring for the rule), as the
    :class:`Limits` the search runs under (``None``: that bound is not set).

    :param limits: the search's limits (checked here; ``None``: none).
    :param own: the player's own budget options (those given), as limits.
    :param default: the player's budget when nothing bounds the search.
    :param counts: the fields that bound this searcher (``("iterations", "nodes",
        "seconds")`` for MCTS, ``("depth", "nodes", "seconds")`` for expectimax).
    :param depth_max: the deepest ``Limits.depth`` allowed.
    :returns: the budget, with ``seed`` the limits' seed (``None``: the player's own).
    :raises TypeError: a field of the limits of the wrong type.
    :raises OptionError: a field of the limits out of range.
    """
    lim = check_limits(limits, depth_max)
    if lim.clock is not None:
        lim = lim.for_state(None)     # unbound: planned over a generic horizon
    if lim.infinite:
        budget = Limits(infinite=True)
    elif any(getattr(lim, k) is not None for k in BUDGET_LIMITS):
        budget = Limits(**{k: getattr(lim, k) for k in BUDGET_LIMITS})
    else:
        budget = own
    if lim.depth is not None:
        budget = dataclasses.replace(budget, depth=lim.depth)
    if not budget.infinite and all(getattr(budget, k) is None for k in counts):
        budget = default if lim.depth is None else dataclasses.replace(default, depth=lim.depth)
    return dataclasses.replace(budget, seed=lim.seed, stop=lim.stop)
