"""EngineClient: the real engine as a Player, and fake engines that misbehave."""

from __future__ import annotations

import sys
import textwrap
import threading
import time

import pytest

import catsearch
from catsearch.engine import (
    EngineClient,
    EngineCrashed,
    EngineError,
    EngineProtocolError,
    EngineTimeout,
)
from catsearch.search import Limits, Player

G = catsearch.GAMES[0]

# A fake engine: a correct handshake, then on `go` it does what MODE says.
FAKE = textwrap.dedent('''
    import sys
    import catsearch
    mode = sys.argv[1]
    log = open(sys.argv[2], "a") if len(sys.argv) > 2 else None
    state = None
    def say(line):
        sys.stdout.write(line + "\\n")
        sys.stdout.flush()
    for line in sys.stdin:
        line = line.strip()
        if log:
            log.write(line + "\\n"); log.flush()
        if line == "uci":
            if mode == "no-uciok":
                continue
            say("id name fake " + mode)
            say("option name Foo type spin default 1 min 0 max 9")
            say("uciok")
        elif line == "isready":
            if mode == "no-readyok":
                continue
            say("readyok")
        elif line.startswith("setoption name Bad"):
            say("info string error: setoption: unknown option 'Bad'")
        elif line.startswith("position "):
            game, _, text = line.split(" ", 3)[1:]
            state = catsearch.from_text(game, text)
        elif line.startswith("go"):
            legal = state.legal_moves()
            if mode == "crash":
                sys.stderr.write("fake: giving up\\n"); sys.stderr.flush()
                sys.exit(3)
            if mode in ("hang", "hang-but-stop"):
                continue
            if mode == "illegal":
                bad = next(m for m in range(state.num_distinct_moves) if m not in legal)
                say("bestmove " + state.move_to_str(bad))
            elif mode == "garbage":
                say("bestmove ###")
            elif mode == "none":
                say("info string error: go: I would rather not")
                say("bestmove (none)")
            else:
                say("info depth 2 iterations 7 nodes 70 nps 1 time 3 value "
                    + ",".join(["0.2500"] * state.players) + " pv " + state.move_to_str(legal[-1]))
                say("bestmove " + state.move_to_str(legal[-1]))
        elif line == "stop":
            if mode == "hang-but-stop":
                say("bestmove " + state.move_to_str(state.legal_moves()[0]))
        elif line == "quit":
            break
''')


@pytest.fixture
def fake(tmp_path, engine_environ):
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE)
    made = []

    def make(mode, log=None, **kw):
        cmd = [sys.executable, str(script), mode] + ([str(log)] if log else [])
        kw.setdefault("timeout", 20.0)
        kw.setdefault("margin", 0.5)
        c = EngineClient(cmd, env=engine_environ, **kw)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


@pytest.fixture
def real(engine_command, engine_environ):
    made = []

    def make(**kw):
        c = EngineClient(engine_command, env=engine_environ, **kw)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


def test_exceptions_form_a_hierarchy():
    for cls in (EngineCrashed, EngineTimeout, EngineProtocolError):
        assert issubclass(cls, EngineError)
    assert issubclass(EngineError, RuntimeError)


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_real_engine_plays_a_game_as_a_player(real, game_id):
    client = real(options={"Seed": 5})
    assert isinstance(client, Player)
    assert client.engine_name.startswith("catsearch-engine")
    assert {"Player", "Iterations", "MoveTime", "Threads", "Seed"} <= set(client.engine_options)
    st = catsearch.new_game(game_id, 3, seed=4)
    client.new_game()
    partials = []
    while not st.is_terminal():
        res = client.search(st, limits=Limits(iterations=10, seed=1), info=partials.append)
        assert res.move in st.legal_moves()
        assert len(res.value) == 3
        st.play(res.move)
    assert partials and all(p.move is not None for p in partials)
    assert client.alive


def test_the_engine_sees_only_the_seat_view(fake, tmp_path):
    log = tmp_path / "received.txt"
    client = fake("ok", log=log)
    st = catsearch.new_game(G, 3, seed=2)
    for _ in range(3):
        res = client.search(st, limits=Limits(iterations=5, seed=3, seconds=2.0, nodes=9, depth=2))
        assert res.move == st.legal_moves()[-1]
        assert (res.iterations, res.nodes, res.depth) == (7, 70, 2)
        assert res.value == (0.25, 0.25, 0.25)
        expected_position = f"position {G} state {st.view_text(st.current_player)}"
        lines = log.read_text().splitlines()
        assert lines[-3] == expected_position
        assert lines[-1] == "go iterations 5 nodes 9 depth 2 movetime 2000 seed 3"
        st.play(res.move)
    # a view of the seat to move is sent as it is; another seat's view is refused
    view = st.view(st.current_player)
    assert client.search(view).move in st.legal_moves()
    with pytest.raises(ValueError):
        client.search(st.view((st.current_player + 1) % 3))


def test_options_and_their_refusal(fake):
    client = fake("ok", options={"Foo": 3})
    assert client.engine_name == "fake ok"
    assert "Foo" in client.engine_options
    with pytest.raises(EngineProtocolError) as e:
        fake("ok", options={"Bad": 1})
    assert "Bad" in str(e.value)


def test_crash_then_restart(fake):
    client = fake("crash")
    st = catsearch.new_game(G, 3, seed=2)
    with pytest.raises(EngineCrashed) as e:
        client.search(st)
    assert e.value.returncode == 3
    assert "giving up" in e.value.stderr
    assert not client.alive
    with pytest.raises(EngineCrashed):
        client.search(st)            # stays crashed until restarted
    client.restart()
    assert client.alive
    with pytest.raises(EngineCrashed):
        client.search(st)


def test_a_program_that_does_not_exist():
    with pytest.raises(EngineCrashed):
        EngineClient(["/nonexistent/engine-program"])


def test_timeout_without_answer_to_stop_kills(fake):
    client = fake("hang", margin=0.3)
    client.timeout = 1.0          # after the start (a loaded machine starts Python slowly)
    st = catsearch.new_game(G, 3, seed=2)
    with pytest.raises(EngineTimeout) as e:
        client.search(st, limits=Limits(seconds=0.2))
    assert e.value.killed
    assert not client.alive
    with pytest.raises(EngineCrashed):
        client.search(st)
    client.restart()
    assert client.alive


def test_timeout_with_answer_to_stop_stays_usable(fake):
    client = fake("hang-but-stop", margin=0.3)
    client.timeout = 1.0
    st = catsearch.new_game(G, 3, seed=2)
    with pytest.raises(EngineTimeout) as e:
        client.search(st)                      # no time limit: `timeout` applies
    assert not e.value.killed
    assert client.alive
    # in step: the next search works (it answers when stopped)
    threading.Timer(0.2, client.stop).start()
    res = client.search(st, limits=Limits(infinite=True))
    assert res.move == st.legal_moves()[0]


@pytest.mark.parametrize("mode", ["no-uciok", "no-readyok"])
def test_handshake_timeout(fake, mode):
    with pytest.raises(EngineTimeout) as e:
        fake(mode, timeout=0.5)
    assert e.value.killed


@pytest.mark.parametrize("mode,fragment", [("illegal", "is not legal"),
                                           ("garbage", "is not a"),
                                           ("none", "I would rather not")])
def test_protocol_errors_leave_the_engine_usable(fake, mode, fragment):
    client = fake(mode)
    st = catsearch.new_game(G, 3, seed=2)
    with pytest.raises(EngineProtocolError) as e:
        client.search(st)
    assert fragment in str(e.value)
    assert e.value.line is not None
    assert client.alive
    with pytest.raises(EngineProtocolError):
        client.search(st)


def test_stop_an_infinite_search_of_the_real_engine(real):
    client = real()
    st = catsearch.new_game(G, 3, seed=2)
    timer = threading.Timer(0.3, client.stop)
    timer.start()
    t0 = time.monotonic()
    res = client.search(st, limits=Limits(infinite=True))
    assert time.monotonic() - t0 >= 0.25          # it waited for stop
    assert res.move in st.legal_moves()


def test_the_real_engine_refuses_a_bad_option(real):
    with pytest.raises(EngineProtocolError) as e:
        real(options={"Player": "nosuch"})
    assert "nosuch" in str(e.value)


def test_close_is_final_and_idempotent(real):
    client = real()
    client.close()
    client.close()
    with pytest.raises(EngineCrashed):
        client.search(catsearch.new_game(G, 3, seed=2))
    client.restart()
    assert client.search(catsearch.new_game(G, 3, seed=2)).move is not None


def test_stop_before_the_go_is_not_lost(fake):
    """A stop() that comes while the position is still being sent ends the search too."""
    client = fake("hang-but-stop", margin=1.0)
    st = catsearch.new_game(G, 3, seed=2)
    send = client._send

    def send_and_stop(line):
        send(line)
        if line.startswith("position "):
            client.stop()          # the search has begun, its go is not sent yet
    client._send = send_and_stop
    res = client.search(st, limits=Limits(infinite=True))
    assert res.move == st.legal_moves()[0]
