"""The law of observations on every game (``catsearch.testing.check_observations``): a seat
that follows its observations from its first view always holds exactly the full state's view
of it, and no observation tells a seat what it cannot know.

The fast tier plays two games per game with 2 and 3 players; the slow tier hundreds in all,
4 players included.
"""
import pytest

import catsearch
from catsearch.testing import check_observations

CASES = [(g, n) for g in catsearch.GAMES for n in (2, 3, 4)]
IDS = [f"{g}-{n}p" for g, n in CASES]


@pytest.mark.parametrize("game_id,players", [(g, n) for g, n in CASES if n < 4],
                         ids=[i for i in IDS if not i.endswith("4p")])
def test_the_law_of_observations(game_id, players):
    report = check_observations(game_id, players, games=2, seed=5)
    assert report["observations"] == players * report["moves"] > 0
    assert report["leak_checks"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_the_law_of_observations_on_many_games(game_id, players):
    report = check_observations(game_id, players, games=30, seed=77)
    assert report["moves"] > 0 and report["leak_checks"] > 0
