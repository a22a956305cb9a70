"""Play against the AI in a browser: ``catsearch-play --web [--host 127.0.0.1] [--port N]``.

A small Starlette app served by uvicorn (the optional ``[web]`` extra), with plain
HTML/CSS/JS/SVG pages from ``catsearch/play/static/`` (no build step). The contract:

* ``POST /play`` (the start page's form) or ``GET /play?game=<id>&players=<n>&seat=<s>&level=
  <level>`` (a link) opens a new game with those settings, dealt from a fresh secret seed,
  and redirects to ``/game/<id>``, its page (a link that holds no seed). Only the person's
  own pages (or no page: a bookmark, ``curl``) may open games: see :mod:`catsearch.play.guard`.
  ``seed=<s>`` deals exactly as ``catsearch.new_game(game, players=n, seed=s)`` deals, but
  only on a server started with ``seed_links`` (tests, practice): whoever reads such a link
  knows every card;
* each legal move of the person's seat is a clickable element with ``data-move="<notation>"``
  (none while it is not the person's turn); clicking it plays it;
* when the game is over an element with ``data-result`` holds the final scores.

The JSON API the page uses: ``GET /api/games`` (games, seat counts, levels),
``GET /api/game/<id>`` (the seat's payload), ``POST /api/game/<id>/move`` (``{"move":
"<notation>"}``), ``POST /api/game/<id>/close`` (the page went away: the AI's search stops;
the game is kept, so that a reload, Back or Forward resumes it exactly where it was).
``GET /game/<id>`` of a game that is not there (expired, or a wrong link) is a page that
says so (404), with a link to the start page.

The server holds the full state in a :class:`~catsearch.search.table.Table`; every payload a
page gets is built by :func:`seat_payload` from the seat's view and the seat's observations
only, and the full state (every hand, a replay and the deal's seed) is added only once the
game is over.
The AI searches in a thread, off the event loop; its search is stopped when the page goes
away (it says so, or stops asking for more than ``abandon_seconds``), and resumes when the
page comes back. Games have unguessable ids (``secrets.token_urlsafe``), there are
at most ``max_games`` going at once (a finished game no longer counts, but stays viewable for
``finished_seconds``; at the cap, games whose page went away make room), and a background
sweep drops games nobody asked about for ``idle_seconds``. Malformed or illegal requests get
a 4xx answer with a JSON ``{"error": ...}`` and change nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from html import escape
import json
import secrets
from collections.abc import Mapping
from importlib import resources

try:
    from starlette.applications import Starlette
    from starlette.datastructures import QueryParams
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
from catsearch.play.guard import MAX_BODY, RequestGuard
from catsearch.play.levels import DEFAULT_LEVEL, LADDER_LEVELS, LEVELS
from catsearch.play.webextras import (MAX_RECORD_BYTES, game_record, game_settings, hint,
                                      option_info, replay_frames)
from catsearch.play.webgames import (MAX_MOVE_TEXT, MAX_SEED, ApiError, GameServer, WebGame,
                                     _game_info, parse_fields, result_payload, seat_payload)

__all__ = ["create_app", "serve", "GameServer", "WebGame", "seat_payload", "result_payload",
           "parse_fields", "ApiError", "MAX_SEED", "MAX_MOVE_TEXT", "bind",
           "new_game_params"]

# -- the app -------------------------------------------------------------------------------

def _static(name: str) -> str:
    return resources.files("catsearch.play").joinpath("static", name).read_text("utf-8")


def _int_param(params: Mapping[str, str], name: str, lo: int, hi: int,
               default: int | None = None) -> int:
    raw = params.get(name)
    if raw is None or raw == "":
        if default is None:
            raise ApiError(400, f"missing parameter {name!r}")
        return default
    try:
        return parse_int(raw, name, lo, hi)
    except ValueError as e:
        raise ApiError(400, str(e)) from None


def new_game_params(params: Mapping[str, str]) -> tuple[str, int, int, str, int | None]:
    """Check the fields of a new game (``/play``): (game, players, seat, level, seed or
    None); :func:`~catsearch.play.webextras.game_settings` gives the people's seats and the
    game's options too."""
    s = game_settings(params)
    return s.game, s.players, s.seat, s.level, s.seed


def _option_text(value) -> str:
    """A game option's value as a link writes it (``values=3,2,1,4,1``)."""
    if isinstance(value, (tuple, list)):
        return ",".join(map(str, value))
    return str(value).lower() if isinstance(value, bool) else str(value)


def _no_store(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


def create_app(*, max_games: int = 16, idle_seconds: float = 1800.0, ai_delay: float = 0.0,
               abandon_seconds: float = 30.0, allowed_hosts: list[str] | None = None,
               opponent_seeds: bool = False, seed_links: bool = False,
               finished_seconds: float = 1800.0, max_finished: int | None = None,
               sweep_seconds: float | None = None, max_body: int = MAX_BODY) -> Starlette:
    """The Starlette app (its :class:`GameServer` is ``app.state.games``).

    :param max_games: games going at once; one more is refused with 429 (unless a going
        game's page went away: it makes room).
    :param idle_seconds: a game nobody asked about for this long is dropped.
    :param ai_delay: seconds between two moves of the AI (so that a person can follow).
    :param abandon_seconds: a page that has not asked for this long has gone away: the AI's
        search stops until it asks again.
    :param allowed_hosts: the ``Host`` headers accepted (``None``: any); guards a server on
        127.0.0.1 against DNS rebinding.
    :param opponent_seeds: seed the AI players (seat ``s`` gets seed ``s + 1``): tests.
    :param seed_links: deal from a ``seed`` given in ``/play`` (and offer the start page's
        seed field and a link that deals a finished game again). Off by default: whoever
        reads a link with a seed knows every card of its deal.
    :param finished_seconds: a finished game stays viewable this long after it was last
        asked about (at most ``max_finished`` of them; default ``4 * max_games``).
    :param sweep_seconds: how often the background sweep drops idle games (default: a
        quarter of the shortest expiry, between 0.05 and 60 seconds).
    :param max_body: the largest request body, in bytes (413 beyond; see
        :mod:`catsearch.play.guard`).
    """
    if not isinstance(seed_links, bool):
        raise TypeError(f"seed_links must be a bool, not {type(seed_links).__name__}")
    server = GameServer(max_games=max_games, idle_seconds=idle_seconds, ai_delay=ai_delay,
                        abandon_seconds=abandon_seconds, opponent_seeds=opponent_seeds,
                        finished_seconds=finished_seconds, max_finished=max_finished)
    if sweep_seconds is None:
        sweep_seconds = min(60.0, max(0.05, min(idle_seconds, finished_seconds) / 4))
    if not isinstance(sweep_seconds, (int, float)) or isinstance(sweep_seconds, bool):
        raise TypeError(f"sweep_seconds must be a number, not {type(sweep_seconds).__name__}")
    if not sweep_seconds > 0:
        raise ValueError(f"sweep_seconds must be > 0, not {sweep_seconds}")

    def error(e: ApiError) -> JSONResponse:
        return JSONResponse({"error": e.message}, status_code=e.status,
                            headers={"Cache-Control": "no-store"})

    async def index(request: Request) -> Response:
        return HTMLResponse(_static("index.html"))

    def open_game(params: Mapping[str, str]) -> Response:
        """A new game from checked fields; a redirect to its page (no seed in it)."""
        settings = game_settings(params)
        game, players, seat, level, seed = (settings.game, settings.players, settings.seat,
                                            settings.level, settings.seed)
        link = None
        if seed is not None:
            if not seed_links:
                raise ApiError(400, "this server deals from secret seeds only: a seed in a "
                                    "link would tell whoever reads it every card (start it "
                                    "with --seed-links to allow them)")
        else:
            seed = secrets.randbelow(MAX_SEED + 1)
        if seed_links:
            extra = "".join(f"&opt.{k}={_option_text(v)}" for k, v in settings.options.items())
            if len(settings.humans) > 1:
                extra += "&humans=" + ",".join(map(str, settings.humans))
            link = (f"/play?game={game}&players={players}&seat={seat}&level={level}"
                    f"&seed={seed}{extra}")
        state = catsearch.new_game(game, players=players, seed=seed, **settings.options)
        g = server.create(state, seat, level, seed=seed, link=link, humans=settings.humans,
                          options=settings.options)
        return _no_store(RedirectResponse(f"/game/{g.id}", status_code=303))

    async def play_link(request: Request) -> Response:
        try:
            return open_game(request.query_params)
        except ApiError as e:
            return error(e)

    async def play_form(request: Request) -> Response:
        try:
            kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
            if kind not in ("application/x-www-form-urlencoded", ""):
                raise ApiError(415, "a new game is a form (application/x-www-form-urlencoded)")
            body = await request.body()     # at most max_body bytes (the guard)
            try:
                text = body.decode("ascii")
            except UnicodeDecodeError:
                raise ApiError(400, "the form must be ASCII (URL-encoded)") from None
            fields = dict(QueryParams(text))
            fields.update({k: v for k, v in request.query_params.items() if k not in fields})
            return open_game(fields)
        except ApiError as e:
            return error(e)

    async def game_page(request: Request) -> Response:
        try:
            server.seat(request.path_params["gid"])
        except ApiError as e:
            html = _static("gone.html").replace("__REASON__", escape(e.message.capitalize()))
            return _no_store(HTMLResponse(html, status_code=e.status))
        # the page's own secret link (each person's differs)
        html = _static("play.html").replace("__GAME_ID__",
                                            json.dumps(request.path_params["gid"]))
        return _no_store(HTMLResponse(html))

    async def games(request: Request) -> Response:
        return JSONResponse({
            "games": [{**_game_info(g), "options": option_info(g)} for g in catsearch.GAMES],
            # the named levels, then the whole ladder (as ``catsearch-play --level`` takes)
            "levels": [{"name": lv.name, "label": label, "spec": lv.spec,
                        "description": lv.description}
                       for levels, fmt in ((LEVELS, "{} (level {})"), (LADDER_LEVELS, "level {}"))
                       for lv in levels.values()
                       for label in [fmt.format(lv.name, lv.spec.rpartition("=")[2])]],
            "default_level": DEFAULT_LEVEL, "seed_links": seed_links})

    async def game_state(request: Request) -> Response:
        try:
            g, seat = server.seat(request.path_params["gid"])
            return _no_store(JSONResponse(g.payload(seat)))
        except ApiError as e:
            return error(e)

    async def game_takeback(request: Request) -> Response:
        try:
            g, seat = server.seat(request.path_params["gid"])
            g.takeback(seat)
            return _no_store(JSONResponse(g.payload(seat)))
        except ApiError as e:
            return error(e)

    async def game_hint(request: Request) -> Response:
        try:
            g, seat = server.seat(request.path_params["gid"])
            with g.lock:
                if g.table.is_over() or g.table.current_player != seat or g.running:
                    raise ApiError(409, "a hint is for your turn")
                if g.hinting:
                    raise ApiError(409, "a hint is being worked out")
                g.hinting = True
                view = g.table.view(seat)       # the seat's view only: nothing else
            try:
                out = await asyncio.to_thread(hint, view)
            finally:
                g.hinting = False
            return _no_store(JSONResponse(out))
        except ApiError as e:
            return error(e)

    async def game_download(request: Request) -> Response:
        try:
            g, _seat = server.seat(request.path_params["gid"])
            rec = game_record(g)
            body = json.dumps(rec.to_json(), indent=1) + "\n"
            name = f"catsearch-{rec.game}-{g.id[:8]}.json"
            return _no_store(Response(body, media_type="application/json", headers={
                "Content-Disposition": f'attachment; filename="{name}"'}))
        except ApiError as e:
            return error(e)

    async def replay_page(request: Request) -> Response:
        return HTMLResponse(_static("replay.html"))

    async def replay_api(request: Request) -> Response:
        try:
            body = await request.body()     # at most MAX_RECORD_BYTES (the guard)
            try:
                data = json.loads(body or b"null")
            except (ValueError, UnicodeDecodeError, RecursionError):
                raise ApiError(400, "not a game record: the file is not JSON") from None
            return _no_store(JSONResponse(await asyncio.to_thread(replay_frames, data)))
        except ApiError as e:
            return error(e)

    async def game_move(request: Request) -> Response:
        try:
            g, seat = server.seat(request.path_params["gid"])
            kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
            if kind != "application/json":
                raise ApiError(415, "a move is sent as application/json: {\"move\": "
                                    "\"<notation>\"}")
            body = await request.body()     # at most max_body bytes (the guard)
            try:
                data = json.loads(body or b"null")
            except (ValueError, UnicodeDecodeError, RecursionError):
                raise ApiError(400, "the body must be JSON: {\"move\": \"<notation>\"}") from None
            if not isinstance(data, dict) or set(data) != {"move"}:
                raise ApiError(400, "the body must be {\"move\": \"<notation>\"}")
            g.play(data["move"], seat)
            for _ in range(20):     # a quick AI (easy) answers within this request
                if not g.running:
                    break
                await asyncio.sleep(0.005)
            return _no_store(JSONResponse(g.payload(seat)))
        except ApiError as e:
            return error(e)

    async def game_close(request: Request) -> Response:
        try:
            server.leave(request.path_params["gid"])     # kept: a reload resumes it
            return JSONResponse({"closed": True})
        except ApiError as e:
            return error(e)

    async def not_found(request: Request, exc) -> Response:
        status = getattr(exc, "status_code", 404)
        return JSONResponse({"error": getattr(exc, "detail", "not found")}, status_code=status)

    async def server_error(request: Request, exc) -> Response:
        # the details go to the server's log only (uvicorn prints the traceback)
        return JSONResponse({"error": "internal error (the server's log says why)"},
                            status_code=500)

    static = StaticFiles(directory=str(resources.files("catsearch.play").joinpath("static")))
    routes = [
        Route("/", index),
        Route("/play", play_link, methods=["GET"]),
        Route("/play", play_form, methods=["POST"]),
        Route("/game/{gid}", game_page),
        Route("/api/games", games),
        Route("/api/game/{gid}", game_state),
        Route("/api/game/{gid}/move", game_move, methods=["POST"]),
        Route("/api/game/{gid}/close", game_close, methods=["POST"]),
        Route("/api/game/{gid}/takeback", game_takeback, methods=["POST"]),
        Route("/api/game/{gid}/hint", game_hint, methods=["POST"]),
        Route("/api/game/{gid}/record", game_download),
        Route("/replay", replay_page),
        Route("/api/replay", replay_api, methods=["POST"]),
        Mount("/static", static, name="static"),
    ]
    middleware = [Middleware(RequestGuard, max_body=max_body,
                             large_paths={"/api/replay": MAX_RECORD_BYTES})]
    if allowed_hosts:
        middleware.insert(0, Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))

    async def sweep() -> None:
        while True:
            await asyncio.sleep(sweep_seconds)
            server.expire()

    @contextlib.asynccontextmanager
    async def lifespan(app):
        task = asyncio.create_task(sweep())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            server.close_all()

    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={404: not_found, 405: not_found, 500: server_error},
                    lifespan=lifespan)
    app.state.games = server
    return app


def bind(host: str, port: int):
    """A listening socket on ``host``:``port``.

    :raises TypeError: ``port`` not an int. :raises ValueError: ``port`` out of 0..65535.
    :raises OSError: the address cannot be bound (in use, not this machine's).
    """
    import socket
    if not isinstance(port, int) or isinstance(port, bool):
        raise TypeError(f"port must be an int, not {type(port).__name__}")
    if not 0 <= port <= 65535:
        raise ValueError(f"port {port} is out of range: ports are 0..65535")
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def serve(host: str = "127.0.0.1", port: int = 8000, *, max_games: int = 16,
          ai_delay: float = 0.3, seed_links: bool = False) -> int:
    """Serve the app with uvicorn until interrupted (``catsearch-play --web``). The port is
    bound before anything is printed, so that a busy port fails with its error alone.

    :raises ValueError: ``port`` out of range; :raises OSError: it cannot be bound.
    """
    try:
        import uvicorn
    except ImportError:
        raise ImportError("the browser mode needs the [web] extra: "
                          "pip install 'catsearch[web]' (starlette and uvicorn)") from None
    loopback = host in ("127.0.0.1", "localhost", "::1")
    allowed = ["127.0.0.1", "localhost", "[::1]", "::1"] if loopback else None
    app = create_app(max_games=max_games, ai_delay=ai_delay, allowed_hosts=allowed,
                     seed_links=seed_links)
    sock = bind(host, port)
    shown = "127.0.0.1" if host == "0.0.0.0" else host
    print(f"catsearch-play: open http://{shown}:{sock.getsockname()[1]}/ (Ctrl-C stops)",
          flush=True)
    try:
        uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[sock])
    finally:
        sock.close()
    return 0
