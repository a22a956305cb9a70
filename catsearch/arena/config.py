"""The description of a match: what is played, by whom, how often, with which seed."""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import catsearch
from catsearch._core.game import registered
from catsearch._core.options import check_seed, option_value
from catsearch.arena.entrants import Entrant, load_imports
from catsearch.arena.schedule import games_per_group, seatings, tables
from catsearch.arena.stats import SPRT

__all__ = ["MatchConfig", "TimeControl", "parse_game_option", "FORMAT"]

#: the version of the results file format (the first line's ``format``)
FORMAT = 1

#: the fields that must be equal to resume a results file (the rest may change)
IDENTITY = ("game", "game_options", "seats", "seed", "seatings", "entrants", "move_timeout",
            "time_control")


@dataclass(frozen=True, kw_only=True)
class TimeControl:
    """A game's clock: every seat starts with ``base`` seconds and gets ``inc`` more after
    each of its moves; a seat whose clock runs out (its move took more than it had) loses
    the game by a ``timeout`` failure. Written ``BASE+INC`` in seconds (``10+0.1``; ``60``
    is ``60+0``).

    :ivar base: each seat's time at the start, in seconds (> 0).
    :ivar inc: the seconds added after each move (>= 0).
    """

    base: float
    inc: float = 0.0

    def __post_init__(self) -> None:
        for name, low in (("base", "> 0"), ("inc", ">= 0")):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise TypeError(f"TimeControl.{name} must be a number of seconds, not "
                                f"{type(v).__name__} {v!r:.40}")
            if not math.isfinite(v) or v < 0 or (name == "base" and v == 0) or v > 86_400:
                raise ValueError(f"TimeControl.{name} must be a finite number of seconds "
                                 f"{low} and at most 86400, not {v!r}")
            object.__setattr__(self, name, float(v))

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """Read ``BASE[+INC]`` (seconds: ``10+0.1``, ``2+0.02``, ``60``).

        :raises ValueError: not of that form, or a number out of range.
        """
        if not isinstance(text, str):
            raise TypeError(f"a time control is a text like '10+0.1', not "
                            f"{type(text).__name__}")
        base, plus, inc = text.strip().partition("+")
        try:
            b = float(base)
            i = float(inc) if plus else 0.0
        except ValueError:
            raise ValueError(f"a time control is BASE+INC in seconds (like 10+0.1), not "
                             f"{text!r}") from None
        return cls(base=b, inc=i)

    def __str__(self) -> str:
        return f"{self.base:g}+{self.inc:g}"


def parse_game_option(text: str) -> tuple[str, object]:
    """Read ``key=value``; the value as an int, a decimal number, true/false, or else the
    text (:func:`catsearch._core.options.option_value`: the engine protocol reads
    ``position ... option`` the same way)."""
    key, eq, raw = text.partition("=")
    if not eq or not key.strip():
        raise ValueError(f"a game option is key=value, not {text!r}")
    return key.strip(), option_value(raw.strip())


@dataclass(frozen=True)
class MatchConfig:
    """A match: a round robin of ``entrants`` at tables of ``seats``, over ``groups`` deals.

    :ivar game: the game id (``catsearch.GAMES``).
    :ivar entrants: the players; with more entrants than seats every ``seats``-subset plays.
    :ivar seats: players per game (2 to 4); by default as many as entrants, at most 4.
    :ivar groups: deal groups; each deal is played by every table under every seating.
    :ivar seed: the master seed from which every deal and search seed derives: a whole
        number from 0 to 2**64 - 1, like every seed of catsearch.
    :ivar seatings: ``all`` (every order of the table's players; the default) or ``rotate``
        (each takes every seat once, the cyclic order of play kept: fewer games, but with
        3-4 seats who plays after whom then never changes, which can decide a match).
    :ivar game_options: options of the game (``new_game(..., **options)``).
    :ivar move_timeout: seconds a player may take for one move (None: built-in players
        unlimited, engines :data:`~catsearch.arena.entrants.DEFAULT_ENGINE_TIMEOUT`).
    :ivar on_failure: ``lose`` (the failing player loses the game) or ``void`` (the whole deal
        group is left out of the statistics).
    :ivar sprt: stop the match once this test decides (two entrants only).
    :ivar imports: modules (or ``.py`` files) imported in every worker first, to register
        extra players.
    :ivar time_control: each seat's clock (:class:`TimeControl`, or its text ``10+0.1``);
        ``None``: no clock (each player searches by its own budget).
    """

    game: str
    entrants: tuple[Entrant, ...]
    seats: int = 0
    groups: int = 100
    seed: int = 1
    seatings: str = "all"
    game_options: tuple[tuple[str, object], ...] = field(default=())
    move_timeout: float | None = None
    on_failure: str = "lose"
    sprt: SPRT | None = None
    imports: tuple[str, ...] = field(default=())
    time_control: TimeControl | None = None

    def __post_init__(self) -> None:
        if isinstance(self.time_control, str):
            object.__setattr__(self, "time_control", TimeControl.parse(self.time_control))
        if self.time_control is not None and not isinstance(self.time_control, TimeControl):
            raise TypeError(f"time_control must be a TimeControl, its text or None, not "
                            f"{type(self.time_control).__name__}")
        if self.game not in registered():     # a test game too (catsearch.testing's)
            raise ValueError(f"unknown game {self.game!r}; the games are "
                             f"{', '.join(catsearch.GAMES)}")
        object.__setattr__(self, "imports", tuple(self.imports))
        if not all(isinstance(e, Entrant) for e in self.entrants):
            load_imports(self.imports)  # the players they register may be among the texts
        ents = tuple(e if isinstance(e, Entrant) else Entrant.parse(e) for e in self.entrants)
        object.__setattr__(self, "entrants", _unique_labels(ents))
        if len(self.entrants) < 2:
            raise ValueError("a match needs at least 2 players")
        seats = self.seats or min(len(self.entrants), 4)
        if not 2 <= seats <= 4:
            raise ValueError(f"seats must be 2 to 4, not {seats}")
        object.__setattr__(self, "seats", seats)
        tables(len(self.entrants), seats)
        seatings(seats, self.seatings)
        if isinstance(self.groups, bool) or not isinstance(self.groups, int) or self.groups < 1:
            raise ValueError(f"groups must be a whole number >= 1, not {self.groups!r}")
        object.__setattr__(self, "seed", check_seed(self.seed, "seed", none_ok=False))
        if self.on_failure not in ("lose", "void"):
            raise ValueError(f"on_failure must be 'lose' or 'void', not {self.on_failure!r}")
        if self.move_timeout is not None and not (self.move_timeout > 0
                                                  and math.isfinite(self.move_timeout)):
            raise ValueError(f"move_timeout must be a positive number of seconds or None, "
                             f"not {self.move_timeout!r}")
        opts = self.game_options
        if isinstance(opts, dict):
            opts = tuple(opts.items())
        object.__setattr__(self, "game_options", tuple((str(k), v) for k, v in opts))
        if self.sprt is not None and len(self.entrants) != 2:
            raise ValueError(f"an SPRT compares 2 players; this match has {len(self.entrants)}")
        # the game must accept the options and the player count
        catsearch.new_game(self.game, seats, seed=0, **dict(self.game_options))

    @property
    def games_per_group(self) -> int:
        return games_per_group(len(self.entrants), self.seats, self.seatings)

    @property
    def total_games(self) -> int:
        return self.groups * self.games_per_group

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(e.label for e in self.entrants)

    def with_(self, **changes) -> MatchConfig:
        return replace(self, **changes)

    def to_dict(self) -> dict:
        return {
            "game": self.game,
            "game_options": {k: v for k, v in self.game_options},
            "entrants": [e.to_dict() for e in self.entrants],
            "seats": self.seats,
            "groups": self.groups,
            "seed": self.seed,
            "seatings": self.seatings,
            "move_timeout": self.move_timeout,
            "on_failure": self.on_failure,
            "sprt": None if self.sprt is None else self.sprt.to_dict(),
            "imports": list(self.imports),
            "time_control": None if self.time_control is None else str(self.time_control),
        }

    @classmethod
    def from_dict(cls, d: dict) -> MatchConfig:
        return cls(
            game=d["game"],
            entrants=tuple(Entrant.from_dict(e) for e in d["entrants"]),
            seats=d["seats"],
            groups=d["groups"],
            seed=d["seed"],
            seatings=d.get("seatings", "all"),
            game_options=tuple(d.get("game_options", {}).items()),
            move_timeout=d.get("move_timeout"),
            on_failure=d.get("on_failure", "lose"),
            sprt=None if d.get("sprt") is None else SPRT(**d["sprt"]),
            imports=tuple(d.get("imports", ())),
            time_control=d.get("time_control"),
        )

    def identity(self) -> dict:
        """What a results file must agree on to be resumed with this config."""
        d = self.to_dict()
        return {k: d[k] for k in IDENTITY}


def _unique_labels(entrants: tuple[Entrant, ...]) -> tuple[Entrant, ...]:
    seen: dict[str, int] = {}
    out = []
    for e in entrants:
        n = seen.get(e.label, 0) + 1
        seen[e.label] = n
        if n > 1:
            e = replace(e, label=f"{e.label}#{n}")
        out.append(e)
    return tuple(out)
