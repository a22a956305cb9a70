"""GameRecord: a game line read and written back unchanged, a bad field named with its line,
and what a record answers (points, seats, wins, failures); and a match's run writing games in
game order whatever order its backend finishes them in."""

import json

import pytest

from catsearch.arena import (GameFailure, GameRecord, MatchConfig, ResultsFileError,
                             load_results, run_match, summarize)
from catsearch.arena.backends import Backend
from catsearch.arena.game import Worker
from catsearch.arena.results import check_game_line

GAME = "herding-cats"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    out = tmp_path_factory.mktemp("rec") / "m.jsonl"
    res = run_match(GAME, ["heuristic", "random"], groups=2, seed=3, out=str(out))
    return res, out


def _game_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line for line in f.read().splitlines() if '"type":"game"' in line]


def test_a_game_line_reads_and_writes_back_byte_for_byte(played):
    res, out = played
    config, records = load_results(out)
    lines = _game_lines(out)
    assert len(lines) == len(records) == 4
    for line, r in zip(lines, records):
        assert isinstance(r, GameRecord)
        assert json.dumps(r.to_json(), separators=(",", ":")) == line
        assert GameRecord.from_json(json.loads(line), config) == r
    assert records == res.records


def test_an_old_line_without_the_optional_fields_still_reads(played):
    _, out = played
    config, records = load_results(out)
    obj = records[0].to_json()
    del obj["specs"], obj["seconds"]
    r = GameRecord.from_json(obj, config)
    assert r.specs is None and r.seconds is None
    assert r.to_json() == obj


@pytest.mark.parametrize("field, value", [("returns", [1.5, 0.0]), ("entrants", [0]),
                                          ("failure", {"kind": "boom", "seat": 0}),
                                          ("seconds", -1), ("terminal", 1)])
def test_a_bad_field_is_named_with_its_line(played, field, value):
    _, out = played
    config, records = load_results(out)
    obj = records[1].to_json()
    obj[field] = value
    with pytest.raises(ResultsFileError, match=rf"^f\.jsonl, line 7: the game line's "
                                               rf"'{field}' is malformed"):
        check_game_line(obj, config, "f.jsonl, line 7")
    del obj[field]
    if field not in ("seconds",):
        with pytest.raises(ResultsFileError, match=rf"line 7: the game line has no '{field}'"):
            GameRecord.from_json(obj, config, "f.jsonl, line 7")


def test_a_bad_line_in_a_file_names_the_line_and_field(played, tmp_path):
    _, out = played
    lines = out.read_text().splitlines()
    obj = json.loads(lines[2])
    obj["move_seats"] = [7] * len(obj["move_seats"])
    lines[2] = json.dumps(obj)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(ResultsFileError, match=r"bad\.jsonl, line 3: .*'move_seats' is malformed"):
        load_results(bad)


def test_what_a_record_answers():
    r = GameRecord(game=0, group=0, table=0, seating=1, deal_seed=5, seed=6, entrants=[1, 0],
                   seats=["b", "a"], moves=["x"], move_seats=[1], move_seconds=[0.5],
                   returns=[0.0, 1.0], scores=[3, 7], terminal=False,
                   failure={"seat": 0, "player": "b", "kind": "timeout", "ply": 1,
                            "message": "slow", "restarted": True})
    assert r.entrants == (1, 0) and isinstance(r.failure, GameFailure)    # lists become tuples
    assert r.seat_of(0) == 1 and r.seat_of(1) == 0 and r.seat_of(2) is None
    assert r.points_of(0) == 1.0 and r.points_of(1) == 0.0 and r.points_of(9) is None
    assert r.won(1) and not r.won(0) and not r.shared_win(1)
    assert r.head_to_head(1, 0) == 1.0 and r.head_to_head(0, 1) == 0.0
    assert r.failed and r.failure_kind == "timeout" and r.failure.restarted
    assert r.move_times() == [("a", 0.5)]
    assert r.task.seats == (1, 0) and r.task.deal_seed == 5
    # code written for dict records still reads them
    assert r["returns"] == [0.0, 1.0] and r["failure"]["kind"] == "timeout"
    assert r.get("specs") is None
    three = GameRecord(game=0, group=0, table=0, seating=0, deal_seed=1, seed=1,
                       entrants=(0, 1, 2), seats=("a", "b", "c"), returns=(0.5, 0.5, 0.0),
                       scores=(2, 2, 1), terminal=True)
    assert three.shared_win(0) and three.shared_win(1) and not three.shared_win(2)
    assert three.head_to_head(0, 1) == 0.5 and not three.failed
    with pytest.raises(TypeError, match="GameFailure or None"):
        GameRecord(game=0, group=0, table=0, seating=0, deal_seed=1, seed=1, entrants=(0, 1),
                   seats=("a", "b"), returns=(1, 0), scores=(1, 0), terminal=True,
                   failure="crash")
    with pytest.raises(TypeError):
        GameRecord(0, 0, 0, 0, 1, 1, (0, 1), ("a", "b"))                # keyword-only


def test_summarize_takes_game_line_dicts_too(played):
    res, out = played
    config, records = load_results(out)
    assert summarize(config, [r.to_json() for r in records]) == summarize(config, records)


class _Backwards(Backend):
    """Plays up to three games at a time and hands them back last first."""

    capacity = 3

    def __init__(self, config):
        self.worker = Worker(config)
        self.tasks = []

    def submit(self, task):
        self.tasks.append(task)

    def wait(self, timeout):
        if len(self.tasks) < self.capacity and self.tasks[-1].game < 11:
            return []       # wait for a full batch (until the last games)
        out = [self.worker.play(t) for t in reversed(self.tasks)]
        self.tasks = []
        return out

    def close(self):
        self.worker.close()


def test_games_finished_out_of_order_are_written_in_game_order(tmp_path, monkeypatch,
                                                               strip_timings):
    import catsearch.arena.match as match
    cfg = MatchConfig(GAME, ("heuristic", "random", "r2=random"), seats=2, groups=2, seed=9)
    inline = run_match(cfg)
    monkeypatch.setattr(match, "make_backend", lambda *a, **k: _Backwards(cfg))
    seen = []
    out = tmp_path / "b.jsonl"
    res = run_match(cfg, out=str(out), progress=seen.append)
    games = [json.loads(line)["game"] for line in _game_lines(out)]
    assert games == list(range(cfg.total_games)) == [r.game for r in res.records]
    assert strip_timings(res.records) == strip_timings(inline.records)
    assert res.played == cfg.total_games and seen[-1]["done"] == cfg.total_games
    assert [s["done"] for s in seen] == sorted(s["done"] for s in seen)
