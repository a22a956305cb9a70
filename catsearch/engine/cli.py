"""``catsearch-engine``: the protocol engine on standard input and output.

The protocol is specified in ``docs/protocol.rst``. Options may also be set on the command
line (``-o Player=random -o Seed=3``), as if sent with ``setoption`` before the first command.
"""

from __future__ import annotations

import argparse
import os
import select
import signal
import stat
import sys
import threading

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


def run(argv: list[str] | None = None, stdin=None, stdout=None, stderr=None,
        program: bool = False) -> tuple[int, Engine | None]:
    """Parse ``argv``, then run the engine on the given streams until ``quit`` or the end of
    input; return the exit code and the engine (``None`` if the arguments were bad).

    ``program``: this is the whole process (``catsearch-engine``): SIGINT and SIGTERM end
    the engine cleanly (:meth:`Engine.on_signal`), and once its standard output is closed
    by its reader it exits at once with code 0, writing nothing (see :func:`_watch_output`).
    """
    stdin = stdin if stdin is not None else sys.stdin.buffer
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    args = _parser().parse_args(argv)
    engine = Engine(out=stdout, log=stderr, on_gone=_exit_quietly if program else None)
    if program:
        _handle_signals(lambda signum, frame: engine.on_signal(signum))
        _watch_output(engine)
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


class _Signalled(BaseException):
    """SIGINT or SIGTERM before the engine was ready to take it (see :func:`main`)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _early_signal(signum: int, frame) -> None:
    raise _Signalled(signum)


def _handle_signals(handler) -> None:
    """``handler`` for SIGINT and SIGTERM, except one the program was started ignoring (a
    shell runs background jobs with SIGINT ignored: Ctrl-C is not for them)."""
    for signum in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, handler)


def _exit_quietly() -> None:
    """The reader of the output went away: nothing more can be said; exit 0 at once (the
    running search was told to stop, so worker processes end too)."""
    os._exit(0)


def _watch_output(engine: Engine) -> None:
    """Notice at once when the reader closes standard output, even while the engine writes
    nothing (waiting for input, or searching without ``info`` lines): a background thread
    waits for the pipe's error condition (``POLLERR``), then ends the engine like a broken
    pipe does (:meth:`Engine.output_gone`). Only for a pipe or a socket."""
    try:
        fd = sys.stdout.fileno()
        mode = os.fstat(fd).st_mode
    except (AttributeError, OSError, ValueError):
        return
    if not (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)) or not hasattr(select, "poll"):
        return

    def watch() -> None:
        poller = select.poll()
        poller.register(fd, select.POLLERR)
        while True:
            try:
                events = poller.poll()
            except OSError:
                return
            if any(ev & (select.POLLERR | select.POLLHUP) for _, ev in events):
                engine.output_gone()
                return
            if any(ev & select.POLLNVAL for _, ev in events):
                return

    threading.Thread(target=watch, name="catsearch-stdout-watch", daemon=True).start()


def main(argv: list[str] | None = None) -> None:
    """The console entry point: run the engine, then exit with its code."""
    if hasattr(sys.stdout, "reconfigure"):
        try:
            sys.stdout.reconfigure(encoding="utf-8", errors="replace")
        except (ValueError, OSError):
            pass
    # until the engine takes them over (run), a signal ends the program quietly
    _handle_signals(_early_signal)
    try:
        code, engine = run(argv, program=True)
    except KeyboardInterrupt:
        code, engine = 130, None
    except _Signalled as e:
        code, engine = 128 + e.signum, None
    if engine is not None and engine.out.broken:
        _silence_stdout()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            _silence_stdout()
    job = engine.job if engine is not None else None
    if job is not None and job.thread is not None and job.thread.is_alive():
        # quit during a search: do not wait for the search thread (it may be deep in C code)
        os._exit(code)
    sys.exit(code)


def _silence_stdout() -> None:
    """Point standard output at the null device, so that the interpreter's last flush of
    what could not be written cannot fail (and print a complaint) at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass
