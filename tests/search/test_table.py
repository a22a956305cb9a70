"""The game master (``catsearch.Table``): players get only their seat's view and their
observations, the views follow the game exactly, bad moves change nothing."""
import pytest

import catsearch
from catsearch import Table
from catsearch.errors import IllegalMoveError, InvalidMoveError
from catsearch.search.players import Player, RandomPlayer
from catsearch.search.table import PlayerError


class Spy(Player):
    """A random player that records everything the table sends it."""

    name = "spy"

    def __init__(self, seed):
        self.inner = RandomPlayer(seed=seed)
        self.sent = []          # ("search", view text, seat to move) / ("observe", view, text)

    def search(self, state, *, limits=None, info=None):
        self.sent.append(("search", state.to_text(), state.view_seat, state.current_player))
        return self.inner.search(state, limits=limits)

    def observe(self, view, observation):
        self.sent.append(("observe", view.to_text(), view.view_seat, observation))


def play_with_spies(game_id, players, seed):
    spies = [Spy(seed + s) for s in range(players)]
    start = catsearch.new_game(game_id, players, seed=seed)
    table = Table(start, spies)
    table.run()
    return start, table, spies


@pytest.mark.parametrize("game_id", catsearch.GAMES)
@pytest.mark.parametrize("players", [2, 3])
def test_each_seat_is_sent_exactly_its_view_and_its_observations(game_id, players):
    """Replaying the game on the full state: every view a player got is ``view(seat)`` of the
    full state at that moment, every observation is ``observation(seat, move)``; nothing else
    reaches a player (the law of observations proves these carry no hidden card of another
    seat: tests/conformance/test_observations.py)."""
    start, table, spies = play_with_spies(game_id, players, seed=3)
    assert table.is_over() and len(table.history) > 0
    st = start.clone()
    expected = [[] for _ in range(players)]
    for played in table.history:
        seat = st.current_player
        assert played.seat == seat
        expected[seat].append(("search", st.view_text(seat), seat, seat))
        for s in range(players):
            expected[s].append(("observe", st.view_text(s), s, st.observation(s, played.move)))
        assert played.observations == tuple(st.observation(s, played.move)
                                            for s in range(players))
        st.play(played.move)
    for s, spy in enumerate(spies):
        assert spy.sent == expected[s], f"seat {s} was sent something else"
    assert table.returns() == st.returns() and table.state == st


def test_views_follow_the_game_and_are_copies():
    table = Table(catsearch.new_game("herding-cats", 3, seed=4))
    while not table.is_over():
        seat = table.current_player
        view = table.view(seat)
        view.play(view.legal_moves()[0])          # a copy: the table's view is untouched
        assert table.view(seat).to_text() != view.to_text()
        table.play(table.view(seat).legal_moves()[-1])
        for s in range(3):
            assert table.view(s).to_text() == table.state.view_text(s)


def test_a_bad_move_changes_nothing():
    table = Table(catsearch.new_game("cat-earth", 2, seed=2))
    before = [table.view(s).to_text() for s in range(2)]
    with pytest.raises(InvalidMoveError):
        table.play("no-such-move")
    with pytest.raises(InvalidMoveError):
        table.play(10**9)
    with pytest.raises(TypeError):
        table.play(1.5)
    illegal = next(m for m in range(table.view(0).num_distinct_moves)
                   if m not in table.view(table.current_player).legal_moves())
    with pytest.raises(IllegalMoveError):
        table.play(illegal)
    assert [table.view(s).to_text() for s in range(2)] == before and not table.history


def test_a_player_answering_an_illegal_move_is_named():
    class Liar(RandomPlayer):
        name = "liar"

        def search(self, state, *, limits=None, info=None):
            r = super().search(state)
            bad = next(m for m in range(state.num_distinct_moves) if m not in state.legal_moves())
            return type(r)(move=bad, value=r.value)

    start = catsearch.new_game("herding-cats", 2, seed=1)
    table = Table(start, [Liar(seed=1), Liar(seed=2)])
    with pytest.raises(PlayerError, match="seat 0's player") as e:
        table.step()
    assert e.value.seat == 0 and not table.history


def test_the_table_refuses_what_is_not_a_game():
    st = catsearch.new_game("herding-cats", 2, seed=1)
    with pytest.raises(ValueError, match="view"):
        Table(st.view(0))
    with pytest.raises(ValueError, match="3 players for 2 seats"):
        Table(st, [None, None, None])
    with pytest.raises(TypeError, match="not a Player"):
        Table(st, ["random", None])
    with pytest.raises(TypeError):
        Table("herding-cats")
    table = Table(st)
    with pytest.raises(ValueError, match="no player"):
        table.step()
    with pytest.raises(ValueError, match="seat 5"):
        table.view(5)


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_reuse_searchers_follow_the_game_by_observations(game_id):
    """ISMCTS with reuse plays a whole game at a table, told only observations."""
    players = [catsearch.make_player("ismcts:iterations=60,seed=1,reuse=true,cutoff=10"),
               catsearch.make_player("random:seed=2")]
    table = Table(catsearch.new_game(game_id, 2, seed=9), players)
    returns = table.run()
    assert sum(returns) == pytest.approx(1.0)
