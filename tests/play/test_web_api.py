"""The browser mode's JSON API (``catsearch.play.web``) through Starlette's TestClient.

Whole games of every game; every payload checked against what the seat may know: its view is
exactly the one rebuilt from the observations it was sent, the full state's secrets never
appear before the end, and two deals the seat cannot tell apart give identical payloads for
as long as its view is the same. Bad requests get a 4xx JSON error and change nothing; another
game's id is 404; the cap on games; the AI's search stops when the page goes away.
"""

from __future__ import annotations

import json
import re
import time
import warnings

import pytest

pytest.importorskip("starlette", reason="the [web] extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

import catsearch  # noqa: E402
from catsearch.play.levels import LEVELS, level_spec, opponent  # noqa: E402
from catsearch.play.reasons import end_reason  # noqa: E402
from catsearch.play.web import create_app, parse_fields  # noqa: E402

with warnings.catch_warnings():     # starlette asks for httpx2 in place of httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


GAMES = list(catsearch.GAMES)


@pytest.fixture
def client():
    app = create_app(opponent_seeds=True, abandon_seconds=60, seed_links=True)
    with TestClient(app) as c:
        c.server = app.state.games
        yield c


def open_game(c, game, players=3, seat=0, level="easy", seed=1) -> str:
    r = c.get(f"/play?game={game}&players={players}&seat={seat}&level={level}&seed={seed}",
              follow_redirects=False)
    assert r.status_code == 303, r.text
    assert re.fullmatch(r"/game/[\w-]{20,}", r.headers["location"]), r.headers["location"]
    r = c.get(r.headers["location"])
    assert r.status_code == 200, r.text
    return re.search(r'data-game="([^"]+)"', r.text).group(1)


def wait(c, gid, timeout=60.0) -> dict:
    """The payload once it is the person's turn or the game is over."""
    t0 = time.monotonic()
    while True:
        r = c.get(f"/api/game/{gid}")
        assert r.status_code == 200, r.text
        p = r.json()
        assert p["error"] is None, p["error"]
        if p["over"] or p["your_turn"]:
            return p
        assert time.monotonic() - t0 < timeout, "the AI did not move in time"
        time.sleep(0.005)


def check_payload(p: dict, game, full_text: str | None = None) -> None:
    """The payload is built from the seat's view and observations only."""
    assert set(p) == {"game", "game_name", "render", "players", "seat", "level", "opponents",
                      "ply", "over", "to_move", "your_turn", "legal", "thinking", "scores", "view",
                      "log", "result", "version", "error", "humans", "options", "takebacks",
                      "can_takeback", "links"}
    assert set(p["view"]) == {"text", "fields", "cards", "picture"}
    assert all(set(e) == {"ply", "seat", "text", "words"} for e in p["log"])
    seat = p["seat"]
    # the view shown is exactly the one the seat rebuilds from the observations it was sent
    # (followed incrementally: game.view after game.seen observations)
    if getattr(game, "view", None) is None:
        game.view = catsearch.new_game(p["game"], players=p["players"], seed=game.seed).view(seat)
        game.seen = 0
    for entry in p["log"][game.seen:]:
        game.view.play_observation(entry["text"])
    game.seen = len(p["log"])
    view = game.view
    assert p["view"]["text"] == view.to_text()
    assert p["view"]["fields"] == parse_fields(view.to_text())
    assert p["view"]["cards"] == view.cards()
    assert p["view"]["picture"] == str(view)
    assert p["scores"] == view.scores()
    if p["legal"]:
        assert p["legal"] == [view.move_to_str(m) for m in view.legal_moves()]
    # nothing of the full state before the end
    if not p["over"]:
        assert p["result"] is None
        dump = json.dumps(p)
        assert full_text not in dump
        rng = parse_fields(full_text).get("rng")
        if rng and rng != "?":
            assert rng not in dump


def heuristic(p: dict) -> str:
    """The seat's rule-based move, from its view in the payload (a sensible player: a game
    of The Cat played with arbitrary moves may never end)."""
    view = catsearch.from_text(p["game"], p["view"]["text"])
    return view.move_to_str(view.heuristic_move(seed=len(p["log"])))


def play_through(c, gid, seed, strategy=heuristic) -> dict:
    class G:
        pass
    g = G()
    g.seed = seed
    g.view = None
    web = c.server.get(gid)
    while True:
        p = wait(c, gid)
        check_payload(p, g, web.table.state.to_text())
        if p["over"]:
            return p
        r = c.post(f"/api/game/{gid}/move", json={"move": strategy(p)})
        assert r.status_code == 200, r.text
        check_payload(r.json(), g, web.table.state.to_text())


def whole_games():
    """Every game with 2, 3 and 4 seats; 4 seats in the slow tier, and The Cat's (hundreds of
    ticks) 3 seats too."""
    for g in catsearch.GAMES:
        for players, seat in ((2, 1), (3, 0), (4, 2)):
            marks = []
            if players == 4 or (g == "the-cat" and players > 2):
                marks.append(pytest.mark.slow)
            yield pytest.param(g, players, seat, marks=marks, id=f"{g}-{players}p")


@pytest.mark.parametrize("game,players,seat", list(whole_games()))
def test_whole_game_through_the_api(client, game, players, seat):
    gid = open_game(client, game, players, seat, seed=7 + players)
    web = client.server.get(gid)
    assert web.initial == catsearch.new_game(game, players=players, seed=7 + players)
    p = play_through(client, gid, 7 + players)
    assert p["over"] and p["legal"] == [] and not p["your_turn"]
    final = web.table.state
    res = p["result"]
    assert res["scores"] == final.scores() and res["returns"] == final.returns()
    assert res["text"] == final.to_text() and res["cards"] == final.cards()
    # why it ended, in words (issue 37): never the generic fallback for these games
    assert res["reason"] == end_reason(final) and res["reason"] != "the game is over"
    # the deal's seed (a string: JavaScript's numbers hold 53 bits) and a link that deals it
    # again (this server takes seed links), told only now
    assert res["seed"] == str(7 + players)
    assert res["link"] == (f"/play?game={game}&players={players}&seat={seat}&level=easy"
                           f"&seed={7 + players}")
    # the replay steps through every move with every card shown
    replay = res["replay"]
    assert len(replay) == len(web.table.history) + 1
    st = catsearch.new_game(game, players=players, seed=7 + players)
    assert replay[0]["text"] == st.to_text()
    for frame, played in zip(replay[1:], web.table.history):
        st.apply(played.move)
        assert frame["text"] == st.to_text() and frame["move"] == played.text
    assert [e["seat"] for e in p["log"]] == [pl.seat for pl in web.table.history]
    assert [e["text"] for e in p["log"]] == [pl.observations[seat] for pl in web.table.history]


@pytest.mark.parametrize("game", GAMES)
def test_deals_the_seat_cannot_tell_apart_give_the_same_payloads(client, game):
    """Two deals that give the seat the same view: identical payloads while its view (and
    what it was told) stays the same; they part only when a hidden card matters."""
    seat, players = 0, 3       # the seat moves first: its first payload is compared
    a = catsearch.new_game(game, players=players, seed=21)
    for k in range(50):
        b = a.determinize(seat, seed=k)
        if b != a:
            break
    assert b != a and b.view(seat) == a.view(seat)
    ga = client.server.create(a, seat, "easy")
    gb = client.server.create(b, seat, "easy")
    same_steps = 0
    while True:
        pa, pb = wait(client, ga.id), wait(client, gb.id)
        if (ga.table.view(seat) != gb.table.view(seat) or ga.log != gb.log
                or pa["over"] or pb["over"]):
            break
        assert pa == pb, "a payload differs between deals the seat cannot tell apart"
        same_steps += 1
        move = heuristic(pa)
        ra = client.post(f"/api/game/{ga.id}/move", json={"move": move})
        rb = client.post(f"/api/game/{gb.id}/move", json={"move": move})
        assert ra.status_code == rb.status_code == 200
    assert same_steps >= 1


def snapshot(c, gid) -> dict:
    web = c.server.get(gid)
    return {"state": web.table.state.to_text(), "log": list(web.log),
            "history": len(web.table.history)}


def test_bad_requests_get_4xx_json_and_change_nothing(client):
    gid = open_game(client, "herding-cats", 3, 0, seed=3)
    p = wait(client, gid)
    assert p["your_turn"]
    before = snapshot(client, gid)
    url = f"/api/game/{gid}/move"
    bad = [
        dict(content=b"not json", headers={"content-type": "application/json"}),
        dict(content=b"\xff\xfe", headers={"content-type": "application/json"}),
        dict(json=["b@0"]), dict(json={}), dict(json={"move": 3}), dict(json={"move": None}),
        dict(json={"move": ""}), dict(json={"move": "x" * 1000}),
        dict(json={"move": p["legal"][0], "seat": 1}),
        dict(json={"move": "zz9"}), dict(json={"move": "pick0"}),
        dict(content=b"{" + b" " * 10000 + b"}", headers={"content-type": "application/json"}),
    ]
    illegal = [m for m in ("xo", "xp", "xb", "xg", "S", "W", "o@0") if m not in p["legal"]]
    bad += [dict(json={"move": m}) for m in illegal]
    for kwargs in bad:
        r = client.post(url, **kwargs)
        assert 400 <= r.status_code < 500, (kwargs, r.status_code)
        assert isinstance(r.json()["error"], str) and r.json()["error"]
        assert snapshot(client, gid) == before
    # wrong methods and unknown paths: JSON too
    for r in (client.get(url), client.put(f"/api/game/{gid}"), client.get("/api/nothing")):
        assert 400 <= r.status_code < 500 and "error" in r.json()
    assert snapshot(client, gid) == before
    assert wait(client, gid) == p


def test_moves_out_of_turn_and_after_the_end_are_409(client):
    gid = open_game(client, "herding-cats", 2, 1, seed=5)   # seat 0 (the AI) starts
    web = client.server.get(gid)
    p = play_through(client, gid, 5)
    assert p["over"]
    before = snapshot(client, gid)
    r = client.post(f"/api/game/{gid}/move", json={"move": "xo"})
    assert r.status_code == 409 and "over" in r.json()["error"]
    assert snapshot(client, gid) == before
    assert web.table.is_over()


@pytest.mark.parametrize("query", [
    "game=chess", "game=", "", "game=herding-cats&players=9", "game=herding-cats&players=1",
    "game=herding-cats&players=x", "game=herding-cats&players=3&seat=3",
    "game=herding-cats&seat=-1", "game=herding-cats&level=godlike",
    "game=herding-cats&seed=-5", "game=herding-cats&seed=1e9", "game=herding-cats&seed=" + "9" * 40,
])
def test_bad_new_game_links_are_400_json(client, query):
    n = len(client.server.games)
    r = client.get(f"/play?{query}")
    assert r.status_code == 400 and r.json()["error"]
    assert len(client.server.games) == n


def test_another_games_id_is_404_and_ids_are_unguessable(client):
    g1 = open_game(client, "herding-cats", seed=1)
    g2 = open_game(client, "cat-cards", seed=1)
    assert g1 != g2 and len(g1) >= 20 and len(g2) >= 20
    for gid in ("0", "1", g1[:-1], g1 + "x", g1.upper() if g1.upper() != g1 else "X" + g1,
                "..%2F..%2Fetc"):
        for r in (client.get(f"/api/game/{gid}"),
                  client.post(f"/api/game/{gid}/move", json={"move": "xo"}),
                  client.post(f"/api/game/{gid}/close")):
            assert r.status_code == 404 and r.json()["error"]
    # a page going away leaves the game (a reload resumes it) and the other game alone
    assert client.post(f"/api/game/{g1}/close").status_code == 200
    assert client.get(f"/api/game/{g1}").status_code == 200
    assert client.get(f"/api/game/{g2}").status_code == 200
    client.server.close(g1)         # dropped (expired): gone
    assert client.get(f"/api/game/{g1}").status_code == 404
    page = client.get(f"/game/{g1}")
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert "This game is not here" in page.text and 'href="/"' in page.text


@pytest.fixture
def long_hard_level(monkeypatch):
    """The ``hard`` level searching up to 30 seconds a move, so that a test sees it think
    however fast the machine (the tests stop it long before)."""
    from catsearch.play.levels import Level
    monkeypatch.setitem(LEVELS, "hard", Level("hard", "ismcts:iterations=0,seconds=30",
                                              "a long search, for the tests"))


def test_the_ai_thinks_off_the_event_loop_and_stops_when_the_page_goes_away(long_hard_level):
    app = create_app(abandon_seconds=60, seed_links=True)
    with TestClient(app) as c:
        # seats 0 and 1 (the AI, searching up to 30 s) move first
        gid = open_game(c, "cat-earth", 3, 2, level="hard", seed=4)
        web = app.state.games.get(gid)
        seen = None
        t0 = time.monotonic()
        while time.monotonic() - t0 < 10:
            p = c.get(f"/api/game/{gid}").json()    # answered while the AI searches
            if p["thinking"] and p["thinking"]["iterations"] > 0:
                seen = p["thinking"]
                break
            time.sleep(0.02)
        assert seen is not None and set(seen) == {"seat", "iterations"}
        assert p["legal"] == [] and not p["your_turn"]
        r = c.post(f"/api/game/{gid}/move", json={"move": "end"})   # not the person's turn
        assert r.status_code == 409 and "not your turn" in r.json()["error"]
        t1 = time.monotonic()
        assert c.post(f"/api/game/{gid}/close").status_code == 200
        while web.running and time.monotonic() - t1 < 5:
            time.sleep(0.01)
        assert not web.running, "the search did not stop when the page went away"
        assert time.monotonic() - t1 < 2


def test_a_page_that_stops_asking_pauses_the_ai(long_hard_level):
    app = create_app(abandon_seconds=0.3, seed_links=True)
    with TestClient(app) as c:
        gid = open_game(c, "cat-earth", 3, 2, level="hard", seed=4)
        web = app.state.games.get(gid)
        time.sleep(1.0)     # nobody asks: the search stops and its move is dropped
        t0 = time.monotonic()
        while web.running and time.monotonic() - t0 < 5:
            time.sleep(0.01)
        assert not web.running and web.table.history == ()
        c.get(f"/api/game/{gid}")                   # the page is back: the AI goes on
        assert web.running


def test_levels_are_documented_specs():
    assert list(LEVELS) == ["easy", "medium", "hard"]
    assert level_spec("easy") == "level:n=3" and level_spec(7) == level_spec("7") == "level:n=7"
    for name in LEVELS:
        assert opponent(name, seed=3).spec.startswith(level_spec(name).split(":")[0])
    with pytest.raises(ValueError, match="levels: easy, medium, hard, or 1 to 10"):
        level_spec("godlike")


def test_start_page_and_static_files(client):
    r = client.get("/")
    assert r.status_code == 200 and "<form" in r.text
    data = client.get("/api/games").json()
    assert [g["id"] for g in data["games"]] == list(catsearch.GAMES)
    # the named levels, then the whole ladder, as ``catsearch-play --level`` takes them
    assert [lv["name"] for lv in data["levels"]] == list(LEVELS) + [str(n) for n in range(1, 11)]
    assert data["levels"][0]["label"] == "easy (level 3)"
    assert data["levels"][-1] == {"name": "10", "label": "level 10", "spec": "level:n=10",
                                  "description": data["levels"][-1]["description"]}
    # what each level plays in each game: the game's own ladder where it declares one
    from catsearch.search.ladder import LADDER, ladder
    for g in data["games"]:
        assert g["ladder"] == [r.description for r in ladder(g["id"])]
    by_id = {g["id"]: g for g in data["games"]}
    assert by_id["herding-cats"]["ladder"] == [r.description for r in LADDER]
    assert by_id["cat-earth"]["ladder"][0] != by_id["herding-cats"]["ladder"][0]
    for name in ("app.css", "play.js", "render.js", "start.js", "cat.svg"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/../web.py").status_code == 404


def test_the_host_header_is_checked_when_serving_loopback():
    app = create_app(allowed_hosts=["127.0.0.1", "localhost"])
    with TestClient(app, base_url="http://127.0.0.1:8123") as c:
        assert c.get("/").status_code == 200
        assert c.get("/", headers={"host": "evil.example:8123"}).status_code == 400


def test_an_ai_failure_stops_the_game_without_leaking(monkeypatch, capsys):
    """An AI that answers an illegal move: the page is told the game cannot go on, and the
    error's text (which names the full state) goes to the server's log only."""
    from catsearch.play import webgames
    from catsearch.search.players import Player, SearchResult

    class Broken(Player):
        name = "broken"

        def search(self, state, *, limits=None, info=None):
            legal = set(state.legal_moves())
            bad = next(m for m in range(state.num_distinct_moves) if m not in legal)
            return SearchResult(move=bad, value=(0.5,) * state.players)

    monkeypatch.setattr(webgames, "opponent", lambda level, seed=None: Broken())
    app = create_app(seed_links=True)
    with TestClient(app) as c:
        gid = open_game(c, "herding-cats", 2, 1, seed=3)     # the AI (seat 0) moves first
        web = app.state.games.get(gid)
        t0 = time.monotonic()
        while web.running and time.monotonic() - t0 < 5:
            time.sleep(0.01)
        p = c.get(f"/api/game/{gid}").json()
        assert p["error"] and "cannot go on" in p["error"]
        assert web.table.state.to_text() not in json.dumps(p)
        assert p["legal"] == [] and web.table.history == ()
        assert not web.running      # not tried again and again
    assert capsys.readouterr().err.count("illegal move") == 1


def test_the_persons_turn_is_theirs_as_soon_as_the_ai_has_moved():
    """With a delay between AI moves (the server's default is 0.3 s), a payload whose seat
    to move is the person's offers the moves at once: never "your seat to move" while the
    page still waits for the other seats (issue 37)."""
    app = create_app(ai_delay=0.3, abandon_seconds=60, seed_links=True)
    with TestClient(app) as c:
        gid = open_game(c, "herding-cats", 3, 2, seed=5)
        turns = 0
        t0 = time.monotonic()
        while turns < 3 and time.monotonic() - t0 < 30:
            p = c.get(f"/api/game/{gid}").json()
            if not p["over"] and p["to_move"] == p["seat"]:
                assert p["your_turn"] and p["legal"] and p["thinking"] is None, p
                r = c.post(f"/api/game/{gid}/move", json={"move": heuristic(p)})
                assert r.status_code == 200
                turns += 1
            time.sleep(0.01)
        assert turns == 3


@pytest.mark.parametrize("game", GAMES)
def test_a_reload_resumes_the_same_game_for_the_same_seat(client, game):
    """The page goes away mid-game (a reload, Back: it posts close), then its address is
    opened again: the same game at the same position for the same seat, its payload built
    from the seat's view alone (checked as every payload is), and it plays on to the end."""
    seed, seat = 9, 1
    gid = open_game(client, game, 2, seat, seed=seed)
    web = client.server.get(gid)

    class G:
        pass
    g = G()
    g.seed, g.view = seed, None
    for _ in range(3):
        p = wait(client, gid)
        check_payload(p, g, web.table.state.to_text())
        assert not p["over"]
        assert client.post(f"/api/game/{gid}/move", json={"move": heuristic(p)}).status_code == 200
    before = wait(client, gid)
    assert client.post(f"/api/game/{gid}/close").status_code == 200     # the page goes away
    page = client.get(f"/game/{gid}")                                   # F5 on its address
    assert page.status_code == 200 and f'data-game="{gid}"' in page.text
    after = wait(client, gid)
    check_payload(after, g, web.table.state.to_text())
    assert {k: v for k, v in after.items() if k != "version"} == \
        {k: v for k, v in before.items() if k != "version"}
    assert after["seat"] == seat and after["ply"] == before["ply"]
    p = play_through(client, gid, seed)
    assert p["over"] and p["result"]["scores"] == web.table.scores()


def test_a_game_opens_at_any_level_of_the_ladder(client):
    gid = open_game(client, "herding-cats", players=2, level="7")
    p = wait(client, gid)
    assert p["level"] == "7" and p["opponents"] == [None, "level:n=7"]
    for bad in ("11", "0", "seven", "7.0"):
        r = client.get(f"/play?game=herding-cats&players=2&seat=0&level={bad}",
                       follow_redirects=False)
        assert r.status_code == 400 and "unknown level" in r.text, (bad, r.text)
