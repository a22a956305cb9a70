"""Scripted sessions with the real engine program, for every game in ``catsearch.GAMES``."""

from __future__ import annotations

import random
import re

import pytest

import catsearch
from catsearch.engine.protocol import bench_positions, fnv1a64

GAMES = list(catsearch.GAMES)


def info_re(players: int) -> re.Pattern:
    value = r"[0-9]+\.[0-9]{4}" + r",[0-9]+\.[0-9]{4}" * (players - 1)
    return re.compile(r"info depth [0-9]+ iterations [0-9]+ nodes [0-9]+ nps [0-9]+ "
                      rf"time [0-9]+ value {value} pv \S+\Z")


def search(engine, players: int, go: str = "go iterations 30") -> tuple[str, list[str]]:
    """Send ``go``; check the info lines and the one bestmove; return the move and infos."""
    engine.send(go)
    lines = engine.until("bestmove")
    infos, best = lines[:-1], lines[-1]
    assert infos, "the last info line before bestmove is always written"
    pattern = info_re(players)
    for s in infos:
        assert pattern.match(s), s
    move = best.split()[1]
    assert best == f"bestmove {move}"
    assert infos[-1].endswith(f" pv {move}")
    return move, infos


def test_uci_lists_identity_options_games_and_players(engine):
    engine.send("uci")
    lines = engine.until("uciok")
    assert lines[0].startswith("id name catsearch-engine ")
    assert lines[1].startswith("id author ")
    options = {s.split()[2]: s for s in lines if s.startswith("option name ")}
    assert set(options) == {"Player", "Ponder", "Iterations", "MoveTime", "Threads", "Seed",
                            "MultiPV", "Level"}
    assert options["Ponder"] == "option name Ponder type check default false"
    assert " type string default " in options["Player"]
    for name in ("Iterations", "MoveTime", "Threads", "Seed", "MultiPV", "Level"):
        assert re.fullmatch(rf"option name {name} type spin default [0-9]+ min [0-9]+ "
                            r"max [0-9]+", options[name]), options[name]
    default_player = options["Player"].split()[-1]
    expected = "ismcts" if "ismcts" in catsearch.search.player_names() else "heuristic"
    assert default_player == expected
    assert f"info string games {' '.join(catsearch.GAMES)}" in lines
    # the players a fresh process knows (other tests may register extra ones in this one)
    # (plugins, such as the OpenSpiel players, are listed without being imported: their
    # extra may be missing)
    spec = catsearch.search.spec
    builtin = [n for n in catsearch.search.player_names() if n in spec.plugin_names()
               or getattr(spec.player_class(n), "__module__", "").startswith("catsearch.")]
    assert f"info string players {' '.join(builtin)}" in lines
    assert lines[-1] == "uciok"
    assert engine.ask() == []
    assert engine.finish() == 0


@pytest.mark.parametrize("game_id", GAMES)
def test_scripted_session(engine, game_id):
    """startpos for 2-4 players, d, legal, moves, perft, go, a view, ucinewgame."""
    engine.send("uci")
    engine.until("uciok")
    assert engine.ask("setoption name Seed value 11", "setoption name iterations value 40",
                      "ucinewgame") == []
    for players in (2, 3, 4):
        st = catsearch.new_game(game_id, players, seed=5)
        assert engine.ask(f"position {game_id} players {players} startpos seed 5") == []
        lines = engine.ask("d")
        assert lines[-4:] == [f"game {game_id} players {players}", f"notation {st.to_text()}",
                              f"tomove {st.current_player}", f"hash {st.hash:016x}"]
        assert lines[:-4] == str(st).splitlines()
        # play a few moves, some through `moves`, and check the engine agrees
        rng = random.Random(players)
        played = []
        for _ in range(6):
            if st.is_terminal():
                break
            legal = [st.move_to_str(m) for m in st.legal_moves()]
            assert engine.ask("legal") == ["legal " + " ".join(legal)]
            mv = rng.choice(legal)
            played.append(mv)
            st.play(mv)
            assert engine.ask(f"position {game_id} players {players} startpos seed 5 "
                              f"moves {' '.join(played)}") == []
            assert engine.notation() == st.to_text()
        # perft divide agrees with the library
        engine.send("perft 2")                      # runs in the background, like go
        lines = engine.until("nodes")
        divide = st.perft_divide(2)
        assert lines == [f"{m}: {n}" for m, n in divide.items()] + [f"nodes {st.perft(2)}"]
        # a search from the full state picks a legal move of the seat to move
        if not st.is_terminal():
            move, _ = search(engine, players)
            assert st.str_to_move(move) in st.legal_moves()
            # the same from the seat's view, sent as its notation
            view = st.view_text(st.current_player)
            assert engine.ask(f"position {game_id} state {view}") == []
            assert engine.notation() == view
            assert engine.ask("legal") == [
                "legal " + " ".join(st.move_to_str(m) for m in st.legal_moves())]
            move2, _ = search(engine, players)
            assert st.str_to_move(move2) in st.legal_moves()
            # go without limits (the Iterations option), with movetime, with a seed
            search(engine, players, "go")
            search(engine, players, "go movetime 50 seed 3")
            search(engine, players, "go nodes 100")
            search(engine, players, "go depth 2 iterations 50")
    assert engine.ask("ucinewgame") == []
    assert engine.finish() == 0


@pytest.mark.parametrize("game_id", GAMES)
def test_same_search_same_move(engine, game_id):
    """With iteration limits and a seed, a search is reproducible (also after ucinewgame)."""
    st = catsearch.new_game(game_id, 3, seed=21)
    engine.ask(f"position {game_id} startpos seed 21")
    moves = set()
    for _ in range(3):
        engine.ask("ucinewgame")
        moves.add(search(engine, 3, "go iterations 60 seed 9")[0])
    assert len(moves) == 1
    assert st.str_to_move(moves.pop()) in st.legal_moves()


@pytest.mark.parametrize("game_id", GAMES)
def test_other_seats_moves_in_a_view(engine, game_id):
    """`position ... state <view> moves <observation> ...`: after a seat's view the engine
    follows that seat's observations exactly as the library's view does, and reaches the
    seat's view of the server's state; the seat knows its own draws, so it can search."""
    checked = 0
    for players in (2, 3, 4):
        for seed in range(4):
            full = catsearch.new_game(game_id, players, seed=100 + seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(0, 10)):
                if full.is_terminal():
                    break
                full.play(rng.choice(full.legal_moves()))
            if full.is_terminal():
                continue
            seat = full.current_player
            view_text = full.view_text(seat)
            view = catsearch.from_text(game_id, view_text)
            played = []
            for _ in range(players + 1):      # the seat's move, then the others'
                if full.is_terminal():
                    break
                m = rng.choice(full.legal_moves())
                text = full.observation(seat, m)
                full.play(m)
                view.play_observation(text)
                played.append(text)
            assert engine.ask(f"position {game_id} state {view_text} moves {' '.join(played)}") == []
            assert engine.notation() == view.to_text() == full.view_text(seat)
            if view.is_terminal():
                continue
            engine.send("go iterations 20")
            lines = engine.until("bestmove")
            if view.current_player != seat:
                assert lines[0].startswith("info string error: go: the position is seat "), lines
                assert lines[1:] == ["bestmove (none)"]
            else:
                assert view.str_to_move(lines[-1].split()[1]) in view.legal_moves()
            # the server then sends the current view of the seat to move: searchable
            mover = full.current_player
            assert engine.ask(f"position {game_id} state {full.view_text(mover)}") == []
            move, _ = search(engine, players)
            assert full.str_to_move(move) in full.legal_moves()
            checked += 1
    assert checked >= 6


#: The Cat's short game (to 12 points): a whole game in a third of the moves
SHORT = {"the-cat": {"target": 12}}


@pytest.mark.parametrize("game_id", GAMES)
def test_game_to_the_end_server_sends_only_views(engine, game_id):
    """The server keeps the full state; the engine gets only the view of the seat to move,
    every turn, and plays every seat to the end of the game."""
    for players in (2, 4):
        full = catsearch.new_game(game_id, players, seed=77 + players, **SHORT.get(game_id, {}))
        engine.ask("ucinewgame")
        turns = 0
        while not full.is_terminal():
            seat = full.current_player
            view = full.view_text(seat)
            assert "view=" in view
            # one round trip a turn: the position raises no error line before the bestmove
            engine.send(f"position {game_id} state {view}", "go iterations 10")
            lines = engine.until("bestmove")
            assert all(s.startswith("info depth") for s in lines[:-1]), lines
            best = lines[-1]
            full.play(best.split()[1])              # checked: raises if illegal
            turns += 1
        assert turns > 0
        assert engine.ask(f"position {game_id} state {full.to_text()}") == []
        assert engine.ask("legal") == ["legal"]
        lines = engine.ask("d")
        assert "tomove none" in lines
        assert sum(full.returns()) == pytest.approx(1.0)
    assert engine.finish() == 0


def test_bench_signature_matches_its_definition(engine):
    """The summary line and the signature are what the specification says they are."""
    engine.send("setoption name Player value heuristic", "bench iterations 5")
    lines = engine.until("bench")               # runs in the background, like go
    per, summary = lines[:-1], lines[-1]
    positions = bench_positions()
    assert len(per) == len(positions) == 9 * len(catsearch.GAMES)
    text = ""
    total_iterations = total_nodes = 0
    for line, (game_id, players, plies, st) in zip(per, positions):
        m = re.fullmatch(r"info string bench (\S+) players ([234]) ply ([0-9]+) move (\S+) "
                         r"iterations ([0-9]+) nodes ([0-9]+) time [0-9]+", line)
        assert m, line
        assert (m[1], int(m[2]), int(m[3])) == (game_id, players, plies)
        assert st.str_to_move(m[4]) in st.legal_moves()
        text += f"{game_id} {players} {plies} {m[4]} {m[5]} {m[6]}\n"
        total_iterations += int(m[5])
        total_nodes += int(m[6])
    m = re.fullmatch(r"bench positions ([0-9]+) iterations ([0-9]+) nodes ([0-9]+) "
                     r"signature ([0-9a-f]{16}) time [0-9]+ nps [0-9]+", summary)
    assert m, summary
    assert int(m[1]) == len(positions)
    assert (int(m[2]), int(m[3])) == (total_iterations, total_nodes)
    assert m[4] == f"{fnv1a64(text.encode()):016x}"
    # the same build gives the same signature (a second engine process too)
    engine.send("bench iterations 5")
    assert engine.until("bench")[-1].split()[8] == m[4]


def test_bench_positions_are_fixed_and_not_forced():
    a = [(g, p, k, st.to_text()) for g, p, k, st in bench_positions()]
    b = [(g, p, k, st.to_text()) for g, p, k, st in bench_positions()]
    assert a == b
    for game_id, players, plies, st in bench_positions():
        assert not st.is_terminal()
        assert st.players == players


def test_fnv1a64_known_values():
    assert fnv1a64(b"") == 0xCBF29CE484222325
    assert fnv1a64(b"a") == 0xAF63DC4C8601EC8C
    assert fnv1a64(b"foobar") == 0x85944171F73967E8


def test_options_on_the_command_line(spawn):
    e = spawn("-o", "Player=random", "-o", "Seed=4")
    lines = e.ask("setoption name Threads value 2")
    assert len(lines) == 1 and "random has none" in lines[0]
    assert e.finish() == 0
    bad = spawn("-o", "Player=nosuch")
    assert bad.wait() == 2
    assert bad.quiet(0.1) == []


def test_a_reusing_searcher_keeps_its_tree_while_the_game_goes_on(engine):
    """``position`` lines that continue the last one (more moves) are told to the player, so
    ISMCTS with ``reuse=true`` starts from the tree it kept: its tree then holds more nodes
    than this search's iterations could make (at most one new node each). A position that
    does not continue the last one starts afresh."""
    game, base = "herding-cats", "position herding-cats players 2 startpos seed 9"
    engine.send("uci")
    engine.until("uciok")
    assert engine.ask("setoption name Player value ismcts:reuse=true",
                      "setoption name Iterations value 400", "setoption name Seed value 3") == []
    st = catsearch.new_game(game, 2, seed=9)
    played: list[str] = []
    kept = fresh = 0
    for turn in range(8):
        assert engine.ask(base + (" moves " + " ".join(played) if played else "")) == []
        move, infos = search(engine, 2, "go")
        nodes = int(infos[-1].split(" nodes ")[1].split()[0])
        iterations = int(infos[-1].split(" iterations ")[1].split()[0])
        if turn:
            kept += nodes > iterations + 1
        else:
            fresh += nodes <= iterations + 1
        st.play(move)                                  # the engine's move, then the other's
        played.append(move)
        other = st.move_to_str(st.legal_moves()[0])
        st.play(other)
        played.append(other)
    assert fresh == 1 and kept >= 5, (fresh, kept)
    # another deal: nothing carries over
    assert engine.ask("position herding-cats players 2 startpos seed 10") == []
    _, infos = search(engine, 2, "go")
    nodes = int(infos[-1].split(" nodes ")[1].split()[0])
    assert nodes <= int(infos[-1].split(" iterations ")[1].split()[0]) + 1
    assert engine.finish() == 0
