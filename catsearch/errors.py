"""The exceptions catsearch raises. Each names the offending input and what would be valid."""

from __future__ import annotations

__all__ = ["NotationError", "InvalidMoveError", "IllegalMoveError"]


class NotationError(ValueError):
    """A state notation that does not parse, or describes an impossible state.

    :ivar text: the whole text that was parsed.
    :ivar position: the 0-based column of the offending token in ``text`` (or ``None``).
    :ivar token: the offending token (or ``None``).
    """

    def __init__(self, message: str, text: str | None = None, position: int | None = None,
                 token: str | None = None) -> None:
        self.text = text
        self.position = position
        self.token = token
        where = ""
        if token is not None and position is not None:
            where = f" (token {token!r} at column {position})"
        elif position is not None:
            where = f" (at column {position})"
        super().__init__(message + where)


class InvalidMoveError(ValueError):
    """A move in text form that does not parse, or an int outside the game's move range."""


class IllegalMoveError(ValueError):
    """A well-formed move that is not legal in the position it was played in."""
