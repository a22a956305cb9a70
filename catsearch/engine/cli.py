"""``catsearch-engine``: the protocol engine on standard input and output.

The protocol is specified in ``docs/protocol.rst``. Options may also be set on the command
line (``-o Player=random -o Seed=3``), as if sent with ``setoption`` before the first command.
"""

from __future__ import annotations

import argparse
import os
import sys

import catsearch
from catsearch.engine.protocol import ENGINE_NAME, BadInput, Engine

__all__ = ["main", "run"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=ENGINE_NAME,
        description="A game engine for the catsearch games, speaking a UCI-style protocol on "
                    "stdin/stdout (see docs/protocol.rst). Send 'uci' to start.")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                   help="set an engine option before reading commands (Player, Iterations, "
                        "MoveTime, Threads, Seed); may be repeated")
    p.add_argument("--version", action="version",
                   version=f"{ENGINE_NAME} {catsearch.__version__}")
    return p


def run(argv: list[str] | None = None, stdin=None, stdout=None, stderr=None) -> tuple[int, Engine | None]:
    """Parse ``argv``, then run the engine on the given streams until ``quit`` or the end of
    input; return the exit code and the engine (``None`` if the arguments were bad)."""
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    args = _parser().parse_args(argv)
    engine = Engine(out=stdout, log=stderr)
    for item in args.option:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            print(f"{ENGINE_NAME}: --option expects NAME=VALUE, got {item!r}", file=stderr)
            return 2, None
        try:
            engine.cmd_setoption(["name", name.strip(), "value", *value.split()])
        except BadInput as e:
            print(f"{ENGINE_NAME}: {e}", file=stderr)
            return 2, None
    return engine.run(stdin), engine


def main(argv: list[str] | None = None) -> None:
    """The console entry point: run the engine, then exit with its code."""
    if hasattr(sys.stdout, "reconfigure"):
        try:
            sys.stdout.reconfigure(encoding="utf-8", errors="replace")
        except (ValueError, OSError):
            pass
    try:
        code, engine = run(argv)
    except KeyboardInterrupt:
        code, engine = 130, None
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    job = engine.search if engine is not None else None
    if job is not None and job.thread is not None and job.thread.is_alive():
        # quit during a search: do not wait for the search thread (it may be deep in C code)
        os._exit(code)
    sys.exit(code)
