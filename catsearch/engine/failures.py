"""What can go wrong with an engine program (:class:`catsearch.engine.client.EngineClient`):
one of three exceptions, all :class:`EngineError`; importable from
:mod:`catsearch.engine.client` too."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["EngineError", "EngineCrashed", "EngineTimeout", "EngineProtocolError"]


class EngineError(RuntimeError):
    """An engine program misbehaved.

    :ivar command: the program's argument list.
    :ivar stderr: the last lines the program wrote to standard error.
    """

    def __init__(self, message: str, *, command: Sequence[str] = (), stderr: str = "") -> None:
        self.command = list(command)
        self.stderr = stderr
        tail = " | ".join(stderr.strip().splitlines()[-5:])
        super().__init__(message + (f" (its stderr ends: {tail})" if tail else ""))


class EngineCrashed(EngineError):
    """The program is not running: it could not start, exited, or closed its output. The
    client must be restarted (:meth:`EngineClient.restart`).

    :ivar returncode: its exit code, when known.
    """

    def __init__(self, message: str, *, returncode: int | None = None, **kw) -> None:
        self.returncode = returncode
        super().__init__(message, **kw)


class EngineTimeout(EngineError):
    """An answer did not come in time. If the program then answered ``stop`` within the
    margin it is still in step and usable; else it was killed and must be restarted.

    :ivar seconds: how long the client waited.
    :ivar killed: whether the program was killed.
    """

    def __init__(self, message: str, *, seconds: float, killed: bool, **kw) -> None:
        self.seconds = seconds
        self.killed = killed
        super().__init__(message, **kw)


class EngineProtocolError(EngineError):
    """The program answered something the protocol does not allow (an illegal or malformed
    ``bestmove``, an error line for what the client sent, ...). It is left running and in step.

    :ivar line: the offending line (or ``None``).
    """

    def __init__(self, message: str, *, line: str | None = None, **kw) -> None:
        self.line = line
        super().__init__(message, **kw)
