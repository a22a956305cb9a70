"""The record of a game played at the terminal (``catsearch-play --record FILE``): JSON, read
back by ``--replay`` (:mod:`catsearch.play.terminal`; the format is on the Play page of the
docs)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import catsearch

__all__ = ["GameRecord", "RECORD_FORMAT", "RECORD_VERSION"]

#: the ``format`` field of a record file
RECORD_FORMAT = "catsearch-game"
#: the version of the record format this module writes (and the newest it reads)
RECORD_VERSION = 1


@dataclass
class GameRecord:
    """A game as ``--record`` writes it (JSON; see the Play page of the docs).

    :ivar game: the game id.
    :ivar players: the number of seats.
    :ivar options: the game options given (``--option``).
    :ivar seed: the deal's seed (the fresh random one when ``--seed`` was not given; ``None``
        when the deal was given as text). The file is written when the game ends.
    :ivar deal: the full state at the start, in the game's notation (every card).
    :ivar seats: per seat, ``"human"`` or the AI's player spec.
    :ivar moves: ``{"seat": s, "move": text}`` per move, in order (the full move's notation).
    :ivar result: ``{"scores": [...], "returns": [...]}`` once the game is over, else ``None``
        (the person left before the end).
    :ivar takebacks: the takebacks of a browser game against the AI, in order: ``{"seat":
        s, "ply": n, "undone": k, "moves": [text, ...]}`` (the moves from ply ``n`` on were
        taken back; ``moves`` holds the line undone); ``[]``: none (an optional field:
        records without it read as none).
    """

    game: str
    players: int
    options: dict[str, Any]
    seed: int | None
    deal: str
    seats: list[str]
    moves: list[dict[str, Any]] = field(default_factory=list)
    result: dict[str, list] | None = None
    level: str | None = None
    takebacks: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "game": self.game,
                "players": self.players, "options": self.options, "seed": self.seed,
                "deal": self.deal, "seats": self.seats, "level": self.level,
                "moves": self.moves, "finished": self.result is not None,
                "result": self.result, "takebacks": self.takebacks}

    def write(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(self.to_json(), f, indent=1)
            f.write("\n")

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Read a record's JSON object.

        :raises ValueError: not a record of a version this module reads, or a field missing
            or of the wrong type (the message names it).
        """
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise ValueError(f"not a catsearch game record (expected \"format\": "
                             f"\"{RECORD_FORMAT}\")")
        version = data.get("version")
        if not isinstance(version, int) or not 1 <= version <= RECORD_VERSION:
            raise ValueError(f"record version {version!r}; this catsearch reads versions "
                             f"1..{RECORD_VERSION}")
        kinds = {"game": str, "players": int, "options": dict, "deal": str, "seats": list,
                 "moves": list}
        for key, kind in kinds.items():
            if not isinstance(data.get(key), kind):
                raise ValueError(f"record field {key!r} must be a {kind.__name__}, not "
                                 f"{type(data.get(key)).__name__}")
        if data["game"] not in catsearch.GAMES:
            raise ValueError(f"unknown game {data['game']!r}; games: {', '.join(catsearch.GAMES)}")
        for i, mv in enumerate(data["moves"]):
            if not (isinstance(mv, dict) and isinstance(mv.get("move"), str)
                    and isinstance(mv.get("seat"), int)):
                raise ValueError(f"record move {i} must be {{\"seat\": int, \"move\": str}}, "
                                 f"not {mv!r}")
        takebacks = data.get("takebacks", [])
        if not isinstance(takebacks, list) or not all(isinstance(t, dict) for t in takebacks):
            raise ValueError("record field 'takebacks' must be a list of objects")
        return cls(takebacks=list(takebacks), game=data["game"], players=data["players"], options=data["options"],
                   seed=data.get("seed"), deal=data["deal"], seats=list(data["seats"]),
                   moves=list(data["moves"]), result=data.get("result"),
                   level=data.get("level"))

    @classmethod
    def read(cls, path: str) -> GameRecord:
        with open(path, encoding="utf-8") as f:
            try:
                data = json.load(f)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}: not JSON: {e}") from None
        return cls.from_json(data)
