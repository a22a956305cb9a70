"""Playing one game of a match, and the worker that holds the players between games.

A game is a pure function of its :class:`~catsearch.arena.schedule.GameTask` and the match
config: the deal comes from the task's deal seed, every player's seed from the task's seed,
and the players see only their seat's view, followed by observations at a
:class:`~catsearch.search.table.Table`, so a game can be replayed
exactly from its record, in any process, on any backend.
"""

from __future__ import annotations

import time

import catsearch
from catsearch.arena.config import MatchConfig
from catsearch.arena.entrants import PlayerFailure, Slot, load_imports
from catsearch.arena.record import GameFailure, GameRecord
from catsearch.arena.schedule import GameTask, search_seed
from catsearch._core.options import as_int
from catsearch.errors import IllegalMoveError
from catsearch.search.players import Limits
from catsearch.search.table import Table
from catsearch.search.timeman import Clock

__all__ = ["Worker", "play_game", "replay_moves"]


def _forfeit_returns(n: int, loser: int) -> list[float]:
    """The failing seat gets 0 and the others share the win."""
    return [0.0 if s == loser else 1.0 / (n - 1) for s in range(n)]


def _ponder(seat_slots: list[Slot], table: Table, fail) -> GameFailure | None:
    """Let every pondering engine (:attr:`Slot.ponders`) not to move think on its view."""
    for s, slot in enumerate(seat_slots):
        if s != table.current_player and slot.ponders:
            try:
                slot.ponder(table.view(s))
            except PlayerFailure as f:
                return fail(s, f)
    return None


def play_game(config: MatchConfig, task: GameTask, slots: list[Slot]) -> GameRecord:
    """Play ``task`` with the entrants' ``slots``; return its record."""
    n = len(task.seats)
    state = catsearch.new_game(config.game, n, seed=task.deal_seed, **dict(config.game_options))
    seat_slots = [slots[e] for e in task.seats]
    moves: list[str] = []
    move_seats: list[int] = []
    move_seconds: list[float] = []
    failure: GameFailure | None = None
    specs: list[str | None] = [None] * n
    t_start = time.perf_counter()
    tc = config.time_control
    clocks = None if tc is None else [tc.base] * n     # each seat's remaining seconds

    def fail(seat: int, f: PlayerFailure) -> GameFailure:
        return GameFailure(seat=seat, player=config.entrants[task.seats[seat]].label,
                       kind=f.kind, ply=len(moves), message=f.message,
                       restarted=seat_slots[seat].failed())

    for seat, slot in enumerate(seat_slots):
        try:
            slot.start_game(search_seed(task.seed, seat))
        except PlayerFailure as f:
            failure = fail(seat, f)
            break
        specs[seat] = (slot.effective_spec if not slot.entrant.is_engine
                       else " ".join(slot.entrant.command))
    table = Table(state, new_game=False)
    while failure is None and not table.is_over():
        seat = table.current_player
        slot = seat_slots[seat]
        view = table.view(seat)
        limits = (Limits(seed=search_seed(task.seed, seat, len(moves)))
                  if slot.seeds_moves else None)
        if clocks is not None:
            # the seat's clock: an engine gets it (go time .. inc ..); a built-in player the
            # time the time manager plans from it
            limits = Limits(seed=None if limits is None else limits.seed,
                            clock=Clock(time=max(0.0, clocks[seat]), inc=tc.inc))
            if not slot.entrant.is_engine:
                limits = limits.for_state(view)
        try:
            result, seconds = slot.search(view, limits)
            if clocks is not None:
                clocks[seat] -= seconds
                if clocks[seat] < 0:
                    raise PlayerFailure("timeout", f"flag: the move took {seconds:.3f} s, "
                                        f"{-clocks[seat]:.3f} s past its clock ({tc})")
                clocks[seat] += tc.inc
            move = result.move
            try:
                # a whole number as everywhere in the API (numpy integers too), not a bool
                move = as_int(move, "move")
            except TypeError:
                raise PlayerFailure("protocol", f"the move is a {type(move).__name__}, "
                                    f"not an int: {move!r}") from None
            if not 0 <= move < view.num_distinct_moves:
                raise PlayerFailure("protocol", f"move {move} is out of range "
                                    f"0..{view.num_distinct_moves - 1}")
            if move not in view.legal_moves():
                raise PlayerFailure("illegal", f"illegal move {view.move_to_str(move)!r} for "
                                    f"seat {seat}; legal: "
                                    + " ".join(view.move_to_str(m) for m in view.legal_moves()))
        except PlayerFailure as f:
            failure = fail(seat, f)
            break
        before = [table.view(s) if other.follows_moves else None
                  for s, other in enumerate(seat_slots)]
        played = table.play(move)
        for s, other in enumerate(seat_slots):
            if before[s] is None:
                continue
            try:
                other.observe(before[s], played.observations[s])
            except PlayerFailure as f:
                failure = fail(s, f)
                break
        if failure is None and not table.is_over():
            failure = _ponder(seat_slots, table, fail)
        if failure is not None:
            break
        moves.append(played.text)
        move_seats.append(seat)
        move_seconds.append(round(seconds, 6))

    if failure is None:
        returns = table.returns()
    else:
        returns = _forfeit_returns(n, failure.seat)
    return GameRecord.for_task(
        task,
        seats=tuple(config.entrants[e].label for e in task.seats),
        specs=tuple(specs),
        moves=tuple(moves),
        move_seats=tuple(move_seats),
        move_seconds=tuple(move_seconds),
        returns=tuple(round(r, 12) for r in returns),
        scores=tuple(table.scores()),
        terminal=table.is_over(),
        failure=failure,
        seconds=round(time.perf_counter() - t_start, 6),
    )


def replay_moves(config: MatchConfig, record: GameRecord | dict):
    """Rebuild a game's final state from its record (its deal seed and moves), checking every
    move; return the state. A game line's dict is read as :meth:`GameRecord.from_json` reads
    it."""
    if not isinstance(record, GameRecord):
        record = GameRecord.from_json(record, config)
    state = catsearch.new_game(config.game, len(record.seats), seed=record.deal_seed,
                               **dict(config.game_options))
    for i, text in enumerate(record.moves):
        try:
            state.play(text)
        except ValueError as e:
            raise IllegalMoveError(f"game {record.game}, move {i} ({text!r}): {e}") from None
    return state


class Worker:
    """Holds one live player per entrant and plays games with them.

    Each backend runs one worker per process (or Ray actor); the inline backend runs one in
    the calling process.
    """

    def __init__(self, config: MatchConfig | dict) -> None:
        if isinstance(config, dict):
            config = MatchConfig.from_dict(config)
        load_imports(config.imports)
        self.config = config
        self.slots = [Slot(e, config.move_timeout) for e in config.entrants]

    def play(self, task: GameTask) -> GameRecord:
        return play_game(self.config, task, self.slots)

    def close(self) -> None:
        for s in self.slots:
            s.close()
