"""The games of the browser mode (:mod:`catsearch.play.web`): one person's game
(:class:`WebGame`: the table, the person's seat, the AI's thread), the server's games
(:class:`GameServer`: the cap, look-up, expiry) and the payloads a page is sent
(:func:`seat_payload` while the game is on, :func:`result_payload` once it is over).

Nothing here needs Starlette; :mod:`catsearch.play.web` serves it.
"""

from __future__ import annotations

import secrets
import sys
import threading
import time
import traceback
from typing import Any

import catsearch
from catsearch._core.state import State
from catsearch.play.reasons import end_reason
from catsearch.play.levels import level as find_level, opponent
from catsearch.play.narrate import Narrator
from catsearch.search.ladder import ladder
from catsearch.search.table import Played, Table

__all__ = ["GameServer", "WebGame", "seat_payload", "result_payload", "parse_fields",
           "ApiError", "MAX_SEED", "MAX_MOVE_TEXT"]

#: the largest seed a link may give
MAX_SEED = 2**63 - 1
#: the longest move text a request may send
MAX_MOVE_TEXT = 64


class ApiError(Exception):
    """A request refused: ``status`` (4xx) and a message, sent as ``{"error": message}``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def parse_fields(text: str) -> dict[str, str]:
    """The ``key=value`` fields of a state's notation (``State.to_text()``), as a dict."""
    out: dict[str, str] = {}
    for item in text.split():
        key, _, value = item.partition("=")
        out[key] = value
    return out


def _game_info(game: str) -> dict:
    spec = catsearch.game_class(game).spec
    lo, hi = spec.seats
    return {"id": game, "name": spec.name, "min_players": lo, "max_players": hi,
            "default_players": spec.default_players,
            # what each level of the game's own ladder plays, level 1 first
            "ladder": [r.description for r in ladder(game)]}


def seat_payload(meta: dict, view: State, log: list[dict], *, your_turn: bool,
                 thinking: dict | None) -> dict:
    """What the page of a seat is sent while the game is on: built from ``view`` (the seat's
    view, as the seat followed it), ``log`` (the seat's observations: ``{"ply", "seat",
    "text"}``), the public ``meta`` (game, players, seat, levels), whose turn it is and the
    AI's progress (the seat that thinks and its iteration count; never its moves)."""
    over = view.is_terminal()
    legal = ([view.move_to_str(m) for m in view.legal_moves()]
             if your_turn and not over and thinking is None else [])
    try:
        cards = view.cards()
    except NotImplementedError:   # pragma: no cover - every game has cards()
        cards = {}
    return {
        **meta,
        "ply": view.ply,
        "over": over,
        "to_move": view.current_player,
        "your_turn": bool(your_turn and not over),
        "legal": legal,
        "thinking": thinking,
        "scores": view.scores(),
        "view": {"text": view.to_text(), "fields": parse_fields(view.to_text()),
                 "cards": cards, "picture": str(view)},
        "log": [dict(entry) for entry in log],
        "result": None,
    }


def result_payload(initial: State, history: tuple[Played, ...], seed: int | None = None,
                   link: str | None = None) -> dict:
    """The end of a game, every card shown: the final scores and returns, why it ended
    (``reason``, :func:`~catsearch.play.reasons.end_reason`), the full final
    state, a replay (the full state after each move, with each move in full), the deal's
    ``seed`` as a decimal string (JavaScript's numbers hold 53 bits; ``None``: dealt
    otherwise) and a ``link`` that deals it again (``None`` unless
    the server takes seed links)."""
    state = initial.clone()
    frames = [{"ply": 0, "seat": None, "move": None, "text": state.to_text(),
               "picture": str(state)}]
    for played in history:
        state.apply(played.move)
        frames.append({"ply": len(frames), "seat": played.seat, "move": played.text,
                       "text": state.to_text(), "picture": str(state)})
    return {"scores": state.scores(), "returns": state.returns(),
            "reason": end_reason(state),
            "text": state.to_text(), "fields": parse_fields(state.to_text()),
            "cards": state.cards(), "picture": str(state), "replay": frames,
            "seed": None if seed is None else str(seed), "link": link}


class WebGame:
    """One game of one page: the table (the full state), the person's seat, the AI's thread.

    Every read or change of the table happens under ``lock``; the AI searches outside it, on
    a copy of its seat's view.
    """

    def __init__(self, gid: str, state: State, seat: int, level: str, *, ai_delay: float = 0.0,
                 abandon_seconds: float = 30.0, opponent_seeds: bool = False,
                 seed: int | None = None, link: str | None = None,
                 humans: tuple[int, ...] | None = None,
                 options: dict[str, Any] | None = None) -> None:
        n = state.players
        humans = (seat,) if humans is None else tuple(sorted(set(humans)))
        if seat not in humans or not all(0 <= s < n for s in humans):
            raise ValueError(f"human seats {humans} must hold seat {seat} and lie in 0..{n - 1}")
        self.humans = humans
        self.options = dict(options or {})
        # each person's secret link: /game/<token>; the first person's token is the game's id
        self.tokens = {gid: seat, **{secrets.token_urlsafe(18): s for s in humans if s != seat}}
        self.left_seats: set[int] = set()
        self.epoch = 0          # a takeback starts a new epoch: a search of an older one is dropped
        self.takebacks: list[dict] = []
        self.hinting = False
        self.ai_thread: threading.Thread | None = None
        self.opponent_seeds = opponent_seeds
        self.id = gid
        self.seed = seed        # the deal's seed: in the result only, never before
        self.link = link        # a link dealing it again (seed links only): the result's too
        self.over_at: float | None = None
        self.seat = seat
        self.level = level
        self.ai_delay = ai_delay
        self.abandon_seconds = abandon_seconds
        self.initial = state.clone()
        self.table = Table(state, self._players())
        self.lock = threading.Lock()
        self.logs: dict[int, list[dict]] = {s: [] for s in humans}
        # each person's log in words (play/narrate.py), from that seat's view only
        self.narrators = {s: Narrator(self.table.view(s)) for s in humans}
        self.thinking: dict | None = None
        self.running = False
        self.closed = False
        self.left = False       # the page went away (a reload, Back, a closed tab): no search
        self.error: str | None = None
        self.last_seen = time.monotonic()
        self.version = 0
        spec = catsearch.game_class(state.game_id).spec
        self.meta = {"game": state.game_id, "game_name": spec.name, "render": spec.render,
                     "players": n,
                     "seat": seat, "level": level, "humans": list(humans),
                     "options": self.options,
                     "opponents": [None if s in humans else find_level(level).spec
                                   for s in range(n)]}

    def _players(self) -> list:
        """A fresh player per AI seat (``None`` for the people's seats)."""
        return [None if s in self.humans else
                opponent(self.level, seed=(s + 1) if self.opponent_seeds else None)
                for s in range(self.initial.players)]

    @property
    def log(self) -> list[dict]:
        """The first person's log (their observations of every move)."""
        return self.logs[self.seat]

    def seat_of(self, token: str) -> int:
        """The seat whose secret link ``token`` is. :raises ApiError: 404, not this game's."""
        if token not in self.tokens:
            raise ApiError(404, "no such game: it expired, or the link is wrong")
        return self.tokens[token]

    def links(self) -> dict[int, str]:
        """Each person's page, by seat (``/game/<token>``)."""
        return {s: f"/game/{t}" for t, s in self.tokens.items()}

    # -- reading ---------------------------------------------------------------------------
    def payload(self, seat: int | None = None) -> dict:
        """The payload of ``seat`` (a person's; default: the first person's) now (see
        :func:`seat_payload`; the result once it is over)."""
        seat = self.seat if seat is None else seat
        with self.lock:
            self.last_seen = time.monotonic()
            self.left_seats.discard(seat)   # the page is back (a reload, Forward): resume
            self.left = False
            self._ensure_ai()
            table = self.table
            out = seat_payload({**self.meta, "seat": seat}, table.view(seat), self.logs[seat],
                               your_turn=table.current_player == seat and not self.running,
                               thinking=self.thinking)
            if table.is_over():
                out["result"] = result_payload(self.initial, table.history, self.seed,
                                               self.link)
            out["version"] = self.version
            out["error"] = self.error
            out["takebacks"] = len(self.takebacks)
            out["can_takeback"] = (len(self.humans) == 1 and not table.is_over()
                                   and self.error is None
                                   and any(p.seat == seat for p in table.history))
            # the first person seats the others: their links are shown on that page only
            out["links"] = ({str(s): u for s, u in self.links().items() if s != seat}
                            if seat == self.seat else {})
            return out

    # -- the person's moves ----------------------------------------------------------------
    def play(self, text: Any, seat: int | None = None) -> None:
        """Play the move ``text`` (its notation) of the person at ``seat`` (default: the
        first person's).

        :raises ApiError: not a move text (400), not the person's turn or the game is over
            (409), not a legal move here (400); nothing changes.
        """
        if not isinstance(text, str) or not text or len(text) > MAX_MOVE_TEXT:
            raise ApiError(400, "a move is its notation: a non-empty string of at most "
                                f"{MAX_MOVE_TEXT} characters")
        seat = self.seat if seat is None else seat
        with self.lock:
            self.last_seen = time.monotonic()
            table = self.table
            if table.is_over():
                raise ApiError(409, "the game is over")
            if table.current_player != seat or self.running:
                raise ApiError(409, "it is not your turn")
            view = table.view(seat)
            legal = {view.move_to_str(m): m for m in view.legal_moves()}
            if text not in legal:
                raise ApiError(400, f"{text!r} is not a legal move here; legal: "
                                    f"{' '.join(legal)}")
            self._record(table.play(legal[text]))
            self._ensure_ai()

    def _record(self, played: Played) -> None:
        for s, log in self.logs.items():
            seen = played.observations[s]
            log.append({"ply": len(log) + 1, "seat": played.seat, "text": seen,
                        "words": self.narrators[s].tell(played.seat, seen)})
        self.version += 1
        if self.over_at is None and self.table.is_over():
            self.over_at = time.monotonic()

    @property
    def live(self) -> bool:
        """Still going: not over, not closed, not stopped by an AI failure."""
        return self.over_at is None and not self.closed and self.error is None

    # -- the AI ----------------------------------------------------------------------------
    def _ensure_ai(self) -> None:
        """Start the AI's thread if an AI seat is to move and none runs (lock held)."""
        t = self.table
        if (self.running or self.closed or self.error is not None or t.is_over()
                or t.current_player in self.humans):
            return
        self.running = True
        self.version += 1
        self.ai_thread = threading.Thread(target=self._ai_loop, daemon=True,
                                          name=f"catsearch-web-{self.id[:6]}")
        self.ai_thread.start()

    def _abandoned(self) -> bool:
        """Every person's page went away (or the game was closed): the AI stops."""
        return (self.closed or self.left or len(self.left_seats) == len(self.humans)
                or time.monotonic() - self.last_seen > self.abandon_seconds)

    def _ai_loop(self) -> None:
        try:
            first = True
            while True:
                if not first and self.ai_delay > 0:
                    time.sleep(self.ai_delay)
                first = False
                with self.lock:
                    t = self.table
                    if (self._abandoned() or t.is_over() or t.current_player in self.humans):
                        return
                    epoch = self.epoch
                    seat = t.current_player
                    view = t.view(seat)
                    player = t.players[seat]
                    self.thinking = {"seat": seat, "iterations": 0}
                    self.version += 1

                def info(partial, seat=seat, player=player) -> None:
                    self.thinking = {"seat": seat, "iterations": int(partial.iterations)}
                    if self._abandoned():
                        player.stop()

                result = player.search(view, info=info)
                with self.lock:
                    # the page went away, or a takeback rebuilt the table: drop the move
                    if self._abandoned() or self.epoch != epoch:
                        return
                    self._record(self.table.play(result.move))
                    self.thinking = None
                    if self.table.is_over() or self.table.current_player in self.humans:
                        # the person's turn from this very payload on: never "your seat to
                        # move" and "waiting for the other seats" at once
                        self.running = False
                        return
        except Exception:   # noqa: BLE001 - the game stops; the page says so
            # the details go to the server's log only: an error's text may name the full
            # state (IllegalMoveError does), which no page may see before the end
            traceback.print_exc(file=sys.stderr)
            self.error = "the AI failed (the server's log says why); this game cannot go on"
        finally:
            with self.lock:
                self.running = False
                self.thinking = None
                self.version += 1

    def leave(self, seat: int | None = None) -> None:
        """The page of ``seat`` went away (a reload, Back, a closed tab): when every person's
        page is gone, stop a running search (its move is dropped) and keep the game, to
        resume exactly where it was when a page of it asks again (:meth:`payload`); it
        expires like any game nobody asks about."""
        with self.lock:
            self.left_seats.add(self.seat if seat is None else seat)
            gone = len(self.left_seats) == len(self.humans)
            self.left = gone
        if gone:
            self._stop_search()

    # -- takeback, hint, record (see catsearch.play.webextras) -------------------------
    def takeback(self, seat: int | None = None) -> int:
        """Undo to the person's previous turn (before their last move): the table is dealt
        again from the start and the moves before it replayed, so that every AI seat's view
        and player are as they were then; the takeback is kept for the record. Returns how
        many moves were undone.

        :raises ApiError: 409 with several people at the table, after the end, or before
            the person's first move.
        """
        seat = self.seat if seat is None else seat
        with self.lock:
            if len(self.humans) > 1:
                raise ApiError(409, "a takeback is for a game against the AI only (one "
                                    "person at the table)")
            if self.table.is_over() or self.error is not None:
                raise ApiError(409, "the game is over")
            history = self.table.history
            mine = [i for i, p in enumerate(history) if p.seat == seat]
            if not mine:
                raise ApiError(409, "you have no move to take back yet")
            at = mine[-1]
            old, thread = self.table, self.ai_thread
            self.epoch += 1
            table = Table(self.initial, self._players())
            self.logs = {s: [] for s in self.humans}
            self.narrators = {s: Narrator(table.view(s)) for s in self.humans}
            for played in history[:at]:
                self._record(table.play(played.move))
            self.table = table
            self.thinking = None
            self.takebacks.append({"seat": seat, "ply": at, "undone": len(history) - at,
                                   "moves": [p.text for p in history[at:]]})
            self.version += 1
        for p in old.players:       # the old table's search (if any) stops, then it goes
            if p is not None:
                p.stop()
        threading.Thread(target=_retire, args=(old, thread), daemon=True).start()
        return len(history) - at

    def _stop_search(self) -> None:
        """Stop the AI's search, if one runs (outside the lock: it may be waiting for it)."""
        with self.lock:
            players = self.table.players
        for p in players:
            if p is not None:
                p.stop()

    def close(self) -> None:
        """The game is dropped (expired, the server stops): stop a running search and
        release the players."""
        with self.lock:
            self.closed = True
        self._stop_search()
        # the players are closed by the AI's thread's end or here when none runs
        threading.Thread(target=self._close_players, daemon=True).start()

    def _close_players(self) -> None:
        for _ in range(600):
            with self.lock:
                if not self.running:
                    break
            time.sleep(0.05)
        self.table.close()


def _retire(table: Table, thread: threading.Thread | None) -> None:
    """Close a table a takeback replaced, once its AI's search (if one ran) is over."""
    if thread is not None:
        thread.join(60)
    table.close()


class GameServer:
    """The games of one server: creation (with the cap), look-up, expiry.

    At most ``max_games`` games are *going* (:attr:`WebGame.live`); a finished game no longer
    counts, but stays (viewable, its result and replay) until nobody asked about it for
    ``finished_seconds``, and at most ``max_finished`` of them are kept (the oldest go
    first). When the cap is reached, a going game whose page went away (nobody asked for
    ``abandon_seconds``) makes room for the new one, the longest unseen first: games opened
    by no page (a stray request) cannot keep the person from their own. :meth:`expire`
    drops games nobody asked about for ``idle_seconds``; the app calls it on a timer.
    """

    def __init__(self, *, max_games: int = 16, idle_seconds: float = 1800.0,
                 ai_delay: float = 0.0, abandon_seconds: float = 30.0,
                 opponent_seeds: bool = False, finished_seconds: float = 1800.0,
                 max_finished: int | None = None) -> None:
        for name, value in (("max_games", max_games), ("max_finished", max_finished)):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
            if value is not None and value < 1:
                raise ValueError(f"{name} must be at least 1, not {value}")
        for name, value in (("idle_seconds", idle_seconds), ("abandon_seconds", abandon_seconds),
                            ("finished_seconds", finished_seconds), ("ai_delay", ai_delay)):
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise TypeError(f"{name} must be a number, not {type(value).__name__}")
            if not value >= 0:
                raise ValueError(f"{name} must be >= 0, not {value}")
        self.max_games = max_games
        self.max_finished = 4 * max_games if max_finished is None else max_finished
        self.idle_seconds = idle_seconds
        self.finished_seconds = finished_seconds
        self.ai_delay = ai_delay
        self.abandon_seconds = abandon_seconds
        self.opponent_seeds = opponent_seeds
        self.games: dict[str, WebGame] = {}
        self.by_token: dict[str, WebGame] = {}     # every person's secret link
        self.lock = threading.Lock()

    def live_count(self) -> int:
        """The games going (those the cap counts)."""
        with self.lock:
            return sum(g.live for g in self.games.values())

    def expire(self) -> list[str]:
        """Drop the games nobody asked about for ``idle_seconds`` (finished ones: for
        ``finished_seconds``), and the oldest finished ones beyond ``max_finished``; their
        ids."""
        now = time.monotonic()
        with self.lock:
            old = [g for g in self.games.values()
                   if now - g.last_seen > (self.idle_seconds if g.live
                                           else self.finished_seconds)]
            for g in old:
                self._drop(g)
            done = sorted((g for g in self.games.values() if not g.live),
                          key=lambda g: (g.over_at or 0.0, g.last_seen))
            extra = done[:max(0, len(done) - self.max_finished)]
            for g in extra:
                self._drop(g)
        for g in old + extra:
            g.close()
        return [g.id for g in old + extra]

    def _drop(self, game: WebGame) -> None:
        """Forget ``game`` and its links (lock held)."""
        self.games.pop(game.id, None)
        for token in game.tokens:
            self.by_token.pop(token, None)

    def create(self, state: State, seat: int, level: str, *, seed: int | None = None,
               link: str | None = None, humans: tuple[int, ...] | None = None,
               options: dict[str, Any] | None = None) -> WebGame:
        """A new game of ``state`` with the person at ``seat`` (and the people at ``humans``,
        each with a secret link of their own) and ``level`` opponents at the other seats
        (``seed``, ``link``: the deal's, for the result; ``options``: the game's options).

        :raises ApiError: 429 when ``max_games`` games are going and none was abandoned.
        """
        self.expire()
        now = time.monotonic()
        dropped: list[WebGame] = []
        with self.lock:
            live = [g for g in self.games.values() if g.live]
            if len(live) >= self.max_games:
                gone = sorted((g for g in live
                               if g.left or now - g.last_seen > self.abandon_seconds),
                              key=lambda g: g.last_seen)
                dropped = gone[:len(live) - self.max_games + 1]
                if len(live) - len(dropped) >= self.max_games:
                    raise ApiError(429, f"too many games at once (at most {self.max_games}): "
                                        "finish or close one, or wait for idle ones to expire")
                for g in dropped:
                    self._drop(g)
            gid = secrets.token_urlsafe(18)
            game = WebGame(gid, state, seat, level, ai_delay=self.ai_delay,
                           abandon_seconds=self.abandon_seconds,
                           opponent_seeds=self.opponent_seeds, seed=seed, link=link,
                           humans=humans, options=options)
            self.games[gid] = game
            for token in game.tokens:
                self.by_token[token] = game
        for g in dropped:
            g.close()
        with game.lock:
            game._ensure_ai()
        return game

    def get(self, gid: str) -> WebGame:
        """The game of a secret link (any person's token; the first person's is its id).
        :raises ApiError: 404."""
        with self.lock:
            game = self.by_token.get(gid)
        if game is None:
            raise ApiError(404, "no such game: it expired, or the link is wrong")
        return game

    def seat(self, token: str) -> tuple[WebGame, int]:
        """The game and the person's seat of a secret link. :raises ApiError: 404."""
        game = self.get(token)
        return game, game.seat_of(token)

    def leave(self, gid: str) -> None:
        """The page of ``gid`` went away: its AI stops searching; the game stays, to resume
        (see :meth:`WebGame.leave`). :raises ApiError: 404, no such game."""
        game, seat = self.seat(gid)
        game.leave(seat)

    def close(self, gid: str) -> None:
        """Drop ``gid`` now. :raises ApiError: 404, no such game."""
        with self.lock:
            game = self.by_token.get(gid)
            if game is not None:
                self._drop(game)
        if game is None:
            raise ApiError(404, "no such game: it expired, or the link is wrong")
        game.close()

    def close_all(self) -> None:
        with self.lock:
            games = list(self.games.values())
            self.games.clear()
            self.by_token.clear()
        for g in games:
            g.close()
