"""Observations in plain words, for a person at the table: what a seat saw of a move, told
from the observation's text alone (so it tells nothing more). Each game says it in its own
words (``GameSpec.gloss``, in the game's module); a game that declares none shows the
notation only."""

from __future__ import annotations

import catsearch

__all__ = ["describe_observation"]


def describe_observation(game: str, text: str, seat: int | None = None) -> str | None:
    """An observation (what a seat saw of a move) in plain words, or ``None`` where there is
    no easy gloss. Made from the observation's text alone, so it tells nothing more;
    ``seat`` (the seat that saw it) is called "you" where the text names seats by position."""
    gloss = catsearch.game_class(game).spec.gloss
    if gloss is None:
        return None
    try:
        return gloss(text, seat)
    except Exception:       # a gloss is a courtesy: never let it stop a game
        return None
