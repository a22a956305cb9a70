"""Helpers for testing games and searchers (used by catsearch's own suite, and handy for yours)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import catsearch
from catsearch._core.state import State

__all__ = ["random_game_states", "play_out"]


def random_game_states(game_id: str, players: int, games: int, seed: int,
                       **options) -> Iterator[tuple[State, int | None]]:
    """Yield ``(state, move)`` along ``games`` uniformly random games; ``move`` is the move
    about to be played (``None`` at the terminal state). The state is the live one: clone it
    to keep it."""
    rng = random.Random(seed)
    for _ in range(games):
        st = catsearch.new_game(game_id, players, seed=rng.randrange(2**64), **options)
        while not st.is_terminal():
            m = rng.choice(st.legal_moves())
            yield st, m
            st.play(m)
        yield st, None


def play_out(state: State, seed: int = 0) -> State:
    """Play uniformly random moves (checked) from ``state`` to the end; return the end."""
    rng = random.Random(seed)
    st = state.clone()
    while not st.is_terminal():
        st.play(rng.choice(st.legal_moves()))
    return st
