"""External engines in the arena, through catsearch.engine.EngineClient: a crashing, a
hanging, an illegal-moving and a nonsense-answering engine each lose their game with the
reason recorded, are restarted, and the match goes on; results are the same serial and
parallel."""

import sys

import pytest

from catsearch.arena import Entrant, MatchConfig, run_match

pytest.importorskip("catsearch.engine")

GAME = "herding-cats"


@pytest.mark.parametrize("script,kind", [("crash", "crash"), ("illegal", "illegal")])
def test_faulty_engine_loses_is_restarted_and_the_match_goes_on(engine, script, kind):
    res = run_match(GAME, [engine(script, 50), "heuristic"], groups=4, seed=1)
    assert len(res.records) == 8
    fails = [r for r in res.records if r["failure"]]
    ok = [r for r in res.records if not r["failure"]]
    assert fails and ok, "some games should fail and some finish"
    for r in fails:
        f = r["failure"]
        assert f["kind"] == kind and f["player"] == script
        assert f["restarted"] is True
        assert r["returns"][f["seat"]] == 0.0
    for r in ok:
        assert r["terminal"]
    if kind == "crash":
        assert "crashing on purpose" in fails[0]["failure"]["message"]
    else:
        assert "illegal move" in fails[0]["failure"]["message"]
    p = res.summary["players"][0]
    assert p["failures"][kind] == len(fails) and p["restarts"] == len(fails)


def test_nonsense_answer_is_a_protocol_failure(engine, tmp_path):
    script = tmp_path / "nonsense.py"
    from pathlib import Path
    here = Path(__file__).parent / "engines"
    script.write_text(f"import sys\nsys.path.insert(0, {str(here)!r})\n"
                      f"from minimal_engine import main\nmain('nonsense', 40)\n")
    res = run_match(GAME, [f"nonsense=engine:{sys.executable} {script}", "heuristic"],
                    groups=2, seed=1)
    fails = [r["failure"] for r in res.records if r["failure"]]
    assert fails and all(f["kind"] == "protocol" for f in fails)
    assert "banana" in fails[0]["message"]


def test_hanging_engine_times_out(engine):
    res = run_match(GAME, [engine("hang", 60), "heuristic"], groups=2, seed=1,
                    move_timeout=0.5)
    assert len(res.records) == 4
    fails = [r["failure"] for r in res.records if r["failure"]]
    assert fails and all(f["kind"] == "timeout" for f in fails)
    assert all(f["restarted"] for f in fails)
    assert sum(1 for r in res.records if r["terminal"]) == 4 - len(fails)


def test_an_engine_that_cannot_start_loses_every_game():
    res = run_match(GAME, ["ghost=engine:/nonexistent/engine", "heuristic"], groups=2, seed=1)
    assert [r["failure"]["kind"] for r in res.records] == ["crash"] * 4
    assert "cannot start" in res.records[0]["failure"]["message"]


def test_void_leaves_failed_groups_out(engine):
    lose = run_match(GAME, [engine("crash", 50), "heuristic"], groups=4, seed=1)
    void = run_match(GAME, [engine("crash", 50), "heuristic"], groups=4, seed=1,
                     on_failure="void")
    bad = {r["group"] for r in lose.records if r["failure"]}
    assert void.summary["games"]["groups_voided"] == len(bad)
    assert void.summary["games"]["groups_counted"] == 4 - len(bad)
    assert void.summary["players"][0]["failures"] == lose.summary["players"][0]["failures"]


def test_engine_match_serial_equals_parallel(engine, strip_timings):
    cfg = MatchConfig(GAME, (engine("illegal", 60), engine("crash", 90)), groups=2, seed=4)
    a = run_match(cfg)
    b = run_match(cfg, concurrency=2)
    assert strip_timings(a.records) == strip_timings(b.records)
    assert any(r["failure"] for r in a.records)


def test_catsearch_engine_plays_through_the_arena(engine):
    """The real engine (``catsearch-engine`` playing the heuristic player) through the arena:
    every game to its end, no failure, no restart, and it beats the random player."""
    eng = Entrant.parse(engine("catsearch_engine")).with_options({"Player": "heuristic"})
    res = run_match(GAME, [eng, "random"], groups=3, seed=2)
    assert not any(r["failure"] for r in res.records)
    assert all(r["terminal"] for r in res.records)
    assert res.summary["players"][0]["score"]["value"] > 0.5
    assert res.summary["players"][0]["restarts"] == 0
