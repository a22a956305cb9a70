"""The toy games' tensors by value (the layout is in ``catsearch/testing/toys.pyx``): both
kinds alike, seats relative to the observer, another seat's choice hidden until the round
resolves."""
import numpy as np
import pytest

import catsearch
import catsearch.testing  # noqa: F401  (registers the toy games)


def parts(st, seat):
    t = st.observation_tensor(seat)
    assert np.array_equal(t, st.information_state_tensor(seat))
    return {p.name: t[p.start:p.stop].tolist() for p in st.tensor_layout()}


@pytest.mark.parametrize("game_id,players,size", [("toy-rps", 2, 13), ("toy-rps", 3, 19),
                                                  ("toy-rps", 4, 25), ("toy-pennies", 2, 11)])
def test_the_layout(game_id, players, size):
    st = catsearch.new_game(game_id, players, seed=1)
    for kind in ("observation", "information_state"):
        assert [p.name for p in st.tensor_layout(kind)] == ["turn", "choices", "points", "round"]
        assert st.tensor_shape(kind) == (size,)


def test_rps_a_choice_shows_to_its_seat_only_until_the_round_resolves():
    st = catsearch.new_game("toy-rps", 3, seed=1, rounds=2)
    st.play("rock")
    t = parts(st, 0)
    assert t["turn"] == [0, 1, 0]                                 # seat 1 is next
    assert t["choices"] == [1, 0, 0, 0] + [0] * 8                 # its own rock
    t = parts(st.view(1), 1)
    assert t["turn"] == [1, 0, 0]
    assert t["choices"] == [0] * 8 + [0, 0, 0, 1]                 # seat 0 chose, hidden
    assert parts(st, 2)["choices"] == [0] * 4 + [0, 0, 0, 1] + [0] * 4
    st.play("paper")
    st.play("paper")                                              # scores 0, 1, 1
    t = parts(st, 1)
    assert t["turn"] == [0, 0, 1] and t["choices"] == [0] * 12
    assert t["points"] == [0.25, 0.25, 0] and t["round"] == [0.5]
    st.play("scissors")
    st.play("scissors")
    st.play("rock")                                               # the last round stays shown
    t = parts(st, 0)
    assert st.is_terminal() and t["turn"] == [0, 0, 0]
    assert t["choices"] == [0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 0]
    assert t["points"] == [0, 0.25, 0.75] and t["round"] == [1.0]


def test_pennies_the_other_choice_is_hidden_and_a_waiting_view_has_no_turn():
    st = catsearch.new_game("toy-pennies", 2, seed=1)
    st.play("tails")
    assert parts(st, 1)["choices"] == [0, 0, 0, 0, 0, 1]
    assert parts(st, 0)["choices"] == [0, 1, 0, 0, 0, 0]
    view = st.view(1)
    view.play("heads")                                            # the view waits for chance
    t = parts(view, 1)
    assert t["turn"] == [0, 0] and t["choices"] == [1, 0, 0, 0, 0, 1]
