"""The browser mode's extras through its JSON API (Starlette's TestClient): game options and
people's seats on ``/play``, the hint, the takeback (the table replayed from the deal, the
record marking it), the record's download (at the end only) and the replay API that reads
any record file; several people at one table, each link seeing its own seat only.
"""

from __future__ import annotations

import io
import json
import re
import time
import warnings

import pytest

pytest.importorskip("starlette", reason="the [web] extra (starlette) is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx")

import catsearch  # noqa: E402
from catsearch.play.record import GameRecord  # noqa: E402
from catsearch.play.terminal import replay  # noqa: E402
from catsearch.play.web import create_app  # noqa: E402
from catsearch.play.webextras import game_settings  # noqa: E402
from catsearch.play.webgames import ApiError  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client():
    app = create_app(opponent_seeds=True, abandon_seconds=60, seed_links=True)
    with TestClient(app) as c:
        c.server = app.state.games
        yield c


def _notation(log):
    """A log's entries without their words (each must have some: play/narrate.py)."""
    assert all(isinstance(e["words"], str) and e["words"] for e in log), log
    return [{k: v for k, v in e.items() if k != "words"} for e in log]


def open_game(c, query: str) -> str:
    r = c.get(f"/play?{query}", follow_redirects=False)
    assert r.status_code == 303, r.text
    r = c.get(r.headers["location"])
    assert r.status_code == 200, r.text
    return re.search(r'data-game="([^"]+)"', r.text).group(1)


def wait(c, token, timeout=60.0) -> dict:
    t0 = time.monotonic()
    while True:
        p = c.get(f"/api/game/{token}").json()
        if p["your_turn"] or p["over"] or p["error"]:
            return p
        assert time.monotonic() - t0 < timeout, "the AI did not answer"
        time.sleep(0.01)


def first_move(p: dict) -> str:
    view = catsearch.from_text(p["game"], p["view"]["text"])
    return view.move_to_str(view.heuristic_move(seed=len(p["log"])))


def finish(c, token) -> dict:
    while True:
        p = wait(c, token)
        if p["over"]:
            return p
        assert c.post(f"/api/game/{token}/move", json={"move": first_move(p)}).status_code == 200


# -- options and settings --------------------------------------------------------------------

def test_game_options_reach_the_deal_and_bad_ones_are_400(client):
    games = client.get("/api/games").json()["games"]
    cat = next(g for g in games if g["id"] == "the-cat")
    assert [o["name"] for o in cat["options"]] == ["target"]
    token = open_game(client, "game=the-cat&players=2&level=easy&seed=3&opt.target=12")
    web = client.server.get(token)
    assert web.initial == catsearch.new_game("the-cat", players=2, seed=3, target=12)
    assert wait(client, token)["options"] == {"target": 12}
    for query, words in [("game=the-cat&opt.target=13", ["target", "13"]),
                         ("game=the-cat&opt.bogus=1", ["bogus"]),
                         ("game=cat-earth&opt.setup=sideways", ["setup", "sideways"]),
                         ("game=cat-cards&opt.values=1,2", ["values"]),
                         ("game=herding-cats&players=3&humans=0,7", ["humans", "7"])]:
        r = client.get(f"/play?{query}", follow_redirects=False)
        assert r.status_code == 400, (query, r.text)
        assert all(w in r.json()["error"] for w in words), (query, r.json())


def test_settings_keep_the_old_new_game_params():
    s = game_settings({"game": "cat-cards", "players": "4", "seat": "2", "humans": "0, 3"})
    assert (s.players, s.seat, s.humans, s.options) == (4, 2, (0, 2, 3), {})
    with pytest.raises(ApiError, match="players"):
        game_settings({"game": "cat-cards", "players": "9"})


# -- hint, takeback, record --------------------------------------------------------------------

def test_hint_lists_legal_moves_best_first_on_your_turn_only(client):
    token = open_game(client, "game=herding-cats&players=2&seat=1&level=easy&seed=4")
    p = wait(client, token)
    r = client.post(f"/api/game/{token}/hint")
    assert r.status_code == 200, r.text
    moves = r.json()["moves"]
    assert 1 <= len(moves) <= 3 and all(m["move"] in p["legal"] for m in moves)
    assert [m["visits"] for m in moves[1:]] == sorted((m["visits"] for m in moves[1:]),
                                                      reverse=True)
    finish(client, token)
    assert client.post(f"/api/game/{token}/hint").status_code == 409


def test_takeback_replays_to_the_persons_previous_turn_and_the_record_marks_it(client):
    token = open_game(client, "game=cat-cards&players=3&seat=0&level=easy&seed=11")
    web = client.server.get(token)
    assert client.post(f"/api/game/{token}/takeback").status_code == 409   # no move yet
    p = wait(client, token)
    for _ in range(3):      # three turns of the person, the AI answering each
        assert client.post(f"/api/game/{token}/move", json={"move": first_move(p)}).status_code == 200
        p = wait(client, token)
    before = list(web.table.history)
    mine = [i for i, pl in enumerate(before) if pl.seat == 0]
    old_players = web.table.players
    r = client.post(f"/api/game/{token}/takeback")
    assert r.status_code == 200, r.text
    p = wait(client, token)
    at = mine[-1]
    # the table is the deal replayed up to the person's last move: every view with it
    state = web.initial.clone()
    for pl in before[:at]:
        state.apply(pl.move)
    assert web.table.state == state and p["ply"] == state.ply and p["your_turn"]
    for s in range(3):
        assert web.table.view(s) == _followed(web.initial, before[:at], s)
    assert all(a is not b for a, b in zip(web.table.players[1:], old_players[1:]))
    assert len(p["log"]) == at and p["takebacks"] == 1
    assert _notation(p["log"]) == [{"ply": i + 1, "seat": pl.seat, "text": pl.observations[0]}
                                   for i, pl in enumerate(before[:at])]
    assert client.get(f"/api/game/{token}/record").status_code == 409   # not before the end
    p = finish(client, token)
    r = client.get(f"/api/game/{token}/record")
    assert r.status_code == 200 and "attachment" in r.headers["content-disposition"]
    data = r.json()
    rec = GameRecord.from_json(data)
    assert rec.takebacks == [{"seat": 0, "ply": at, "undone": len(before) - at,
                              "moves": [pl.text for pl in before[at:]]}]
    assert rec.result["scores"] == p["result"]["scores"] and rec.seats[0] == "human"
    # the terminal replays it, and so does the replay API
    out = io.StringIO()
    path = _write(data)
    assert replay(path, stdout=out) == 0 and "game over" in out.getvalue()
    frames = client.post("/api/replay", content=json.dumps(data),
                         headers={"Content-Type": "application/json"})
    assert frames.status_code == 200, frames.text
    got = frames.json()
    assert len(got["frames"]) == len(rec.moves) + 1 and got["scores"] == p["result"]["scores"]
    assert got["over"] and got["reason"] == p["result"]["reason"]


def _followed(initial, history, seat):
    view = initial.view(seat)
    for pl in history:
        view.play_observation(pl.observations[seat])
    return view


def _write(data) -> str:
    import tempfile
    f = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    json.dump(data, f)
    f.close()
    return f.name


def test_replay_api_refuses_what_is_not_a_record(client):
    def post(body):
        return client.post("/api/replay", content=body,
                           headers={"Content-Type": "application/json"})
    assert post(b"{not json").status_code == 400
    assert "format" in post(b'{"a": 1}').json()["error"]
    deal = catsearch.new_game("herding-cats", players=2, seed=1)
    rec = GameRecord(game="herding-cats", players=2, options={}, seed=1, deal=deal.to_text(),
                     seats=["human", "heuristic"], moves=[{"seat": 0, "move": "zz9"}])
    r = post(json.dumps(rec.to_json()))
    assert r.status_code == 400 and "move 1" in r.json()["error"]
    # a record larger than a move's body limit (4 KB) is taken
    deal = catsearch.new_game("cat-cards", players=3, seed=1)
    moves = []
    state = deal.clone()
    while not state.is_terminal():
        m = state.heuristic_move(seed=state.ply)
        moves.append({"seat": state.current_player, "move": state.move_to_str(m)})
        state.apply(m)
    rec = GameRecord(game="cat-cards", players=3, options={}, seed=1, deal=deal.to_text(),
                     seats=["heuristic"] * 3, moves=moves)
    body = json.dumps(rec.to_json(), indent=1)
    assert len(body) > 4096
    r = post(body)
    assert r.status_code == 200 and r.json()["scores"] == state.scores()
    # every move told in words (play/narrate.py), not in notation
    frames = r.json()["frames"]
    assert all(isinstance(f["narration"], str) and f["narration"] for f in frames[1:])
    assert frames[1]["narration"] != frames[1]["move"]


# -- several people at one table ------------------------------------------------------------

def test_several_people_each_see_their_own_seat_only(client):
    token0 = open_game(client, "game=herding-cats&players=3&seat=0&humans=1&level=easy&seed=9")
    web = client.server.get(token0)
    p0 = client.get(f"/api/game/{token0}").json()
    assert p0["humans"] == [0, 1] and set(p0["links"]) == {"1"}
    token1 = p0["links"]["1"].rsplit("/", 1)[1]
    assert client.get(f"/game/{token1}").status_code == 200
    p1 = client.get(f"/api/game/{token1}").json()
    assert p1["seat"] == 1 and p1["links"] == {}          # only the first person seats others
    assert client.post(f"/api/game/{token0}/takeback").status_code == 409
    tokens = {0: token0, 1: token1}
    for _ in range(400):
        if web.table.is_over():
            break
        seat = web.table.current_player
        for s, tok in tokens.items():
            p = client.get(f"/api/game/{tok}").json()
            # the seat's view, followed by its own observations (the AI may have moved since)
            seen = web.table.history[:len(p["log"])]
            assert p["seat"] == s
            assert p["view"]["text"] == _followed(web.initial, seen, s).to_text()
            assert _notation(p["log"]) == [{"ply": i + 1, "seat": pl.seat,
                                            "text": pl.observations[s]}
                                           for i, pl in enumerate(seen)]
            other = 1 - s
            assert set(p["view"]["cards"][f"hand{other}"]) <= {"?"}, p["view"]["cards"]
            if s == 1:      # the second person's page holds nothing of the first's link
                assert tokens[0] not in json.dumps(p)
        if seat in tokens:
            p = wait(client, tokens[seat])
            if p["over"]:
                break
            # the other person cannot play this seat's move
            assert client.post(f"/api/game/{tokens[1 - seat]}/move",
                               json={"move": p["legal"][0]}).status_code == 409
            assert client.post(f"/api/game/{tokens[seat]}/move",
                               json={"move": first_move(p)}).status_code == 200
        else:
            time.sleep(0.01)
    assert web.table.is_over()
    for tok in tokens.values():
        assert wait(client, tok)["result"] is not None
