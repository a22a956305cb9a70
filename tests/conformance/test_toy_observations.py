"""The law of observations on the two toy games (the worked example of docs/contract.rst):
following its observations from its first view, a seat's view is always the full state's
view of it, and no observation tells a seat another's hidden choice."""
import pytest

import catsearch
import catsearch.testing
from catsearch import ObservationError
from catsearch.testing import check_observations

CASES = ([("toy-rps", p, {}) for p in (2, 3, 4)] + [("toy-rps", 3, {"rounds": 4}),
                                                   ("toy-pennies", 2, {}),
                                                   ("toy-pennies", 2, {"rounds": 5})])


@pytest.mark.parametrize("game_id,players,options", CASES,
                         ids=[f"{g}-{p}p" + "".join(f"-{k}" for k in o) for g, p, o in CASES])
def test_the_toys_keep_the_law_of_observations(game_id, players, options):
    report = check_observations(game_id, players, games=12, seed=5, options=options)
    assert report["observations"] > 0 and report["leak_checks"] > 0


def follow(game_id, players, moves, rounds=1):
    """The full state and every seat's view following the observations of ``moves``."""
    st = catsearch.new_game(game_id, players, seed=1, rounds=rounds)
    views = [st.view(s) for s in range(players)]
    texts = []
    for m in moves:
        texts.append([st.observation(s, m) for s in range(players)])
        for s in range(players):
            views[s].play_observation(texts[-1][s])
        st.play(m)
    for s in range(players):
        assert views[s].to_text() == st.view_text(s)
    return st, views, texts


def test_rps_a_choice_is_hidden_until_the_round_ends_then_the_points_show():
    st, views, texts = follow("toy-rps", 3, ["rock", "paper", "paper"], rounds=2)
    assert texts[0] == ["rock", "hidden", "hidden"]
    assert texts[1] == ["hidden", "paper", "hidden"]
    assert texts[2] == ["hidden:scored=0,1,1", "hidden:scored=0,1,1", "paper:scored=0,1,1"]


def test_rps_the_last_rounds_choices_stay_on_the_table():
    st, views, texts = follow("toy-rps", 2, ["scissors", "paper"])
    assert texts[1] == ["hidden:scored=1,0:chose=scissors,paper",
                        "paper:scored=1,0:chose=scissors,paper"]
    assert st.is_terminal()


def test_pennies_observations():
    st, views, texts = follow("toy-pennies", 2, ["heads", "tails"])
    assert texts == [["heads", "hidden"], ["hidden:scored=0,1", "tails:scored=0,1"]]


@pytest.mark.parametrize("seat,text", [
    (1, "rock"),                     # seat 0's choice in clear: meant for seat 0
    (0, "hidden"),                   # seat 0 is to choose: its own choice is in clear
    (0, "rock:scored=1,0"),          # seat 0's choice does not end the round
    (0, "lizard"), (0, ""), (1, "hidden:"),
])
def test_bad_observations_are_refused_and_leave_the_view_unchanged(seat, text):
    st = catsearch.new_game("toy-rps", 2, seed=1)
    view = st.view(seat)
    before = view.to_text()
    with pytest.raises(ObservationError):
        view.play_observation(text)
    assert view.to_text() == before


@pytest.mark.parametrize("text", [
    "hidden:scored=1,1",                       # both cannot win
    "hidden:scored=2,0",                       # one opponent: one point at most
    "hidden:scored=0,0,0",                     # three seats
    "hidden:scored=1,0:chose=paper,rock",      # not the last round: the choices are not shown
    "rock:scored=1,0",                         # seat 1's choice, in clear
])
def test_impossible_round_results_are_refused(text):
    # seat 0's view once it chose paper, seat 1 to choose
    st = catsearch.new_game("toy-rps", 2, seed=1, rounds=2)
    st.play("paper")
    view = st.view(0)
    before = view.to_text()
    with pytest.raises(ObservationError):
        view.play_observation(text)
    assert view.to_text() == before
