"""The exceptions catsearch raises. Each names the offending input and what would be valid."""

from __future__ import annotations

__all__ = ["NotationError", "InvalidMoveError", "IllegalMoveError", "ObservationError"]


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


class ObservationError(ValueError):
    """An observation (see :meth:`State.observation <catsearch._core.state.State.observation>`)
    that a seat's view cannot follow: it does not parse, or it is impossible there.

    :ivar text: the observation given.
    :ivar state: the notation of the view it was applied to (unchanged).
    """

    def __init__(self, reason: str, text: str, state: str) -> None:
        self.text = text
        self.state = state
        shown = text if len(text) <= 100 else text[:100] + "..."
        super().__init__(f"bad observation {shown!r}: {reason} (in {state!r})")
