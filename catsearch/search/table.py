"""The game master: the one place a live game's full state is held.

A :class:`Table` holds the full state and, for each seat, that seat's view as the seat has
followed it: from its first view (``state.view(seat)`` at the deal), one observation per
move (:meth:`State.observation <catsearch._core.state.State.observation>`). It asks the seat
to move for its move from that seat's view only, checks the move, and tells every seat what
it saw (:meth:`Player.observe <catsearch.search.players.Player.observe>`). Players never
receive the full state; nothing about it leaves the table but observations, views, and the
result at the end.

Seats without a player are played by the host (a person at a terminal or in a browser, an
engine over a protocol): it reads :meth:`Table.view` for that seat and calls
:meth:`Table.play`. ``catsearch-play``, the arena and the engine client drive their games
through a table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from catsearch._core.state import State
from catsearch.errors import IllegalMoveError
from catsearch.search.limits import Limits
from catsearch.search.players import Player, SearchResult

__all__ = ["Table", "Played", "PlayerError"]


class PlayerError(IllegalMoveError):
    """A seat's player answered something that is not a legal move here.

    :ivar seat: the seat whose player it is.
    """

    def __init__(self, message: str, seat: int) -> None:
        super().__init__(message)
        self.seat = seat


@dataclass(frozen=True)
class Played:
    """One move played at a table (frozen).

    :ivar seat: the seat that moved.
    :ivar move: the move (an int of the game); ``text`` is its notation. Both are the full
        move: for the master's records, not for the other seats (they get ``observations``).
    :ivar observations: what each seat saw of it, by seat (the texts sent to each).
    :ivar result: the player's search result, when a player of the table chose the move.
    """

    seat: int
    move: int
    text: str
    observations: tuple[str, ...]
    result: SearchResult | None = None


class Table:
    """A live game: the full state, one player (or the host) per seat, and each seat's view.

    :param state: the game at its start (a full state, not a seat's view; it is copied).
    :param players: one :class:`Player` or ``None`` (played by the host with :meth:`play`)
        per seat; ``None`` for a table whose every seat is played by the host.
    :param new_game: tell each player a new game starts (:meth:`Player.new_game`).
    :raises TypeError: ``state`` is not a state, or a player is not a :class:`Player`.
    :raises ValueError: ``state`` is a seat's view, or the players do not match the seats.
    """

    def __init__(self, state: State, players: Sequence[Player | None] | None = None, *,
                 new_game: bool = True) -> None:
        if not isinstance(state, State):
            raise TypeError(f"a table is set with a State, not {type(state).__name__}")
        if state.view_seat is not None:
            raise ValueError(f"a table holds the full state; this is seat {state.view_seat}'s "
                             "view")
        n = state.players
        players = [None] * n if players is None else list(players)
        if len(players) != n:
            raise ValueError(f"{len(players)} players for {n} seats")
        for seat, p in enumerate(players):
            if p is not None and not isinstance(p, Player):
                raise TypeError(f"seat {seat}'s player is a {type(p).__name__}, not a Player")
        self._state = state.clone()
        self._players = tuple(players)
        self._views = [self._state.view(s) for s in range(n)]
        self._history: list[Played] = []
        if new_game:
            for p in self._players:
                if p is not None:
                    p.new_game()

    # -- what the host may read ----------------------------------------------------------
    @property
    def players(self) -> tuple[Player | None, ...]:
        return self._players

    @property
    def current_player(self) -> int:
        """The seat to move (``-1`` once the game is over)."""
        return self._state.current_player

    def is_over(self) -> bool:
        return self._state.is_terminal()

    def view(self, seat: int) -> State:
        """A copy of ``seat``'s view, as the seat has followed it by its observations."""
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TypeError(f"a seat is an int, not {type(seat).__name__}")
        if not 0 <= seat < len(self._views):
            raise ValueError(f"seat {seat} does not exist; seats are 0..{len(self._views) - 1}")
        return self._views[seat].clone()

    @property
    def history(self) -> tuple[Played, ...]:
        """Every move played so far (full moves: the master's record)."""
        return tuple(self._history)

    def returns(self) -> list[float]:
        """Each seat's share of the win (all 0 until the game is over)."""
        return self._state.returns()

    def scores(self) -> list:
        return self._state.scores()

    @property
    def state(self) -> State:
        """A copy of the full state, for the host that runs the table (to record or show the
        game to someone who may see every card): never send it to a seat."""
        return self._state.clone()

    # -- playing ---------------------------------------------------------------------------
    def play(self, move: int | str) -> Played:
        """Play ``move`` (an int or its text, read in the mover's view) for the seat to move:
        check it, send every seat its observation, and return what was played.

        :raises InvalidMoveError: the move does not parse or is out of range.
        :raises IllegalMoveError: it is not legal here (nothing changes).
        """
        return self._play(move, None)

    def step(self, limits: Limits | None = None) -> Played:
        """Ask the player of the seat to move for its move, from that seat's view, and play it.

        :raises ValueError: the game is over, or the seat to move has no player (the host
            plays it with :meth:`play`).
        :raises PlayerError: the player's move is not a legal move (nothing changes).
        """
        seat = self._state.current_player
        if seat < 0:
            raise ValueError("the game is over: there is no seat to move")
        player = self._players[seat]
        if player is None:
            raise ValueError(f"seat {seat} has no player at this table: play its move with "
                             "Table.play")
        result = player.search(self._views[seat].clone(), limits=limits)
        move = result.move
        try:
            return self._play(move, result)
        except (TypeError, ValueError) as e:
            raise PlayerError(f"seat {seat}'s player ({player.spec}) answered {move!r}: {e}",
                              seat) from None

    def run(self, limits: Limits | None = None,
            on_move: Callable[[Played], None] | None = None) -> list[float]:
        """Play the game to its end with the table's players; return the returns."""
        while not self._state.is_terminal():
            played = self.step(limits)
            if on_move is not None:
                on_move(played)
        return self.returns()

    def _play(self, move, result: SearchResult | None) -> Played:
        st = self._state
        seat = st.current_player
        mover_view = self._views[seat] if seat >= 0 else st
        m = mover_view.str_to_move(move) if isinstance(move, str) else move
        if isinstance(m, bool) or not isinstance(m, int):
            raise TypeError(f"a move is an int or a str, not {type(move).__name__}")
        observations = tuple(st.observation(s, m) for s in range(st.players))
        before = [v.clone() for v in self._views]
        for s, text in enumerate(observations):
            self._views[s].play_observation(text)
        text = st.move_to_str(m)
        st.apply(m)
        played = Played(seat, m, text, observations, result)
        self._history.append(played)
        for s, p in enumerate(self._players):
            if p is not None:
                p.observe(before[s], observations[s])
        return played

    def close(self) -> None:
        """Close every player of the table."""
        for p in self._players:
            if p is not None:
                p.close()

    def __repr__(self) -> str:
        seats = ", ".join("host" if p is None else repr(p.spec) for p in self._players)
        return (f"<Table {self._state.game_id} {self._state.players} seats ({seats}), "
                f"ply {self._state.ply}>")
