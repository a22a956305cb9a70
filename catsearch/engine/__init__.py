"""The engine protocol: ``catsearch-engine`` and :class:`EngineClient`.

The protocol (a UCI-style text protocol on stdin/stdout) is specified in
``docs/protocol.rst``. :class:`Engine` is the engine side; :class:`EngineClient` runs any
program that speaks the protocol and wraps it as a :class:`~catsearch.search.Player`, raising
:class:`EngineCrashed`, :class:`EngineTimeout` or :class:`EngineProtocolError` (all
:class:`EngineError`) when the program misbehaves.
"""

from catsearch.engine.client import (
    EngineClient,
    EngineCrashed,
    EngineError,
    EngineProtocolError,
    EngineTimeout,
)
from catsearch.engine.protocol import Engine

__all__ = [
    "Engine",
    "EngineClient",
    "EngineError",
    "EngineCrashed",
    "EngineTimeout",
    "EngineProtocolError",
]
