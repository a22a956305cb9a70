"""The terminal in a pseudo-terminal (:mod:`pty`): a long Cat Cards move list shown grouped
(``{n}`` lists a group, a set typed by its notation plays), colour on a terminal and none
with ``NO_COLOR`` or when the output is not a terminal; ``--help`` lists every mode."""

from __future__ import annotations

import io
import os
import pty
import select
import subprocess
import sys
import time

import pytest

from catsearch.play.termlist import (GROUP_ABOVE, Palette, expand_group, format_list,
                                     group_moves, use_colour)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="pty is POSIX only")

#: a late Cat Cards position: seat 0 may form 4,025 sets (or pass)
DEAL = ("players=2 turn=0 step=final finals=1 revealed=- piles=P,8L,8cM "
        "hands=0011111233444556667889999aaabcccdeeeSSPPPPPPMMMMLL:7M/0123345bcdLLLLLLL:02 "
        "deck=2S3aMS06Me018 sets=4dSSP/226ab,27bPP,445SS,579dM,88SSM values=3,2,1,4,1 "
        "rng=8bc9953a2b9fadd1")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run_in_pty(lines: list[str], env_extra: dict[str, str], argv: list[str]) -> str:
    """Run ``catsearch-play argv`` with a pseudo-terminal as its stdin and stdout, typing
    ``lines`` one after another once it asks (its prompt); all it printed."""
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": ROOT, "TERM": "xterm", **env_extra}
    env.pop("NO_COLOR", None) if "NO_COLOR" not in env_extra else None
    env.pop("FORCE_COLOR", None)
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from catsearch.cli import "
                             "play_main; sys.exit(play_main(sys.argv[1:]))", *argv],
                            stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    out = b""
    todo = list(lines)
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            if todo and out.rstrip().endswith(b"seat 0>"):
                os.write(master, (todo.pop(0) + "\n").encode())
                out += b"\n"
            if proc.poll() is not None and not ready:
                break
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        os.close(master)
    return out.decode("utf-8", "replace")


ARGV = ["cat-cards", "--human", "0", "--level", "easy", "--deal-text", DEAL]


def test_a_long_list_is_grouped_and_coloured_in_a_terminal():
    out = run_in_pty(["{2}", "{99}", "11113", "quit"], {}, ARGV)
    assert "4026 moves, grouped" in out
    assert "5-card sets from 1: 477 moves" in out
    assert "\x1b[36m" in out and "\x1b[0m" in out          # colour: a terminal
    listed = out.split("5-card sets from 1:\r\n", 1)[1]    # {2} in full, numbered
    assert "11113" in listed and "[" in listed
    assert "no such group" in out
    assert "you: " in out.replace("\x1b[32m", "").replace("\x1b[0m", "")   # 11113 played
    # the grouped list is short: not thousands of lines
    shown = out.split("Your moves:", 1)[1].split("seat 0>", 1)[0]
    assert shown.count("\n") < 30


def test_no_colour_with_no_color_or_without_a_terminal():
    out = run_in_pty(["quit"], {"NO_COLOR": "1"}, ARGV)
    assert "4026 moves, grouped" in out and "\x1b[" not in out
    assert use_colour(io.StringIO(), {}) is False                 # not a terminal
    assert use_colour(io.StringIO(), {"FORCE_COLOR": "1"}) is True
    assert Palette(on=False).number("[1]") == "[1]"


def test_short_lists_are_not_grouped_and_bracket_numbers_are_distinct():
    texts = [f"take{i}" for i in range(3)] + ["889bP", "88bPP"]
    assert group_moves("cat-cards", texts) == (list(range(5)), [])
    lines, groups = format_list("cat-cards", texts, Palette(on=False))
    assert groups == [] and "[4] 889bP" in " ".join(lines)
    long = ["pass"] + [f"1{i:04x}" for i in range(GROUP_ABOVE + 5)]
    single, groups = group_moves("cat-cards", long)
    assert single == [0] and len(groups) == 1 and len(groups[0].indexes) == GROUP_ABOVE + 5
    assert expand_group("{1}", groups, long, Palette(on=False))[0].startswith("5-card sets")
    assert expand_group("group 2", groups, long, Palette(on=False))[0].startswith("no such")
    assert expand_group("11111", groups, long, Palette(on=False)) is None


def test_help_lists_every_mode():
    out = subprocess.run([sys.executable, "-c", "import sys; from catsearch.cli import "
                          "play_main; sys.exit(play_main(['--help']))"],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ROOT},
                         timeout=60).stdout
    for mode in ("--human SEAT", "--replay FILE", "--web", "--record FILE", "catsearch-play GAME "):
        assert mode in out, mode
