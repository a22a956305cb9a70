"""Difficulty levels: the opponents a person can choose, each a documented player spec.

One place for both ways of playing (the terminal's ``--level`` and the browser's start
page): a level is a name, the :func:`~catsearch.search.spec.make_player` spec it stands
for, and one line saying what it plays like.

The levels are the ten of the measured ladder (:mod:`catsearch.search.ladder`), named
``"1"`` to ``"10"``; ``easy``, ``medium`` and ``hard`` (:data:`LEVELS`) are names for three
of them. A level plays the rung of its game's own ladder where the game declares one (the
start page says which, per game); the descriptions here are the common ladder's. The
browser's start page lists the named levels, then all ten:

=========  ======================  =================================================
level      spec                    plays like
=========  ======================  =================================================
easy       ``level:n=3``           ISMCTS, 30 iterations, a soft move choice
medium     ``level:n=6``           ISMCTS, 250 iterations, a slightly soft choice
hard       ``level:n=10``          ISMCTS, 8,000 iterations (2 s at most)
=========  ======================  =================================================

Every level answers within 2 seconds a move (each is capped at 2 s); the measured steps
of the ladder are on the Play page of the docs (docs/play.rst).
"""

from __future__ import annotations

from dataclasses import dataclass

from catsearch.search.ladder import LADDER
from catsearch.search.spec import PlayerSpec

__all__ = ["Level", "LEVELS", "LADDER_LEVELS", "LEVEL_NAMES", "DEFAULT_LEVEL", "level",
           "level_spec", "opponent"]


@dataclass(frozen=True)
class Level:
    """A difficulty preset: its ``name``, the player ``spec`` it builds, a ``description``."""

    name: str
    spec: str
    description: str


#: every level of the ladder, by its number as text ("1" .. "10"), weakest first
LADDER_LEVELS: dict[str, Level] = {str(r.level): Level(str(r.level), f"level:n={r.level}",
                                                       r.description) for r in LADDER}

#: the named levels (the start page's list), easiest first: names for ladder levels
LEVELS: dict[str, Level] = {name: Level(name, f"level:n={n}", LADDER[n - 1].description)
                            for name, n in (("easy", 3), ("medium", 6), ("hard", 10))}

#: every name ``--level`` takes: the named levels, then the numbers
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS) + tuple(LADDER_LEVELS)

#: the level used when none is chosen
DEFAULT_LEVEL = "medium"


def level(name: str) -> Level:
    """The level called ``name`` (a name of :data:`LEVELS`, or a ladder number, 1 to 10, as
    an int or its text).

    :raises ValueError: no such level (the message lists the levels).
    """
    if isinstance(name, int) and not isinstance(name, bool):
        name = str(name)
    found = LEVELS.get(name) or LADDER_LEVELS.get(name) if isinstance(name, str) else None
    if found is None:
        raise ValueError(f"unknown level {name!r}; levels: {', '.join(LEVELS)}, or 1 to "
                         f"{len(LADDER)}")
    return found


def level_spec(name: str) -> str:
    """The player spec of the level called ``name`` (``"easy"`` -> ``"level:n=3"``)."""
    return level(name).spec


def opponent(name: str, seed: int | None = None):
    """A new :class:`~catsearch.search.players.Player` of the level called ``name``; with a
    ``seed``, seeded (the same seed plays the same way from the same views)."""
    spec = PlayerSpec.parse(level(name).spec)
    if seed is not None:
        spec = PlayerSpec.parse(f"{spec}{',' if ':' in str(spec) else ':'}seed={seed}")
    return spec.build()
