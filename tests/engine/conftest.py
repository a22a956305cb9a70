"""Drive the real engine program as a subprocess (``python -m catsearch.engine``).

The engine runs with the same interpreter as the tests and imports the very ``catsearch`` the
tests imported (``PYTHONPATH`` and the working directory are the folder that holds it), so
the tests work both on an installed package and on an in-place build in a checkout.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import catsearch

# the folder holding the imported catsearch package: site-packages, or a checkout built in place
ROOT = Path(catsearch.__file__).resolve().parents[1]
ENGINE = [sys.executable, "-m", "catsearch.engine"]
WAIT = 20.0          # generous: a line that should come at once (the machine is shared)


def engine_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def default_sigint() -> None:
    """In the child before exec: SIGINT back to its default. A shell starts background jobs
    (a CI script run with ``&``) with SIGINT ignored, and an ignored signal stays ignored
    across exec; the engine started from a terminal sees it at its default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def end_process(proc: subprocess.Popen) -> None:
    """Kill ``proc`` if it still runs, reap it and close its pipes."""
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    for s in (proc.stdin, proc.stdout, proc.stderr):
        try:
            s.close()
        except OSError:
            pass


class EngineProcess:
    """The engine program, with its output read line by line in the background."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(ENGINE + list(args), stdin=subprocess.PIPE,
                                     preexec_fn=default_sigint,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=ROOT, env=engine_env())
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[str] = []          # every line read so far
        self.stderr: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read(self) -> None:
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def _read_err(self) -> None:
        for raw in self.proc.stderr:
            self.stderr.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def send(self, *lines: str | bytes) -> None:
        for line in lines:
            data = line if isinstance(line, bytes) else line.encode("utf-8")
            self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def line(self, timeout: float = WAIT) -> str:
        """The next line of output; fails on a timeout or the end of output."""
        try:
            item = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no line from the engine within {timeout} s; "
                                 f"stderr: {self.stderr[-5:]}") from None
        if item is None:
            self.lines.put(None)
            raise AssertionError(f"the engine's output ended; stderr: {self.stderr[-10:]}")
        assert "Traceback" not in item, item
        self.seen.append(item)
        return item

    def until(self, done, timeout: float = WAIT) -> list[str]:
        """Lines up to and including the first for which ``done(line)`` (or, for a str, the
        first equal to it or starting with it and a space)."""
        if isinstance(done, str):
            word = done
            done = lambda s: s == word or s.startswith(word + " ")  # noqa: E731
        out = []
        end = time.monotonic() + timeout
        while True:
            out.append(self.line(max(0.01, end - time.monotonic())))
            if done(out[-1]):
                return out

    def ask(self, *lines: str | bytes) -> list[str]:
        """Send ``lines`` then ``isready``; the answers before ``readyok``."""
        self.send(*lines, "isready")
        return self.until("readyok")[:-1]

    def quiet(self, seconds: float = 0.3) -> list[str]:
        """Whatever the engine writes within ``seconds`` (normally nothing)."""
        out = []
        end = time.monotonic() + seconds
        while True:
            try:
                item = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                return out
            if item is None:
                self.lines.put(None)
                return out
            self.seen.append(item)
            out.append(item)

    def notation(self) -> str:
        """The position's notation, from ``d``."""
        lines = self.ask("d")
        assert lines[-1].startswith("hash "), lines
        return [s for s in lines if s.startswith("notation ")][-1][len("notation "):]

    def finish(self, timeout: float = WAIT) -> int:
        """Close the input and wait for the exit; return the exit code."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        return self.wait(timeout)

    def wait(self, timeout: float = WAIT) -> int:
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError("the engine did not exit") from None

    def kill(self) -> None:
        end_process(self.proc)


@pytest.fixture
def engine():
    e = EngineProcess()
    yield e
    e.kill()


@pytest.fixture(scope="module")
def shared_engine():
    e = EngineProcess()
    yield e
    e.kill()


@pytest.fixture
def spawn():
    """A factory of engine processes (extra arguments allowed), all killed at the end."""
    made = []

    def make(*args: str) -> EngineProcess:
        e = EngineProcess(*args)
        made.append(e)
        return e

    yield make
    for e in made:
        e.kill()


@pytest.fixture
def engine_command() -> list[str]:
    """The argument list that runs the engine."""
    return list(ENGINE)


@pytest.fixture
def engine_environ() -> dict[str, str]:
    """An environment in which the engine (and scripts importing catsearch) run."""
    return engine_env()


# -- the engine with raw pipes (tests/engine/test_hardening.py: a closed output) ---------

class RawEngine:
    """The engine with pipes read directly (so that its output can be closed)."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=ROOT, env=engine_env())
        self.err = b""
        self._t = threading.Thread(target=self._read_err, daemon=True)
        self._t.start()

    def _read_err(self) -> None:
        self.err = self.proc.stderr.read()

    def send(self, *lines: str) -> None:
        for line in lines:
            self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def readline(self) -> str:
        """One line of output (bounded by the test's timeout on the wait below)."""
        box: list[bytes] = []
        t = threading.Thread(target=lambda: box.append(self.proc.stdout.readline()),
                             daemon=True)
        t.start()
        t.join(60)
        assert box, "no line from the engine"
        return box[0].decode().rstrip("\n")

    def ready(self) -> None:
        self.send("isready")
        assert self.readline() == "readyok"

    def wait(self, timeout: float = WAIT) -> int:
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError("the engine did not exit") from None
        self._t.join(5)
        return rc

    def kill(self) -> None:
        end_process(self.proc)


@pytest.fixture
def raw():
    made: list[RawEngine] = []

    def make() -> RawEngine:
        e = RawEngine()
        made.append(e)
        return e

    yield make
    for e in made:
        e.kill()
