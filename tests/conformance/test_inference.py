"""The law of inference on every game (``catsearch.testing.check_inference``): a seat's view
allows the real state, every world it deals with ``inference="rules"`` is one in which the
game seen so far could have happened, and a game whose moves reveal nothing beyond its views
deals the same worlds with and without inference.

Herding Cats' discards reveal more; its worlds are also checked against an independent
reference in tests/games/test_herding_cats_inference.py.
"""
import pytest

import catsearch
from catsearch.testing import EXAMPLE_GAME, check_inference

CASES = [(g, n) for g in catsearch.GAMES + (EXAMPLE_GAME,) for n in (2, 3, 4)]
IDS = [f"{g}-{n}p" for g, n in CASES]


@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_the_law_of_inference(game_id, players):
    report = check_inference(game_id, players, games=1, seed=players, worlds=2)
    assert report["positions"] > 0 and report["worlds"] == 2 * players * report["positions"]


@pytest.mark.slow
@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_the_law_of_inference_on_many_games(game_id, players):
    report = check_inference(game_id, players, games=12, seed=40 + players, worlds=4)
    assert report["positions"] > 0


def test_a_history_field_is_a_notation_key():
    for game_id in catsearch.GAMES:
        spec = catsearch.new_game(game_id).spec
        keys = {k.rstrip("?") for k in spec.notation}
        assert set(spec.history) <= keys, (game_id, spec.history)
    assert catsearch.new_game("herding-cats").spec.history == ("cannot",)
