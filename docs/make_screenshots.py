"""Take the screenshots of the browser mode for ``docs/play.rst``.

Starts the app on 127.0.0.1 (a free port), opens a game of each game in headless Chromium
(Debian's ``chromium``; Playwright for Python drives it), plays some of the person's moves
by clicking them (the seat's rule-based move) and saves a screenshot of each, plus the start
page, the end of a game, a move being chosen on the table (a card picked, its targets lit)
and the page at a phone's 390 px and a desktop's 1,920 px::

    python docs/make_screenshots.py [--out docs/_static/play] [--chromium /usr/bin/chromium]

Needs the ``[web]`` extra and ``playwright`` (no browser download: it uses the system's).
"""

from __future__ import annotations

import argparse
import random
import shutil
import socket
import sys
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

import catsearch
from catsearch.play.web import create_app

#: game -> (players, seat, seed, person's moves before the screenshot)
SHOTS = {
    "herding-cats": (3, 0, 5, 6),
    "the-cat": (3, 0, 5, 12),
    "cat-cards": (3, 0, 5, 8),
    "cat-earth": (3, 0, 5, 14),
}


def start_server(app):
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    return server, thread, f"http://127.0.0.1:{port}"


def play_moves(app, page, base, game, players, seat, seed, moves, to_end=False):
    rng = random.Random(seed)
    page.goto(f"{base}/play?game={game}&players={players}&seat={seat}&level=easy&seed={seed}")
    web = app.state.games.get(page.get_attribute("#app", "data-game"))
    played = 0
    while to_end or played < moves:
        page.wait_for_selector("[data-move], [data-result]", state="attached", timeout=60_000)
        if page.query_selector("[data-result]"):
            break
        with web.lock:
            view = web.table.view(seat)
        move = view.move_to_str(view.heuristic_move(seed=rng.randrange(2**32)))
        page.click(f'[data-move="{move}"]')
        played += 1
    if not to_end:
        page.wait_for_selector("[data-move]", state="attached", timeout=60_000)
    page.wait_for_timeout(200)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=str(Path(__file__).parent / "_static" / "play"))
    parser.add_argument("--chromium", default=shutil.which("chromium"))
    parser.add_argument("--games", nargs="*", default=list(SHOTS))
    args = parser.parse_args(argv)
    if not args.chromium:
        print("no chromium: apt-get install -y chromium", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    app = create_app(opponent_seeds=True, seed_links=True)
    server, thread, base = start_server(app)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 860})
            page.goto(base + "/")
            page.wait_for_selector("#game option", state="attached")
            page.screenshot(path=str(out / "start.png"))
            print(out / "start.png")
            for game in args.games:
                players, seat, seed, moves = SHOTS[game]
                play_moves(app, page, base, game, players, seat, seed, moves)
                page.screenshot(path=str(out / f"{game}.png"))
                print(out / f"{game}.png")
            # a move chosen on the table: Cat Earth's House Swap picked, the houses it may take
            web = app.state.games.create(catsearch.new_game("cat-earth", players=2, seed=1,
                                                            setup="random"), 0, "easy")
            page.goto(f"{base}/game/{web.id}")
            page.wait_for_selector(".move-list [data-move]", state="attached")
            page.click('#board [data-key="card:S"]')
            page.click('#board [data-key="sq:d1"]')
            page.locator("#board").screenshot(path=str(out / "choosing.png"))
            print(out / "choosing.png")
            # layouts: a phone (390 px, the whole page) and a desktop (1,920 px)
            for name, size, game, players in (("phone", (390, 844), "herding-cats", 4),
                                              ("desktop", (1920, 1080), "cat-earth", 4)):
                shot = browser.new_page(viewport={"width": size[0], "height": size[1]})
                play_moves(app, shot, base, game, players, 0, 5, 6)
                assert shot.evaluate("document.documentElement.scrollWidth") <= size[0]
                shot.screenshot(path=str(out / f"{name}.png"), full_page=name == "phone")
                print(out / f"{name}.png")
                shot.close()
            # the end of a game: the result, every hand and the replay
            play_moves(app, page, base, "cat-cards", 2, 0, 3, 0, to_end=True)
            page.locator("#result").scroll_into_view_if_needed()
            page.locator("#result").screenshot(path=str(out / "result.png"))
            print(out / "result.png")
            browser.close()
    finally:
        server.should_exit = True
        thread.join(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
