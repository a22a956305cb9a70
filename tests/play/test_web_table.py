"""Playing on the table in a real Chromium (issue 37, items 1, 2 and 6): whole games of every
game played by clicking cards, piles, herds, squares and the table's own buttons only (no
typing, no notation button); what no legal move goes through is not clickable; the last move
of each seat shown on the table; the log in plain words; no horizontal scroll at 390 px.
The server and page are conftest.py's (skipped, saying why, without Chromium)."""

from __future__ import annotations

import json
import random
import time

import pytest

import catsearch


#: the long games (hundreds of moves) in the slow tier; Herding Cats plays in a few seconds
SLOW = ("the-cat", "cat-earth", "cat-cards")
PLAYERS = {"herding-cats": 2, "the-cat": 2, "cat-cards": 2, "cat-earth": 2}
GAME_SECONDS = 240


def click_on_table(page, move: str) -> None:
    """Play ``move`` by clicking table elements only: the keys table.js names, one by one;
    the last click is on an element carrying the move in ``data-move``."""
    for clicks in range(8):
        key = page.evaluate("m => window.CatTable.nextKey(m)", move)
        assert key is not None, f"{move}: not on the table"
        sel = f'#board [data-key="{key}"]:not(.off):not(.selected)'
        el = page.query_selector(sel)
        assert el is not None, f"{move}: no clickable {key}"
        final = el.get_attribute("data-move")
        el.click()
        if final is not None:
            assert final == move, f"clicked {key} for {move}, it plays {final}"
            return clicks + 1
    raise AssertionError(f"{move}: not played in 8 clicks")


def play_by_table(app, base, page, game, players, seat, seed):
    rng = random.Random(seed)
    page.goto(f"{base}/play?game={game}&players={players}&seat={seat}&level=easy&seed={seed}")
    gid = page.get_attribute("#app", "data-game")
    web = app.state.games.get(gid)
    t0 = time.monotonic()
    moves = 0
    clicks = {}
    while True:
        assert time.monotonic() - t0 < GAME_SECONDS, f"{game}: not over in {GAME_SECONDS} s"
        page.wait_for_selector(".move-list [data-move], [data-result]", state="attached")
        if page.query_selector("[data-result]"):
            break
        with web.lock:
            view = web.table.view(seat)
            legal = [view.move_to_str(m) for m in view.legal_moves()]
        on_table = page.eval_on_selector_all("#board [data-move]",
                                             "els => els.map(e => e.dataset.move)")
        assert set(on_table) <= set(legal)            # a table element plays a legal move only
        move = view.move_to_str(view.heuristic_move(seed=rng.randrange(2**32)))
        clicks[move] = click_on_table(page, move)
        moves += 1
    result = json.loads(page.get_attribute("[data-result]", "data-result"))
    assert result == web.table.scores()
    assert page.errors == [], page.errors
    return web, moves, clicks


def games():
    for g in catsearch.GAMES:
        yield pytest.param(g, marks=[pytest.mark.slow] if g in SLOW else [])


@pytest.mark.parametrize("game", list(games()))
def test_whole_game_by_clicking_the_table(server, page, game):  # noqa: F811
    app, base = server
    web, moves, clicks = play_by_table(app, base, page, game, PLAYERS[game], seat=1, seed=7)
    assert moves > 0
    if game == "cat-cards":         # a set: five cards chosen from the hand, then "Form"
        assert any(len(m) == 5 and n == 6 for m, n in clicks.items()), clicks
    if game in ("the-cat", "cat-earth"):   # a move of two clicks or more (a card, its target)
        assert max(clicks.values()) >= 2, clicks
    # the log tells every move in words, the notation as its tooltip
    words = page.eval_on_selector_all("#log .words", "els => els.map(e => [e.textContent, e.title])")
    assert len(words) == len(web.table.history)
    assert [t for _, t in words] == [p.observations[1] for p in web.table.history]
    assert all(w and w != t and w.endswith(".") for w, t in words)


def keys(page, selector):
    return page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.key)")


def test_illegal_targets_are_not_clickable_and_the_last_moves_show(server, page):  # noqa: F811
    """Cat Earth (houses placed at random), seat 0 holding FF, FRL and House Swap: a House
    Swap is three clicks (the card, a house, the other house); only the squares a legal move
    goes through can be clicked at each step."""
    app, base = server
    web = app.state.games.create(catsearch.new_game("cat-earth", players=2, seed=1,
                                                    setup="random"), 0, "easy")
    page.goto(f"{base}/game/{web.id}")
    page.wait_for_selector(".move-list [data-move]", state="attached")
    with web.lock:
        legal = [web.table.view(0).move_to_str(m) for m in web.table.view(0).legal_moves()]
    assert "HS:d1-d2" in legal and "FRL:d4W" in legal

    def off(key):
        el = page.query_selector(f'#board [data-key="{key}"]')
        return (el.get_attribute("aria-disabled") == "true" and el.get_attribute("data-move") is None
                and el.evaluate("e => getComputedStyle(e).cursor") != "pointer")

    # nothing chosen: every square is off (no move starts on the board), the cards are not
    assert all(off(k) for k in keys(page, '#board [data-key^="sq:"]'))
    assert not any(off(f"card:{c}") for c in "28S")
    assert page.get_attribute('#board [data-key="act:end"]', "data-move") == "end"
    page.click('#board [data-key="card:S"]')             # House Swap: the first house
    first = {m[3:5] for m in legal if m.startswith("HS:")}
    for key in keys(page, '#board [data-key^="sq:"]'):
        assert off(key) == (key[3:] not in first), key
    page.click('#board [data-key="sq:d1"]')              # then the other house: plays
    second = {m[6:8]: m for m in legal if m.startswith("HS:d1-")}
    for key in keys(page, '#board [data-key^="sq:"]'):
        sq = key[3:]
        if sq == "d1":
            continue
        assert off(key) == (sq not in second), key
        if sq in second:
            assert page.get_attribute(f'#board [data-key="{key}"]', "data-move") == second[sq]
    before = (web.version, web.table.state.ply)
    page.click('#board [data-key="sq:a1"]', force=True)   # an illegal square: nothing happens
    page.click('#board [data-key="sq:d4"]', force=True)
    time.sleep(0.3)
    assert (web.version, web.table.state.ply) == before
    page.click('#board [data-key="cancel"]')
    assert page.query_selector("#board .selected") is None
    page.click('#board [data-key="card:8"]')             # FRL: the one cat, then a heading
    headings = page.eval_on_selector_all("#board .table-act[data-move]",
                                         "els => els.map(e => e.dataset.move)")
    assert sorted(headings) == ["FRL:d4S", "FRL:d4W"]
    page.click('#board [data-move="FRL:d4W"]')
    page.wait_for_function("() => (document.querySelector('.seat[data-seat=\"0\"] .last-words')"
                           " || {}).textContent?.includes('FRL')")
    assert page.inner_text('.seat[data-seat="0"] .last-words').startswith(
        "last: You played path card FRL with the cat on d4, heading W.")
    with web.lock:
        assert web.table.history[0].text == "FRL:d4W"
    assert page.errors == [], page.errors


@pytest.mark.parametrize("game", ["cat-cards", "cat-earth"])
def test_no_horizontal_scroll_at_390_px(server, page, game):  # noqa: F811
    app, base = server
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/play?game={game}&players=4&seat=0&level=easy&seed=2")
    page.wait_for_selector(".move-list [data-move]", state="attached")
    page.click("details.picture summary")      # the Text view open must not widen the page
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    page.set_viewport_size({"width": 1920, "height": 1080})
    assert page.evaluate("document.documentElement.scrollWidth") <= 1920
    assert page.errors == [], page.errors
