"""go ponder and the Level option, over the real protocol (the engine program)."""

from __future__ import annotations

import random
import re

import pytest

import catsearch
import catsearch.testing  # noqa: F401  (registers the toy games)
from catsearch.search.ladder import LADDER, LevelPlayer, rung
from catsearch.search.players import MoveStats, SearchResult
from catsearch.search.results import sample_by_visits

PONDER_INFO = re.compile(r"info ponder depth [0-9]+ iterations [0-9]+ nodes [0-9]+ nps [0-9]+ "
                         r"time [0-9]+ value [0-9.]+,[0-9.]+\Z")


def waiting_view() -> tuple[catsearch.State, str]:
    """Seat 1's view of a 2-seat Herding Cats game where seat 0 is to move with a choice,
    and seat 1's observation of seat 0's move, after which seat 1 has a choice."""
    h = catsearch.make_player("heuristic:seed=1")
    st = catsearch.new_game("herding-cats", players=2, seed=3)
    while True:
        seat = st.current_player
        m = h.choose_move(st)
        after = st.clone()
        after.play(m)
        if (seat == 0 and len(st.legal_moves()) > 1 and not after.is_terminal()
                and after.current_player == 1 and len(after.legal_moves()) > 1):
            return st.view(1), st.observation(1, m)
        st.play(m)


def visits_after(engine, ponder: bool) -> int:
    view, obs = waiting_view()
    line = f"position herding-cats state {view.to_text()}"
    assert engine.ask("setoption name Player value ismcts:reuse=true,seed=1",
                      "setoption name MultiPV value 9", line) == []
    if ponder:
        engine.send("go ponder")
        infos = engine.until(lambda s: s.startswith("info ponder") and
                             int(s.split()[5]) >= 2000)
        assert all(PONDER_INFO.match(s) for s in infos), infos
        engine.send("stop")
        last = engine.until("bestmove")
        assert last[-1] == "bestmove (none)"      # nothing is played
        assert all(PONDER_INFO.match(s) for s in last[:-1]), last
        assert " pv " not in " ".join(infos + last)
    engine.send(f"{line} moves {obs}", "go iterations 1")
    lines = engine.until("bestmove")
    assert lines[-1] != "bestmove (none)"
    return sum(int(s.split()[6]) for s in lines if s.startswith("info multipv"))


def test_ponder_keeps_its_tree_for_the_next_search(engine):
    # one iteration alone visits one move; after pondering, the kept tree holds hundreds
    assert visits_after(engine, ponder=True) > 100


def test_without_ponder_one_iteration_is_one_visit(engine):
    assert visits_after(engine, ponder=False) <= 1


def test_position_ends_a_ponder_first(engine):
    view, obs = waiting_view()
    line = f"position herding-cats state {view.to_text()}"
    engine.ask("setoption name Player value ismcts:reuse=true", line)
    engine.send("go ponder")
    engine.until("info ponder")
    engine.send(f"{line} moves {obs}")
    assert engine.until("bestmove")[-1] == "bestmove (none)"
    assert engine.ask("isready") == []
    engine.send("go iterations 50")
    assert engine.until("bestmove")[-1] != "bestmove (none)"


def test_ponder_refusals(engine):
    view, _ = waiting_view()
    engine.ask("position herding-cats players 2 startpos seed 3")
    engine.send("go ponder")
    lines = engine.until("bestmove")
    assert lines[-1] == "bestmove (none)" and "full state" in lines[0]
    st = catsearch.new_game("herding-cats", players=2, seed=3)
    engine.ask(f"position herding-cats state {st.view(st.current_player).to_text()}")
    engine.send("go ponder")
    lines = engine.until("bestmove")
    assert "is to move in its view" in lines[0]
    engine.send("go ponder iterations 10")
    assert "cannot be combined with iterations" in engine.until("bestmove")[0]
    # a player that keeps no tree says so, then waits for stop like any ponder
    engine.ask("setoption name Player value heuristic",
               f"position herding-cats state {view.to_text()}")
    engine.send("go ponder")
    assert engine.line() == ("info string ponder: heuristic keeps no search tree (pondering "
                             "needs ismcts or pimc); nothing is searched")
    assert engine.quiet(0.2) == []
    engine.send("stop")
    assert engine.until("bestmove") == ["bestmove (none)"]


def test_ponder_option(engine):
    assert engine.ask("setoption name Ponder value true") == []
    assert "true or false" in engine.ask("setoption name Ponder value yes")[0]


def test_level_option_plays_the_ladder(engine):
    assert engine.ask("setoption name Level value 3", "setoption name Seed value 2",
                      "position herding-cats players 2 startpos seed 1") == []
    engine.send("go")
    lines = engine.until("bestmove")
    assert f" iterations {LADDER[2].iterations} " in lines[-2]
    # the same level in a game with its own ladder plays that game's rung
    from catsearch.search.ladder import rung
    engine.ask("position cat-cards players 2 startpos seed 1")
    engine.send("go")
    own = rung(3, "cat-cards").iterations
    assert own != LADDER[2].iterations
    assert f" iterations {own} " in engine.until("bestmove")[-2]
    assert "0 to 10" in engine.ask("setoption name Level value 11")[0]
    engine.ask("setoption name Level value 0", "setoption name Player value random")
    engine.send("go")
    assert engine.until("bestmove")[-2].startswith("info depth 0 iterations 1 ")


def _result(visits: dict[int, int]) -> SearchResult:
    best = max(visits, key=visits.get)
    return SearchResult(move=best, value=(0.5, 0.5),
                        stats={m: MoveStats(visits=v, mean=0.5) for m, v in visits.items()})


def test_sample_by_visits():
    r = _result({1: 90, 2: 10, 3: 0})
    rng = random.Random(1)
    assert {sample_by_visits(r, 0, rng) for _ in range(50)} == {1}
    drawn = [sample_by_visits(r, 1.0, rng) for _ in range(2000)]
    assert 3 not in drawn and 100 < drawn.count(2) < 300      # about 10%
    cold = [sample_by_visits(r, 0.25, rng) for _ in range(2000)]
    assert cold.count(2) < 10                                 # (1/9)**4 of the time
    with pytest.raises(ValueError, match="-1"):
        sample_by_visits(r, -1, rng)


def test_ladder_levels():
    assert [r.level for r in LADDER] == list(range(1, 11))
    its = [r.iterations for r in LADDER]
    temps = [r.temperature for r in LADDER]
    assert its == sorted(its) and temps == sorted(temps, reverse=True)
    with pytest.raises(ValueError, match="level 11"):
        rung(11)
    with pytest.raises(TypeError):
        rung("3")
    with pytest.raises(ValueError):
        catsearch.make_player("level:n=0")
    st = catsearch.new_game("herding-cats", players=2, seed=1)
    a = catsearch.make_player("level:n=2,seed=5")
    b = catsearch.make_player("level:n=2,seed=5")
    assert isinstance(a, LevelPlayer)
    assert [a.search(st).move for _ in range(5)] == [b.search(st).move for _ in range(5)]


def test_a_game_plays_its_own_ladder():
    """A game that declares a ladder (GameSpec.ladder) is played by it: the same level
    searches the game's iterations; a game that declares none plays LADDER."""
    import dataclasses

    from catsearch.search.ladder import ladder, make_ladder
    for game_id in catsearch.GAMES:
        spec = catsearch.game_class(game_id).spec
        assert ladder(game_id) == (make_ladder(spec.ladder) if spec.ladder else LADDER)
    assert ladder("toy-sum") is LADDER and ladder() is LADDER
    with pytest.raises(ValueError, match="unknown game"):
        ladder("chess")
    st = catsearch.new_game("herding-cats", players=2, seed=1)
    p = catsearch.make_player("level:n=7,seed=1")
    assert p.rung_for(st) == LADDER[6] and p.search(st).iterations == LADDER[6].iterations
    # the same player in Cat Cards plays Cat Cards' own rung, which differs
    cc = catsearch.new_game("cat-cards", players=2, seed=1)
    own = make_ladder(catsearch.game_class("cat-cards").spec.ladder)[1]
    two = catsearch.make_player("level:n=2,seed=1")
    assert two.rung_for(cc) == own != LADDER[1]
    assert two.search(cc).iterations == own.iterations
    q = catsearch.make_player("level:n=7,iterations=33,temperature=2,seed=1")
    assert q.rung_for(st) == dataclasses.replace(LADDER[6], iterations=33, temperature=2.0)
    assert q.search(st).iterations == 33
    with pytest.raises(ValueError, match="temperature"):
        catsearch.make_player("level:n=7,temperature=-1")


def test_make_ladder_names_what_is_wrong():
    from catsearch.search.ladder import make_ladder
    good = [(4 * (k + 1), 1.0) for k in range(10)]
    assert [r.iterations for r in make_ladder(good)] == [4 * (k + 1) for k in range(10)]
    with pytest.raises(TypeError, match="not str"):
        make_ladder("4:1,8:1")
    with pytest.raises(TypeError, match="level 3 of a ladder is 7"):
        make_ladder(good[:2] + [7] + good[3:])
    with pytest.raises(TypeError, match="level 1's iterations are a whole number, not 4.5"):
        make_ladder([(4.5, 1.0)] + good[1:])
    with pytest.raises(ValueError, match="level 10's temperature \\(inf\\)"):
        make_ladder(good[:9] + [(100, float("inf"))])
    with pytest.raises(ValueError, match="10 levels, not 9"):
        make_ladder(good[:9])


def test_arena_lets_an_engine_ponder(tmp_path):
    """Two games between engines, one set Ponder=true: it is sent go ponder between its
    moves (its log shows it), and nothing fails."""
    import sys

    from catsearch.arena import run_match
    from catsearch.arena.entrants import Entrant

    log = tmp_path / "sent.txt"
    tee = tmp_path / "tee.py"
    tee.write_text("import subprocess, sys, threading\n"
                   f"p = subprocess.Popen([sys.executable, '-m', 'catsearch.engine'], "
                   f"stdin=subprocess.PIPE, text=True)\n"
                   f"f = open({str(log)!r}, 'a')\n"
                   "for line in sys.stdin:\n"
                   "    f.write(line); f.flush(); p.stdin.write(line); p.stdin.flush()\n"
                   "p.stdin.close(); p.wait()\n")
    ponders = Entrant.engine([sys.executable, str(tee)], label="ponders",
                             options={"Ponder": "true", "Player": "ismcts:reuse=true"})
    plain = Entrant.engine([sys.executable, "-m", "catsearch.engine"], label="plain",
                           options={"Player": "ismcts:reuse=true"})
    r = run_match("herding-cats", [ponders, plain], groups=1, seed=1, time_control="2+0.02")
    assert all(g.failure is None for g in r.records)
    sent = log.read_text().splitlines()
    assert sent.count("go ponder") >= 4
    for k, line in enumerate(sent):
        if line == "go ponder":      # only ever on the seat's view, never the full state
            assert sent[k - 1].startswith("position herding-cats state ") and "?" in sent[k - 1]
