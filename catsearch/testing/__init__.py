"""Helpers for testing games and searchers: the conformance suite, perft files, random games,
and two toy games (used by catsearch's own suite, and handy for yours).

- :func:`check_game`: a game against the state contract, in one call;
- :func:`check_observations`: the law of observations (a live game's seats follow it);
- :func:`check_inference`: the law of inference (the worlds a view deals are ones in which
  the game seen so far could have happened);
- :func:`check_tensors`: a seat's tensors show what it knows and nothing else;
- :func:`read_perft` / :func:`check_perft` / :func:`perft_line`: perft files (one format
  for every game);
- :func:`random_game_states`, :func:`play_out`: random games;
- the toy games ``toy-rps``, ``toy-pennies`` and ``toy-biased-pennies``
  (:mod:`catsearch.testing.toys`), registered
  as test games by importing this package: ``new_game`` and ``from_text`` know them, the
  public :data:`catsearch.GAMES` does not list them;
- the example game ``toy-sum`` (:mod:`catsearch.testing.example`): a hand and a deck on the
  fast C paths, the worked example of ``docs/contract.rst``, "Adding a game" (a test game
  too).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import catsearch
from catsearch._core.state import State
from catsearch.testing.conformance import ConformanceError, check_game
from catsearch.testing.observations import check_observations
from catsearch.testing.inference import check_inference
from catsearch.testing.tensors import check_tensors
from catsearch.testing.perft import (PerftCase, PerftFileError, check_perft, perft_line,
                                     read_perft)
from catsearch.testing.toys import ToyBiasedPennies, ToyPennies, ToyRPS
from catsearch.testing.example import ToySum

__all__ = ["check_game", "check_observations", "check_inference", "check_tensors", "ConformanceError", "read_perft", "check_perft", "PerftCase",
           "PerftFileError", "perft_line", "random_game_states", "play_out", "ToyRPS",
           "ToyPennies", "ToyBiasedPennies", "TOY_GAMES", "ToySum", "EXAMPLE_GAME"]

#: The toy games' ids (test games: not in :data:`catsearch.GAMES`).
TOY_GAMES: tuple[str, ...] = (ToyRPS.spec.id, ToyPennies.spec.id, ToyBiasedPennies.spec.id)

#: The example game's id (a test game: not in :data:`catsearch.GAMES`).
EXAMPLE_GAME: str = ToySum.spec.id


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
