"""Every game's evaluation (docs/evaluation.rst): a probability vector per position, the
returns once the game is over, and better than the uniform prediction on a fixed sample of
games.

The games are those of the fits: the heuristic player in every seat, each seat with a share
of uniformly random moves drawn per game from 0, 0.1, 0.3 and 1 (the outcome then depends on
the position more than in pure self-play). ``benchmarks/evaluation_quality.py`` measures
the same on many more games of self-play.
"""
import math
import random

import numpy as np
import pytest

import catsearch

GAMES = 100      # per game and player count: about 3 s in all
EVERY = 2        # every how many plies a position is scored


def sample(game_id, players):
    """Per scored position, the full state's evaluation and the game's returns."""
    preds, rets = [], []
    for g in range(GAMES):
        rnd = random.Random(f"test-evaluation/{game_id}/{players}/{g}")
        st = catsearch.new_game(game_id, players, seed=rnd.getrandbits(64))
        eps = [rnd.choice((0.0, 0.1, 0.3, 1.0)) for _ in range(players)]
        scored = []
        while not st.is_terminal():
            if st.ply % EVERY == 0:
                ev = st.evaluate()
                assert all(0.0 <= x <= 1.0 for x in ev) and math.isclose(sum(ev), 1.0), ev
                if g % 10 == 0:
                    view = st.view(st.current_player).evaluate()
                    assert all(0.0 <= x <= 1.0 for x in view)
                    assert math.isclose(sum(view), 1.0), view
                scored.append(ev)
            if rnd.random() < eps[st.current_player]:
                move = rnd.choice(st.legal_moves())
            else:
                move = st.heuristic_move(seed=rnd.getrandbits(32))
            st.play(move)
        assert st.evaluate() == pytest.approx(st.returns())
        preds += scored
        rets += [st.returns()] * len(scored)
    return np.array(preds), np.array(rets)


@pytest.mark.parametrize("players", (2, 3))
@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_the_evaluation_beats_the_uniform_prediction(game_id, players):
    pred, ret = sample(game_id, players)
    brier = np.mean(np.sum((pred - ret) ** 2, axis=1))
    uniform = np.mean(np.sum((1 / players - ret) ** 2, axis=1))
    assert brier < uniform, (f"{game_id}, {players} players: Brier {brier:.4f}, uniform "
                             f"{uniform:.4f} over {len(ret)} positions")
