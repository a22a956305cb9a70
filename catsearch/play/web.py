"""Play against the AI in a browser: ``catsearch-play --web [--host 127.0.0.1] [--port N]``.

A small Starlette app served by uvicorn (the optional ``[web]`` extra), with plain
HTML/CSS/JS/SVG pages from ``catsearch/play/static/`` (no build step). The contract:

* ``GET /play?game=<id>&players=<n>&seat=<s>&level=<level>&seed=<s>`` opens a new game with
  those settings, dealt exactly as ``catsearch.new_game(game, players=n, seed=s)`` deals it
  (without ``seed``: a random one, redirected to the full link so that it can be shared);
* each legal move of the person's seat is a clickable element with ``data-move="<notation>"``
  (none while it is not the person's turn); clicking it plays it;
* when the game is over an element with ``data-result`` holds the final scores.

The JSON API the page uses: ``GET /api/games`` (games, seat counts, levels),
``GET /api/game/<id>`` (the seat's payload), ``POST /api/game/<id>/move`` (``{"move":
"<notation>"}``), ``POST /api/game/<id>/close`` (the page went away).

The server holds the full state in a :class:`~catsearch.search.table.Table`; every payload a
page gets is built by :func:`seat_payload` from the seat's view and the seat's observations
only, and the full state (every hand, and a replay) is added only once the game is over.
The AI searches in a thread, off the event loop; its search is stopped when the page goes
away (it closes the game, or stops asking for more than ``abandon_seconds``), and resumes
when the page comes back. Games have unguessable ids (``secrets.token_urlsafe``), there are
at most ``max_games`` at once, and a game nobody asked about for ``idle_seconds`` is dropped.
Malformed or illegal requests get a 4xx answer with a JSON ``{"error": ...}`` and change
nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sys
import threading
import time
import traceback
from importlib import resources
from typing import Any

try:
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles
except ImportError as _e:  # pragma: no cover - depends on the environment
    raise ImportError("the browser mode needs the [web] extra: pip install 'catsearch[web]' "
                      f"(starlette and uvicorn): {_e}") from None

import catsearch
from catsearch._core.options import parse_int
from catsearch._core.state import State
from catsearch.search.table import Played, Table
from catsearch.play.levels import DEFAULT_LEVEL, LEVELS, opponent

__all__ = ["create_app", "serve", "GameServer", "WebGame", "seat_payload", "result_payload",
           "parse_fields", "ApiError", "MAX_SEED"]

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
            "default_players": spec.default_players}


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


def result_payload(initial: State, history: tuple[Played, ...]) -> dict:
    """The end of a game, every card shown: the final scores and returns, the full final
    state, and a replay (the full state after each move, with each move in full)."""
    state = initial.clone()
    frames = [{"ply": 0, "seat": None, "move": None, "text": state.to_text(),
               "picture": str(state)}]
    for played in history:
        state.apply(played.move)
        frames.append({"ply": len(frames), "seat": played.seat, "move": played.text,
                       "text": state.to_text(), "picture": str(state)})
    return {"scores": state.scores(), "returns": state.returns(),
            "text": state.to_text(), "fields": parse_fields(state.to_text()),
            "cards": state.cards(), "picture": str(state), "replay": frames}


class WebGame:
    """One game of one page: the table (the full state), the person's seat, the AI's thread.

    Every read or change of the table happens under ``lock``; the AI searches outside it, on
    a copy of its seat's view.
    """

    def __init__(self, gid: str, state: State, seat: int, level: str, *, ai_delay: float = 0.0,
                 abandon_seconds: float = 30.0, opponent_seeds: bool = False) -> None:
        n = state.players
        self.id = gid
        self.seat = seat
        self.level = level
        self.ai_delay = ai_delay
        self.abandon_seconds = abandon_seconds
        players = [None if s == seat else opponent(level, seed=(s + 1) if opponent_seeds
                                                    else None)
                   for s in range(n)]
        self.initial = state.clone()
        self.table = Table(state, players)
        self.lock = threading.Lock()
        self.log: list[dict] = []
        self.thinking: dict | None = None
        self.running = False
        self.closed = False
        self.error: str | None = None
        self.last_seen = time.monotonic()
        self.version = 0
        spec = catsearch.game_class(state.game_id).spec
        self.meta = {"game": state.game_id, "game_name": spec.name, "players": n,
                     "seat": seat, "level": level,
                     "opponents": [None if s == seat else LEVELS[level].spec
                                   for s in range(n)]}

    # -- reading ---------------------------------------------------------------------------
    def payload(self) -> dict:
        """The seat's payload now (see :func:`seat_payload`; the result once it is over)."""
        with self.lock:
            self.last_seen = time.monotonic()
            self._ensure_ai()
            table = self.table
            out = seat_payload(self.meta, table.view(self.seat), self.log,
                               your_turn=table.current_player == self.seat and not self.running,
                               thinking=self.thinking)
            if table.is_over():
                out["result"] = result_payload(self.initial, table.history)
            out["version"] = self.version
            out["error"] = self.error
            return out

    # -- the person's moves ----------------------------------------------------------------
    def play(self, text: Any) -> None:
        """Play the person's move ``text`` (its notation).

        :raises ApiError: not a move text (400), not the person's turn or the game is over
            (409), not a legal move here (400); nothing changes.
        """
        if not isinstance(text, str) or not text or len(text) > MAX_MOVE_TEXT:
            raise ApiError(400, "a move is its notation: a non-empty string of at most "
                                f"{MAX_MOVE_TEXT} characters")
        with self.lock:
            self.last_seen = time.monotonic()
            table = self.table
            if table.is_over():
                raise ApiError(409, "the game is over")
            if table.current_player != self.seat or self.running:
                raise ApiError(409, "it is not your turn")
            view = table.view(self.seat)
            legal = {view.move_to_str(m): m for m in view.legal_moves()}
            if text not in legal:
                raise ApiError(400, f"{text!r} is not a legal move here; legal: "
                                    f"{' '.join(legal)}")
            self._record(table.play(legal[text]))
            self._ensure_ai()

    def _record(self, played: Played) -> None:
        self.log.append({"ply": len(self.log) + 1, "seat": played.seat,
                         "text": played.observations[self.seat]})
        self.version += 1

    # -- the AI ----------------------------------------------------------------------------
    def _ensure_ai(self) -> None:
        """Start the AI's thread if an AI seat is to move and none runs (lock held)."""
        t = self.table
        if (self.running or self.closed or self.error is not None or t.is_over()
                or t.current_player == self.seat):
            return
        self.running = True
        self.version += 1
        threading.Thread(target=self._ai_loop, daemon=True,
                         name=f"catsearch-web-{self.id[:6]}").start()

    def _abandoned(self) -> bool:
        return self.closed or time.monotonic() - self.last_seen > self.abandon_seconds

    def _ai_loop(self) -> None:
        try:
            first = True
            while True:
                if not first and self.ai_delay > 0:
                    time.sleep(self.ai_delay)
                first = False
                with self.lock:
                    t = self.table
                    if (self._abandoned() or t.is_over() or t.current_player == self.seat):
                        return
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
                    if self._abandoned():       # the page went away: drop the move
                        return
                    self._record(self.table.play(result.move))
                    self.thinking = None
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

    def close(self) -> None:
        """The page went away: stop a running search and release the players."""
        with self.lock:
            self.closed = True
            players = self.table.players
        for p in players:
            if p is not None:
                p.stop()
        # the players are closed by the AI's thread's end or here when none runs
        threading.Thread(target=self._close_players, daemon=True).start()

    def _close_players(self) -> None:
        for _ in range(600):
            with self.lock:
                if not self.running:
                    break
            time.sleep(0.05)
        self.table.close()


class GameServer:
    """The games of one server: creation (with the cap), look-up, expiry."""

    def __init__(self, *, max_games: int = 16, idle_seconds: float = 1800.0,
                 ai_delay: float = 0.0, abandon_seconds: float = 30.0,
                 opponent_seeds: bool = False) -> None:
        self.max_games = max_games
        self.idle_seconds = idle_seconds
        self.ai_delay = ai_delay
        self.abandon_seconds = abandon_seconds
        self.opponent_seeds = opponent_seeds
        self.games: dict[str, WebGame] = {}
        self.lock = threading.Lock()

    def expire(self) -> None:
        """Drop the games nobody asked about for ``idle_seconds``."""
        now = time.monotonic()
        with self.lock:
            old = [g for g in self.games.values() if now - g.last_seen > self.idle_seconds]
            for g in old:
                del self.games[g.id]
        for g in old:
            g.close()

    def create(self, state: State, seat: int, level: str) -> WebGame:
        """A new game of ``state`` with the person at ``seat`` and ``level`` opponents.

        :raises ApiError: 429 when ``max_games`` games are going.
        """
        self.expire()
        with self.lock:
            if len(self.games) >= self.max_games:
                raise ApiError(429, f"too many games at once (at most {self.max_games}): "
                                    "finish or close one, or wait for idle ones to expire")
            gid = secrets.token_urlsafe(18)
            game = WebGame(gid, state, seat, level, ai_delay=self.ai_delay,
                           abandon_seconds=self.abandon_seconds,
                           opponent_seeds=self.opponent_seeds)
            self.games[gid] = game
        with game.lock:
            game._ensure_ai()
        return game

    def get(self, gid: str) -> WebGame:
        with self.lock:
            game = self.games.get(gid)
        if game is None:
            raise ApiError(404, "no such game (it ended, expired or never existed)")
        return game

    def close(self, gid: str) -> None:
        with self.lock:
            game = self.games.pop(gid, None)
        if game is None:
            raise ApiError(404, "no such game (it ended, expired or never existed)")
        game.close()

    def close_all(self) -> None:
        with self.lock:
            games = list(self.games.values())
            self.games.clear()
        for g in games:
            g.close()


# -- the app -------------------------------------------------------------------------------

def _static(name: str) -> str:
    return resources.files("catsearch.play").joinpath("static", name).read_text("utf-8")


def _int_param(params, name: str, lo: int, hi: int, default: int | None = None) -> int:
    raw = params.get(name)
    if raw is None or raw == "":
        if default is None:
            raise ApiError(400, f"missing parameter {name!r}")
        return default
    try:
        return parse_int(raw, name, lo, hi)
    except ValueError as e:
        raise ApiError(400, str(e)) from None


def new_game_params(params) -> tuple[str, int, int, str, int | None]:
    """Check the query of ``/play``: (game, players, seat, level, seed or None)."""
    game = params.get("game")
    if game not in catsearch.GAMES:
        raise ApiError(400, f"unknown game {str(game)[:40]!r}; games: {', '.join(catsearch.GAMES)}")
    info = _game_info(game)
    players = _int_param(params, "players", info["min_players"], info["max_players"],
                         info["default_players"])
    seat = _int_param(params, "seat", 0, players - 1, 0)
    level = params.get("level") or DEFAULT_LEVEL
    if level not in LEVELS:
        raise ApiError(400, f"unknown level {level[:40]!r}; levels: {', '.join(LEVELS)}")
    seed = params.get("seed")
    seed = None if seed in (None, "") else _int_param(params, "seed", 0, MAX_SEED)
    return game, players, seat, level, seed


def create_app(*, max_games: int = 16, idle_seconds: float = 1800.0, ai_delay: float = 0.0,
               abandon_seconds: float = 30.0, allowed_hosts: list[str] | None = None,
               opponent_seeds: bool = False) -> Starlette:
    """The Starlette app (its :class:`GameServer` is ``app.state.games``).

    :param max_games: games at once; one more is refused with 429.
    :param idle_seconds: a game nobody asked about for this long is dropped.
    :param ai_delay: seconds between two moves of the AI (so that a person can follow).
    :param abandon_seconds: a page that has not asked for this long has gone away: the AI's
        search stops until it asks again.
    :param allowed_hosts: the ``Host`` headers accepted (``None``: any); guards a server on
        127.0.0.1 against DNS rebinding.
    :param opponent_seeds: seed the AI players (seat ``s`` gets seed ``s + 1``): tests.
    """
    server = GameServer(max_games=max_games, idle_seconds=idle_seconds, ai_delay=ai_delay,
                        abandon_seconds=abandon_seconds, opponent_seeds=opponent_seeds)

    def error(e: ApiError) -> JSONResponse:
        return JSONResponse({"error": e.message}, status_code=e.status)

    async def index(request: Request) -> Response:
        return HTMLResponse(_static("index.html"))

    async def play_page(request: Request) -> Response:
        try:
            game, players, seat, level, seed = new_game_params(request.query_params)
            if seed is None:
                seed = secrets.randbelow(2**31)
                return RedirectResponse(
                    f"/play?game={game}&players={players}&seat={seat}&level={level}&seed={seed}",
                    status_code=303)
            state = catsearch.new_game(game, players=players, seed=seed)
            g = server.create(state, seat, level)
        except ApiError as e:
            return error(e)
        html = _static("play.html").replace("__GAME_ID__", json.dumps(g.id))
        return HTMLResponse(html, headers={"Cache-Control": "no-store"})

    async def games(request: Request) -> Response:
        return JSONResponse({
            "games": [_game_info(g) for g in catsearch.GAMES],
            "levels": [{"name": lv.name, "spec": lv.spec, "description": lv.description}
                       for lv in LEVELS.values()],
            "default_level": DEFAULT_LEVEL})

    async def game_state(request: Request) -> Response:
        try:
            g = server.get(request.path_params["gid"])
            return JSONResponse(g.payload(), headers={"Cache-Control": "no-store"})
        except ApiError as e:
            return error(e)

    async def game_move(request: Request) -> Response:
        try:
            g = server.get(request.path_params["gid"])
            body = await request.body()
            if len(body) > 4096:
                raise ApiError(413, "request too large")
            try:
                data = json.loads(body or b"null")
            except (ValueError, UnicodeDecodeError):
                raise ApiError(400, "the body must be JSON: {\"move\": \"<notation>\"}") from None
            if not isinstance(data, dict) or set(data) != {"move"}:
                raise ApiError(400, "the body must be {\"move\": \"<notation>\"}")
            g.play(data["move"])
            for _ in range(20):     # a quick AI (easy) answers within this request
                if not g.running:
                    break
                await asyncio.sleep(0.005)
            return JSONResponse(g.payload(), headers={"Cache-Control": "no-store"})
        except ApiError as e:
            return error(e)

    async def game_close(request: Request) -> Response:
        try:
            server.close(request.path_params["gid"])
            return JSONResponse({"closed": True})
        except ApiError as e:
            return error(e)

    async def not_found(request: Request, exc) -> Response:
        status = getattr(exc, "status_code", 404)
        return JSONResponse({"error": getattr(exc, "detail", "not found")}, status_code=status)

    static = StaticFiles(directory=str(resources.files("catsearch.play").joinpath("static")))
    routes = [
        Route("/", index),
        Route("/play", play_page),
        Route("/api/games", games),
        Route("/api/game/{gid}", game_state),
        Route("/api/game/{gid}/move", game_move, methods=["POST"]),
        Route("/api/game/{gid}/close", game_close, methods=["POST"]),
        Mount("/static", static, name="static"),
    ]
    middleware = ([Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)]
                  if allowed_hosts else [])
    @contextlib.asynccontextmanager
    async def lifespan(app):
        try:
            yield
        finally:
            server.close_all()

    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={404: not_found, 405: not_found}, lifespan=lifespan)
    app.state.games = server
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, *, max_games: int = 16,
          ai_delay: float = 0.3) -> int:
    """Serve the app with uvicorn until interrupted (``catsearch-play --web``)."""
    try:
        import uvicorn
    except ImportError:
        raise ImportError("the browser mode needs the [web] extra: "
                          "pip install 'catsearch[web]' (starlette and uvicorn)") from None
    loopback = host in ("127.0.0.1", "localhost", "::1")
    allowed = ["127.0.0.1", "localhost", "[::1]", "::1"] if loopback else None
    app = create_app(max_games=max_games, ai_delay=ai_delay, allowed_hosts=allowed)
    print(f"catsearch-play: open http://{'127.0.0.1' if host == '0.0.0.0' else host}:{port}/ "
          "(Ctrl-C stops)", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return 0
