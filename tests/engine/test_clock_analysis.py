"""``go time <ms> inc <ms> [movestogo <n>]`` and the ``MultiPV`` option, over the real
protocol (the engine as a subprocess), and the client's side of both."""

from __future__ import annotations

import re
import time

import pytest

import catsearch
from catsearch.engine import EngineClient
from catsearch.search import Clock, Limits

# herding-cats startpos seed 3: two legal moves (xp xb); after xp the move is forced (P)
CHOICE = "position herding-cats startpos seed 3"
FORCED = "position herding-cats startpos seed 3 moves xp"


def _time_ms(info: str) -> int:
    return int(re.search(r" time (\d+) ", info).group(1))


def test_go_time_spends_a_share_of_the_clock(engine):
    engine.ask("setoption name Player value ismcts:seed=1", CHOICE)
    t0 = time.monotonic()
    engine.send("go time 4000 inc 0")
    lines = engine.until("bestmove")
    took = time.monotonic() - t0
    assert lines[-1] in ("bestmove xp", "bestmove xb")
    ms = _time_ms(lines[-2])
    # 20 moves to come in Herding Cats: about a twentieth of the clock, never a fifth
    assert 100 <= ms <= 800, lines[-2]
    assert took < 2.0
    assert int(re.search(r" iterations (\d+) ", lines[-2]).group(1)) > 1


def test_go_time_inc_movestogo_and_other_limits(engine):
    engine.ask(CHOICE)
    engine.send("go time 60000 inc 1000 movestogo 2 iterations 300")
    lines = engine.until("bestmove")
    assert " iterations 300 " in lines[-2] and lines[-1].startswith("bestmove x")
    # a near-empty clock still answers at once with a legal move
    engine.send("go time 0 inc 0")
    lines = engine.until("bestmove")
    assert lines[-1].startswith("bestmove x") and _time_ms(lines[-2]) < 100


def test_go_time_forced_move_answered_at_once(engine):
    engine.ask(FORCED)
    t0 = time.monotonic()
    engine.send("go time 100000 inc 5000")
    lines = engine.until("bestmove")
    assert lines[-1] == "bestmove P"
    assert time.monotonic() - t0 < 1.0


@pytest.mark.parametrize("go, message", [
    ("go time", "go: time needs a value from 0 to 86400000"),
    ("go time -5", "go time=-5 is out of range"),
    ("go time 1.5", "go time"),
    ("go time 100000000", "out of range"),
    ("go inc 100", "go: inc needs time"),
    ("go movestogo 3", "go: movestogo needs time"),
    ("go time 1000 movestogo 0", "go movestogo=0 is out of range"),
    ("go time 1000 inc x", "go inc"),
    ("go time 1000 time 1000", "go: time given twice"),
    ("go time 1000 infinite", "go: infinite cannot be combined with time"),
    ("go wtime 1000", "the keywords are iterations, nodes, depth, movetime, time, inc, "
                      "movestogo, infinite, ponder, seed"),
])
def test_go_time_bad_values_are_errors_the_engine_survives(engine, go, message):
    engine.ask(CHOICE)
    engine.send(go)
    lines = engine.until("bestmove")
    assert lines[-2].startswith("info string error: ") and message in lines[-2], lines
    assert lines[-1] == "bestmove (none)"
    engine.send("go iterations 50")             # still alive and searching
    assert engine.until("bestmove")[-1].startswith("bestmove x")


def test_multipv_lines(engine):
    lines = engine.ask("uci")
    assert "option name MultiPV type spin default 0 min 0 max 64" in lines
    engine.ask("setoption name MultiPV value 3", "setoption name Player value ismcts:seed=2",
               "position herding-cats startpos seed 0")
    engine.send("go iterations 3000")
    lines = engine.until("bestmove")
    info = [s for s in lines if s.startswith("info depth")]
    assert info
    # every info depth line is followed by its multipv lines, 1..k
    for i, s in enumerate(lines):
        if s.startswith("info depth"):
            pv = s.split(" pv ")[1]
            block = []
            for t in lines[i + 1:]:
                if not t.startswith("info multipv"):
                    break
                block.append(t)
            assert [int(t.split()[2]) for t in block] == list(range(1, len(block) + 1))
            # MultiPV 3: one line per ranked move, at most 3 (fewer only with fewer moves)
            assert 1 <= len(block) <= 3, block
            assert block[0].split()[4] == pv              # the chosen move is first
    last = lines[-4:-1]
    assert len(last) == 3 and all(s.startswith("info multipv") for s in last), lines[-5:]
    legal = {"xo", "xp", "xg"}
    visits = []
    for k, s in enumerate(last, 1):
        m = re.fullmatch(rf"info multipv {k} move (\S+) visits (\d+) mean (0\.\d{{4}}|1\.0000)",
                         s)
        assert m, s
        assert m.group(1) in legal
        visits.append(int(m.group(2)))
    assert sum(visits) <= 3000 and visits[1] >= visits[2]
    assert lines[-1] == "bestmove " + last[0].split()[4]


def test_multipv_off_by_default_and_forced_move_has_values(engine):
    engine.ask(CHOICE)
    engine.send("go iterations 200")
    lines = engine.until("bestmove")
    assert not any(s.startswith("info multipv") for s in lines)
    engine.ask("setoption name MultiPV value 2", FORCED)
    engine.send("go")
    lines = engine.until("bestmove")
    assert re.fullmatch(r"info multipv 1 move P visits 0 mean 0\.\d{4} value "
                        r"0\.\d{4},0\.\d{4},0\.\d{4}", lines[-2]), lines
    for bad in ("65", "-1", "x"):
        assert engine.ask(f"setoption name MultiPV value {bad}")[0].startswith(
            "info string error: setoption MultiPV")


def test_client_sends_the_clock_and_reads_multipv(engine_command):
    st = catsearch.new_game("herding-cats", 3, seed=3)
    with EngineClient(engine_command, options={"MultiPV": "3", "Player": "ismcts:seed=1"}) as c:
        assert c._go_line(Limits(clock=Clock(time=1.5, inc=0.02, movestogo=7))) == \
            "go time 1500 inc 20 movestogo 7"
        t0 = time.monotonic()
        r = c.search(st, limits=Limits(clock=Clock(time=2.0, inc=0.0)))
        assert time.monotonic() - t0 < 1.5
        assert st.move_to_str(r.move) in ("xp", "xb")
        assert len(r.value) == 3 and abs(sum(r.value) - 1) < 0.01    # the info line's value
