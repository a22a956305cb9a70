"""catsearch-arena: measuring search strength.

Matches and round robins between built-in players (``make_player`` specs) and external
engines (any program speaking the engine protocol), on duplicate deals, with clustered
confidence intervals, Elo, Bradley-Terry ratings and a GSPRT stopping rule::

    from catsearch.arena import run_match
    result = run_match("herding-cats", ["ismcts:iterations=300", "heuristic"],
                       groups=100, seed=1, concurrency=2, out="match.jsonl")
    print(result.table())

The console script ``catsearch-arena`` does the same from a shell; see ``docs/arena.rst``.
"""

from catsearch.arena.backends import ArenaError
from catsearch.arena.config import MatchConfig
from catsearch.arena.entrants import FAILURE_KINDS, Entrant, PlayerFailure
from catsearch.arena.record import GameFailure, GameRecord
from catsearch.arena.game import play_game, replay_moves
from catsearch.arena.match import MatchInterrupted, MatchResult, run_match
from catsearch.arena.results import (ResultsFileError, format_table, load_results,
                                     pool_results, summarize)
from catsearch.arena.schedule import GameTask, derive_seed, schedule
from catsearch.arena.stats import (SPRT, Estimate, bradley_terry, clustered_mean,
                                   elo_estimate, elo_from_score, score_from_elo,
                                   wilson_interval)
from catsearch.arena.sweep import PlotUnavailable, SweepResult, plot_sweep, run_sweep

__all__ = [
    "run_match",
    "run_sweep",
    "SweepResult",
    "plot_sweep",
    "PlotUnavailable",
    "MatchConfig",
    "MatchResult",
    "MatchInterrupted",
    "Entrant",
    "PlayerFailure",
    "FAILURE_KINDS",
    "ArenaError",
    "ResultsFileError",
    "GameRecord",
    "GameFailure",
    "load_results",
    "pool_results",
    "summarize",
    "format_table",
    "play_game",
    "replay_moves",
    "GameTask",
    "schedule",
    "derive_seed",
    "SPRT",
    "Estimate",
    "clustered_mean",
    "wilson_interval",
    "elo_from_score",
    "score_from_elo",
    "elo_estimate",
    "bradley_terry",
]
