"""The law of tensors on every game and the toy games (``catsearch.testing.check_tensors``):
a seat's observation and information-state tensors have one shape per game and player count,
are equal in every state the seat cannot tell apart (determinizations), and the
information-state tensor tells apart every two information sets met.

The fast tier checks every eighth position of one game per game with 2 and 3 players; the slow
tier every fourth of three more games, with three determinizations each.
"""
import numpy as np
import pytest

import catsearch
from catsearch.testing import TOY_GAMES, check_tensors

CASES = [(g, n) for g in catsearch.GAMES for n in (2, 3, 4)]
IDS = [f"{g}-{n}p" for g, n in CASES]


@pytest.mark.parametrize("game_id,players", [(g, n) for g, n in CASES if n < 4],
                         ids=[i for i in IDS if not i.endswith("4p")])
def test_the_law_of_tensors(game_id, players):
    report = check_tensors(game_id, players, games=1, seed=3, every=8)
    assert report["tensors"] == 2 * players * report["states"] > 0


@pytest.mark.parametrize("game_id", TOY_GAMES)
def test_the_toy_games_have_tensors(game_id):
    report = check_tensors(game_id, 2, games=2, seed=3)
    assert report["determinizations"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_the_law_of_tensors_on_many_games(game_id, players):
    report = check_tensors(game_id, players, games=3, seed=41, determinizations=3, every=4)
    assert report["states"] > 0


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_the_layout_names_every_element_and_the_kind_is_checked(game_id):
    st = catsearch.new_game(game_id, 3, seed=1)
    for kind in ("observation", "information_state"):
        parts = st.tensor_layout(kind)
        assert parts[0].start == 0 and parts[-1].stop == st.tensor_shape(kind)[0]
        assert all(p.name and p.stop > p.start for p in parts)
    t = st.information_state_tensor(st.current_player)
    assert t.dtype == np.float32 and t.shape == st.tensor_shape("information_state")
    with pytest.raises(ValueError, match="unknown tensor kind 'board'"):
        st.tensor_layout("board")
    with pytest.raises(TypeError, match="tensor kind is a str"):
        st.tensor_shape(1)
    with pytest.raises(ValueError, match="seat 7 does not exist"):
        st.observation_tensor(7)
    with pytest.raises(TypeError):
        st.observation_tensor(1.0)
