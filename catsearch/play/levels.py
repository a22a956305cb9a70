"""Difficulty levels: the opponents a person can choose, each a documented player spec.

One place for both ways of playing (the terminal's ``--level`` and the browser's start
page): a level is a name, the :func:`~catsearch.search.spec.make_player` spec it stands
for, and one line saying what it plays like.

=========  ======================================  ==========================================
level      spec                                    plays like
=========  ======================================  ==========================================
easy       ``heuristic``                           each game's rule-based move (a beginner)
medium     ``ismcts:iterations=1000``              ISMCTS, 1,000 iterations a move
hard       ``ismcts:iterations=4000,seconds=2``    ISMCTS, 4,000 iterations (2 s at most)
=========  ======================================  ==========================================

Every level answers within about 2 seconds a move on a 2-core machine (``hard`` is capped at
2 s); the measured times per game are on the Play page of the docs (docs/play.rst).
"""

from __future__ import annotations

from dataclasses import dataclass

from catsearch.search.spec import PlayerSpec

__all__ = ["Level", "LEVELS", "DEFAULT_LEVEL", "level", "level_spec", "opponent"]


@dataclass(frozen=True)
class Level:
    """A difficulty preset: its ``name``, the player ``spec`` it builds, a ``description``."""

    name: str
    spec: str
    description: str


#: the levels, easiest first
LEVELS: dict[str, Level] = {lv.name: lv for lv in (
    Level("easy", "heuristic", "each game's rule-based move: a sensible beginner"),
    Level("medium", "ismcts:iterations=1000", "ISMCTS with 1,000 iterations a move"),
    Level("hard", "ismcts:iterations=4000,seconds=2",
          "ISMCTS with 4,000 iterations a move (at most 2 seconds)"),
)}

#: the level used when none is chosen
DEFAULT_LEVEL = "medium"


def level(name: str) -> Level:
    """The level called ``name``.

    :raises ValueError: no such level (the message lists the levels).
    """
    try:
        return LEVELS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown level {name!r}; levels: {', '.join(LEVELS)}") from None


def level_spec(name: str) -> str:
    """The player spec of the level called ``name`` (``"easy"`` -> ``"heuristic"``)."""
    return level(name).spec


def opponent(name: str, seed: int | None = None):
    """A new :class:`~catsearch.search.players.Player` of the level called ``name``; with a
    ``seed``, seeded (the same seed plays the same way from the same views)."""
    spec = PlayerSpec.parse(level(name).spec)
    if seed is not None:
        spec = PlayerSpec.parse(f"{spec}{',' if ':' in str(spec) else ':'}seed={seed}")
    return spec.build()
