"""Perft data: one file format, one reader, one check.

A perft file holds one position a line, in the game's full notation, followed by the counts
of move sequences of exactly ``d`` moves from it::

    # a comment (blank lines too)
    <full notation> ; D1 <count> ; D2 <count> ; D3 <count>

``perft(d)`` counts the sequences of exactly ``d`` moves (a line that ends the game sooner
counts nothing); chance events (draws, re-deals) are not moves. Each game's file is
``tests/data/<game-id>-perft.txt``; :func:`perft_line` writes a line of it (a new game's file
is written from positions of random games, and its first counts checked by hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

__all__ = ["PerftCase", "PerftFileError", "read_perft", "check_perft", "perft_line"]


class PerftFileError(ValueError):
    """A perft file line that does not follow the format (the message names file and line)."""


@dataclass(frozen=True)
class PerftCase:
    """One position of a perft file: its notation, ``{depth: count}`` and where it stands."""

    text: str
    counts: dict[int, int]
    path: str
    line: int


def read_perft(path: str | Path) -> list[PerftCase]:
    """The positions of a perft file, in file order.

    :raises PerftFileError: a line that is not ``<notation> ; D<depth> <count> ...``.
    """
    cases = []
    for i, raw in enumerate(Path(path).read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        text, *parts = [x.strip() for x in line.split(";")]
        counts: dict[int, int] = {}
        for part in parts:
            words = part.split()
            if (len(words) != 2 or not words[0].startswith("D") or not words[0][1:].isdigit()
                    or not words[1].isdigit() or int(words[0][1:]) in counts):
                raise PerftFileError(f"{path}:{i}: expected '<notation> ; D<depth> <count> "
                                     f"...', got {part!r}")
            counts[int(words[0][1:])] = int(words[1])
        if not text or not counts:
            raise PerftFileError(f"{path}:{i}: a position needs its notation and at least "
                                 f"one 'D<depth> <count>'")
        cases.append(PerftCase(text, counts, str(path), i))
    return cases


def check_perft(game_id: str, path: str | Path, max_depth: int | None = None) -> int:
    """Check every count of a perft file (up to ``max_depth``); return how many were checked.

    :raises AssertionError: a count that differs, naming the file, line, depth and counts.
    """
    import catsearch

    checked = 0
    for case in read_perft(path):
        st = catsearch.from_text(game_id, case.text)
        where = f"{game_id} perft, {case.path}:{case.line}"
        for depth, count in sorted(case.counts.items()):
            if max_depth is not None and depth > max_depth:
                continue
            got = st.perft(depth)
            if got != count:
                raise AssertionError(f"{where}: perft({depth}) is {got}, the file says {count}")
            checked += 1
    return checked


def perft_line(state, depths: int) -> str:
    """The perft file line of ``state`` (a full state): its notation and ``perft(d)`` for
    ``d`` = 1 .. ``depths`` (what :func:`read_perft` reads)."""
    if isinstance(depths, bool) or not isinstance(depths, int):
        raise TypeError(f"depths is an int, not {type(depths).__name__}")
    if depths < 1:
        raise ValueError(f"depths is at least 1, not {depths}")
    counts = " ; ".join(f"D{d} {state.perft(d)}" for d in range(1, depths + 1))
    return f"{state.to_text()} ; {counts}"
