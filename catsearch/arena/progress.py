"""The live progress line: games done, the current estimate with its interval, and the ETA."""

from __future__ import annotations

import math
import sys
import time

__all__ = ["Progress", "format_duration"]


def format_duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}h{m:02d}m" if h else (f"{m}m{s:02d}s" if m else f"{s}s")


class Progress:
    """Writes one status line to ``stream``: rewritten in place on a terminal, else printed
    at most every ``every`` seconds (so a log stays short)."""

    def __init__(self, stream=None, *, every: float | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = every if every is not None else (0.2 if self.tty else 10.0)
        self._last = 0.0
        self._width = 0

    def __call__(self, state: dict, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last < self.every:
            return
        self._last = now
        line = self.render(state)
        if self.tty:
            pad = max(0, self._width - len(line))
            self.stream.write("\r" + line + " " * pad)
            self._width = len(line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    @staticmethod
    def render(state: dict) -> str:
        parts = [f"games {state['done']}/{state['total']}"]
        if state.get("failures"):
            parts.append(f"failures {state['failures']}")
        est = state.get("estimate")
        if est:
            parts.append(est)
        if state.get("llr") is not None:
            parts.append(f"LLR {state['llr']:.2f} [{state['lower']:.2f}, {state['upper']:.2f}]")
        bound = "<= " if state.get("eta_is_bound") else ""
        parts.append(f"ETA {bound}{format_duration(state['eta'])}")
        return "  ".join(parts)

    def close(self) -> None:
        if self.tty and self._width:
            self.stream.write("\n")
            self.stream.flush()
            self._width = 0

    def message(self, text: str) -> None:
        if self.tty and self._width:
            self.stream.write("\n")
            self._width = 0
        self.stream.write(text + "\n")
        self.stream.flush()
