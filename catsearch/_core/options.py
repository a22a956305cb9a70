"""Options, declared once and checked one way: game options, player options and seeds.

An :class:`Option` says what a value may be (its kind, its range, its default). Everything
that takes options, :func:`catsearch.new_game`, :func:`catsearch.make_player`, the engine's
``setoption`` and the arena, checks them with :func:`check_options`, so every bad value gets
the same kind of message: a ``TypeError`` for a value of the wrong type, an
:class:`OptionError` (a ``ValueError``) for one out of range, each naming the option, the value
and what would be valid. Values given as text (a spec string, a protocol line) are read with
:meth:`Option.parse` first.

One seed type: a whole number from 0 to 2**64 - 1 (:data:`SEED_MAX`), checked by
:func:`check_seed`; :func:`derive_seed` is the one way to derive child seeds from it.

A whole number written as text (a spec's ``iterations=1000``, an engine's ``setoption``, a
command line's ``--option target=12``, a notation's field) is read by :func:`parse_int` and
nothing else: ASCII decimal digits, with an optional leading ``-`` (``docs/api.rst``,
"Numbers written as text"); a decimal number by :func:`parse_float`.

The other whole-number arguments of the public API (a seat, a move id, a depth, a count) are
checked by :func:`check_int` (the rule is in ``docs/api.rst``): whatever ``operator.index``
accepts is a whole number (``int``, numpy integers), except ``bool``; anything else is a
``TypeError``; a value out of range is a ``ValueError`` subclass naming the parameter, the
value and the range.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import operator
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Option",
    "OptionError",
    "SEED_MAX",
    "check_seed",
    "fresh_seed",
    "check_options",
    "check_int",
    "as_int",
    "parse_int",
    "parse_float",
    "option_value",
    "derive_seed",
    "mix64",
]

SEED_MAX = 2**64 - 1
_M64 = SEED_MAX


class OptionError(ValueError):
    """An option that does not exist, or a value out of its range.

    :ivar owner: what the option belongs to (``"ismcts"``, ``"cat-cards"``).
    :ivar option: the option's name, as given.
    :ivar value: the offending value.
    """

    def __init__(self, message: str, *, owner: str = "", option: str | None = None,
                 value: Any = None) -> None:
        super().__init__(message)
        self.owner = owner
        self.option = option
        self.value = value


_BOOL_TEXT = {"1": True, "true": True, "yes": True, "on": True,
              "0": False, "false": False, "no": False, "off": False}


def _whole(x: float | None) -> int | None:
    """A range's bound as a whole number (``None``: unbounded)."""
    return None if x is None else int(x)


def _fmt(x: float) -> str:
    if isinstance(x, int) and x >= 2**32:
        exp = x.bit_length() - 1 if x + 1 == 2 ** x.bit_length() else None
        return f"2**{exp + 1} - 1" if exp is not None else str(x)
    return repr(x) if isinstance(x, float) else str(x)


@dataclass(frozen=True)
class Option:
    """One option: its name, the kind of value, the default and the range.

    :ivar kind: ``int``, ``float``, ``bool``, ``str``, or a tuple of the allowed strings.
    :ivar low, high: the inclusive range of a number (``None``: unbounded on that side).
    :ivar none_ok: ``None`` is a valid value (it means "not set", e.g. no time limit).
    :ivar convert: for a structured value: a function from the value (or its text) to the
        checked value, raising ``TypeError`` or ``ValueError`` with its reason.
    :ivar doc: one line on what it does, for help texts.
    :ivar family: a family of numbers, each set as ``NAME.MEMBER=value`` (a finite number)
        or all at once as a mapping ``{MEMBER: value}``; the value is the dict of the members
        set, ``None`` for none. Which members exist is checked by whoever uses them (a
        game's heuristic weights: :meth:`GameSpec.weight_vector`).
    """

    name: str
    kind: Any
    default: Any = None
    low: float | None = None
    high: float | None = None
    none_ok: bool = False
    convert: Callable[[Any], Any] | None = None
    doc: str = ""
    family: bool = False

    def describe(self) -> str:
        """What a valid value is, in words (``"a whole number from 1 to 64"``)."""
        if self.family:
            text = f"a mapping of names to numbers, or {self.name}.NAME=number each"
        elif self.convert is not None:
            text = self.doc or "a valid value"
        elif isinstance(self.kind, tuple):
            text = "one of " + ", ".join(self.kind)
        elif self.kind is bool:
            text = "true or false"
        elif self.kind is str:
            text = "a string"
        else:
            noun = "a whole number" if self.kind is int else "a finite number"
            if self.low is not None and self.high is not None:
                text = f"{noun} from {_fmt(self.low)} to {_fmt(self.high)}"
            elif self.low is not None:
                text = f"{noun} >= {_fmt(self.low)}"
            elif self.high is not None:
                text = f"{noun} <= {_fmt(self.high)}"
            else:
                text = noun
        return text + (" or None" if self.none_ok else "")

    def check(self, value: Any, owner: str = "") -> Any:
        """``value`` checked (and normalised: an ``int`` for ``operator.index``-able values,
        a ``float`` for numbers of a float option).

        :raises TypeError: a value of the wrong type.
        :raises OptionError: a value out of range.
        """
        where = f"{owner}: " if owner else ""
        if value is None:
            if self.none_ok:
                return None
            raise TypeError(f"{where}option {self.name} must be {self.describe()}, not None")
        if self.family:
            return self._check_family(value, owner)
        if self.convert is not None:
            try:
                return self.convert(value)
            except TypeError as e:
                raise TypeError(f"{where}option {self.name}={value!r}: {e}") from None
            except ValueError as e:
                raise OptionError(f"{where}option {self.name}={value!r}: {e}", owner=owner,
                                  option=self.name, value=value) from None
        kind = self.kind
        if isinstance(kind, tuple) or kind is str:
            if not isinstance(value, str):
                raise TypeError(f"{where}option {self.name} must be {self.describe()}, "
                                f"not {type(value).__name__} {value!r}")
            if isinstance(kind, tuple) and value not in kind:
                raise self._range_error(value, owner)
            return value
        if kind is bool:
            if not isinstance(value, bool):
                raise TypeError(f"{where}option {self.name} must be true or false, "
                                f"not {type(value).__name__} {value!r}")
            return value
        if isinstance(value, bool):
            raise TypeError(f"{where}option {self.name} must be {self.describe()}, not {value!r}")
        if kind is int:
            try:
                value = operator.index(value)
            except TypeError:
                raise TypeError(f"{where}option {self.name} must be {self.describe()}, "
                                f"not {type(value).__name__} {value!r}") from None
        else:
            if not isinstance(value, numbers.Real):
                raise TypeError(f"{where}option {self.name} must be {self.describe()}, "
                                f"not {type(value).__name__} {value!r}")
            value = float(value)
            if math.isnan(value) or math.isinf(value):
                raise self._range_error(value, owner)
        if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high):
            raise self._range_error(value, owner)
        return value

    def _check_family(self, value: Any, owner: str) -> dict[str, float] | None:
        if not isinstance(value, Mapping):
            where = f"{owner}: " if owner else ""
            raise TypeError(f"{where}option {self.name} must be {self.describe()}, "
                            f"not {type(value).__name__} {value!r}")
        out = {}
        for key, member in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{owner + ': ' if owner else ''}a name in {self.name} is a "
                                f"str, not {type(key).__name__} {key!r}")
            out[key] = self.member(key).check(member, owner)
        return dict(sorted(out.items())) or None

    def member(self, key: str) -> Option:
        """The option ``NAME.key`` of a family: a finite number."""
        if not key.isidentifier():
            raise OptionError(f"{f'{self.name}.{key}'!r}: a member's name is a word, like "
                              f"{self.name}.complete", option=f"{self.name}.{key}")
        return Option(f"{self.name}.{key}", float, doc=self.doc)

    def parse(self, text: str, owner: str = "") -> Any:
        """The value written as ``text`` (a spec string or protocol line), checked."""
        where = f"{owner}: " if owner else ""
        if not isinstance(text, str):
            return self.check(text, owner)
        raw = text
        if self.none_ok and raw.lower() in ("none", ""):
            return None
        if self.family:
            raise OptionError(f"{where}option {self.name}={raw!r}: set its members one by one, "
                              f"{self.name}.NAME=number", owner=owner, option=self.name,
                              value=raw)
        if self.convert is not None or isinstance(self.kind, tuple) or self.kind is str:
            return self.check(raw, owner)
        if self.kind is int:
            try:
                value: Any = parse_int(raw, self.name, _whole(self.low), _whole(self.high))
            except OptionError as e:
                raise OptionError(f"{where}option {e}", owner=owner, option=self.name,
                                  value=raw) from None
            return self.check(value, owner)
        try:
            value = _BOOL_TEXT[raw.lower()] if self.kind is bool else parse_float(raw, self.name)
        except (KeyError, OptionError):
            raise OptionError(f"{where}option {self.name}={_short(raw)} is not valid: expected "
                              f"{self.describe()}" + ("" if self.kind is bool else
                                                      " (digits 0-9, like 2, -0.5, 1e-3)"),
                              owner=owner, option=self.name, value=raw) from None
        return self.check(value, owner)

    def _range_error(self, value: Any, owner: str) -> OptionError:
        where = f"{owner}: " if owner else ""
        return OptionError(f"{where}option {self.name}={value!r} is out of range: expected "
                           f"{self.describe()}", owner=owner, option=self.name, value=value)


def check_options(declared: tuple[Option, ...] | Mapping[str, Option], given: Mapping[str, Any],
                  owner: str = "", *, aliases: Mapping[str, str] | None = None,
                  text: bool = False) -> dict[str, Any]:
    """Check ``given`` (name -> value, or name -> text with ``text=True``) against the
    ``declared`` options; return every declared option's value, defaults filled in, under its
    full name.

    :raises OptionError: an unknown option (the message lists the known ones) or a value out
        of range, or an option given twice (under its name and an alias).
    :raises TypeError: a value of the wrong type.
    """
    table = declared if isinstance(declared, Mapping) else {o.name: o for o in declared}
    aliases = aliases or {}
    where = f"{owner}: " if owner else ""
    out: dict[str, Any] = {}
    members: dict[str, dict[str, float]] = {}
    for key, value in given.items():
        if not isinstance(key, str):
            raise TypeError(f"{where}an option name is a str, not {type(key).__name__}")
        name = aliases.get(key, key)
        family, dot, sub = name.partition(".")
        if dot and family in table and table[family].family:
            opt = table[family].member(sub)
            got = members.setdefault(family, {})
            if sub in got:
                raise OptionError(f"{where}option {name!r} given twice", owner=owner,
                                  option=name, value=value)
            got[sub] = opt.parse(value, owner) if text else opt.check(value, owner)
            continue
        if name not in table:
            known = ", ".join(sorted(set(table) | set(aliases))) or "(none)"
            raise OptionError(f"{where}unknown option {key!r}; the options are {known}",
                              owner=owner, option=key, value=value)
        if name in out:
            raise OptionError(f"{where}option {name!r} given twice", owner=owner,
                              option=name, value=value)
        opt = table[name]
        if key != name:         # an alias: the errors name the option as the user wrote it
            opt = dataclasses.replace(opt, name=key)
        out[name] = opt.parse(value, owner) if text else opt.check(value, owner)
    for family, got in members.items():
        both = set(out.get(family) or {}) & set(got)
        if both:
            raise OptionError(f"{where}option {family}.{min(both)} given twice", owner=owner,
                              option=f"{family}.{min(both)}")
        out[family] = dict(sorted({**(out.get(family) or {}), **got}.items()))
    for name, opt in table.items():
        if name not in out:
            out[name] = opt.default
    return out


SEED = Option("seed", int, None, 0, SEED_MAX, none_ok=True,
              doc="the seed: a whole number from 0 to 2**64 - 1")


def check_seed(value: Any, name: str = "seed", *, none_ok: bool = True) -> int | None:
    """``value`` as a seed (a whole number from 0 to 2**64 - 1; ``None`` where allowed).

    :raises TypeError: not a whole number.
    :raises OptionError: out of range.
    """
    opt = SEED if name == "seed" and none_ok else Option(name, int, None, 0, SEED_MAX,
                                                         none_ok=none_ok)
    return opt.check(value)


def fresh_seed() -> int:
    """A 64-bit seed from the operating system, for ``seed=None``."""
    return int.from_bytes(os.urandom(8), "little")


def as_int(value: Any, name: str) -> int:
    """``value`` as a Python ``int``: whatever ``operator.index`` accepts (``int``, numpy
    integers), except ``bool`` (``True`` as a seat or a move is a bug, not a 1).

    :raises TypeError: anything else, naming the parameter and the type.
    """
    if type(value) is int:
        return value
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"{name} must be a whole number (an int), not {type(value).__name__} "
                    f"{_short(value)}")


def check_seat(seat: Any, players: int, view_seat: int = -1) -> int:
    """``seat`` as an int: ``TypeError`` unless a whole number, ``ValueError`` unless one of
    ``players`` seats and (``view_seat`` >= 0: a seat's view) that view's seat."""
    s = as_int(seat, "seat")
    if not 0 <= s < players:
        raise ValueError(f"seat {s} does not exist: seat is out of range, expected a whole "
                         f"number from 0 to {players - 1}")
    if view_seat >= 0 and s != view_seat:
        raise ValueError(f"this state is seat {view_seat}'s view; it cannot stand for seat "
                         f"{s}'s knowledge")
    return s


def check_move(move: Any, moves: int, game_id: str) -> int:
    """``move`` as a move id: ``TypeError`` unless a whole number, ``InvalidMoveError``
    unless in ``range(moves)``."""
    from catsearch.errors import InvalidMoveError
    m = as_int(move, "move")
    if not 0 <= m < moves:
        raise InvalidMoveError(f"move {m} is out of range: expected a whole number from 0 "
                               f"to {moves - 1} for {game_id}")
    return m


def check_int(value: Any, name: str, low: int | None = None, high: int | None = None, *,
              error: type[ValueError] = OptionError) -> int:
    """``value`` (see :func:`as_int`) as an ``int`` from ``low`` to ``high`` (inclusive;
    ``None``: unbounded on that side).

    :raises TypeError: not a whole number.
    :raises ValueError: out of range, as ``error`` (an :class:`OptionError` by default),
        naming the parameter, the value and the range.
    """
    v = as_int(value, name)
    if (low is not None and v < low) or (high is not None and v > high):
        raise _error(error, f"{name}={v} is out of range: expected "
                            f"{_whole_number(low, high)}", name, v)
    return v


def _whole_number(low: int | None, high: int | None) -> str:
    """``"a whole number from 1 to 256"`` (``>= 0``, ``<= 5``; unbounded: no range)."""
    if low is not None and high is not None:
        return f"a whole number from {_fmt(low)} to {_fmt(high)}"
    if low is not None:
        return f"a whole number >= {_fmt(low)}"
    if high is not None:
        return f"a whole number <= {_fmt(high)}"
    return "a whole number"


def _error(error: type[ValueError], message: str, name: str, value: Any) -> ValueError:
    if issubclass(error, OptionError):
        return error(message, option=name, value=value)
    return error(message)


#: the text of a whole number: ASCII digits (a str pattern's ``[0-9]`` is exactly those ten;
#: ``\d`` would take every script's digits, ``int()`` also ``+``, ``_`` and spaces)
_INT_TEXT = re.compile(r"-?[0-9]+")
#: the text of a decimal number: digits with an optional fraction and exponent
_FLOAT_TEXT = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
#: the most digits a whole number without an upper or lower bound may have (Python's own
#: limit for converting text to an int)
MAX_DIGITS = 4300


def parse_int(text: Any, name: str, low: int | None = None, high: int | None = None, *,
              error: type[ValueError] = OptionError) -> int:
    """The whole number written as ``text``, from ``low`` to ``high`` (inclusive; ``None``:
    unbounded on that side). The one reader of whole numbers given as text (options of
    specs, of the engine and of the command lines; notation fields), so that all accept the
    same: ASCII decimal digits ``0``-``9`` with an optional leading ``-`` (a negative number
    where the range has none is out of range). Nothing else: no space, ``+``, ``_``, ``0x``
    prefix, or digits of other scripts (``'٣'``), all of which Python's ``int()`` accepts.

    :param name: what the number is, as the user wrote it (``"threads"``,
        ``"setoption Threads"``): the error names it and the text.
    :raises TypeError: ``text`` is not a str.
    :raises ValueError: as ``error`` (an :class:`OptionError` by default): ``text`` is not
        a whole number written so, or one out of range.
    """
    if not isinstance(text, str):
        raise TypeError(f"{name} must be text (a str) holding a whole number, not "
                        f"{type(text).__name__} {_short(text)}")
    if _INT_TEXT.fullmatch(text) is None:
        raise _error(error, f"{name}={_short(text)} is not a whole number: expected "
                            f"{_whole_number(low, high)}, written in the digits 0-9 (and a "
                            f"leading - if negative)", name, text)
    digits = len(text.lstrip("-").lstrip("0"))
    most = MAX_DIGITS if low is None or high is None else len(str(max(abs(low), abs(high))))
    if digits > most:           # out of range, known without converting a huge text
        raise _error(error, f"{name}={_short(text)[1:-1]} is out of range: expected "
                            f"{_whole_number(low, high)}", name, text)
    return check_int(int(text, 10), name, low, high, error=error)


def parse_float(text: Any, name: str, *, error: type[ValueError] = OptionError) -> float:
    """The finite number written as ``text``: ASCII digits with an optional leading ``-``,
    fraction and exponent (``2``, ``-0.5``, ``.25``, ``1e-3``); no space, ``+`` before it,
    ``_``, ``nan`` or ``inf``, or digits of other scripts (which ``float()`` accepts).

    :raises TypeError: ``text`` is not a str.
    :raises ValueError: as ``error``: not a number written so, or not finite (``1e999``).
    """
    if not isinstance(text, str):
        raise TypeError(f"{name} must be text (a str) holding a number, not "
                        f"{type(text).__name__} {_short(text)}")
    value = float(text) if _FLOAT_TEXT.fullmatch(text) else math.nan
    if not math.isfinite(value):
        raise _error(error, f"{name}={_short(text)} is not a finite number written in digits "
                            f"0-9 (like 2, -0.5, 1e-3)", name, text)
    return value


#: a decimal number as :func:`option_value` reads it (a fraction; no exponent)
_DECIMAL_TEXT = re.compile(r"-?[0-9]+\.[0-9]+")


def option_value(text: str) -> Any:
    """An option's value written as ``text`` where no declaration says its kind (a command
    line's or the engine's game options, ``--option target=12``): a whole number where it
    is one (as :func:`parse_int` reads it), else a decimal number (``0.5``), else ``true`` or
    ``false``, else the text itself (the game's options then check it)."""
    if _INT_TEXT.fullmatch(text) and len(text) <= 40:
        return parse_int(text, "value")
    if _DECIMAL_TEXT.fullmatch(text):
        return float(text)
    if text in ("true", "false"):
        return text == "true"
    return text


def _short(value: Any) -> str:
    """``repr(value)``, at most 60 characters of it."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def mix64(x: int) -> int:
    """splitmix64's finaliser of ``x + golden gamma``: a well-spread 64-bit value of any int
    (the same function as ``rng_next`` applied to a generator whose state is ``x``)."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


def derive_seed(seed: int, *path: int) -> int:
    """A child seed of ``seed`` for the place named by ``path`` (a game number, a seat, a
    worker): each step is ``mix64(parent ^ mix64(step))``, so different paths give
    unrelated seeds and the same path always the same one."""
    s = seed & _M64
    for step in path:
        s = mix64(s ^ mix64(step & _M64))
    return s
