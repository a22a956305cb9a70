"""catsearch: game search for four cat-themed hidden-information games.

The public surface::

    import catsearch
    state = catsearch.new_game("herding-cats", players=3, seed=7)
    state.play(state.legal_moves()[0])
"""

from catsearch.errors import IllegalMoveError, InvalidMoveError, NotationError, ObservationError
from catsearch.games import GAMES, benchmark_playouts, from_text, game_class, new_game
from catsearch._core.state import State
from catsearch.search import (DeterminizedMCTS, Expectimax, ISMCTS, Player, SearchResult, Table,
                              make_player)

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "State",
    "new_game",
    "from_text",
    "game_class",
    "benchmark_playouts",
    "Player",
    "Table",
    "SearchResult",
    "ISMCTS",
    "DeterminizedMCTS",
    "Expectimax",
    "make_player",
    "NotationError",
    "InvalidMoveError",
    "IllegalMoveError",
    "ObservationError",
    "__version__",
]
