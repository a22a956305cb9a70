"""go / stop / isready / quit / end of input: the search runs beside the reading thread."""

from __future__ import annotations

import io
import os
import queue
import threading
import time

import pytest

import catsearch
from catsearch.engine.protocol import Engine
from catsearch.search import spec as spec_module
from catsearch.search.players import Limits, Player, SearchResult

G = catsearch.GAMES[0]
SETUP = f"position {G} startpos seed 3"
LONG = 60.0     # what a search would take if nothing stopped it


def test_stop_during_go_infinite(engine):
    engine.ask(SETUP)
    engine.send("go infinite")
    early = engine.quiet(0.3)                       # info lines may come, never a bestmove
    assert not any(s.startswith("bestmove") for s in early)
    # isready is answered while the search runs, before its bestmove
    engine.send("isready")
    lines = engine.until("readyok")
    assert not any(s.startswith("bestmove") for s in lines)
    engine.send("stop")
    lines = engine.until("bestmove", timeout=10)
    best = lines[-1].split()[1]
    st = catsearch.new_game(G, 3, seed=3)
    assert st.str_to_move(best) in st.legal_moves()
    # exactly one bestmove, and stop with no search running does nothing
    assert engine.ask("stop") == []
    assert sum(s.startswith("bestmove") for s in engine.seen) == 1


def test_commands_during_a_search_do_not_touch_it(engine):
    st = catsearch.new_game(G, 3, seed=3)
    engine.ask(SETUP)
    engine.send("go infinite")
    other = catsearch.new_game(G, 2, seed=9)
    assert engine.ask(f"position {G} players 2 startpos seed 9", "setoption name Seed value 4",
                      "ucinewgame") == []
    assert engine.notation() == other.to_text()
    assert engine.ask("legal") == ["legal " + " ".join(other.move_to_str(m)
                                                       for m in other.legal_moves())]
    engine.send("stop")
    best = engine.until("bestmove")[-1].split()[1]
    assert st.str_to_move(best) in st.legal_moves()          # the position it started from
    engine.send("go iterations 5")                           # the new position now
    best = engine.until("bestmove")[-1].split()[1]
    assert other.str_to_move(best) in other.legal_moves()


def test_one_bestmove_per_go(engine):
    engine.ask(SETUP)
    n = 0
    for go in ["go iterations 5", "go", "go movetime 20", "go nodes 10", "go infinite",
               "go depth 1", "go bogus", "go seed 4", "go infinite"]:
        engine.send(go)
        if "infinite" in go:
            engine.send("stop")
        engine.until("bestmove")
        n += 1
        assert engine.ask() == []
    assert sum(s.startswith("bestmove") for s in engine.seen) == n


def test_quit_during_a_search_exits_at_once(engine):
    engine.ask(SETUP)
    engine.send("go infinite", "quit")
    assert engine.wait(10) == 0
    assert not any(s.startswith("bestmove") for s in engine.seen + engine.quiet(0.1))


def test_quit_when_idle(engine):
    engine.ask(SETUP)
    engine.send("quit", "isready")
    assert engine.wait(10) == 0
    assert engine.quiet(0.1) == []


def test_end_of_input_lets_a_limited_search_finish(engine):
    engine.send(SETUP, "go iterations 20")
    assert engine.finish() == 0
    lines = engine.quiet(0.5)
    assert [s for s in engine.seen + lines if s.startswith("bestmove")] != []


def test_end_of_input_stops_an_infinite_search(engine):
    engine.send(SETUP, "go infinite")
    assert engine.finish() == 0
    engine.quiet(0.5)
    assert len([s for s in engine.seen if s.startswith("bestmove")]) == 1


def test_end_of_input_at_once(engine):
    assert engine.finish() == 0
    assert engine.quiet(0.1) == []
    assert not any("Traceback" in s for s in engine.stderr)


# -- in process, with test players that really search until told to stop -------------------

class SlowPlayer(Player):
    """Searches (sleeps in small steps, sending info) until stopped or out of limits; with
    ``obey_time=false`` it ignores a time limit, so only the engine's movetime stop ends it."""

    name = "test-slow"
    OPTIONS = {"seed": int, "obey_time": bool, "fail": bool, "illegal": bool}

    def __init__(self, *, seed=None, obey_time=True, fail=False, illegal=False):
        self.obey_time = obey_time
        self.fail = fail
        self.illegal = illegal
        self._stop = threading.Event()
        self.stops = 0

    def search(self, state, *, limits=None, info=None):
        limits = limits or Limits()
        self._stop.clear()
        if self.fail:
            raise RuntimeError("this player always fails")
        view = state.view(state.current_player) if state.view_seat is None else state
        legal = view.legal_moves()
        if self.illegal:
            bad = next(m for m in range(view.num_distinct_moves) if m not in legal)
            return SearchResult(move=bad, value=(0.5,) * state.players)
        t0 = time.monotonic()
        it = 0
        cap = limits.iterations or 10**9
        seconds = limits.seconds if (limits.seconds and self.obey_time) else LONG
        if limits.infinite:
            cap, seconds = 10**9, LONG
        while not self._stop.is_set() and it < cap and time.monotonic() - t0 < seconds:
            time.sleep(0.01)
            it += 1
            if info is not None and it % 5 == 0:
                info(SearchResult(move=legal[it % len(legal)], value=(1 / state.players,)
                                  * state.players, iterations=it, nodes=10 * it,
                                  seconds=time.monotonic() - t0))
        return SearchResult(move=legal[0], value=(1 / state.players,) * state.players,
                            iterations=it, nodes=10 * it, seconds=time.monotonic() - t0)

    def stop(self):
        self.stops += 1
        self._stop.set()




class LineWriter(io.TextIOBase):
    def __init__(self):
        self.lines: queue.Queue = queue.Queue()
        self._buf = ""

    def write(self, s):
        self._buf += s
        while "\n" in self._buf:
            line, self._buf = self._buf.split("\n", 1)
            self.lines.put(line)
        return len(s)

    def flush(self):
        pass


class InProcess:
    def __init__(self):
        r, w = os.pipe()
        self._w = os.fdopen(w, "wb", buffering=0)
        self._r = os.fdopen(r, "rb")
        self.out = LineWriter()
        self.engine = Engine(out=self.out, log=io.StringIO())
        self.rc = []
        self.thread = threading.Thread(target=lambda: self.rc.append(self.engine.run(self._r)),
                                       daemon=True)
        self.thread.start()

    def send(self, *lines):
        for line in lines:
            self._w.write(line.encode() + b"\n")

    def until(self, word, timeout=20.0):
        out = []
        end = time.monotonic() + timeout
        while True:
            try:
                line = self.out.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {word} within {timeout} s; got {out}") from None
            out.append(line)
            if line == word or line.startswith(word + " "):
                return out

    def close(self):
        self._w.close()
        self.thread.join(30)
        return self.rc


@pytest.fixture
def inproc(monkeypatch):
    # registered for this test only (the registry is global to the test process)
    monkeypatch.setitem(spec_module._PLAYERS, "test-slow", SlowPlayer)
    e = InProcess()
    yield e
    e.close()


def test_stop_ends_a_real_search(inproc):
    inproc.send("setoption name Player value test-slow", SETUP, "go infinite", "isready")
    assert inproc.until("readyok")[-1] == "readyok"
    time.sleep(0.2)
    t0 = time.monotonic()
    inproc.send("stop")
    lines = inproc.until("bestmove")
    waited = time.monotonic() - t0
    assert waited < LONG / 4          # it was stopped, not run out (speed is not asserted)
    assert inproc.engine.job.player.stops >= 1
    infos = [s for s in lines if s.startswith("info depth")]
    assert infos and lines[-1].startswith("bestmove ")


def test_movetime_is_enforced_by_the_engine(inproc):
    inproc.send("setoption name Player value test-slow:obey_time=false", SETUP,
                "go movetime 100")
    t0 = time.monotonic()
    lines = inproc.until("bestmove")
    assert time.monotonic() - t0 < LONG / 4
    assert lines[-1] != "bestmove (none)"
    assert inproc.engine.job.player.stops >= 1


def test_isready_during_a_real_search(inproc):
    inproc.send("setoption name Player value test-slow", SETUP, "go movetime 30000")
    for _ in range(3):
        inproc.send("isready")
        assert "bestmove" not in " ".join(inproc.until("readyok"))
    inproc.send("stop")
    assert inproc.until("bestmove")[-1].startswith("bestmove ")


def test_info_lines_come_from_the_callback(inproc):
    inproc.send("setoption name Player value test-slow", SETUP, "go iterations 30")
    lines = inproc.until("bestmove")
    infos = [s for s in lines if s.startswith("info depth")]
    assert len(infos) >= 3                      # 30 iterations, one info every 5, plus last
    assert infos[-1].split(" iterations ")[1].startswith("30 ")
    assert all(" pv " in s for s in infos)


@pytest.mark.parametrize("spec,fragment", [("test-slow:fail=true", "this player always fails"),
                                           ("test-slow:illegal=true", "not legal here")])
def test_a_failing_player_gives_an_error_and_bestmove_none(inproc, spec, fragment):
    inproc.send(f"setoption name Player value {spec}", SETUP, "go iterations 3")
    lines = inproc.until("bestmove")
    assert lines[-1] == "bestmove (none)"
    assert lines[-2].startswith("info string error: search failed") and fragment in lines[-2]
    inproc.send("isready")
    assert inproc.until("readyok") == ["readyok"]
