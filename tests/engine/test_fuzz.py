"""A long seeded session of random, partly malformed commands never kills the engine."""

from __future__ import annotations

import random
import re

import pytest

import catsearch
from catsearch.search.spec import plugin_names

#: the built-in players (plugins' players, OpenSpiel's when its extra is in, search in
#: Python: a whole fuzz game with one would take minutes)
BUILT_IN = sorted(set(catsearch.search.player_names()) - set(plugin_names()))

GAMES = list(catsearch.GAMES)
ANSWER = re.compile(r"(id (name|author) .+|option name \S+ type \S+ .*|uciok|readyok|"
                    r"info .+|bestmove \S+|legal( \S+)*|nodes [0-9]+|\S+: [0-9]+|"
                    r"bench positions .+|bench stopped positions .+|perft stopped depth .+|"
                    r"game \S+ players [234]|notation .+|tomove \S+|"
                    r"hash [0-9a-f]{16})\Z")
JUNK = ["", "-1", "0", "99999999999999999999999", "x", "=", "==", "moves", "state", "startpos",
        "seed", "players", "option", "name", "value", "infinite", "?", "@", "é", "\u2603",
        "1.5", "a=b", "iterations", "\x00", "\x7f"]


def states(game_id, rng):
    """A few states of ``game_id`` (full, and views) along a random game."""
    st = catsearch.new_game(game_id, rng.choice((2, 3, 4)), seed=rng.randrange(1000))
    out = []
    while not st.is_terminal() and len(out) < 12:
        out.append(st.clone())
        st.play(rng.choice(st.legal_moves()))
    out.append(st)
    return out


def valid_command(rng: random.Random) -> str:
    game_id = rng.choice(GAMES)
    kind = rng.randrange(12)
    if kind == 0:
        return rng.choice(["uci", "isready", "ucinewgame", "d", "legal", "stop"])
    if kind == 1:
        return rng.choice([
            f"setoption name Seed value {rng.randrange(100)}",
            f"setoption name Iterations value {rng.randrange(50)}",
            f"setoption name MoveTime value {rng.randrange(30)}",
            "setoption name Threads value 1",
            f"setoption name Player value {rng.choice(BUILT_IN)}",
        ])
    if kind in (2, 3, 4):
        seed = rng.randrange(50)
        st = catsearch.new_game(game_id, rng.choice((2, 3, 4)), seed=seed)
        line = f"position {game_id} players {st.players} startpos seed {seed}"
        moves = []
        for _ in range(rng.randrange(6)):
            if st.is_terminal():
                break
            m = rng.choice(st.legal_moves())
            moves.append(st.move_to_str(m))
            st.play(m)
        return line + (" moves " + " ".join(moves) if moves else "")
    if kind in (5, 6, 7):
        st = rng.choice(states(game_id, rng))
        text = st.to_text()
        if not st.is_terminal() and rng.random() < 0.6:
            text = st.view_text(rng.randrange(st.players))
        return f"position {game_id} state {text}"
    if kind in (8, 9, 10):
        return rng.choice(["go", "go iterations 3", "go infinite", "go movetime 5",
                           "go nodes 20 seed 5", "go depth 1", "go iterations 2 seed 9"])
    return rng.choice(["perft 1", "perft 2", "bench iterations 1"])


def mutate(line: str, rng: random.Random) -> str:
    tokens = line.split(" ")
    for _ in range(rng.randint(1, 3)):
        op = rng.randrange(7)
        i = rng.randrange(len(tokens))
        if op == 0 and len(tokens) > 1:
            del tokens[i]
        elif op == 1:
            tokens.insert(i, rng.choice(JUNK))
        elif op == 2:
            tokens[i] = rng.choice(JUNK)
        elif op == 3:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == 4 and tokens[i]:
            k = rng.randrange(len(tokens[i]))
            tokens[i] = tokens[i][:k] + rng.choice("?=x9 \t@,/-") + tokens[i][k + 1:]
        elif op == 5:
            tokens = tokens[:max(1, i)]
        else:
            tokens[i] = tokens[i].upper()
    return " ".join(tokens)


def safe(line: str) -> bool:
    """Keep the session bounded: no quit, no deep perft, no long bench."""
    tokens = line.split()
    if not tokens or tokens[0] == "quit":
        return False
    if tokens[0] in ("perft", "bench"):
        return all(not t.isdigit() or int(t) <= 2 for t in tokens[1:])
    return True


# one session in the fast tier, two more in the slow one (5 s each on 2 shared cores)
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow),
                                  pytest.param(3, marks=pytest.mark.slow)])
def test_random_malformed_session(engine, seed):
    rng = random.Random(seed)
    engine.send("uci")
    engine.until("uciok")
    errors = goes = bestmoves = 0
    for n in range(500):
        line = valid_command(rng)
        if rng.random() < 0.45:
            line = mutate(line, rng)
        if rng.random() < 0.03:
            raw = bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 20)))
            line = raw.replace(b"\n", b" ").decode("latin-1")
            if rng.random() < 0.5:
                engine.send(raw.replace(b"\n", b" "), "isready")
                lines = engine.until("readyok")[:-1]
                assert all(ANSWER.match(s) for s in lines), lines
                errors += sum(s.startswith("info string error:") for s in lines)
                continue
        if not safe(line):
            continue
        tokens = line.split()
        if tokens[0] == "go":
            goes += 1
            engine.send(line, "stop")
            answer = engine.until("bestmove", timeout=60)
            bestmoves += 1
            engine.send("isready")
            answer += engine.until("readyok")[:-1]
            assert sum(s.startswith("bestmove") for s in answer) == 1, (line, answer)
        elif tokens == ["isready"]:
            engine.send(line)
            answer = engine.until("readyok")
            assert answer == ["readyok"]
        else:
            answer = engine.ask(line)
        if tokens[0] != "d":
            bad = [s for s in answer if not ANSWER.match(s)]
            assert not bad, (line, bad)
        assert not any("internal error" in s for s in answer), (line, answer)
        errors += sum(s.startswith("info string error:") for s in answer)
    assert goes == bestmoves and goes > 20
    assert errors > 50                      # the session really was partly malformed
    assert engine.ask() == []                # still alive and answering
    engine.send("quit")
    assert engine.wait() == 0
    assert not any("Traceback" in s for s in engine.stderr), engine.stderr[-20:]
