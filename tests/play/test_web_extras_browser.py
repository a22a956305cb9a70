"""The extras of the browser mode in a real Chromium (Playwright, Debian's ``chromium``):
game options on the start page, the hint, a takeback, The Cat's idle ticks passing by
themselves and its keys, a two-person game in two browser contexts (every payload each page
got checked for the other seat's hidden cards), and a downloaded record replayed in the
viewer. Fixtures: tests/play/conftest.py.
"""

from __future__ import annotations

import json
import time

import pytest

import catsearch

pytest.importorskip("starlette", reason="the [web] extra (starlette) is not installed")


def _followed(initial, history, seat):
    view = initial.view(seat)
    for pl in history:
        view.play_observation(pl.observations[seat])
    return view


def _heuristic(web, seat, k=0) -> str:
    with web.lock:
        view = web.table.view(seat)
    return view.move_to_str(view.heuristic_move(seed=k))


def _until(cond, seconds=60.0, what="the condition"):
    t0 = time.monotonic()
    while not cond():
        assert time.monotonic() - t0 < seconds, f"{what} did not happen in {seconds} s"
        time.sleep(0.05)


def test_start_page_game_options_and_a_refusal_that_says_why(web_server, new_page):
    app, base = web_server
    page = new_page()
    page.goto(base + "/")
    page.wait_for_selector("#game option", state="attached")
    page.select_option("#game", "the-cat")
    page.select_option("#players", "2")
    page.select_option("#level", "easy")
    page.fill("#opt-target", "13")
    page.click("#go")
    page.wait_for_selector("#start-error:not([hidden])")
    assert "target" in page.inner_text("#start-error") and "13" in page.inner_text("#start-error")
    page.fill("#opt-target", "12")
    page.fill("#seed", "5")
    page.click("#go")
    page.wait_for_selector("#app[data-game]", state="attached")
    web = app.state.games.get(page.get_attribute("#app", "data-game"))
    assert web.initial == catsearch.new_game("the-cat", players=2, seed=5, target=12)
    assert [e for e in page.errors if "400" not in e] == [], page.errors


def test_hint_and_takeback_in_chromium(web_server, new_page):
    app, base = web_server
    page = new_page()
    page.goto(f"{base}/play?game=herding-cats&players=2&seat=0&level=easy&seed=21")
    web = app.state.games.get(page.get_attribute("#app", "data-game"))
    page.wait_for_selector("[data-move]", state="attached")
    assert page.is_disabled("#takeback")            # nothing to take back yet
    page.keyboard.press("h")
    page.wait_for_selector("[data-hint]")
    legal = page.eval_on_selector_all("[data-move]", "els => els.map(e => e.dataset.move)")
    hinted = page.eval_on_selector_all("[data-hint]", "els => els.map(e => e.dataset.hint)")
    assert hinted and set(hinted) <= set(legal)
    for k in range(2):
        page.click(f'[data-move="{_heuristic(web, 0, k)}"]')
        page.wait_for_selector("#takeback:not([disabled])")
        page.wait_for_selector("[data-move]", state="attached")
    with web.lock:
        before = web.table.history
    mine = [i for i, p in enumerate(before) if p.seat == 0]
    page.click("#takeback")
    _until(lambda: len(web.takebacks) == 1, what="the takeback")
    page.wait_for_selector("text=Takebacks: 1")
    page.wait_for_selector("[data-move]", state="attached")
    with web.lock:
        assert len(web.table.history) == mine[-1]
        assert web.table.view(0) == _followed(web.initial, before[:mine[-1]], 0)
    assert page.locator("#log li").count() == mine[-1]
    assert page.errors == [], page.errors


def test_the_cat_idle_ticks_pass_by_themselves(web_server, new_page):
    """With a 200 ms pace the person's waits are played with no click at all; with the pace
    off nothing moves until a key is pressed (Space: wait)."""
    app, base = web_server
    page = new_page(pace_ms=200)
    page.goto(f"{base}/play?game=the-cat&players=2&seat=0&level=easy&seed=8")
    web = app.state.games.get(page.get_attribute("#app", "data-game"))
    _until(lambda: sum(p.seat == 0 and p.text == "wait" for p in web.table.history) >= 5,
           what="five idle ticks")
    page.close()
    still = new_page(pace_ms=0)
    still.goto(f"{base}/play?game=the-cat&players=2&seat=0&level=easy&seed=8")
    web = app.state.games.get(still.get_attribute("#app", "data-game"))
    still.wait_for_selector('[data-move="wait"]', state="attached")
    time.sleep(0.6)
    with web.lock:
        n = len(web.table.history)
        assert web.table.current_player == 0        # waiting for the person: pace off
    still.keyboard.press(" ")
    _until(lambda: len(web.table.history) > n, what="the Space key's wait")
    assert web.table.history[n].text == "wait" and web.table.history[n].seat == 0
    assert still.errors == [], still.errors


def _check_payloads(page, seat, other, web, tokens):
    """Every JSON answer the page got: its own seat's, the other seat's hand hidden while
    the game is on, the view the seat's own observations give, no other person's link."""
    assert page.payloads
    for url, text in page.payloads:
        p = json.loads(text)
        if url.endswith("/api/games"):              # the start page: the games, public
            continue
        if url.endswith(("/hint", "/close")):      # moves only / {"closed": true}
            assert tokens[1 - seat] not in text and "view" not in p
            continue
        assert p["seat"] == seat, url
        seen = web.table.history[:len(p["log"])]
        assert p["view"]["text"] == _followed(web.initial, seen, seat).to_text()
        if not p["over"]:
            assert set(p["view"]["cards"][f"hand{other}"]) <= {"?"}, p["view"]["cards"]
            assert p["result"] is None
        if seat != 0:
            assert tokens[0] not in text


def _two_people(web_server, new_page, max_moves):
    app, base = web_server
    a = new_page()
    a.goto(base + "/")
    a.wait_for_selector("#game option", state="attached")
    a.select_option("#game", "herding-cats")
    a.select_option("#players", "3")
    a.select_option("#level", "easy")
    a.fill("#seed", "31")
    a.check("#person-1")
    a.click("#go")
    a.wait_for_selector("[data-seat-link='1']", state="attached")
    token0 = a.get_attribute("#app", "data-game")
    link = a.get_attribute("[data-seat-link='1']", "href")
    web = app.state.games.get(token0)
    b = new_page()              # another person: a context of its own
    b.goto(link)
    b.wait_for_selector("#app[data-game]", state="attached")
    token1 = b.get_attribute("#app", "data-game")
    # the title is filled in by the page's first fetch, after #app is in the HTML
    b.wait_for_selector("#title:has-text('you are seat 1')", state="attached")
    assert token1 != token0 and web.humans == (0, 1)
    tokens = {0: token0, 1: token1}
    pages = {0: a, 1: b}
    moves = 0
    while moves < max_moves and not web.table.is_over():
        _until(lambda: web.table.is_over() or (web.table.current_player in (0, 1)
                                               and not web.running), what="a person's turn")
        if web.table.is_over():
            break
        seat = web.table.current_player
        page = pages[seat]
        page.wait_for_selector("[data-move]", state="attached")
        assert pages[1 - seat].query_selector("[data-move]") is None
        if moves == 2:          # a reload mid-game resumes the same seat
            page.reload()
            page.wait_for_selector("[data-move]", state="attached")
            assert page.get_attribute("#app", "data-game") == tokens[seat]
        played = len(web.table.history)
        page.click(f'[data-move="{_heuristic(web, seat, moves)}"]')
        moves += 1
        _until(lambda: len(web.table.history) > played, what="the click's move")
    for seat, page in pages.items():
        _check_payloads(page, seat, 1 - seat, web, tokens)
        assert page.errors == [], page.errors
    return web, pages


def test_two_people_in_two_browser_contexts(web_server, new_page):
    web, _ = _two_people(web_server, new_page, max_moves=8)
    assert len(web.table.history) >= 8


@pytest.mark.slow
def test_two_people_play_a_whole_game_in_two_contexts(web_server, new_page):
    web, pages = _two_people(web_server, new_page, max_moves=1000)
    assert web.table.is_over()
    for page in pages.values():
        page.wait_for_selector("[data-result]", state="attached")
        assert json.loads(page.get_attribute("[data-result]", "data-result")) == web.table.scores()


def test_a_downloaded_record_replays_in_the_viewer(web_server, new_page, tmp_path):
    app, base = web_server
    page = new_page(accept_downloads=True)
    page.goto(f"{base}/play?game=herding-cats&players=2&seat=0&level=easy&seed=3")
    web = app.state.games.get(page.get_attribute("#app", "data-game"))
    k = 0
    while True:
        page.wait_for_selector("[data-move], [data-result]", state="attached")
        if page.query_selector("[data-result]"):
            break
        page.click(f'[data-move="{_heuristic(web, 0, k)}"]')
        k += 1
        assert k < 400
    with page.expect_download() as info:
        page.click("#download")
    path = tmp_path / "game.json"
    info.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["format"] == "catsearch-game" and record["result"]["scores"] == web.table.scores()
    assert len(record["moves"]) == len(web.table.history)
    page.goto(base + "/replay")
    page.set_input_files("#file", str(path))
    page.wait_for_selector("body[data-replay='ready']")
    page.click("#next")
    first = web.table.history[0]
    assert first.text in page.inner_text("#frame-move")
    page.keyboard.press("End")
    assert page.get_attribute("#frame-move", "data-ply") == str(len(web.table.history))
    assert "The game ended" in page.inner_text("#end")
    points = page.eval_on_selector_all("#frame-points [data-points]", "els => els.map(e => e.dataset.points)")
    assert points == [str(s) for s in web.table.scores()]
    # a file that is not a record says so
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something else"}')
    page.set_input_files("#file", str(bad))
    page.wait_for_selector("text=Cannot replay bad.json")
    assert [e for e in page.errors if "400" not in e] == [], page.errors
