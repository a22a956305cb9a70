"""A line longer than the protocol's limit (docs/protocol.rst, ``MAX_LINE``) is answered with
one error line and skipped, read a bounded chunk at a time: the engine keeps running with its
position unchanged and its memory does not grow with the line."""
from __future__ import annotations

import threading

from catsearch.engine.protocol import MAX_LINE


def peak_rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    raise AssertionError("no VmHWM")


def test_a_40_mb_line_is_one_error_and_is_never_held_whole(engine):
    assert engine.ask("position cat-cards startpos seed 4") == []
    before = engine.notation()
    base = peak_rss_kb(engine.proc.pid)
    size = 40 * 1024 * 1024
    chunk = b"x" * (1 << 20)

    def write():                       # the engine reads while the line is written
        engine.proc.stdin.write(b"setoption name Player value ")
        for _ in range(size // len(chunk)):
            engine.proc.stdin.write(chunk)
        engine.proc.stdin.write(b"\n")
        engine.proc.stdin.flush()
    writer = threading.Thread(target=write)
    writer.start()
    writer.join(60)
    assert not writer.is_alive()
    lines = engine.ask()
    assert len(lines) == 1 and lines[0].startswith("info string error:"), lines
    assert f"longer than {MAX_LINE} bytes" in lines[0]
    assert engine.notation() == before
    grown_mb = (peak_rss_kb(engine.proc.pid) - base) / 1024
    assert grown_mb < 20, f"the engine's peak memory grew by {grown_mb:.0f} MB"


def test_the_limit_is_exact(engine):
    # a line of MAX_LINE bytes with its newline is read; one byte more is refused
    pad = "position herding-cats startpos seed 1"
    fits = pad + " " * (MAX_LINE - 1 - len(pad))
    assert engine.ask(fits) == []
    assert engine.ask(fits + " ")[0].startswith("info string error: the line is longer")
    assert engine.ask("legal")


def test_an_over_long_last_line_without_newline_ends_the_engine_cleanly(engine):
    engine.proc.stdin.write(b"y" * (3 * MAX_LINE))
    assert engine.finish() == 0
    assert any("longer than" in s for s in engine.seen + engine.quiet(0.5))
