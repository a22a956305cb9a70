"""The time manager: a seat's clock turned into the time of one search.

A game played on a clock gives the seat to move its remaining time, the increment added
after each of its moves, and perhaps the moves to go before more time is added
(:class:`Clock`; ``go time <ms> inc <ms> [movestogo <n>]`` in the engine protocol,
``--tc BASE+INC`` in the arena). :class:`TimeManager` plans one search from it and the
state (:meth:`TimeManager.plan`, a :class:`TimePlan`):

1. **a forced move** (one legal move) is answered at once (:data:`FORCED_SECONDS`);
2. the **horizon** is the decisions the seat still has to make, estimated by its game
   (:meth:`GameSpec.estimate_moves_left <catsearch._core.game.GameSpec.estimate_moves_left>`),
   or ``movestogo`` when that comes first;
3. the clock less a **reserve** (a share of it, and :attr:`TimeManager.move_cost` for every
   move of the horizon, which pays for what a move costs beyond its search: reading,
   writing, a process's answer) is spent evenly over the horizon, each move adding most of
   its increment;
4. a move never plans more than :attr:`TimeManager.max_share` of the remaining time (and
   its increment), nor more than the remaining time less a fixed
   :attr:`TimeManager.overhead`: whatever the estimate, the clock only shrinks by a share
   at each move and never runs out by the plan.

The plan is pure arithmetic (no clock is read here); the engine and the arena use the same
manager, through ``Limits(clock=...)`` (:meth:`catsearch.search.limits.Limits.for_state`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

__all__ = ["Clock", "TimePlan", "TimeManager", "TIME_MANAGER", "FORCED_SECONDS",
           "MIN_SECONDS", "plan_time"]

#: seconds planned for a forced move (a searcher answers one without searching anyway)
FORCED_SECONDS = 0.001
#: the fewest seconds a search is planned (when the clock is all but spent)
MIN_SECONDS = 0.001
#: the most seconds a clock may hold (a day, as ``go movetime``)
MAX_CLOCK_SECONDS = 86_400.0


def _seconds(value: Any, name: str, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__} "
                        f"{value!r:.40}")
    value = float(value)
    if not math.isfinite(value) or value < 0 or (positive and value == 0) \
            or value > MAX_CLOCK_SECONDS:
        low = "> 0" if positive else ">= 0"
        raise ValueError(f"{name} must be a finite number of seconds {low} and at most "
                         f"{MAX_CLOCK_SECONDS:g}, not {value!r}")
    return value


@dataclass(frozen=True, kw_only=True)
class Clock:
    """The clock of the seat to move.

    :ivar time: its remaining time, in seconds (>= 0).
    :ivar inc: the seconds added to it after each of its moves (>= 0).
    :ivar movestogo: its moves until the next time control adds time (>= 1); ``None``:
        none comes (sudden death, or an increment).
    """

    time: float
    inc: float = 0.0
    movestogo: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "time", _seconds(self.time, "Clock.time"))
        object.__setattr__(self, "inc", _seconds(self.inc, "Clock.inc"))
        m = self.movestogo
        if m is not None:
            if isinstance(m, bool) or not isinstance(m, int):
                raise TypeError(f"Clock.movestogo must be a whole number or None, not "
                                f"{type(m).__name__} {m!r:.40}")
            if m < 1:
                raise ValueError(f"Clock.movestogo must be >= 1, not {m}")


@dataclass(frozen=True, kw_only=True)
class TimePlan:
    """What the time manager planned for one search.

    :ivar seconds: the search's time (> 0).
    :ivar horizon: the moves the clock was shared over (the game's estimate, or
        ``movestogo``); 1 for a forced move.
    :ivar forced: the seat had one legal move (answered at once).
    """

    seconds: float
    horizon: int
    forced: bool = False


@dataclass(frozen=True, kw_only=True)
class TimeManager:
    """How a clock is spent (see the module docstring).

    :ivar overhead: seconds never planned of the remaining time of this move (what the
        answer may take to reach the clock: a process's lag).
    :ivar move_cost: seconds a move costs beyond its search, kept back for every move of
        the horizon.
    :ivar reserve: the share of the remaining time never planned (0 to 1).
    :ivar max_share: the most of the remaining time one move plans (0 to 1).
    :ivar inc_share: the share of the increment a move spends on top of its share of the
        clock (0 to 1; the rest builds up the clock).
    """

    overhead: float = 0.03
    move_cost: float = 0.003
    reserve: float = 0.05
    max_share: float = 0.2
    inc_share: float = 0.9

    def __post_init__(self) -> None:
        _seconds(self.overhead, "TimeManager.overhead")
        _seconds(self.move_cost, "TimeManager.move_cost")
        for name in ("reserve", "max_share", "inc_share"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"TimeManager.{name} must be a number, not {type(v).__name__}")
            if not 0 <= v <= 1:
                raise ValueError(f"TimeManager.{name} must be from 0 to 1, not {v!r}")

    def plan(self, clock: Clock, state=None, *, moves_left: int | None = None) -> TimePlan:
        """The time of a search of ``state`` (its seat to move) on ``clock``.

        :param state: the searched state or view (``None``: no forced move is seen, and the
            horizon is ``moves_left``).
        :param moves_left: the horizon, overriding the game's estimate (``None``: the
            game's, :meth:`GameSpec.estimate_moves_left`; without a state,
            :data:`~catsearch._core.game.GENERIC_MOVES_LEFT`).
        :raises TypeError: ``clock`` is not a :class:`Clock`.
        """
        if not isinstance(clock, Clock):
            raise TypeError(f"clock must be a catsearch.search.timeman.Clock, not "
                            f"{type(clock).__name__}")
        if state is not None and len(state.legal_moves()) == 1:
            return TimePlan(seconds=FORCED_SECONDS, horizon=1, forced=True)
        if moves_left is None:
            if state is not None:
                moves_left = state.spec.estimate_moves_left(state)
            else:
                from catsearch._core.game import GENERIC_MOVES_LEFT
                moves_left = GENERIC_MOVES_LEFT
        horizon = max(1, int(moves_left))
        if clock.movestogo is not None:
            horizon = min(horizon, clock.movestogo)
        t = clock.time
        usable = t * (1.0 - self.reserve) - self.move_cost * horizon
        share = max(0.0, usable) / horizon + self.inc_share * clock.inc
        cap = min(self.max_share * t + (self.inc_share * clock.inc if t > clock.inc else 0.0),
                  t - self.overhead)
        if clock.movestogo == 1:        # the last move before more time: may use it all
            cap = t - self.overhead
            share = max(share, t * (1.0 - self.reserve) - self.overhead)
        seconds = max(MIN_SECONDS, min(share, cap))
        return TimePlan(seconds=seconds, horizon=horizon)


#: the time manager the engine and the arena use
TIME_MANAGER = TimeManager()


def plan_time(clock: Clock, state=None, *, moves_left: int | None = None) -> TimePlan:
    """:meth:`TimeManager.plan` of the default manager (:data:`TIME_MANAGER`)."""
    return TIME_MANAGER.plan(clock, state, moves_left=moves_left)
