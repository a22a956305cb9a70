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
3. what the horizon has, the clock and the increments of its moves, less a **reserve** (a
   share of the clock, and :attr:`TimeManager.move_cost` for every move of the horizon,
   which pays for what a move costs beyond its planned search: a search's last iteration,
   reading, writing, a process's answer) is spent evenly over the horizon; so the
   increment pays for each move and its cost, and the clock holds its level from move to
   move rather than draining to the last moment, whatever the game's length;
4. a **floor** of the clock, :attr:`TimeManager.floor_moves` moves' increment and cost (and
   the overhead), is spent only through the increments, and below it only a part of them,
   the less the lower the clock (so that it climbs back): a game that lasts longer than
   estimated, or a move that overruns its plan, finds the clock still there;
5. a move never plans more than :attr:`TimeManager.max_share` of the clock above the floor
   (and its increment), nor more than the remaining time less a fixed
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
    :ivar max_share: the most of the clock above the floor one move plans, on top of its
        increment (0 to 1).
    :ivar floor_moves: the moves whose increment and cost the clock's floor holds (see the
        module docstring).
    """

    overhead: float = 0.05
    move_cost: float = 0.01
    reserve: float = 0.05
    max_share: float = 0.2
    floor_moves: int = 10

    def __post_init__(self) -> None:
        _seconds(self.overhead, "TimeManager.overhead")
        _seconds(self.move_cost, "TimeManager.move_cost")
        for name in ("reserve", "max_share"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"TimeManager.{name} must be a number, not {type(v).__name__}")
            if not 0 <= v <= 1:
                raise ValueError(f"TimeManager.{name} must be from 0 to 1, not {v!r}")
        f = self.floor_moves
        if isinstance(f, bool) or not isinstance(f, int):
            raise TypeError(f"TimeManager.floor_moves must be a whole number, not "
                            f"{type(f).__name__}")
        if f < 0:
            raise ValueError(f"TimeManager.floor_moves must be >= 0, not {f}")

    def floor(self, clock: Clock) -> float:
        """The seconds of ``clock`` spent only through its increments."""
        return self.floor_moves * (clock.inc + self.move_cost) + self.overhead

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
        t, inc = clock.time, clock.inc
        cap = t - self.overhead
        scale = 1.0                     # the share of the increments spent
        if clock.movestogo == 1:        # the last move before more time may use it all
            spare = t
        else:
            floor = self.floor(clock)
            spare = max(0.0, t - floor)
            scale = min(1.0, t / floor) if floor > 0 else 1.0
            cap = min(cap, self.max_share * spare + scale * inc)
        budget = (spare * (1.0 - self.reserve) + scale * inc * (horizon - 1)
                  - self.move_cost * horizon)
        share = max(0.0, budget) / horizon
        seconds = max(MIN_SECONDS, min(share, cap))
        return TimePlan(seconds=seconds, horizon=horizon)


#: the time manager the engine and the arena use
TIME_MANAGER = TimeManager()


def plan_time(clock: Clock, state=None, *, moves_left: int | None = None) -> TimePlan:
    """:meth:`TimeManager.plan` of the default manager (:data:`TIME_MANAGER`)."""
    return TIME_MANAGER.plan(clock, state, moves_left=moves_left)
