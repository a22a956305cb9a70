"""The browser mode against abuse (issue 33, items 5 and 6).

Item 5, the deal: no redirect, page or payload of a live game holds the deal's seed; it is
told in the result only; a link with a seed is refused unless the server takes seed links.
Item 6, the server: requests from another site cannot open, play or close a game (403, and
nothing is created); a move must be ``application/json``; a body over 4 KB is refused with
413 after reading at most the limit and a chunk (an ASGI receive counter here; a real server
in a subprocess, its memory measured, below); malformed input is a 4xx JSON answer; a
finished game leaves the cap and stays viewable; idle games expire on a timer; games whose
page went away make room at the cap. Every loop is bounded in count and time; servers listen
on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import select
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the [web] extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

import catsearch  # noqa: E402
from catsearch.play.guard import MAX_BODY, RequestGuard  # noqa: E402
from catsearch.play.web import create_app  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parents[2]
NEW = "/play?game=herding-cats&players=2&seat=0&level=easy"
#: what browsers send from another site's page
CROSS_SITE = [
    {"sec-fetch-site": "cross-site"},
    {"sec-fetch-site": "same-site"},            # another port of localhost is same-site
    {"origin": "http://evil.example"},
    {"origin": "null"},                          # a sandboxed frame
    {"origin": "http://testserver:8001"},        # another port
    {"sec-fetch-site": "same-origin", "origin": "http://evil.example"},
]
#: what the person's own pages (and the address bar) send
OWN = [{}, {"sec-fetch-site": "same-origin", "origin": "http://testserver"},
       {"sec-fetch-site": "none"}, {"origin": "http://testserver"}]


@pytest.fixture
def app():
    return create_app(abandon_seconds=60)


def new_game(c, headers=None) -> str:
    r = c.get(NEW, headers=headers or {}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def payload(c, gid) -> dict:
    """The payload once it is the person's turn or the game is over (bounded wait)."""
    t0 = time.monotonic()
    while True:
        r = c.get(f"/api/game/{gid}")
        assert r.status_code == 200, r.text
        p = r.json()
        if p["over"] or p["your_turn"]:
            return p
        assert time.monotonic() - t0 < 30, "the AI did not move in time"
        time.sleep(0.005)


def heuristic(p: dict) -> str:
    view = catsearch.from_text(p["game"], p["view"]["text"])
    return view.move_to_str(view.heuristic_move(seed=len(p["log"])))


def play_to_the_end(c, gid, on_payload=None) -> dict:
    for _ in range(2000):
        p = payload(c, gid)
        if on_payload is not None:
            on_payload(p)
        if p["over"]:
            return p
        r = c.post(f"/api/game/{gid}/move", json={"move": heuristic(p)})
        assert r.status_code == 200, r.text
        if on_payload is not None:
            on_payload(r.json())
    raise AssertionError("the game did not end in 2000 moves")


def is_json_error(r, lo=400, hi=499) -> bool:
    return (lo <= r.status_code <= hi and r.headers["content-type"].startswith("application/json")
            and isinstance(r.json()["error"], str) and r.json()["error"] != "")


# -- item 6: requests from another site -------------------------------------------------------

@pytest.mark.parametrize("headers", CROSS_SITE)
def test_another_site_cannot_open_a_game(app, headers):
    with TestClient(app) as c:
        server = app.state.games
        for r in (c.get(NEW, headers=headers, follow_redirects=False),
                  c.head(NEW, headers=headers, follow_redirects=False),
                  c.post("/play", content=NEW.partition("?")[2], follow_redirects=False,
                         headers={**headers,
                                  "content-type": "application/x-www-form-urlencoded"})):
            assert r.status_code == 403, (headers, r.status_code)
            if r.request.method != "HEAD":
                assert is_json_error(r, 403, 403) and "another site" in r.json()["error"]
        assert server.games == {}


@pytest.mark.parametrize("headers", OWN)
def test_the_persons_own_pages_open_games(app, headers):
    with TestClient(app) as c:
        gid = new_game(c, headers)
        r = c.post("/play", content=NEW.partition("?")[2], follow_redirects=False,
                   headers={**headers, "content-type": "application/x-www-form-urlencoded"})
        assert r.status_code == 303 and r.headers["location"].startswith("/game/")
        assert len(app.state.games.games) == 2 and gid in app.state.games.games


def test_another_site_cannot_play_or_close_a_game(app):
    with TestClient(app) as c:
        gid = new_game(c)
        web = app.state.games.get(gid)
        p = payload(c, gid)
        assert p["your_turn"]
        before = web.table.state.to_text()
        for headers in CROSS_SITE:
            r = c.post(f"/api/game/{gid}/move", json={"move": p["legal"][0]}, headers=headers)
            assert is_json_error(r, 403, 403), (headers, r.status_code)
            r = c.post(f"/api/game/{gid}/close", headers=headers)
            assert is_json_error(r, 403, 403), (headers, r.status_code)
        assert web.table.state.to_text() == before and not web.closed and not web.left
        assert gid in app.state.games.games
        # the page's own request plays
        r = c.post(f"/api/game/{gid}/move", json={"move": p["legal"][0]},
                   headers={"sec-fetch-site": "same-origin", "origin": "http://testserver"})
        assert r.status_code == 200 and web.table.state.to_text() != before


@pytest.mark.parametrize("kind", ["text/plain", "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", None])
def test_a_move_must_be_json(app, kind):
    """A cross-origin form or ``fetch(no-cors)`` can only send these (a "simple" request,
    no preflight): refused even without any fetch metadata, and with the page's own."""
    with TestClient(app) as c:
        gid = new_game(c)
        web = app.state.games.get(gid)
        p = payload(c, gid)
        before = web.table.state.to_text()
        body = json.dumps({"move": p["legal"][0]}).encode()
        for extra in ({}, {"sec-fetch-site": "same-origin"}):
            headers = dict(extra)
            if kind is not None:
                headers["content-type"] = kind
            r = c.post(f"/api/game/{gid}/move", content=body, headers=headers)
            assert is_json_error(r, 415, 415), (kind, r.status_code)
        assert web.table.state.to_text() == before and web.table.history == ()


# -- item 6: the body limit -------------------------------------------------------------------

def asgi_post(app, path: str, chunks: int, chunk: int, headers: list) -> tuple[int, dict, int]:
    """POST ``chunks`` chunks of ``chunk`` bytes to ``app`` through ASGI directly: the status,
    the JSON body and how many body bytes the app took (its receive counted)."""
    taken = 0
    sent: list[dict] = []
    state = {"i": 0}

    async def receive():
        nonlocal taken
        if state["i"] >= chunks:
            return {"type": "http.disconnect"}
        state["i"] += 1
        taken += chunk
        return {"type": "http.request", "body": b"[" * chunk, "more_body": state["i"] < chunks}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1),
             "server": ("127.0.0.1", 80),
             "headers": [(b"host", b"127.0.0.1"), *headers]}
    if not any(k == b"content-type" for k, _ in headers):
        scope["headers"].append((b"content-type", b"application/json"))
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body), taken


def test_a_large_body_is_refused_after_reading_at_most_the_limit(app):
    with TestClient(app) as c:      # the game, through the app's lifespan
        gid = new_game(c)
        payload(c, gid)
        web = app.state.games.get(gid)
        chunk = 64 * 1024
        # streamed (no Content-Length): 50 MB offered, the app stops after one chunk past 4 KB
        status, body, taken = asgi_post(app, f"/api/game/{gid}/move", 800, chunk, [])
        assert status == 413 and "too large" in body["error"]
        assert taken <= MAX_BODY + chunk, taken
        # a Content-Length over the limit: refused before a byte is read
        status, body, taken = asgi_post(app, f"/api/game/{gid}/move", 800, chunk,
                                        [(b"content-length", str(800 * chunk).encode())])
        assert status == 413 and taken == 0
        # small chunks up to just over the limit: counted across chunks
        status, body, taken = asgi_post(app, f"/api/game/{gid}/move", 100, 100, [])
        assert status == 413 and taken == 4100
        # and a new game's form the same
        status, body, taken = asgi_post(
            app, "/play", 800, chunk,
            [(b"content-type", b"application/x-www-form-urlencoded")])
        assert status == 413 and taken <= MAX_BODY + chunk
        assert web.table.history == () and len(app.state.games.games) == 1


def test_the_guard_checks_its_arguments():
    with pytest.raises(TypeError, match="max_body must be an int, not str"):
        RequestGuard(None, max_body="4096")
    with pytest.raises(ValueError, match="max_body must be >= 0, not -1"):
        RequestGuard(None, max_body=-1)


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return int(re.search(r"^VmRSS:\s+(\d+) kB", f.read(), flags=re.M).group(1))


def start_server() -> tuple[subprocess.Popen, int]:
    """``catsearch-play --web --port 0`` in a subprocess on 127.0.0.1; its port (from the
    line it prints)."""
    proc = subprocess.Popen([sys.executable, "-m", "catsearch.cli", "--web", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    assert ready, "the server printed nothing in 30 s"
    line = proc.stdout.readline()
    m = re.search(r"open http://127\.0\.0\.1:(\d+)/", line)
    assert m, line
    return proc, int(m.group(1))


def stream_body(port: int, head: bytes, total: int, seconds: float = 30.0) -> tuple[bytes, int]:
    """Send ``head`` then up to ``total`` bytes of body in 64 KB chunks, stopping as soon as
    the server answers (or closes); its answer and the bytes sent."""
    chunk = b"[" * 65536
    sent = 0
    answer = b""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head)
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds:
            readable, writable, _ = select.select([s], [s] if sent < total else [], [], 1.0)
            if readable:
                try:
                    data = s.recv(65536)
                except ConnectionResetError:
                    break
                if not data:
                    break
                answer += data
                if b"\r\n\r\n" in answer:
                    break
                continue
            if writable:
                try:
                    sent += s.send(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    break
    return answer, sent


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs Linux's /proc")
def test_a_50_mb_body_does_not_swell_a_real_server():
    proc, port = start_server()
    try:
        before = rss_kb(proc.pid)
        total = 50 * 1024 * 1024
        host = f"Host: 127.0.0.1:{port}\r\n".encode()
        # streamed (chunked: the server cannot know the size before reading)
        head = (b"POST /play HTTP/1.1\r\n" + host + b"Content-Type: application/x-www-form-"
                b"urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n")
        # one chunk header announcing the whole 50 MB, then its bytes as they come
        answer, sent = stream_body(port, head + f"{total:x}\r\n".encode(), total)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert sent < total // 2, f"the server read {sent} bytes before refusing"
        # a Content-Length of 50 MB: refused at once
        head = (b"POST /play HTTP/1.1\r\n" + host + b"Content-Type: application/x-www-form-"
                b"urlencoded\r\nContent-Length: " + str(total).encode() + b"\r\n\r\n")
        answer, sent2 = stream_body(port, head, total)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert b'"error"' in answer or b"application/json" in answer
        after = rss_kb(proc.pid)
        print(f"server RSS {before} kB -> {after} kB; sent {sent} and {sent2} bytes of 50 MB")
        assert after - before < 20 * 1024, (before, after)
        assert proc.poll() is None          # still serving
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:   # pragma: no cover
            proc.kill()
            proc.wait(10)


# -- item 6: malformed input --------------------------------------------------------------------

@pytest.mark.parametrize("query", [
    "players=%C2%B2", "seat=%C2%B2", "seat=%D9%A1", "players=%EF%BC%93", "players=1_0",
    "players=+3", "players=0x3", "seat=%00", "level=%FF", "game=%FF%FE", "players=3%00",
])
def test_malformed_new_game_fields_are_4xx_json(query):
    app = create_app(seed_links=True)
    with TestClient(app) as c:
        for extra in ("", "&seed=%C2%B2", "&seed=%D9%A3"):
            r = c.get(f"/play?game=herding-cats&{query}{extra}", follow_redirects=False)
            assert is_json_error(r), (query, r.status_code, r.text)
            r = c.post("/play", content=f"game=herding-cats&{query}{extra}",
                       headers={"content-type": "application/x-www-form-urlencoded"},
                       follow_redirects=False)
            assert is_json_error(r), (query, r.status_code, r.text)
        r = c.get("/play?game=herding-cats&seed=%C2%B2", follow_redirects=False)
        assert is_json_error(r) and "digits 0-9" in r.json()["error"]
        assert app.state.games.games == {}


def test_malformed_bodies_are_4xx_json(app):
    with TestClient(app) as c:
        gid = new_game(c)
        web = app.state.games.get(gid)
        payload(c, gid)
        before = web.table.state.to_text()
        url = f"/api/game/{gid}/move"
        bodies = [b"[" * 2000, b"[" * 2000 + b"]" * 2000, b'{"move":' * 500, b"[1]", b"3",
                  b'"xo"', b"null", b"true", b"", b"\xff\xfe", b"\xef\xbb\xbf{}",
                  b'{"move": "xo", "move": 1}', b'{"move": ["xo"]}', b"NaN", b"1e999"]
        for body in bodies:
            r = c.post(url, content=body, headers={"content-type": "application/json"})
            assert is_json_error(r), (body[:20], r.status_code)
        for length in (b"abc", b"-1", "\u0661\u0660".encode(), b"1" * 30):
            r = c.post(url, content=b"{}", headers={"content-type": "application/json",
                                                     "content-length": length})
            assert is_json_error(r), (length, r.status_code)
        r = c.post("/play", content="game=herding-cats&level=\u00e9asy".encode(),
                   headers={"content-type": "application/x-www-form-urlencoded"})
        assert is_json_error(r)
        assert web.table.state.to_text() == before
        assert len(app.state.games.games) == 1


# -- item 6: the cap, finished games, expiry ---------------------------------------------------

def test_a_finished_game_frees_its_slot_and_stays_viewable():
    app = create_app(max_games=1, max_finished=1)
    with TestClient(app) as c:
        first = new_game(c)
        assert c.get(NEW, follow_redirects=False).status_code == 429    # the cap holds
        end = play_to_the_end(c, first)
        assert end["over"] and end["result"] is not None
        assert app.state.games.live_count() == 0
        second = new_game(c)        # the finished game no longer counts
        r = c.get(f"/api/game/{first}")
        assert r.status_code == 200 and r.json()["result"] == end["result"]
        assert c.get(f"/game/{first}").status_code == 200
        # at most max_finished finished games are kept: the oldest goes
        play_to_the_end(c, second)
        new_game(c)
        assert c.get(f"/api/game/{first}").status_code == 404
        assert c.get(f"/api/game/{second}").status_code == 200


def test_idle_games_expire_on_a_timer():
    """No request at all: the background sweep drops the idle game (and a finished one)."""
    app = create_app(idle_seconds=1.0, finished_seconds=1.0, sweep_seconds=0.05)
    with TestClient(app) as c:
        done = new_game(c)
        play_to_the_end(c, done)
        gid = new_game(c)
        assert set(app.state.games.games) == {gid, done}
        t0 = time.monotonic()
        while app.state.games.games and time.monotonic() - t0 < 10:
            time.sleep(0.05)
        assert app.state.games.games == {}
        assert time.monotonic() - t0 > 0.5       # dropped by the timer, not at once
        assert c.get(f"/api/game/{gid}").status_code == 404


def test_games_nobody_looks_at_make_room_at_the_cap():
    """Games opened by no page (a stray request) cannot keep the person from their own:
    once nobody asked about them for ``abandon_seconds`` they make room."""
    app = create_app(max_games=2, abandon_seconds=30, idle_seconds=3600)
    with TestClient(app) as c:
        stray = [new_game(c), new_game(c)]
        r = c.get(NEW, follow_redirects=False)
        assert is_json_error(r, 429, 429) and "at most 2" in r.json()["error"]
        for k, gid in enumerate(stray):     # nobody asked about them for over 30 s
            app.state.games.get(gid).last_seen -= 40 - k
        mine = new_game(c)
        assert mine in app.state.games.games
        assert sum(g in app.state.games.games for g in stray) == 1   # the oldest made room
        assert app.state.games.live_count() == 2


def test_the_server_checks_its_settings():
    with pytest.raises(TypeError, match="max_games must be an int, not str"):
        create_app(max_games="16")
    with pytest.raises(ValueError, match="max_games must be at least 1, not 0"):
        create_app(max_games=0)
    with pytest.raises(ValueError, match="idle_seconds must be >= 0, not -1"):
        create_app(idle_seconds=-1)
    with pytest.raises(TypeError, match="seed_links must be a bool, not int"):
        create_app(seed_links=1)


# -- item 5: the deal's seed is not given away --------------------------------------------------

def test_no_redirect_page_or_payload_of_a_live_game_holds_the_seed(app):
    with TestClient(app) as c:
        seeds = set()
        for seat in (0, 1):
            r = c.get(f"/play?game=cat-cards&players=2&seat={seat}&level=easy",
                      follow_redirects=False)
            assert r.status_code == 303
            location = r.headers["location"]
            gid = location.rsplit("/", 1)[1]
            web = app.state.games.get(gid)
            seed = str(web.seed)
            seeds.add(seed)
            assert len(seed) >= 6       # drawn from 2**63: this test's check means something
            assert web.initial == catsearch.new_game("cat-cards", players=2, seed=web.seed)
            page = c.get(location)
            shown = [location, page.text, json.dumps(dict(r.headers)),
                     json.dumps(dict(page.headers))]

            def check(p, shown=shown):
                if not p["over"]:
                    assert p["result"] is None
                    shown.append(json.dumps(p))
            end = play_to_the_end(c, gid, check)
            assert len(shown) > 6
            for text in shown:
                assert seed not in text
            assert end["result"]["seed"] == seed and end["result"]["link"] is None
        assert len(seeds) == 2


def test_a_seed_link_is_refused_unless_the_server_takes_them(app):
    with TestClient(app) as c:
        for r in (c.get(NEW + "&seed=42", follow_redirects=False),
                  c.post("/play", content=NEW.partition("?")[2] + "&seed=42",
                         headers={"content-type": "application/x-www-form-urlencoded"},
                         follow_redirects=False)):
            assert is_json_error(r, 400, 400) and "--seed-links" in r.json()["error"]
        assert app.state.games.games == {}
        data = c.get("/api/games").json()
        assert data["seed_links"] is False
        start = c.get("/").text
        assert 'method="post"' in start and 'id="seed-field" hidden' in start
    app = create_app(seed_links=True)
    with TestClient(app) as c:
        r = c.get(NEW + "&seed=42", follow_redirects=False)
        assert r.status_code == 303 and "42" not in r.headers["location"]
        web = app.state.games.get(r.headers["location"].rsplit("/", 1)[1])
        assert web.initial == catsearch.new_game("herding-cats", players=2, seed=42)
        assert c.get("/api/games").json()["seed_links"] is True


# -- the command line ---------------------------------------------------------------------------

def run_cli(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "catsearch.cli", *args], capture_output=True,
                          text=True, timeout=60, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_a_bad_port_is_one_line():
    r = run_cli(["--web", "--port", "99999"])
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "catsearch-play: error: --port 99999: ports are 0..65535\n"


def test_a_busy_port_fails_before_saying_open():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        r = run_cli(["--web", "--port", str(port)])
    assert r.returncode == 2 and r.stdout == "", r.stdout
    assert r.stderr.startswith(f"catsearch-play: error: cannot listen on 127.0.0.1:{port}: ")
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
