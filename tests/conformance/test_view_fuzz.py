"""Whatever ``from_text`` accepts obeys the law of an accepted notation
(:func:`catsearch.testing.notations.check_accepted`): a Hypothesis run over mutated full
notations and views of real games, every game, 2-4 players."""
import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import catsearch
from catsearch import NotationError
from catsearch.testing import random_game_states
from catsearch.testing.notations import check_accepted


@functools.lru_cache(maxsize=None)
def samples(game_id, players):
    out = []
    for i, (state, _) in enumerate(random_game_states(game_id, players, games=2, seed=11)):
        if i % 7 == 0:
            out.append(state.to_text())
            out.append(state.view_text(i % players))
    return tuple(out)


def mutations(texts):
    """A notation of a real game with one field's value cut, changed or swapped: a card for
    '?', '?' for a card, characters of the notation's alphabet inserted or removed."""
    alphabet = sorted(set("".join(texts)) | set("?-/,0123456789"))

    @st.composite
    def mutate(draw):
        text = draw(st.sampled_from(texts))
        for _ in range(draw(st.integers(1, 3))):
            where = draw(st.integers(0, len(text)))
            cut = draw(st.integers(0, 3))
            insert = draw(st.text(alphabet=alphabet, max_size=3))
            text = text[:where] + insert + text[where + cut:]
        return text
    return mutate()


def fuzz(game_id, players, examples):
    texts = samples(game_id, players)

    @settings(max_examples=examples, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(mutations(texts), st.integers(0, 2**32))
    def check(text, seed):
        try:
            state = catsearch.from_text(game_id, text)
        except NotationError as e:
            assert str(e)
            return
        check_accepted(state, seed=seed, steps=15)

    check()


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_accepted_notations_obey_the_law(game_id, players):
    fuzz(game_id, players, 150)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_accepted_notations_obey_the_law_at_length(game_id, players):
    fuzz(game_id, players, 3000)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_real_notations_obey_the_law(game_id, players):
    for k, text in enumerate(samples(game_id, players)):
        check_accepted(catsearch.from_text(game_id, text), seed=k, steps=5)
