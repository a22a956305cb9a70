"""The engine follows live games: one view, then only the seat's observations.

A test server holds the full game (a :class:`catsearch.Table`), plays the other seats itself
and sends the engine, for its seat, ``position <game> state <first view> moves <observation>
...`` before each of its moves, with tree reuse on. Every line the server sends is checked to
carry only what the engine's seat can know: the seat's first view and its observations.
"""
import random
from pathlib import Path

import pytest

import catsearch
from catsearch import Table
from catsearch.engine.client import EngineClient

ROOT = Path(catsearch.__file__).resolve().parents[1]
REUSE = "ismcts:iterations=60,seed=1,reuse=true,cutoff=10"
#: policy inference follows the game by the same observations (its belief, Player.observe)
POLICY = "ismcts:iterations=60,seed=1,reuse=true,cutoff=10,inference=policy,particles=32"
CASES = [(g, REUSE) for g in catsearch.GAMES] + [(g, POLICY) for g in catsearch.GAMES
                                                 if g != "the-cat"]


@pytest.mark.parametrize("game_id,spec", CASES,
                         ids=[f"{g}-{'policy' if s == POLICY else 'reuse'}" for g, s in CASES])
def test_a_server_plays_whole_games_sending_only_observations(engine, game_id, spec):
    engine.ask(f"setoption name Player value {spec}")
    for players in (2, 3):
        # The Cat's short game (to 12 points): a whole game in a third of the moves
        table = Table(catsearch.new_game(game_id, players, seed=40 + players,
                                         **({"target": 12} if game_id == "the-cat" else {})))
        seat = 1
        first = table.view(seat).to_text()
        observations = []
        rng = random.Random(players)
        engine.ask("ucinewgame")
        sent = 0
        while not table.is_over():
            mover = table.current_player
            if mover == seat:
                line = f"position {game_id} state {first}"
                if observations:
                    line += " moves " + " ".join(observations)
                lines = engine.ask(line)
                assert lines == [], lines          # no error line: the position was followed
                engine.send("go iterations 60")
                best = engine.until("bestmove")[-1].split()[1]
                played = table.play(best)          # checked: raises if illegal
                sent += 1
            else:
                played = table.play(rng.choice(table.view(mover).legal_moves()))
            observations.append(played.observations[seat])
        assert sent > 0
        # the engine's view, followed from the observations, is the seat's view of the end
        engine.ask(f"position {game_id} state {first} moves " + " ".join(observations))
        assert engine.notation() == table.state.view_text(seat)
    assert engine.finish() == 0


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_the_client_sends_one_view_then_observations_and_nothing_hidden(game_id, engine_command,
                                                                      engine_environ):
    """EngineClient at a Table: every line it writes is checked against what its seat can
    know (its first view, its observations); the game ends without an error."""
    client = EngineClient(engine_command, options={"Player": REUSE}, cwd=str(ROOT),
                          env=engine_environ)
    lines = []
    send = client._send

    def spy(line):
        lines.append(line)
        send(line)

    client._send = spy
    try:
        start = catsearch.new_game(game_id, 2, seed=12)
        table = Table(start, [client, catsearch.make_player("random:seed=3")])
        table.run()
    finally:
        client.close()
    st = start.clone()
    allowed_first = st.view_text(0)
    seen = []
    for played in table.history:
        seen.append(st.observation(0, played.move))
        st.play(played.move)
    positions = [s for s in lines if s.startswith("position ")]
    assert positions
    for line in positions:
        head, _, moves = line.partition(" moves ")
        assert head == f"position {game_id} state {allowed_first}", head
        obs = moves.split() if moves else []
        assert obs == seen[:len(obs)], "the client sent something other than seat 0's observations"
    assert all(s.split()[0] in ("uci", "isready", "setoption", "ucinewgame", "position", "go",
                                "stop", "quit") for s in lines), lines
