"""Fixtures of the browser tests (test_web_browser.py, test_web_table.py and
test_web_extras_browser.py): a server on 127.0.0.1 and Debian's Chromium under Playwright
(skipped, saying why, when either is missing, unless CATSEARCH_REQUIRE_BROWSER=1)."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time

import pytest


def _chromium() -> str | None:
    for name in (os.environ.get("CATSEARCH_CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def _no_browser(why: str):
    if os.environ.get("CATSEARCH_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{why} (CATSEARCH_REQUIRE_BROWSER=1)", pytrace=False)
    pytest.skip(why)


@pytest.fixture(scope="module")
def web_server():
    """(app, base address): the app served by uvicorn in a thread, on a free port."""
    pytest.importorskip("starlette", reason="the [web] extra (starlette) is not installed")
    uvicorn = pytest.importorskip("uvicorn", reason="the [web] extra is not installed")
    from catsearch.play.web import create_app
    app = create_app(opponent_seeds=True, seed_links=True)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    t0 = time.monotonic()
    while not srv.started:
        assert thread.is_alive() and time.monotonic() - t0 < 20, "the server did not start"
        time.sleep(0.05)
    yield app, f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def chromium():
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    path = _chromium()
    if path is None:
        _no_browser("no Chromium found (apt-get install -y chromium, or set CATSEARCH_CHROMIUM)")
    with sync_api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=path, args=["--no-sandbox"], timeout=60_000)
        except Exception as e:  # noqa: BLE001 - a broken browser install: say why
            _no_browser(f"Chromium at {path} does not start under Playwright: {e}")
        yield b
        b.close()


@pytest.fixture
def new_page(chromium):
    """new_page(pace_ms=0): a page in a context of its own (a person of their own), its
    console errors in ``page.errors``, every /api/ answer it got in ``page.payloads``
    (url, JSON), The Cat's idle-tick delay set to ``pace_ms`` (0: off)."""
    contexts = []

    def make(pace_ms: int = 0, accept_downloads: bool = False):
        context = chromium.new_context(viewport={"width": 1280, "height": 900},
                                       accept_downloads=accept_downloads)
        context.add_init_script(f"localStorage.setItem('catsearch.pace', '{pace_ms}')")
        contexts.append(context)
        pg = context.new_page()
        pg.set_default_timeout(30_000)
        pg.errors = []
        pg.payloads = []
        pg.on("console", lambda m: pg.errors.append(f"console: {m.text}")
              if m.type == "error" else None)
        pg.on("pageerror", lambda e: pg.errors.append(f"page error: {e}"))

        def answer(resp):
            if "/api/" in resp.url and "json" in resp.headers.get("content-type", ""):
                try:
                    pg.payloads.append((resp.url, resp.text()))
                except Exception:  # noqa: BLE001 - a page gone mid-answer
                    pass
        pg.on("response", answer)
        return pg

    yield make
    for c in contexts:
        c.close()


@pytest.fixture
def server(web_server):
    """The app served on 127.0.0.1: ``web_server`` under the name the game tests use."""
    return web_server


@pytest.fixture
def page(new_page):
    """A page of its own, The Cat's idle ticks off: the game tests count and time their own
    clicks (test_web_extras_browser.py tests the pace)."""
    return new_page(pace_ms=0)
