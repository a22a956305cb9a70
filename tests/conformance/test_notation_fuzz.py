"""Bad notation never crashes or corrupts: it parses into a consistent state or raises
NotationError (a ValueError), for every game."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import catsearch
from catsearch import NotationError
from catsearch.testing import random_game_states


def texts(game_id):
    out = []
    for i, (state, _) in enumerate(random_game_states(game_id, 3, games=1, seed=4)):
        if i % 9 == 0:
            out.append(state.to_text())
            out.append(state.view_text(i % 3))
    return out


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_mutated_notation_parses_consistently_or_raises_notation_error(game_id):
    samples = texts(game_id)
    alphabet = sorted(set("".join(samples)) | set("#;,/=-?~ 0123456789"))

    @settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.sampled_from(samples), st.integers(0, 10**6), st.integers(1, 4),
           st.text(alphabet=alphabet, max_size=4))
    def check(text, where, cut, insert):
        where %= len(text) + 1
        mutated = text[:where] + insert + text[where + cut:]
        try:
            state = catsearch.from_text(game_id, mutated)
        except NotationError as e:
            assert str(e)
            return
        # whatever parses must be a consistent state
        assert catsearch.from_text(game_id, state.to_text()) == state
        assert state.hash == state.recompute_hash()
        if not state.is_terminal() and state.view_seat in (None, state.current_player):
            assert state.legal_moves()

    check()
