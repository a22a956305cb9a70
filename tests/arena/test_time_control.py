"""Time controls in the arena: ``--tc BASE+INC``, per-seat clocks, flags as timeouts."""

import sys

import pytest

from catsearch.arena import MatchConfig, run_match
from catsearch.arena.config import TimeControl
from catsearch.arena.results import format_table

from .conftest import PLUGIN

GAME = "herding-cats"
ENGINE = f"engine:{sys.executable} -m catsearch.engine"


def test_time_control_parse():
    assert TimeControl.parse("10+0.1") == TimeControl(base=10.0, inc=0.1)
    assert TimeControl.parse("60") == TimeControl(base=60.0, inc=0.0)
    assert str(TimeControl.parse("2+0.02")) == "2+0.02"
    for bad in ("", "a+1", "1+b", "0+1", "-1+0", "1+-1", "nan", "inf+0", "1+2+3"):
        with pytest.raises(ValueError):
            TimeControl.parse(bad)
    with pytest.raises(TypeError):
        TimeControl.parse(10)
    with pytest.raises(TypeError):
        TimeControl(base="1")


def test_config_round_trip_and_identity():
    cfg = MatchConfig(GAME, ("heuristic", "random"), groups=1, time_control="2+0.02")
    assert cfg.time_control == TimeControl(base=2.0, inc=0.02)
    again = MatchConfig.from_dict(cfg.to_dict())
    assert again == cfg and again.identity()["time_control"] == "2+0.02"
    assert MatchConfig(GAME, ("heuristic", "random")).identity()["time_control"] is None
    with pytest.raises(TypeError):
        MatchConfig(GAME, ("heuristic", "random"), time_control=5)


def test_tiny_time_control_no_flags():
    res = run_match(GAME, ["ismcts", "heuristic"], groups=2, seed=3, time_control="0.5+0.01")
    s = res.summary
    assert s["time_control"] == {"text": "0.5+0.01", "flags": 0}
    assert all(not r.failed for r in res.records)
    assert all(r.terminal for r in res.records)
    # (how much of its clock the searcher spent is wall time, so not asserted here: the plan
    # itself is checked without a clock in tests/search/test_timeman.py)
    assert "time control 0.5+0.01 (base+increment, seconds): 0 flags" in format_table(s)


def test_engine_on_a_clock_no_flags():
    res = run_match(GAME, [ENGINE, "heuristic"], groups=1, seed=2, time_control="1+0.02")
    assert res.summary["time_control"]["flags"] == 0
    assert all(r.terminal and not r.failed for r in res.records)


def test_a_slow_player_flags():
    res = run_match(GAME, ["slow:ms=60", "heuristic"], groups=1, seed=1,
                    time_control="0.3+0", imports=(PLUGIN,))
    assert res.summary["time_control"]["flags"] == 2
    for r in res.records:
        assert r.failure.kind == "timeout" and r.failure.player == "slow:ms=60"
        assert r.failure.message.startswith("flag: ")
    slow = next(p for p in res.summary["players"] if p["label"] == "slow:ms=60")
    assert slow["failures"]["timeout"] == 2
    assert "2 flags" in format_table(res.summary)


def test_cli_tc(tmp_path, capsys):
    from catsearch.arena.cli import main
    assert main(["match", GAME, "heuristic", "random", "--groups", "2", "--tc", "1+0.01",
                 "-q"]) == 0
    out = capsys.readouterr().out
    assert "time control 1+0.01 (base+increment, seconds): 0 flags" in out
    assert main(["match", GAME, "heuristic", "random", "--tc", "fast"]) == 2
    assert "a time control is BASE+INC in seconds (like 10+0.1), not 'fast'" in \
        capsys.readouterr().err
