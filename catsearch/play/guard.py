"""The browser mode's guard: an ASGI middleware in front of :mod:`catsearch.play.web`.

Any page a person visits can make their browser send requests to the server on 127.0.0.1
(a form, an ``<img>``, ``fetch`` with ``mode: "no-cors"``). The guard refuses, before the
app sees them:

* a request that creates or changes a game (any method but GET/HEAD, and anything to
  ``/play``) sent from another site: its ``Sec-Fetch-Site`` header (sent by every current
  browser) is not ``same-origin`` or ``none`` (typed in the address bar, a bookmark), or its
  ``Origin`` header is not the server's own (or is ``null``). 403, JSON. A request with
  neither header (``curl``, scripts, the tests' client) does not come from a page and passes;
* a body over ``max_body`` bytes: 413, JSON, after reading at most ``max_body`` bytes plus
  one chunk of it (a ``Content-Length`` over the limit is refused before any of the body is
  read; a streamed body is counted as it comes);
* a ``Content-Length`` that is not a whole number: 400, JSON.

Errors are JSON ``{"error": ...}`` like every other answer of the app.
"""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable

__all__ = ["RequestGuard", "cross_site_reason", "changes_games", "MAX_BODY"]

#: the largest request body accepted (a move is ``{"move": "<at most 64 characters>"}``)
MAX_BODY = 4096

Scope = dict
Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]

#: the ``Sec-Fetch-Site`` values of a request the person's own page (or the person) made
SAME_SITE_FETCH = ("same-origin", "none")


class _TooLarge(Exception):
    """The body went over the limit while the app read it."""


def _headers(scope: Scope) -> dict[str, str]:
    out: dict[str, str] = {}
    for k, v in scope.get("headers", ()):
        out.setdefault(k.decode("latin-1").lower(), v.decode("latin-1"))
    return out


def changes_games(scope: Scope) -> bool:
    """Whether a request may create or change a game: every method but GET and HEAD, and
    any request for ``/play`` (where a GET link opens a new game)."""
    return scope.get("method") not in ("GET", "HEAD") or scope.get("path") in ("/play", "/play/")


def cross_site_reason(scope: Scope, headers: dict[str, str] | None = None) -> str | None:
    """Why this request comes from another site (``None``: it does not, as far as its
    headers tell): ``Sec-Fetch-Site`` other than ``same-origin``/``none``, or an ``Origin``
    other than the server's own (the request's scheme and ``Host``)."""
    h = _headers(scope) if headers is None else headers
    site = h.get("sec-fetch-site")
    if site is not None and site.strip().lower() not in SAME_SITE_FETCH:
        return f"Sec-Fetch-Site: {site[:40]}"
    origin = h.get("origin")
    if origin is not None:
        own = f"{scope.get('scheme', 'http')}://{h.get('host', '')}".lower()
        if origin.strip().lower() != own:
            return f"Origin: {origin[:80]}"
    return None


async def _json(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()),
                            (b"cache-control", b"no-store"),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


class RequestGuard:
    """The ASGI middleware (see the module's text). ``max_body``: the body limit in bytes."""

    def __init__(self, app: Any, max_body: int = MAX_BODY,
                 large_paths: dict[str, int] | None = None) -> None:
        if not isinstance(max_body, int) or isinstance(max_body, bool):
            raise TypeError(f"max_body must be an int, not {type(max_body).__name__}")
        if max_body < 0:
            raise ValueError(f"max_body must be >= 0, not {max_body}")
        self.app = app
        self.max_body = max_body
        #: paths that take a larger body (the replay viewer's record file), and their limit
        self.large_paths = dict(large_paths or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        if changes_games(scope):
            why = cross_site_reason(scope, headers)
            if why is not None:
                await _json(send, 403, f"refused: a request from another site ({why}) cannot "
                                       "start or change a game; open the start page instead")
                return
        length = headers.get("content-length")
        if length is not None:
            text = length.strip()
            if not (text.isascii() and text.isdigit()) or len(text) > 18:
                await _json(send, 400, f"Content-Length must be a whole number, not "
                                       f"{length[:40]!r}")
                return
        limit = self.large_paths.get(scope.get("path", ""), self.max_body)
        if length is not None and int(length.strip()) > limit:
            await _json(send, 413, f"request too large: {int(length.strip())} bytes (at most "
                                   f"{limit})")
            return
        seen = 0
        started = False

        async def limited_receive() -> dict:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge
            return message

        async def watched_send(message: dict) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except _TooLarge:
            if started:     # pragma: no cover - the app answers only after reading the body
                raise
            await _json(send, 413, f"request too large (at most {limit} bytes)")
