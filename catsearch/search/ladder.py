"""Strength levels: a ladder of ten players from near-random (1) to full strength (10).

Each level is ISMCTS with a budget of iterations and a *temperature* for the final move
(:func:`~catsearch.search.results.sample_by_visits`): a low level searches little and draws
its move from the root visits, so it plays like a weaker player, who mostly picks one of the
moves that look good and sometimes a worse one it half considered, never a random blunder
after seeing the best move.

A level is as strong as its game makes it: the same budget is a big step in one game and
none in another. So a game may declare its own ladder, measured on it
(``GameSpec.ladder``: ten ``(iterations, temperature)`` pairs); :data:`LADDER` is the one
every other game plays by. ``benchmarks/levels.py`` plays each level against the one below
in the arena and writes each game's table into ``docs/play.rst``; its ``--rungs`` tries a
candidate ladder before a game declares it.

``make_player("level:n=4")`` builds level 4 (:class:`LevelPlayer`); it plays the rung of
the game it is asked to move in. The engine's ``setoption name Level value 4`` and
``catsearch-play --level 4`` build the same.
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass
from typing import Any

from catsearch._core.game import lookup
from catsearch._core.options import SEED, Option
from catsearch._core.state import State
from catsearch.search.limits import Limits, check_limits
from catsearch.search.options import configure
from catsearch.search.players import InfoCallback, Player, SearchResult
from catsearch.search.results import sample_by_visits

__all__ = ["Rung", "LADDER", "LEVEL_MIN", "LEVEL_MAX", "LevelPlayer", "rung", "ladder",
           "make_ladder"]

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


def make_ladder(pairs: Any) -> tuple[Rung, ...]:
    """The ladder of ``pairs``: ten ``(iterations, temperature)``, level 1 first.

    :raises TypeError: not a sequence of pairs of a whole number and a number.
    :raises ValueError: not ten pairs; iterations below 1; a temperature negative or not
        finite. (Neither need rise with the level: fewer iterations than a game has moves
        can play better than more, since the first moves a search tries are its prior's;
        the measured steps order a ladder.)
    """
    if isinstance(pairs, (str, bytes)) or not hasattr(pairs, "__len__"):
        raise TypeError(f"a ladder is a sequence of (iterations, temperature) pairs, not "
                        f"{type(pairs).__name__}")
    if len(pairs) != LEVEL_MAX:
        raise ValueError(f"a ladder has {LEVEL_MAX} levels, not {len(pairs)}")
    rungs = []
    for level, pair in enumerate(pairs, 1):
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise TypeError(f"level {level} of a ladder is {pair!r}: an (iterations, "
                            f"temperature) pair")
        its, temp = pair
        if isinstance(its, bool) or not isinstance(its, int):
            raise TypeError(f"level {level}'s iterations are a whole number, not {its!r}")
        if isinstance(temp, bool) or not isinstance(temp, (int, float)):
            raise TypeError(f"level {level}'s temperature is a number, not {temp!r}")
        if its < 1:
            raise ValueError(f"level {level}'s iterations ({its}) are below 1")
        if not (math.isfinite(temp) and temp >= 0):
            raise ValueError(f"level {level}'s temperature ({temp!r}) is not a finite number "
                             f">= 0")
        rungs.append(Rung(level=level, iterations=its, temperature=float(temp)))
    return tuple(rungs)


#: the ladder of every game that declares none, weakest first (``LADDER[n - 1]`` is level n)
LADDER: tuple[Rung, ...] = make_ladder(((4, 1.0), (12, 1.0), (30, 0.7), (60, 0.5),
                                        (120, 0.35), (250, 0.25), (500, 0.15), (1000, 0.1),
                                        (2500, 0.0), (8000, 0.0)))


def ladder(game: str | None = None) -> tuple[Rung, ...]:
    """The ladder of ``game`` (a game id): its own (``GameSpec.ladder``), else
    :data:`LADDER`; ``None``: :data:`LADDER`.

    :raises TypeError: ``game`` is not a str. :raises ValueError: no such game.
    """
    if game is None:
        return LADDER
    return _ladder_of(lookup(game).spec.ladder)


_LADDERS: dict[tuple, tuple[Rung, ...]] = {}


def _ladder_of(pairs: Any) -> tuple[Rung, ...]:
    """The ladder a game declares (``GameSpec.ladder``), checked and built once."""
    if not pairs:
        return LADDER
    try:
        return _LADDERS[pairs]
    except KeyError:
        made = _LADDERS[pairs] = make_ladder(pairs)
        return made
    except TypeError:           # unhashable (lists): checked and built every time
        return make_ladder(pairs)


def rung(level: int, game: str | None = None) -> Rung:
    """The rung of ``level`` in ``game``'s ladder (:func:`ladder`).

    :raises TypeError: not a whole number.
    :raises ValueError: out of 1..10.
    """
    if isinstance(level, bool) or not isinstance(level, int):
        raise TypeError(f"a level is a whole number from {LEVEL_MIN} to {LEVEL_MAX}, not "
                        f"{type(level).__name__}")
    if not LEVEL_MIN <= level <= LEVEL_MAX:
        raise ValueError(f"level {level} is out of range: levels are {LEVEL_MIN} to "
                         f"{LEVEL_MAX}")
    return ladder(game)[level - 1]


class LevelPlayer(Player):
    """A level of the ladder (``level:n=4``): its ISMCTS searcher, then the move drawn from
    the visits at the level's temperature, both from the rung of the game it is asked to move
    in (:func:`rung`). A search's limits bound it only by time (a ``movetime``, a clock's
    plan, ``stop``): the level's iterations are its strength.

    ``iterations`` and ``temperature`` set instead of the rung's (to try a rung before a game
    declares it: ``benchmarks/levels.py --rungs``)."""

    name = "level"
    OPTIONS = (Option("n", int, LEVEL_MAX, LEVEL_MIN, LEVEL_MAX,
                      doc="the level: 1 (near random) to 10 (full strength)"),
               Option("iterations", int, None, 1, 10_000_000, none_ok=True,
                      doc="ISMCTS iterations a move instead of the rung's"),
               Option("temperature", float, None, 0.0, 1e6, none_ok=True,
                      doc="the final move's temperature instead of the rung's"),
               SEED)

    def __init__(self, **options: Any) -> None:
        configure(self, options)
        self._rng = random.Random(self.seed)
        seed = None if self.seed is None else self._rng.getrandbits(64)
        self._searcher = _build(f"ismcts:seconds={LEVEL_SECONDS:g}", seed)

    def rung_for(self, state: State) -> Rung:
        """The rung this player plays in ``state``'s game, with its own iterations and
        temperature if set."""
        r = _ladder_of(state.spec.ladder)[self.n - 1]
        if self.iterations is None and self.temperature is None:
            return r
        return dataclasses.replace(
            r, iterations=r.iterations if self.iterations is None else self.iterations,
            temperature=r.temperature if self.temperature is None else self.temperature)

    def search(self, state: State, *, limits: Limits | None = None,
               info: InfoCallback | None = None) -> SearchResult:
        lim = check_limits(limits)
        if lim.clock is not None:
            lim = lim.for_state(state)
        r = self.rung_for(state)
        own = Limits(iterations=r.iterations,
                     seconds=min(LEVEL_SECONDS, lim.seconds or LEVEL_SECONDS),
                     seed=lim.seed, stop=lim.stop)
        result = self._searcher.search(state, limits=own, info=info)
        move = sample_by_visits(result, r.temperature, self._rng)
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
