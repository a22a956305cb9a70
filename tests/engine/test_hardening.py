"""An engine that cannot be wedged (issue 18, item 4).

``perft`` and ``bench`` run in the background like ``go`` (``stop`` ends them within 100 ms
with a partial result, ``quit`` at once, ``isready`` answered at once); tokens are split at
spaces and tabs only; error lines quote at most 100 characters of bad input; a closed
standard output ends the engine with code 0, quietly; SIGINT and SIGTERM end it cleanly.
Every engine here is a real subprocess, every wait bounded.
"""

from __future__ import annotations

import io
import re
import signal
import sys
import time
from pathlib import Path

import pytest

import catsearch
from catsearch.engine.commands import QUOTE_MAX, clip, quote, tokenize
from catsearch.engine.perft import PerftRun
from catsearch.engine.protocol import Engine


GAMES = list(catsearch.GAMES)
ROOT = Path(catsearch.__file__).resolve().parents[1]    # as in conftest.py
ENGINE = [sys.executable, "-m", "catsearch.engine"]
WAIT = 20.0
G = GAMES[0]
# a perft that would run for hours: stop and quit must not wait for it
DEEP = "position cat-earth startpos seed 3"
DEEP_PERFT = "perft 12"
PERFT_STOPPED = re.compile(r"perft stopped depth ([0-9]+) moves ([0-9]+)/([0-9]+) "
                           r"nodes ([0-9]+) time ([0-9]+)")
BENCH_STOPPED = re.compile(r"bench stopped positions ([0-9]+)/([0-9]+) iterations ([0-9]+) "
                           r"nodes ([0-9]+) time ([0-9]+) nps ([0-9]+)")
OTHER_SPACES = ["\x0b", "\x0c", "\xa0", "\u2003", "\u3000", "\x1c", "\x85", "\u2028", "\r"]


def ready(engine) -> None:
    """The engine is up and idle (imports done, signal handlers in place)."""
    engine.send("isready")
    assert engine.until("readyok", timeout=60) == ["readyok"]


def timed(engine, line: str, done) -> tuple[list[str], float]:
    t0 = time.monotonic()
    engine.send(line)
    lines = engine.until(done)
    return lines, time.monotonic() - t0


# -- perft and bench in the background ------------------------------------------------------

def test_deep_perft_answers_isready_and_stops_with_a_partial_result(engine):
    ready(engine)
    st = catsearch.new_game("cat-earth", 3, seed=3)
    legal = len(st.legal_moves())
    stops, readies = [], []
    for _ in range(4):
        assert engine.ask(DEEP) == []
        engine.send(DEEP_PERFT)
        time.sleep(0.2)
        for _ in range(2):           # readyok at once, before any line of the perft
            lines, took = timed(engine, "isready", "readyok")
            assert lines == ["readyok"]
            readies.append(took)
        lines, took = timed(engine, "stop", "perft")
        stops.append(took)
        m = PERFT_STOPPED.fullmatch(lines[-1])
        assert m, lines
        assert int(m[1]) == 12 and int(m[3]) == legal and int(m[2]) < legal
        assert int(m[4]) > 0                      # it did count
        assert lines[:-1] == []                   # no root move finished in 0.2 s at depth 12
        assert engine.ask() == []                 # idle again: nothing more comes
    # within 100 ms (the best of four: the machine is shared; each one bounded anyway)
    assert min(stops) < 0.1, stops
    assert min(readies) < 0.1, readies
    assert max(stops) < WAIT


def test_perft_partial_lines_are_the_finished_moves():
    """In process: stopped after some chunks, the lines are the finished moves' counts (as
    the library counts them) and the partial line the rest."""
    st = catsearch.new_game("the-cat", 3, seed=3)
    divide = list(st.perft_divide(5).items())
    whole = PerftRun(st, 5, chunk_seconds=0.0)      # the smallest chunks: many of them
    whole.run()

    class StopAfter(PerftRun):
        def _adapt(self, depth, n, took):
            super()._adapt(depth, n, took)
            if self.chunks == whole.chunks // 2:
                self.stop()

    run = StopAfter(st, 5, chunk_seconds=0.0)
    lines = run.run()
    m = PERFT_STOPPED.fullmatch(lines[-1])
    assert m, lines[-1]
    done = int(m[2])
    assert 0 < done < len(divide) and int(m[3]) == len(divide)
    assert lines[:-1] == [f"{mv}: {n}" for mv, n in divide[:done]]
    finished = sum(n for _, n in divide[:done])
    assert finished <= int(m[4]) < sum(n for _, n in divide)


@pytest.mark.parametrize("game_id", GAMES)
def test_chunked_perft_counts_as_the_library(game_id):
    for seed, players in ((3, 3), (5, 2), (7, 4)):
        st = catsearch.new_game(game_id, players, seed=seed)
        for depth, chunk in ((4, 0.0), (5, 0.01)):
            run = PerftRun(st, depth, chunk_seconds=chunk)
            divide = st.perft_divide(depth)
            assert run.run() == [f"{m}: {n}" for m, n in divide.items()] + \
                [f"nodes {st.perft(depth)}"]
    # the cut-off keeps every C call short (in CPU terms this is ~1 ms; wall time is loose)
    run = PerftRun(catsearch.new_game("cat-earth", 3, seed=3), 6)
    run.run()
    assert run.chunks > 100 and run.longest < 0.5


def test_quit_during_a_deep_perft_exits_at_once(engine):
    ready(engine)
    engine.send(DEEP, DEEP_PERFT)
    time.sleep(0.3)
    t0 = time.monotonic()
    engine.send("quit")
    assert engine.wait(10) == 0
    assert time.monotonic() - t0 < 5
    assert engine.quiet(0.1) == []                # nothing, not even a partial result
    assert not any("Traceback" in s for s in engine.stderr)


def test_commands_during_perft(engine):
    ready(engine)
    st = catsearch.new_game(G, 2, seed=9)
    engine.send(DEEP, DEEP_PERFT)
    # carried out at once
    assert engine.ask(f"position {G} players 2 startpos seed 9") == []
    assert engine.ask("legal") == ["legal " + " ".join(st.move_to_str(m)
                                                       for m in st.legal_moves())]
    # refused: a go gets its bestmove (none), since no other bestmove will come
    answer = engine.ask("go iterations 5")
    assert len(answer) == 2 and "go: a perft is running" in answer[0] and \
        answer[1] == "bestmove (none)"
    for line in ("perft 1", "bench iterations 1"):
        answer = engine.ask(line)
        assert len(answer) == 1 and "a perft is running; send stop" in answer[0], answer
    engine.send("stop")
    assert PERFT_STOPPED.fullmatch(engine.until("perft")[-1])
    # then the new position's perft, as the library counts it
    engine.send("perft 3")
    lines = engine.until("nodes")
    assert lines == [f"{m}: {n}" for m, n in st.perft_divide(3).items()] + \
        [f"nodes {st.perft(3)}"]


def test_end_of_input_lets_perft_finish(engine):
    st = catsearch.new_game("the-cat", 3, seed=3)
    engine.send("position the-cat startpos seed 3", "perft 6")
    assert engine.finish() == 0
    lines = engine.seen + engine.quiet(0.5)
    assert lines[-1] == f"nodes {st.perft(6)}"


def test_bench_answers_isready_and_stops_with_a_partial_result(engine):
    ready(engine)
    engine.send("bench iterations 1000000000")   # the default player: hours of searching
    time.sleep(0.3)
    lines, took = timed(engine, "isready", "readyok")
    assert lines == ["readyok"]
    answer = engine.ask("go")
    assert "go: a bench is running" in answer[0] and answer[1] == "bestmove (none)"
    lines, took = timed(engine, "stop", "bench")
    m = BENCH_STOPPED.fullmatch(lines[-1])
    assert m, lines
    assert int(m[2]) == 9 * len(GAMES) and int(m[1]) == len(lines) - 1
    assert took < WAIT
    # quit during a bench: at once, nothing written
    engine.send("bench iterations 1000000000")
    time.sleep(0.3)
    t0 = time.monotonic()
    engine.send("quit")
    assert engine.wait(10) == 0 and time.monotonic() - t0 < 5
    assert engine.quiet(0.1) == []


def test_bench_stop_latency(engine):
    ready(engine)
    stops = []
    for _ in range(3):
        engine.send("bench iterations 1000000000")
        time.sleep(0.2)
        lines, took = timed(engine, "stop", "bench")
        assert BENCH_STOPPED.fullmatch(lines[-1]), lines
        stops.append(took)
    assert min(stops) < 0.1, stops


# -- tokens: spaces and tabs only -----------------------------------------------------------

def test_tokenize():
    assert tokenize("go  iterations\t 5\n") == ["go", "iterations", "5"]
    assert tokenize(" \tisready \r\n") == ["isready"]
    assert tokenize("isready\r") == ["isready"]
    assert tokenize("isready\x0c") == ["isready\x0c"]
    assert tokenize("go\x0binfinite") == ["go\x0binfinite"]
    assert tokenize("a\xa0b c\u2003") == ["a\xa0b", "c\u2003"]
    assert tokenize("\ra") == ["\ra"]
    assert tokenize(" \t ") == []


@pytest.mark.parametrize("ws", OTHER_SPACES, ids=[f"U+{ord(c):04X}" for c in OTHER_SPACES])
def test_other_whitespace_is_part_of_a_token(shared_engine, ws):
    st = catsearch.new_game(G, 3, seed=3)
    move = st.move_to_str(st.legal_moves()[0])
    setup = f"position {G} startpos seed 3"
    assert shared_engine.ask(setup) == []
    before = shared_engine.notation()
    cases = [
        (f"{ws}isready", "unknown command"),
        (f"go{ws}infinite", "unknown command"),
        (f"{setup} moves {ws}{move}", "position: argument 6"),
        (f"{setup} moves {ws}{move} {move}", "position: argument 6"),
        (f"position {G}{ws} startpos", "position: argument 1"),
        (f"position {G} state {st.to_text().replace(' ', ws, 1)}", "position: argument"),
        (f"setoption name Player value {ws}random", "setoption: argument 4"),
        (f"setoption name Seed{ws}value 5", "setoption: argument 2"),
        (f"perft{ws}1", "unknown command"),
        (f"go iterations {ws}5", "go: argument 2"),
    ]
    if ws != "\r":      # a \r at the very end of the line is the line's end (CRLF)
        cases += [(f"isready{ws}", "unknown command"),
                  (f"{setup}{ws}", "position: argument 4"),
                  (f"{setup} moves {move}{ws}", "position: argument 6"),
                  (f"position {G} state {st.to_text()}{ws}", "position: argument"),
                  (f"setoption name Player value random{ws}", "setoption: argument 4"),
                  (f"setoption name Seed value 5{ws}", "setoption: argument 4"),
                  (f"go iterations 5{ws}", "go: argument 2")]
    for line, fragment in cases:
        answer = shared_engine.ask(line)
        is_go = line.startswith("go ")
        assert len(answer) == (2 if is_go else 1), (line, answer)
        assert answer[0].startswith("info string error: ") and fragment in answer[0], \
            (line, answer)
        if "argument" in fragment:
            assert repr(ws)[1:-1] in answer[0]           # the character is named
        assert shared_engine.notation() == before
    # spaces and tabs do split; a CRLF line is one line
    shared_engine.send("\tisready\t \t")
    assert shared_engine.until("readyok") == ["readyok"]
    assert shared_engine.ask(f"position\t{G}\tstartpos  seed\t3\tmoves\t{move}\r") == []
    after = st.clone()
    after.play(move)
    assert shared_engine.notation() == after.to_text()


# -- error lines quote at most 100 characters -----------------------------------------------

def _long_lines() -> list[str]:
    x = "x" * 400_000       # each line under MAX_LINE (test_line_limit.py: longer ones)
    words = " ".join(["ab"] * 300_000)
    text = catsearch.new_game(G, 3, seed=3).to_text()
    return [x, f"uci {x}", f"setoption name {x} value 1", f"setoption name Player value {x}",
            f"setoption name Player value random:{x}", f"setoption name Player value {words}",
            f"setoption name Player value random:seed={x}", f"setoption name Seed value {x}",
            f"setoption {words}", f"position {x}", f"position {G} {x}",
            f"position {G} option {x}=1 startpos", f"position {G} option {x}=1 option {x}=1 "
            f"startpos", f"position {G} state {x}", f"position {G} state {text} {x}",
            f"position {G} state {text.replace('players=3', 'players=' + x)}",
            f"position {G} startpos moves {x}", f"position {G} startpos seed {x}",
            f"go {x}", f"go iterations {x}", f"perft {x}", f"bench {x}", f"isready {words}",
            f"{x}\x0b", f"position {G} startpos moves {x}\xa0"]


def _longest_quote(line: str) -> int:
    """The longest run of the bad input's characters ('x' or 'ab ab ...') in ``line``."""
    runs = re.findall(r"x+|(?:ab )+ab", line)
    return max((len(r) for r in runs), default=0)


def test_a_huge_bad_line_is_quoted_short(shared_engine):
    shared_engine.ask(f"position {G} startpos seed 3")
    for line in _long_lines():
        answer = shared_engine.ask(line)
        assert len(answer) == (2 if line.startswith("go ") else 1), (line[:60], answer)
        err = answer[0]
        assert err.startswith("info string error: ")
        assert len(err) < 600, (line[:60], err[:300])
        assert _longest_quote(err) <= QUOTE_MAX, (line[:60], err)
        assert "..." in err


def test_quote_and_clip():
    assert quote("abc") == "'abc'"
    assert quote("y" * 500) == "'" + "y" * QUOTE_MAX + "...'"
    msg = "bad token " + repr("z" * 5000) + "; expected key=value"
    assert clip(msg) == "bad token '" + "z" * QUOTE_MAX + "...'; expected key=value"
    assert clip("a 'short' b " + "w" * 300) == "a 'short' b " + "w" * QUOTE_MAX + "..."
    assert clip("no change 'x' here") == "no change 'x' here"


# -- a closed standard output ---------------------------------------------------------------

@pytest.mark.parametrize("doing", ["idle", "go infinite", "perft", "bench", "writing"])
def test_closed_output_ends_the_engine_quietly(raw, doing):
    e = raw()
    e.ready()
    if doing == "go infinite":
        e.send(DEEP, "go infinite")
        assert e.readline().startswith("info ")          # searching
    elif doing == "perft":
        e.send(DEEP, DEEP_PERFT)
    elif doing == "bench":
        e.send("bench iterations 1000000000")
    e.proc.stdout.close()
    if doing == "writing":
        try:
            e.send(*["isready", "legal", "uci"] * 20)
        except BrokenPipeError:
            pass            # it may have gone already
    assert e.wait() == 0
    assert e.err == b"", e.err.decode(errors="replace")


def test_broken_output_in_process():
    """Without the program's watcher: a write that fails ends the engine (code 0), and the
    hook the program exits with is called."""
    class Broken(io.TextIOBase):
        def write(self, s):
            raise BrokenPipeError(32, "Broken pipe")

    gone = []
    eng = Engine(out=Broken(), log=io.StringIO(), on_gone=lambda: gone.append(1))
    inp = io.BytesIO(b"isready\nisready\nuci\n")
    assert eng.run(inp) == 0
    assert gone == [1] and eng.out.broken and eng.quitting
    assert inp.read() == b"isready\nuci\n"     # it stopped reading at once


# -- SIGINT and SIGTERM ---------------------------------------------------------------------

@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_signal_when_idle(engine, signum):
    ready(engine)
    engine.proc.send_signal(signum)
    assert engine.wait() == 128 + signum
    assert engine.quiet(0.2) == []
    assert not any("Traceback" in s or "KeyboardInterrupt" in s for s in engine.stderr), \
        engine.stderr


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_signal_stops_a_search_first(engine, signum):
    ready(engine)
    engine.send(DEEP, "go infinite")
    time.sleep(0.3)
    engine.proc.send_signal(signum)
    assert engine.wait() == 128 + signum
    lines = engine.seen + engine.quiet(0.2)
    assert lines[-1].startswith("bestmove ") and lines[-1] != "bestmove (none)"
    assert lines[-2].startswith("info depth ")
    assert not any("Traceback" in s for s in engine.stderr), engine.stderr


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_signal_stops_perft_first(engine, signum):
    ready(engine)
    engine.send(DEEP, DEEP_PERFT)
    time.sleep(0.3)
    engine.proc.send_signal(signum)
    assert engine.wait() == 128 + signum
    lines = engine.seen + engine.quiet(0.2)
    assert PERFT_STOPPED.fullmatch(lines[-1]), lines[-3:]
    assert not any("Traceback" in s for s in engine.stderr), engine.stderr


def test_signal_at_the_end_of_input(engine):
    """At the end of input the engine waits for a perft to finish: a signal still ends it."""
    ready(engine)
    engine.send(DEEP, DEEP_PERFT)
    engine.proc.stdin.close()
    time.sleep(0.3)
    engine.proc.send_signal(signal.SIGINT)
    assert engine.wait() == 130
    assert PERFT_STOPPED.fullmatch((engine.seen + engine.quiet(0.2))[-1])
    assert not any("Traceback" in s for s in engine.stderr), engine.stderr
