"""The terminal's move list and colours (:mod:`catsearch.play.terminal`).

Every move is listed with its number in brackets (``[12] 889bP``): a number the person types
as ``[12]``, never mistaken for a card's digit. A long list (more than
:data:`GROUP_ABOVE` moves, such as Cat Cards' sets late in a game: over a thousand) is shown
grouped: the short moves in full, then one line per group (Cat Cards: the sets by their size
and first card) with its count and a few of its moves; ``{n}`` (or ``group n``) lists group
``n`` in full, and any move can be typed by its notation at any time.

Colour (ANSI) is used only when the output is a terminal, ``NO_COLOR`` is not set (see
https://no-color.org) and ``TERM`` is not ``dumb``; ``FORCE_COLOR`` turns it on anyway.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

__all__ = ["Palette", "use_colour", "MoveGroup", "group_moves", "format_list",
           "format_group", "GROUP_ABOVE", "parse_group", "expand_group"]

#: a list of more moves than this is shown grouped
GROUP_ABOVE = 40
#: the width the list is laid out in
WIDTH = 78


def use_colour(out: TextIO, environ: dict[str, str] | None = None) -> bool:
    """Whether to colour what goes to ``out``: a terminal, no ``NO_COLOR``, ``TERM`` not
    ``dumb`` (``FORCE_COLOR`` set and not ``0``: always)."""
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR", "") != "":
        return False
    if env.get("FORCE_COLOR", "") not in ("", "0"):
        return True
    if env.get("TERM", "") == "dumb":
        return False
    try:
        return bool(out.isatty())
    except (AttributeError, ValueError):
        return False


@dataclass(frozen=True, kw_only=True)
class Palette:
    """ANSI colours, or none (``on=False``: every method returns its text unchanged)."""

    on: bool

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.on else text

    def number(self, text: str) -> str:     # a list number: [12]
        return self._wrap("36", text)

    def head(self, text: str) -> str:       # a heading
        return self._wrap("1", text)

    def mine(self, text: str) -> str:       # the person's own move
        return self._wrap("32", text)

    def other(self, text: str) -> str:      # another seat's move
        return self._wrap("33", text)

    def bad(self, text: str) -> str:        # a refusal
        return self._wrap("31", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)


@dataclass(frozen=True, kw_only=True)
class MoveGroup:
    """Moves listed together: a ``label`` and the moves' indexes in the full list."""

    label: str
    indexes: tuple[int, ...]


def _cat_cards_key(text: str) -> str | None:
    if text.startswith("take") or not text.isalnum():
        return None
    return f"{len(text)}-card sets from {text[0]}"


def _generic_key(text: str) -> str | None:
    m = re.match(r"[A-Za-z]+", text)
    return f"{m.group(0)}..." if m and m.group(0) != text else None


#: how a game's long lists are grouped: the key of a move's notation (``None``: not grouped,
#: listed in full)
GROUPERS: dict[str, Callable[[str], str | None]] = {"cat-cards": _cat_cards_key}


def group_moves(game: str, texts: list[str]) -> tuple[list[int], list[MoveGroup]]:
    """The moves listed in full (their indexes) and the groups of the others, in the order
    of their first move; no groups when the list is short (at most :data:`GROUP_ABOVE`)."""
    if len(texts) <= GROUP_ABOVE:
        return list(range(len(texts))), []
    key = GROUPERS.get(game, _generic_key)
    single: list[int] = []
    groups: dict[str, list[int]] = {}
    for i, t in enumerate(texts):
        k = key(t)
        if k is None:
            single.append(i)
        else:
            groups.setdefault(k, []).append(i)
    out = []
    for label, idx in groups.items():
        if len(idx) == 1:
            single.append(idx[0])
        else:
            out.append(MoveGroup(label=label, indexes=tuple(idx)))
    return sorted(single), out


def _columns(items: list[str], plain: list[str]) -> list[str]:
    if not items:
        return []
    width = max(len(s) for s in plain) + 2
    per_line = max(1, WIDTH // width)
    lines = []
    for k in range(0, len(items), per_line):
        row = [items[j] + " " * (width - len(plain[j])) for j in range(k, min(k + per_line, len(items)))]
        lines.append("".join(row).rstrip())
    return lines


def format_group(indexes, texts: list[str], pal: Palette) -> list[str]:
    """The lines listing these moves, each as ``[n] notation``."""
    plain = [f"{f'[{i + 1}]':>5} {texts[i]}" for i in indexes]
    coloured = [f"{pal.number(f'[{i + 1}]'.rjust(5))} {texts[i]}" for i in indexes]
    return _columns(coloured, plain)


def format_list(game: str, texts: list[str], pal: Palette) -> tuple[list[str], list[MoveGroup]]:
    """The move list's lines (grouped when long) and its groups (``{n}`` is ``groups[n-1]``)."""
    single, groups = group_moves(game, texts)
    if not groups:
        return format_group(single, texts, pal), []
    lines = [pal.dim(f"{len(texts)} moves, grouped: type a move's notation, [n] for a listed "
                     "one, or {n} to list group n")]
    lines += format_group(single, texts, pal)
    for n, g in enumerate(groups, 1):
        shown = " ".join(texts[i] for i in g.indexes[:6])
        more = " ..." if len(g.indexes) > 6 else ""
        line = f"{pal.number(f'{{{n}}}'.rjust(5))} {g.label}: {len(g.indexes)} moves  {shown}{more}"
        lines.append(line)
    return lines, groups


def parse_group(line: str, count: int) -> int | None:
    """The group a line asks to list (``{3}`` or ``group 3``: 3), ``None`` when the line asks
    for none; ``0`` when it names a group that does not exist (1..``count``)."""
    m = re.fullmatch(r"\{\s*(\d{1,6})\s*\}|group\s+(\d{1,6})", line.strip().lower())
    if m is None:
        return None
    n = int(m.group(1) or m.group(2))
    return n if 1 <= n <= count else 0


def expand_group(line: str, groups: list[MoveGroup], texts: list[str],
                 pal: Palette) -> list[str] | None:
    """The lines answering ``{n}`` (group ``n`` in full, or why there is no such group);
    ``None`` when ``line`` does not ask for a group."""
    n = parse_group(line, len(groups))
    if n is None:
        return None
    if n == 0:
        return [pal.bad(f"no such group: the groups are {{1}} to {{{len(groups)}}}"
                        if groups else "no such group: the list is not grouped")]
    return [f"{groups[n - 1].label}:"] + format_group(groups[n - 1].indexes, texts, pal)
