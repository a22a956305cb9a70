"""Pondering: a seat searches its own information set while another seat is to move.

A searcher that keeps its tree (``reuse=true``) can use the other seats' thinking time:
:func:`ponder` runs its search from the seat's view as it stands (another seat to move), and
keeps the tree, exactly as a search of its own move keeps it. The moves that follow
(:meth:`~catsearch.search.players.Player.observe`) move the kept tree on, and the seat's next
search starts from what the pondering grew below the move actually played (the tree reuse of
``docs/search.rst``). Nothing is played: the result only reports what was searched.

Only the seat's view is searched (its determinizations are drawn from what the seat knows):
pondering sees nothing a search of the seat's own move would not.
"""

from __future__ import annotations

import time
from typing import Any

from catsearch._core.state import State
from catsearch.search.limits import Limits
from catsearch.search.players import InfoCallback, Player, SearchResult
from catsearch.search.results import merge

__all__ = ["ponder_refusal", "ponder"]


def ponder_refusal(player: Player) -> str | None:
    """Why ``player`` cannot ponder (``None``: it can). A player ponders when it keeps its
    tree from search to search in this process: an MCTS searcher with ``reuse=true`` and
    ``parallel=threads`` (or one worker)."""
    from catsearch.search.mcts import MCTSPlayer     # the searchers sit above this module

    if not isinstance(player, MCTSPlayer):
        return f"{player.name} keeps no search tree (pondering needs ismcts or pimc)"
    if not player.reuse:
        return f"{player.name} keeps no tree from one search to the next: give it reuse=true"
    if player.parallel == "processes" and player.workers > 1:
        return (f"{player.name} searches in worker processes, which cannot ponder: use "
                f"parallel=threads")
    return None


def _check_view(view: Any) -> State:
    if not isinstance(view, State):
        raise TypeError(f"ponder: the view is a State, not {type(view).__name__}")
    if view.view_seat is None:
        raise ValueError("ponder: a full state; pondering searches one seat's view")
    if view.is_terminal():
        raise ValueError("ponder: the game is over in this view")
    if view.current_player == view.view_seat:
        raise ValueError(f"ponder: seat {view.view_seat} is to move in its own view; search "
                         f"it instead")
    return view


def ponder(player: Player, view: State, *, limits: Limits | None = None,
           info: InfoCallback | None = None) -> SearchResult:
    """Search ``view`` (a seat's view with another seat to move) for its seat, until
    ``limits`` end it (``Limits(infinite=True, stop=token)``: until the token is set), and
    keep the tree for the seat's next search.

    :returns: what was searched: iterations, nodes, depth, seconds, the seat's value, and
        the root statistics (its ``move`` is the move the seat expects the seat to move to
        make, from the seat's own tree; it is not the seat's to play).
    :raises TypeError: ``view`` is not a State.
    :raises ValueError: ``view`` is a full state, the game is over, its seat is to move, or
        ``player`` cannot ponder (:func:`ponder_refusal` says why).
    """
    view = _check_view(view)
    why = ponder_refusal(player)
    if why is not None:
        raise ValueError(f"ponder: {why}")
    t0 = time.perf_counter()
    seat = view.view_seat
    plan = player._plan(limits)
    player.weights_for(view.game_id)

    def result(snaps: list[dict]) -> SearchResult:
        moves = sorted({m for snap in snaps for tree in snap["trees"] for m, *_ in tree})
        return merge(snaps, moves or [0], view.players, time.perf_counter() - t0,
                     player._decide)

    emit = None if info is None else (lambda snaps: info(result(snaps)))
    return result(player._driver.search(view.clone(), seat, plan, emit))
