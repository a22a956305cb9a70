"""Strength levels: a ladder of ten players from near-random (1) to full strength (10).

Each level is ISMCTS with a budget of iterations and a *temperature* for the final move
(:func:`~catsearch.search.results.sample_by_visits`): a low level searches little and draws
its move from the root visits, so it plays like a weaker player, who mostly picks one of the
moves that look good and sometimes a worse one it half considered, never a random blunder
after seeing the best move. The steps are measured (``benchmarks/levels.py`` plays each level
against the one below in the arena and writes the table of ``docs/play.rst``).

``make_player("level:n=4")`` builds level 4 (:class:`LevelPlayer`); the engine's
``setoption name Level value 4`` and ``catsearch-play --level 4`` build the same.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Any

from catsearch._core.options import SEED, Option
from catsearch._core.state import State
from catsearch.search.limits import Limits, check_limits
from catsearch.search.options import configure
from catsearch.search.players import InfoCallback, Player, SearchResult
from catsearch.search.results import sample_by_visits

__all__ = ["Rung", "LADDER", "LEVEL_MIN", "LEVEL_MAX", "LevelPlayer", "rung"]

LEVEL_MIN, LEVEL_MAX = 1, 10
#: no level searches longer than this a move (seconds), whatever its iterations
LEVEL_SECONDS = 2.0


@dataclass(frozen=True, kw_only=True)
class Rung:
    """One level of the ladder.

    :ivar level: 1 (near random) to 10 (full strength).
    :ivar iterations: ISMCTS iterations a move (at most :data:`LEVEL_SECONDS`).
    :ivar temperature: of the final move's draw from the visits (0: the most visited).
    """

    level: int
    iterations: int
    temperature: float

    @property
    def spec(self) -> str:
        """The searcher's spec (without the temperature, which the level adds)."""
        return f"ismcts:iterations={self.iterations},seconds={LEVEL_SECONDS:g}"

    @property
    def description(self) -> str:
        soft = (f", the move drawn from its visits at temperature {self.temperature:g}"
                if self.temperature else ", the most visited move")
        return f"level {self.level}: ISMCTS, {self.iterations:,} iterations a move{soft}"


#: the levels, weakest first (``LADDER[n - 1]`` is level n)
LADDER: tuple[Rung, ...] = tuple(Rung(level=i, iterations=it, temperature=t) for i, (it, t) in
                                 enumerate(((4, 1.0), (12, 1.0), (30, 0.7), (60, 0.5),
                                            (120, 0.35), (250, 0.25), (500, 0.15),
                                            (1000, 0.1), (2500, 0.0), (8000, 0.0)), 1))


def rung(level: int) -> Rung:
    """The rung of ``level``.

    :raises TypeError: not a whole number.
    :raises ValueError: out of 1..10.
    """
    if isinstance(level, bool) or not isinstance(level, int):
        raise TypeError(f"a level is a whole number from {LEVEL_MIN} to {LEVEL_MAX}, not "
                        f"{type(level).__name__}")
    if not LEVEL_MIN <= level <= LEVEL_MAX:
        raise ValueError(f"level {level} is out of range: levels are {LEVEL_MIN} to "
                         f"{LEVEL_MAX}")
    return LADDER[level - 1]


class LevelPlayer(Player):
    """A level of the ladder (``level:n=4``): its ISMCTS searcher, then the move drawn from
    the visits at the level's temperature. A search's limits bound it only by time (a
    ``movetime``, a clock's plan, ``stop``): the level's iterations are its strength."""

    name = "level"
    OPTIONS = (Option("n", int, LEVEL_MAX, LEVEL_MIN, LEVEL_MAX,
                      doc="the level: 1 (near random) to 10 (full strength)"), SEED)

    def __init__(self, **options: Any) -> None:
        configure(self, options)
        self.rung = rung(self.n)
        self._rng = random.Random(self.seed)
        seed = None if self.seed is None else self._rng.getrandbits(64)
        self._searcher = _build(self.rung.spec, seed)

    def search(self, state: State, *, limits: Limits | None = None,
               info: InfoCallback | None = None) -> SearchResult:
        lim = check_limits(limits)
        if lim.clock is not None:
            lim = lim.for_state(state)
        own = Limits(iterations=self.rung.iterations,
                     seconds=min(LEVEL_SECONDS, lim.seconds or LEVEL_SECONDS),
                     seed=lim.seed, stop=lim.stop)
        result = self._searcher.search(state, limits=own, info=info)
        move = sample_by_visits(result, self.rung.temperature, self._rng)
        return dataclasses.replace(result, move=move) if move != result.move else result

    def new_game(self) -> None:
        self._rng = random.Random(self.seed)
        self._searcher.new_game()

    def stop(self) -> None:
        self._searcher.stop()

    def close(self) -> None:
        self._searcher.close()


def _build(spec: str, seed: int | None) -> Player:
    from catsearch.search.spec import PlayerSpec      # the registry sits above the players

    parsed = PlayerSpec.parse(spec)
    return (parsed if seed is None else parsed.replace(seed=seed)).build()
