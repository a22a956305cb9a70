"""Reading the one-line notations: ``key=value`` fields separated by single spaces.

Every game writes its state as such a line. This module splits it, remembers where each
field stands (so that an error can name the column), and checks that exactly the expected
keys are present.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from catsearch._core import options
from catsearch.errors import NotationError


_HEX16 = re.compile(r"[0-9a-fA-F]{16}")


_LOOKUPS: dict[str, dict[str, int]] = {}


def _lookup(letters: str) -> dict[str, int]:
    """``letters`` as a dict, character -> card type (the first one, as ``str.find`` reads)."""
    table = _LOOKUPS.get(letters)
    if table is None:
        table = _LOOKUPS[letters] = {}
        for t, ch in enumerate(letters):
            table.setdefault(ch, t)
    return table


def parse_int(text: str) -> int:
    """A whole number written in plain digits (no sign, space or underscore), else ValueError
    (the library's one reader of whole numbers, :func:`catsearch._core.options.parse_int`;
    a notation's numbers are never negative, and ``-0`` is no way to write 0)."""
    if text[:1] == "-":
        raise ValueError(f"{text!r}: a notation's numbers have no sign")
    return options.parse_int(text, "value")


class Field(NamedTuple):
    """One ``key=value`` token; ``pos`` is the column of the value's first character."""

    key: str
    value: str
    pos: int


class Fields:
    """The fields of one notation line, by key, with error helpers that name columns."""

    def __init__(self, text: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
        if not isinstance(text, str):
            raise NotationError(f"a notation is a str, not {type(text).__name__}")
        if not text.strip():
            raise NotationError("empty notation", text, 0)
        if "\n" in text or "\r" in text:
            raise NotationError("a notation is a single line", text, text.find("\n"))
        self.text = text
        self._fields: dict[str, Field] = {}
        col = 0
        for raw in text.split(" "):
            if raw == "":
                col += 1
                continue
            key, eq, value = raw.partition("=")
            if not eq or not key:
                raise NotationError("expected key=value", text, col, raw)
            if key not in keys and key not in optional:
                raise NotationError(
                    f"unknown field {key!r}; the fields are {', '.join(keys + optional)}",
                    text, col, raw)
            if key in self._fields:
                raise NotationError(f"field {key!r} given twice", text, col, raw)
            self._fields[key] = Field(key, value, col + len(key) + 1)
            col += len(raw) + 1
        missing = [k for k in keys if k not in self._fields]
        if missing:
            raise NotationError(f"missing field(s) {', '.join(missing)}", text, len(text))

    def __contains__(self, key: str) -> bool:
        return key in self._fields

    def __getitem__(self, key: str) -> Field:
        return self._fields[key]

    def error(self, field: Field, message: str, offset: int = 0, length: int | None = None) -> NotationError:
        """An error about ``field``, pointing ``offset`` characters into its value."""
        token = field.value[offset:offset + length] if length is not None else field.value
        return NotationError(f"{field.key}: {message}", self.text, field.pos + offset,
                             token or f"{field.key}=")

    def int(self, key: str, lo: int, hi: int) -> int:
        """The field's value as an int in ``[lo, hi]``."""
        f = self._fields[key]
        try:
            v = parse_int(f.value)
        except ValueError:
            raise self.error(f, f"expected a whole number from {lo} to {hi}") from None
        if not lo <= v <= hi:
            raise self.error(f, f"{v} is out of range, expected {lo} to {hi}")
        return v

    def int_list(self, key: str, count: int, lo: int, hi: int) -> list[int]:
        """A comma-separated list of exactly ``count`` ints, each in ``[lo, hi]``."""
        f = self._fields[key]
        parts = f.value.split(",")
        if len(parts) != count:
            raise self.error(f, f"expected {count} comma-separated numbers, got {len(parts)}")
        out = []
        off = 0
        for p in parts:
            try:
                v = parse_int(p)
            except ValueError:
                raise self.error(f, f"expected a whole number from {lo} to {hi}", off, len(p)) from None
            if not lo <= v <= hi:
                raise self.error(f, f"{v} is out of range, expected {lo} to {hi}", off, len(p))
            out.append(v)
            off += len(p) + 1
        return out

    def parts(self, key: str, count: int | None, sep: str, what: str) -> list[tuple[str, int]]:
        """The field's value split at ``sep``: ``(part, offset)`` pairs, exactly ``count`` of
        them unless ``count`` is ``None`` (``what`` names the parts in the error)."""
        f = self._fields[key]
        out = []
        off = 0
        for part in f.value.split(sep):
            out.append((part, off))
            off += len(part) + len(sep)
        if count is not None and len(out) != count:
            raise self.error(f, f"expected {count} {what} separated by '{sep}', got {len(out)}")
        return out

    def cards(self, key: str, text: str, offset: int, letters: str, counts: list[int],
              unknown: bool = True, describe: str = "") -> list[int]:
        """The cards written as ``text`` (a part of field ``key``'s value, from ``offset``):
        one character each, card type ``t`` as ``letters[t]``, where the last letter is the
        unknown card ``?`` (refused unless ``unknown``). ``-`` is no card. Each card read is
        counted in ``counts``; ``describe`` lists the cards for the error."""
        if text == "-":
            return []
        lookup = _lookup(letters)
        try:
            out = [lookup[ch] for ch in text]
        except KeyError:
            out = None
        if out is None or (not unknown and len(letters) - 1 in out):
            for i, ch in enumerate(text):        # the first bad card, named in the error
                t = letters.find(ch)
                if t < 0 or (t == len(letters) - 1 and not unknown):
                    names = describe or " ".join(letters[:-1])
                    raise self.error(self._fields[key], f"{ch!r} is not a card; cards are "
                                     f"{names}" + (" and ?" if unknown else ""), offset + i, 1)
        for t in out:
            counts[t] += 1
        return out

    def rng(self, key: str = "rng") -> int | None:
        """The generator state: 16 hex digits, or ``?`` in a view (returns ``None``)."""
        f = self._fields[key]
        if f.value == "?":
            return None
        if not _HEX16.fullmatch(f.value):
            raise self.error(f, "expected 16 hex digits or ?")
        return int(f.value, 16)


def rng_text(known: bool, state: int) -> str:
    """The ``rng`` field's value: 16 lowercase hex digits, or ``?`` where it is hidden."""
    return f"{state:016x}" if known else "?"


def check_card_counts(text: str, counts: list[int], comp, names, game: str, view: bool) -> None:
    """Every card of the game is somewhere: ``counts`` (per card type, the unknown card last,
    as read) against the game's composition ``comp``; unknown cards only in a view.

    :raises NotationError: a type with more cards than the game has, a total that is not the
        game's, or unknown cards in a full state.
    """
    ntypes = len(comp)
    for t in range(ntypes):
        if counts[t] > comp[t]:
            raise NotationError(f"{counts[t]} {names[t]} cards, but the game has {comp[t]}", text)
    total = sum(comp[t] for t in range(ntypes))
    if sum(counts) != total:
        raise NotationError(f"the notation holds {sum(counts)} cards; {game} has {total}", text)
    if not view and counts[ntypes]:
        raise NotationError("unknown cards (?) appear only in a seat's view, which has "
                            "view=<seat>", text)


def with_article(words: str) -> str:
    """``words`` after "a" or "an", as English wants it (``with_article("orange cat")``:
    "an orange cat")."""
    return ("an " if words[:1] in "aeiou" else "a ") + words


def words_for(text: str, patterns: tuple[tuple[str, str], ...]) -> str | None:
    """A move's text in plain words (for a ``GameSpec.gloss``): the words of the first
    ``(regex, words)`` pair whose regex matches the whole of ``text``, its groups put in
    (``\\1``, ``\\2``: ``re.Match.expand``); ``None`` where none matches."""
    for pattern, words in patterns:
        if m := re.fullmatch(pattern, text):
            return m.expand(words)
    return None
