"""Every kind of bad input: one error line, nothing changed, the engine goes on."""

from __future__ import annotations

import io

import pytest

import catsearch
from catsearch.engine.protocol import Engine
from catsearch.testing import play_out

GAMES = list(catsearch.GAMES)
G = GAMES[0]
SETUP = f"position {G} startpos seed 3 moves"


def full_text(game_id=G, players=3, seed=3):
    return catsearch.new_game(game_id, players, seed=seed).to_text()


def ended_text(game_id=G):
    return play_out(catsearch.new_game(game_id, 3, seed=8), seed=1).to_text()


def other_seat_view(game_id=G):
    st = catsearch.new_game(game_id, 3, seed=3)
    return st.view_text((st.current_player + 1) % 3)


# (bad line, a fragment its error message must hold)
BAD_LINES = [
    ("frobnicate", "unknown command 'frobnicate'; the commands are uci, isready"),
    ("UCI", "unknown command 'UCI'"),
    ("uci now", "uci takes no arguments"),
    ("isready 1", "isready takes no arguments"),
    ("ucinewgame x", "ucinewgame takes no arguments"),
    ("stop x", "stop takes no arguments"),
    ("quit now", "quit takes no arguments"),
    ("d x", "d takes no arguments"),
    ("legal x", "legal takes no arguments"),
    # setoption
    ("setoption", "expected 'setoption name <name> value <value>'"),
    ("setoption name", "expected 'setoption name"),
    ("setoption name Seed", "expected 'setoption name"),
    ("setoption name Seed 5", "expected 'setoption name"),
    ("setoption Seed value 5", "expected 'setoption name"),
    ("setoption name Nope value 1", "unknown option 'Nope'; the options are Player, Ponder, Iterations"),
    ("setoption name Iterations value abc", "Iterations='abc' is not a whole number: expected a whole number from 0 to"),
    ("setoption name Iterations value -1", "Iterations=-1 is out of range"),
    ("setoption name Iterations value 1000000001", "out of range: expected a whole number from 0 to 1000000000"),
    ("setoption name MoveTime value 86400001", "out of range"),
    ("setoption name Threads value 0", "Threads=0 is out of range: expected a whole number from 1 to 256"),
    ("setoption name Seed value 18446744073709551616", "out of range"),
    ("setoption name Seed value 1.5", "not a whole number"),
    ("setoption name Seed value 1 2", "not a whole number"),
    ("setoption name Player value", "Player needs a player spec"),
    ("setoption name Player value nosuch", "unknown player 'nosuch'; the players are"),
    ("setoption name Player value random:bogus=1", "random: unknown option 'bogus'"),
    ("setoption name Player value random:seed=x", "seed='x' is not a whole number"),
    ("setoption name Player value random:seed", "expected key=value"),
    ("setoption name Player value ismcts:weights=3", "set its members one by one"),
    ("setoption name Player value heuristic:weights.start=x", "weights.start='x' is not valid"),
    # position
    ("position", "position: expected 'position <game-id>"),
    ("position nosuch startpos", "unknown game 'nosuch'; the games are"),
    (f"position {G}", "expected startpos or state, got the end of the line"),
    (f"position {G} players", "players needs a value"),
    (f"position {G} players 1 startpos", "players=1 is out of range: expected a whole number from 2 to 4"),
    (f"position {G} players 5 startpos", "players=5 is out of range: expected a whole number from 2 to 4"),
    (f"position {G} players x startpos", "players='x' is not a whole number"),
    (f"position {G} players 3 players 3 startpos", "players given twice"),
    (f"position {G} option x startpos", "option 'x' is not <key>=<value>"),
    (f"position {G} option =1 startpos", "is not <key>=<value>"),
    (f"position {G} option a= startpos", "is not <key>=<value>"),
    (f"position {G} option a=1 option a=2 startpos", "option 'a' given twice"),
    (f"position {G} option nosuch=1 startpos", "nosuch"),
    (f"position {G} option x=1 state {full_text()}", "option is only for startpos"),
    (f"position {G} begin", "expected startpos or state, got 'begin'"),
    (f"position {G} startpos seed", "seed needs a value"),
    (f"position {G} startpos seed -1", "seed=-1 is out of range"),
    (f"position {G} startpos seed 18446744073709551616", "out of range"),
    (f"position {G} startpos seed 1 seed 2", "expected moves or the end of the line, got 'seed'"),
    (f"position {G} startpos extra", "expected moves or the end of the line, got 'extra'"),
    (f"position {G} state", "state needs a notation"),
    (f"position {G} state moves", "state needs a notation"),
    (f"position {G} state garbage", f"bad {G} notation"),
    (f"position {G} players 2 state {full_text()}", "players 2 but the notation has 3 players"),
    (f"position {G} startpos moves zzz", "move 1 'zzz'"),
    (f"position {G} state {ended_text()} moves zzz", "move 1 'zzz'"),
    ("position " + "x" * 100000, "unknown game 'xxxxxxxx"),
    # go: an error and bestmove (none)
    ("go foo", "go: unknown keyword 'foo'; the keywords are iterations, nodes, depth"),
    ("go iterations", "go: iterations needs a value from 1 to"),
    ("go iterations x", "go iterations='x' is not a whole number"),
    ("go iterations 0", "go iterations=0 is out of range"),
    ("go iterations 1000000000001", "out of range"),
    ("go nodes 0", "go nodes=0 is out of range"),
    ("go depth 1001", "go depth=1001 is out of range: expected a whole number from 1 to 1000"),
    ("go movetime 0", "go movetime=0 is out of range"),
    ("go seed -1", "go seed=-1 is out of range"),
    ("go seed " + "9" * 5000, "go seed=9999"),
    ("go iterations 5 iterations 5", "go: iterations given twice"),
    ("go infinite infinite", "go: infinite given twice"),
    ("go infinite iterations 5", "infinite cannot be combined with iterations"),
    # perft, bench
    ("perft", "perft: expected 'perft <depth>'"),
    ("perft x", "perft depth='x' is not a whole number"),
    ("perft 0", "perft depth=0 is out of range: expected a whole number from 1 to 64"),
    ("perft 65", "out of range"),
    ("perft 1 2", "perft: expected 'perft <depth>'"),
    ("bench 5", "bench: expected 'bench' or 'bench iterations <n>'"),
    ("bench iterations", "bench: expected"),
    ("bench iterations 0", "bench iterations=0 is out of range"),
    ("bench foo 1", "bench: expected"),
]


def expect_one_error(engine, line, fragment):
    before = engine.notation()
    answer = engine.ask(line)
    is_go = line.split()[:1] == ["go"]
    assert len(answer) == (2 if is_go else 1), answer
    assert answer[0].startswith("info string error: "), answer
    assert fragment in answer[0], (fragment, answer[0])
    if is_go:
        assert answer[1] == "bestmove (none)"
    assert engine.notation() == before, "bad input changed the position"


@pytest.mark.parametrize("line,fragment", BAD_LINES, ids=[b[0][:40] for b in BAD_LINES])
def test_bad_line_gives_one_error_and_changes_nothing(shared_engine, line, fragment):
    assert shared_engine.ask(SETUP) == []
    expect_one_error(shared_engine, line, fragment)


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_notations_and_moves(shared_engine, game_id):
    st = catsearch.new_game(game_id, 3, seed=3)
    text = st.to_text()
    tokens = text.split()
    cases = [
        (text + " extra", "notation"),
        (" ".join(tokens[1:]), "notation"),                      # a field missing
        (text.replace("=", "=#", 1), "notation"),                # a bad value
        (" ".join(tokens + tokens[:1]), "notation"),             # a field twice
    ]
    for notation, fragment in cases:
        shared_engine.ask(f"position {game_id} startpos seed 3")
        expect_one_error(shared_engine, f"position {game_id} state {notation}", fragment)
    good = st.move_to_str(st.legal_moves()[0])
    after = st.clone()
    after.play(good)
    legal = set(after.legal_moves())
    illegal = next(m for m in range(after.num_distinct_moves) if m not in legal)
    bad_moves = [after.move_to_str(illegal), "?!", "@@@"]
    for mv in bad_moves:
        expect_one_error(shared_engine, f"position {game_id} startpos seed 3 moves {good} {mv}",
                         f"move 2 '{mv}'")
    # a legal move, then one more after the game is over
    end = ended_text(game_id)
    expect_one_error(shared_engine, f"position {game_id} state {end} moves {good}", "move 1")


@pytest.mark.parametrize("game_id", GAMES)
def test_go_that_cannot_search(shared_engine, game_id):
    shared_engine.ask(f"position {game_id} state {ended_text(game_id)}")
    expect_one_error(shared_engine, "go", "the game is over")
    shared_engine.ask(f"position {game_id} state {other_seat_view(game_id)}")
    expect_one_error(shared_engine, "go iterations 5", "view but seat")
    shared_engine.ask(f"position {game_id} state {other_seat_view(game_id)}")
    expect_one_error(shared_engine, "perft 1", "perft needs a full state")


def test_no_position_yet(engine):
    for cmd, fragment in [("d", "d: no position"), ("legal", "legal: no position"),
                          ("perft 1", "perft: no position")]:
        assert engine.ask(cmd) == [f"info string error: {fragment}; send "
                                   f"'position <game-id> ...' first"]
    assert engine.ask("go") == ["info string error: go: no position; send "
                                "'position <game-id> ...' first", "bestmove (none)"]
    assert engine.ask("go iterations 5") == ["info string error: go: no position; send "
                                             "'position <game-id> ...' first", "bestmove (none)"]
    assert engine.finish() == 0


def test_not_utf8_and_odd_lines(shared_engine):
    shared_engine.ask(SETUP)
    before = shared_engine.notation()
    answer = shared_engine.ask(b"\xff\xfe go")
    assert len(answer) == 1 and answer[0].startswith("info string error: the line is not "
                                                     "valid UTF-8")
    assert shared_engine.ask("", "   ", "\t") == []           # blank lines: no answer
    answer = shared_engine.ask("\x00\x01")
    assert len(answer) == 1 and "unknown command" in answer[0]
    shared_engine.send("  isready  ")                         # whitespace around: fine
    assert shared_engine.until("readyok") == ["readyok"]
    shared_engine.send("isready\r")                           # CRLF
    assert shared_engine.until("readyok") == ["readyok"]
    assert shared_engine.notation() == before


def test_threads_need_a_player_with_threads(engine):
    assert engine.ask("setoption name Player value random") == []
    answer = engine.ask("setoption name Threads value 2")
    assert len(answer) == 1 and "random has none" in answer[0]
    # the options are as before: random is still the player, Threads still 1
    answer = engine.ask("setoption name Player value random:seed=4", "setoption name Seed value 2")
    assert answer == []


def test_a_heuristic_weight_the_game_lacks_is_refused_at_go():
    """Which weights a heuristic has depends on the game, known at ``go``: one error line,
    ``bestmove (none)``, and the engine plays on (with the player once set right)."""
    out = io.StringIO()
    eng = Engine(out=out, log=io.StringIO())
    eng.handle("setoption name Player value heuristic:weights.nope=1")
    eng.handle(f"position {G} startpos seed 3")
    eng.handle("go")
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("info string error: go: setoption Player: ")
    assert f"{G}'s heuristic has no weight 'nope'; its weights are " in lines[0]
    assert lines[1:] == ["bestmove (none)"]
    eng.handle("setoption name Player value heuristic:weights.complete=50,seed=1")
    eng.handle("go")
    if eng.job is not None and eng.job.thread is not None:      # the search's own thread
        eng.job.thread.join(30)
    assert out.getvalue().splitlines()[-1].startswith("bestmove ")
    assert "(none)" not in out.getvalue().splitlines()[-1]


def test_refused_while_searching(engine):
    engine.ask(SETUP)
    engine.send("go infinite")
    for line, fragment in [("go", "go: a search is already running"),
                           ("go iterations 3", "go: a search is already running"),
                           ("perft 1", "perft: a search is running"),
                           ("bench iterations 1", "bench: a search is running")]:
        answer = engine.ask(line)
        assert len(answer) == 1 and fragment in answer[0], answer   # no bestmove of its own
    engine.send("stop")
    lines = engine.until("bestmove")
    assert lines[-1] != "bestmove (none)"
    assert engine.quiet(0.2) == []


# -- in process: the options and the player are exactly as before ---------------------------
SET_ERRORS = [b for b in BAD_LINES if b[0].startswith(("setoption", "ucinewgame x"))]


@pytest.mark.parametrize("line,fragment", SET_ERRORS, ids=[b[0][:40] for b in SET_ERRORS])
def test_failed_setoption_keeps_every_option(line, fragment):
    out = io.StringIO()
    eng = Engine(out=out, log=io.StringIO())
    for ok in ("setoption name Player value random", "setoption name Seed value 9",
               "setoption name Iterations value 7", "setoption name MoveTime value 5",
               SETUP):
        eng.handle(ok)
    assert out.getvalue() == ""
    options, player, position = vars(eng.options).copy(), eng.player, eng.position.to_text()
    eng.handle(line)
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and fragment in lines[0]
    assert vars(eng.options) == options
    assert eng.player is player
    assert eng.position.to_text() == position


def test_threads_for_a_player_with_threads():
    out = io.StringIO()
    eng = Engine(out=out, log=io.StringIO())
    eng.handle("setoption name Player value ismcts:iterations=50")
    eng.handle("setoption name Threads value 2")
    assert out.getvalue() == ""
    assert eng.player.workers == 2
    eng.handle("setoption name Player value ismcts:workers=3")
    assert eng.player.workers == 3                 # the spec's own choice stands
    eng.handle("setoption name Player value random")
    assert "random has none" in out.getvalue()      # Threads 2 stays: random is refused
    assert eng.player.workers == 3
