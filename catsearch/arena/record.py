"""One game of a match as it is written down: :class:`GameRecord` (and its
:class:`GameFailure`).

A record is one line of the results file, ``{"type": "game", ...}``; :meth:`GameRecord.to_json`
writes that line's object and :meth:`GameRecord.from_json` reads it back, checking that it
is one game of the match's schedule, whole (:class:`ResultsFileError` naming the line and the
first field that is wrong otherwise). What is asked of a record (an entrant's points, who sat
where, how it won or failed) is asked through its methods, not by indexing its fields.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, fields

from catsearch.arena.entrants import FAILURE_KINDS
from catsearch.arena.schedule import GameTask, task_for

__all__ = ["GameRecord", "GameFailure", "ResultsFileError"]

#: a return of 1 (a win) or 0, to this precision (the returns are rounded to 12 digits)
_EPS = 1e-9
#: two returns this close are level
_TIE = 1e-12


class ResultsFileError(ValueError):
    """A results file that cannot be read or resumed (the message says why and where)."""


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v) -> bool:
    return (_is_int(v) or isinstance(v, float)) and math.isfinite(v)


def _list_of(v, test, n: int | None = None) -> bool:
    return isinstance(v, list) and (n is None or len(v) == n) and all(test(x) for x in v)


class _Mapping:
    """``record["returns"]`` and ``record.get("failure")``: the JSON object's values, for
    code written when records were dicts."""

    def __getitem__(self, key: str):
        return self.to_json()[key]

    def get(self, key: str, default=None):
        return self.to_json().get(key, default)


@dataclass(frozen=True, kw_only=True)
class GameFailure(_Mapping):
    """How a game ended early: the player in ``seat`` failed (and forfeited).

    :ivar seat: the seat that failed.
    :ivar player: its entrant's label.
    :ivar kind: one of :data:`~catsearch.arena.FAILURE_KINDS`.
    :ivar ply: the moves played before it.
    :ivar message: what happened, in words.
    :ivar restarted: the player was restarted for the next game.
    """

    seat: int
    player: str
    kind: str
    ply: int = 0
    message: str = ""
    restarted: bool = False

    def to_json(self) -> dict:
        return {"seat": self.seat, "player": self.player, "kind": self.kind, "ply": self.ply,
                "message": self.message, "restarted": self.restarted}

    @staticmethod
    def valid_json(v, seats: int) -> bool:
        """``v`` is a failure of a game with ``seats`` seats as a game line holds it."""
        return (isinstance(v, dict) and isinstance(v.get("kind"), str)
                and v["kind"] in FAILURE_KINDS and _is_int(v.get("seat"))
                and 0 <= v["seat"] < seats and isinstance(v.get("player"), str)
                and _is_int(v.get("ply", 0)) and isinstance(v.get("message", ""), str)
                and isinstance(v.get("restarted", False), bool))

    @classmethod
    def from_json(cls, obj: dict) -> GameFailure:
        return cls(**{f.name: obj[f.name] for f in fields(cls) if f.name in obj})


@dataclass(frozen=True, kw_only=True)
class GameRecord(_Mapping):
    """One game of a match, as :func:`~catsearch.arena.play_game` played it.

    :ivar game: its number in the match; ``group``, ``table``, ``seating``, ``deal_seed``,
        ``seed``: its :class:`~catsearch.arena.GameTask`'s.
    :ivar entrants: the entrant (index in the match's entrants) in each seat.
    :ivar seats: their labels, seat by seat.
    :ivar specs: the player spec (or engine command) each seat ran (None: it did not start).
    :ivar moves: the moves played, as text; ``move_seats``: who played each;
        ``move_seconds``: how long each took.
    :ivar returns: each seat's utility, 0 to 1 (1 for a win; a forfeit gives 0 to the
        failing seat and shares 1 among the others).
    :ivar scores: each seat's score in the game's own terms.
    :ivar terminal: the game was played to its end.
    :ivar failure: why it was not, if a player failed.
    :ivar seconds: the game's wall time.
    """

    game: int
    group: int
    table: int
    seating: int
    deal_seed: int
    seed: int
    entrants: tuple[int, ...]
    seats: tuple[str, ...]
    specs: tuple[str | None, ...] | None = None
    moves: tuple[str, ...] = ()
    move_seats: tuple[int, ...] = ()
    move_seconds: tuple[float, ...] = ()
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    terminal: bool
    failure: GameFailure | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        for name in ("entrants", "seats", "specs", "moves", "move_seats", "move_seconds",
                     "returns", "scores"):
            v = getattr(self, name)
            if isinstance(v, list):
                object.__setattr__(self, name, tuple(v))
        if isinstance(self.failure, dict):
            object.__setattr__(self, "failure", GameFailure.from_json(self.failure))
        if self.failure is not None and not isinstance(self.failure, GameFailure):
            raise TypeError(f"a game record's failure is a GameFailure or None, not "
                            f"{type(self.failure).__name__}")

    # -- who, where, how it went ---------------------------------------------------------

    @classmethod
    def for_task(cls, task: GameTask, **fields_) -> GameRecord:
        """The record of ``task``'s game with the rest of its fields."""
        return cls(game=task.game, group=task.group, table=task.table, seating=task.seating,
                   deal_seed=task.deal_seed, seed=task.seed, entrants=tuple(task.seats),
                   **fields_)

    @property
    def task(self) -> GameTask:
        """The game's task: playing it again gives this game."""
        return GameTask(game=self.game, group=self.group, table=self.table,
                        seating=self.seating, deal_seed=self.deal_seed,
                        seats=tuple(self.entrants), seed=self.seed)

    @property
    def failed(self) -> bool:
        return self.failure is not None

    @property
    def failure_kind(self) -> str | None:
        return None if self.failure is None else self.failure.kind

    def seat_of(self, entrant: int) -> int | None:
        """The seat entrant ``entrant`` played (None: it did not play this game)."""
        return self.entrants.index(entrant) if entrant in self.entrants else None

    def points_of(self, entrant: int) -> float | None:
        """Entrant ``entrant``'s return (None: it did not play this game)."""
        seat = self.seat_of(entrant)
        return None if seat is None else self.returns[seat]

    def won(self, seat: int) -> bool:
        """``seat`` won outright (a return of 1)."""
        return self.returns[seat] >= 1.0 - _EPS

    def shared_win(self, seat: int) -> bool:
        """``seat`` shared the best return with another seat (not a win, not a loss)."""
        r = self.returns[seat]
        return not self.won(seat) and r > _EPS and r == max(self.returns)

    def head_to_head(self, a: int, b: int) -> float:
        """Seat ``a``'s result against seat ``b``: 1 ahead, 1/2 level, 0 behind."""
        ra, rb = self.returns[a], self.returns[b]
        if ra > rb + _TIE:
            return 1.0
        return 0.5 if abs(ra - rb) <= _TIE else 0.0

    def move_times(self):
        """(label of the seat that moved, seconds) for every move."""
        return [(self.seats[s], t) for s, t in zip(self.move_seats, self.move_seconds)]

    # -- the results file's line ---------------------------------------------------------

    def to_json(self) -> dict:
        """The game line's object (the keys in the order the file has always had)."""
        out = {"type": "game", "game": self.game, "group": self.group, "table": self.table,
               "seating": self.seating, "deal_seed": self.deal_seed, "seed": self.seed,
               "entrants": list(self.entrants), "seats": list(self.seats)}
        if self.specs is not None:
            out["specs"] = list(self.specs)
        out.update(moves=list(self.moves), move_seats=list(self.move_seats),
                   move_seconds=list(self.move_seconds), returns=list(self.returns),
                   scores=list(self.scores), terminal=self.terminal,
                   failure=None if self.failure is None else self.failure.to_json())
        if self.seconds is not None:
            out["seconds"] = self.seconds
        return out

    @classmethod
    def from_json(cls, obj: dict, config, where: str = "a game line") -> GameRecord:
        """The record a game line holds, checked against ``config`` (a
        :class:`~catsearch.arena.MatchConfig`): every field of the right type, the game
        number within the match, and its group, table, seating, seeds and entrants those the
        schedule gives that number.

        :raises ResultsFileError: naming ``where`` and the first field that is wrong.
        """
        n = config.seats
        checks = {
            "game": _is_int, "group": _is_int, "table": _is_int, "seating": _is_int,
            "deal_seed": _is_int, "seed": _is_int,
            "entrants": lambda v: _list_of(v, _is_int, n),
            "seats": lambda v: _list_of(v, lambda x: isinstance(x, str), n),
            "moves": lambda v: _list_of(v, lambda x: isinstance(x, str)),
            "move_seats": lambda v: _list_of(v, lambda x: _is_int(x) and 0 <= x < n),
            "move_seconds": lambda v: _list_of(v, lambda x: _is_number(x) and x >= 0),
            "returns": lambda v: _list_of(v, lambda x: _is_number(x) and 0 <= x <= 1, n),
            "scores": lambda v: _list_of(v, _is_number, n),
            "terminal": lambda v: isinstance(v, bool),
            "failure": lambda v: v is None or GameFailure.valid_json(v, n),
        }
        optional = {
            "specs": lambda v: _list_of(v, lambda x: x is None or isinstance(x, str), n),
            "seconds": lambda v: _is_number(v) and v >= 0,
        }
        for name, ok in checks.items():
            if name not in obj:
                raise ResultsFileError(f"{where}: the game line has no {name!r}")
        for name, ok in {**checks, **optional}.items():
            if name in obj and not ok(obj[name]):
                raise ResultsFileError(f"{where}: the game line's {name!r} is malformed: "
                                       f"{json.dumps(obj[name])[:80]}")
        number, total = obj["game"], config.total_games
        if not 0 <= number < total:
            raise ResultsFileError(f"{where}: game {number} is not a game of this match "
                                   f"(games 0 to {total - 1})")
        if not len(obj["moves"]) == len(obj["move_seats"]) == len(obj["move_seconds"]):
            raise ResultsFileError(f"{where}: game {number}'s moves, move_seats and "
                                   f"move_seconds differ in length")
        task = task_for(config.seed, len(config.entrants), n, config.seatings, number)
        for name, want in (("group", task.group), ("table", task.table),
                           ("seating", task.seating), ("deal_seed", task.deal_seed),
                           ("seed", task.seed), ("entrants", list(task.seats))):
            if obj[name] != want:
                raise ResultsFileError(f"{where}: game {number}'s {name} is {obj[name]!r}; "
                                       f"this match's schedule gives {want!r}")
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in obj.items() if k in names})
