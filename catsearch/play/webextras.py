"""What players expect of the browser mode, beside the game itself (:mod:`catsearch.play.web`):
the new game's settings (seats for several people, the game's options, checked with clear
messages), a hint (the AI's top moves, from the engine's ranked analysis), the game's record
(the terminal's JSON format, :mod:`catsearch.play.record`) and the replay of any record file
(the frames the replay viewer steps through).

Nothing here needs Starlette.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import catsearch
from catsearch._core.options import OptionError, check_options, parse_int
from catsearch._core.state import State
from catsearch.errors import IllegalMoveError, InvalidMoveError
from catsearch.play.levels import DEFAULT_LEVEL, LEVELS, level as find_level
from catsearch.play.narrate import narrate
from catsearch.play.reasons import end_reason
from catsearch.play.record import GameRecord
from catsearch.play.webgames import MAX_SEED, ApiError, WebGame, parse_fields
from catsearch.search.spec import PlayerSpec

__all__ = ["GameSettings", "game_settings", "option_info", "HINT_SPEC", "HINT_MOVES", "hint",
           "game_record", "replay_frames", "replay_narration", "MAX_RECORD_BYTES"]

#: what a hint searches with, whatever the opponents' level (the easy level's heuristic
#: ranks no moves): ISMCTS, at most 1.5 s
HINT_SPEC = "ismcts:iterations=2000,seconds=1.5"
#: how many moves a hint lists
HINT_MOVES = 3
#: the largest record file the replay viewer takes (a long The Cat game is about 40 KB)
MAX_RECORD_BYTES = 1_000_000
#: the form fields of a game option: ``opt.<name>``
OPTION_PREFIX = "opt."


@dataclass(frozen=True, kw_only=True)
class GameSettings:
    """A new game's settings, checked (:func:`game_settings`).

    :ivar humans: the seats played by people (``seat`` first among them); the AI plays the
        rest.
    :ivar options: the game's options given (``{"target": 12}``), checked against its
        ``GameSpec.options``; those left at their default are not listed.
    """

    game: str
    players: int
    seat: int
    level: str
    seed: int | None
    humans: tuple[int, ...]
    options: dict[str, Any] = field(default_factory=dict)


def _int(params: Mapping[str, str], name: str, lo: int, hi: int, default: int) -> int:
    raw = params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return parse_int(raw, name, lo, hi)
    except ValueError as e:
        raise ApiError(400, str(e)) from None


def option_info(game: str) -> list[dict]:
    """The options of ``game`` as the start page shows them: name, kind (``int``,
    ``float``, ``bool``, ``choice``, ``text``), default (as text), choices, range, doc."""
    out = []
    for o in catsearch.game_class(game).spec.options:
        if isinstance(o.kind, tuple):
            kind, choices = "choice", list(o.kind)
        else:
            kind = {int: "int", float: "float", bool: "bool"}.get(o.kind, "text")
            choices = None
        default = o.default
        if isinstance(default, (tuple, list)):
            default = ",".join(map(str, default))
        out.append({"name": o.name, "kind": kind, "default": "" if default is None
                    else str(default).lower() if isinstance(default, bool) else str(default),
                    "choices": choices, "low": o.low, "high": o.high, "doc": o.doc})
    return out


def game_settings(params: Mapping[str, str]) -> GameSettings:
    """Check the fields of a new game (``/play``): ``game``, ``players``, ``seat``,
    ``level``, ``seed``, ``humans`` (the people's seats, comma-separated, default ``seat``)
    and ``opt.<name>`` per game option (empty: the default).

    :raises ~catsearch.play.webgames.ApiError: 400 naming the bad field and value.
    """
    game = params.get("game")
    if game not in catsearch.GAMES:
        raise ApiError(400, f"unknown game {str(game)[:40]!r}; games: {', '.join(catsearch.GAMES)}")
    spec = catsearch.game_class(game).spec
    lo, hi = spec.seats
    players = _int(params, "players", lo, hi, spec.default_players)
    seat = _int(params, "seat", 0, players - 1, 0)
    level = params.get("level") or DEFAULT_LEVEL
    try:
        level = find_level(level).name
    except ValueError:
        raise ApiError(400, f"unknown level {level[:40]!r}; levels: {', '.join(LEVELS)}, "
                            f"or 1 to 10") from None
    seed = params.get("seed")
    seed = None if seed in (None, "") else _int(params, "seed", 0, MAX_SEED, 0)
    humans = {seat}
    for item in (params.get("humans") or "").replace(" ", "").split(","):
        if item:
            humans.add(_int({"humans": item}, "humans", 0, players - 1, seat))
    given = {k[len(OPTION_PREFIX):]: v for k, v in params.items()
             if k.startswith(OPTION_PREFIX) and v.strip() != ""}
    try:
        check_options(spec.options, given, game, text=True)
    except (OptionError, TypeError, ValueError) as e:
        raise ApiError(400, f"game option: {e}") from None
    options = {k: _option_value(spec, k, v) for k, v in given.items()}
    try:
        catsearch.new_game(game, players=players, seed=0, **options)
    except (TypeError, ValueError) as e:
        raise ApiError(400, f"game option: {e}") from None
    return GameSettings(game=game, players=players, seat=seat, level=level, seed=seed,
                        humans=tuple(sorted(humans)), options=options)


def _option_value(spec, name: str, text: str) -> Any:
    """An option's text as the value ``new_game`` takes (``target=12`` -> 12)."""
    checked = check_options(spec.options, {name: text}, spec.id, text=True)
    return checked[name]


# -- hint ---------------------------------------------------------------------------------

def hint(view: State, k: int = HINT_MOVES, spec: str = HINT_SPEC) -> dict:
    """The AI's top ``k`` moves for ``view``'s seat, best first, from the engine's ranked
    analysis (:meth:`~catsearch.search.players.SearchResult.ranked`): each move's notation,
    its value for the seat (its mean reward, 0 to 1) and how often the search tried it."""
    player = PlayerSpec.parse(spec).build()
    try:
        result = player.search(view.clone())
    finally:
        player.close()
    ranked = result.ranked(k)
    moves = [{"move": view.move_to_str(r.move), "value": round(float(r.mean), 4),
              "visits": int(r.visits)} for r in ranked]
    if not moves:
        moves = [{"move": view.move_to_str(result.move), "value": None, "visits": 0}]
    return {"spec": spec, "iterations": int(result.iterations), "moves": moves}


# -- the record ---------------------------------------------------------------------------

def game_record(game: WebGame) -> GameRecord:
    """The record of a finished web game, in the terminal's format (every card: offered once
    the game is over only; see docs/play.rst). Takebacks are listed in ``takebacks``.

    :raises ~catsearch.play.webgames.ApiError: 409 while the game is on.
    """
    with game.lock:
        table = game.table
        if not table.is_over():
            raise ApiError(409, "the record is offered once the game is over (it shows every "
                                "card, the deal's included)")
        rec = GameRecord(game=game.initial.game_id, players=game.initial.players,
                         options=dict(game.options), seed=game.seed,
                         deal=game.initial.to_text(),
                         seats=["human" if s in game.humans else find_level(game.level).spec
                                for s in range(game.initial.players)],
                         moves=[{"seat": p.seat, "move": p.text} for p in table.history],
                         result={"scores": table.scores(), "returns": table.returns()},
                         level=game.level, takebacks=[dict(t) for t in game.takebacks])
    return rec


def replay_narration(before: State, seat: int, move: str, after: State) -> str | None:
    """The move ``move`` that ``seat`` played in the full state ``before`` in plain words
    (:func:`catsearch.play.narrate.narrate`: a record's moves are all shown once the game is
    over); ``None`` if it cannot be told (the viewer then shows the notation alone)."""
    try:
        return narrate(before, move, seat, seat=None)
    except (TypeError, ValueError):
        return None


def replay_frames(data: Any) -> dict:
    """A record's JSON (as a record file holds it) replayed: the full state after each move,
    for the replay viewer. Nothing is kept on the server.

    :raises ~catsearch.play.webgames.ApiError: 400 when it is not a record, or a move does not play (naming it).
    """
    try:
        rec = GameRecord.from_json(data)
        state = catsearch.from_text(rec.game, rec.deal)
    except (ValueError, TypeError, InvalidMoveError) as e:
        raise ApiError(400, f"not a game record this viewer reads: {e}") from None
    if state.view_seat is not None or state.players != rec.players:
        raise ApiError(400, "the record's deal is not a full state of its players")
    spec = catsearch.game_class(rec.game).spec
    frames = [{"ply": 0, "seat": None, "move": None, "narration": None,
               "text": state.to_text(), "fields": parse_fields(state.to_text()),
               "picture": str(state), "scores": state.scores()}]
    for i, mv in enumerate(rec.moves):
        before = state.clone()
        seat = state.current_player
        if mv["seat"] != seat:
            raise ApiError(400, f"record move {i + 1} ({mv['move'][:40]}): it says seat "
                                f"{mv['seat']}, but seat {seat} is to move")
        try:
            state.play(mv["move"])
        except (InvalidMoveError, IllegalMoveError, ValueError) as e:
            raise ApiError(400, f"record move {i + 1} ({mv['move'][:40]}) does not play: "
                                f"{str(e).split(' in ')[0][:200]}") from None
        frames.append({"ply": i + 1, "seat": seat, "move": mv["move"],
                       "narration": replay_narration(before, seat, mv["move"], state),
                       "text": state.to_text(), "fields": parse_fields(state.to_text()),
                       "picture": str(state), "scores": state.scores()})
    over = state.is_terminal()
    return {"game": rec.game, "game_name": spec.name, "render": spec.render,
            "players": rec.players, "seats": rec.seats, "options": rec.options,
            "seed": None if rec.seed is None else str(rec.seed), "level": rec.level,
            "takebacks": rec.takebacks, "frames": frames, "over": over,
            "scores": state.scores(), "reason": end_reason(state) if over else None}
