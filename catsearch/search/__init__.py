"""Searchers and players: ISMCTS, determinized MCTS, expectimax and the baselines.

Every player implements :class:`Player` and is built by :func:`make_player` from a spec.
"""

from catsearch.search.mcts import DeterminizedMCTS, ISMCTS

from catsearch.search.players import (
    HeuristicPlayer,
    Limits,
    MoveStats,
    Player,
    RandomPlayer,
    RankedMove,
    SearchResult,
)
from catsearch.search.timeman import Clock, TimeManager, TimePlan
from catsearch.search.spec import make_player, player_names, register_player
from catsearch.search.expectimax import Expectimax
from catsearch.search.table import Played, PlayerError, Table

__all__ = [
    "Player",
    "Limits",
    "SearchResult",
    "MoveStats",
    "RankedMove",
    "Clock",
    "TimeManager",
    "TimePlan",
    "RandomPlayer",
    "HeuristicPlayer",
    "ISMCTS",
    "DeterminizedMCTS",
    "Expectimax",
    "make_player",
    "player_names",
    "register_player",
    "Table",
    "Played",
    "PlayerError",
]
