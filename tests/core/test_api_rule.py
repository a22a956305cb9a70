"""One rule for bad arguments, checked with Hypothesis (issue 18, item 3; ``docs/api.rst``).

For arbitrary arguments, every public function and method of every game (found by name, so a
new method is covered by being public), the top level and the notation readers raise nothing
but ``TypeError`` or a ``ValueError`` (subclass), and a state is unchanged when they raise.
The integers they take accept whatever ``operator.index`` accepts, numpy's included, and
refuse ``bool``.
"""
import operator

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import catsearch
from catsearch.games import cat_cards
from catsearch.search.spec import PlayerSpec, player_names

SETTINGS = settings(max_examples=100, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))
FEW = settings(SETTINGS, max_examples=40)

OK = (TypeError, ValueError)


class Odd:
    """Not an int, but an integer to ``operator.index``."""

    def __index__(self):
        return 1


def _states():
    """For every game: the start, a mid-game state, a seat's view and an ended game."""
    out = []
    for game in catsearch.GAMES:
        s = catsearch.new_game(game, 3, 11)
        out.append(s.clone())
        mid = s.clone()
        for k in range(12):
            if mid.is_terminal():
                break
            mid.play(mid.legal_moves()[k % len(mid.legal_moves())])
        out.append(mid)
        out.append(mid.view(mid.current_player if mid.current_player >= 0 else 0))
        end = s.clone()
        while not end.is_terminal():
            end.play(end.legal_moves()[0])
        out.append(end)
    return out


STATES = _states()
TEXTS = [s.to_text() for s in STATES]

ints = st.one_of(st.integers(-3, 70), st.integers(), st.integers(-2**70, 2**70),
                 st.sampled_from([2**31 - 1, -2**31, 2**63 - 1, -2**63, 2**64, 2**64 - 1]))
anything = st.one_of(
    ints,
    ints.filter(lambda i: -2**63 <= i < 2**63).map(np.int64),
    st.integers(0, 255).map(np.uint8),
    st.none(), st.booleans(), st.floats(), st.just(1.0), st.complex_numbers(),
    st.text(max_size=12), st.sampled_from(["0", "1", "-1", "O", "?", "x" * 200, " ", "\x00"]),
    st.binary(max_size=4), st.lists(st.integers(0, 3), max_size=3), st.just(()),
    st.builds(Odd), st.just(np.float64(1.0)), st.just(np.array([1, 2])), st.just(object()),
    st.sampled_from(catsearch.GAMES),
)


def _public(obj):
    return sorted(n for n in dir(obj) if not n.startswith("_")
                  and callable(getattr(obj, n, None)))


#: arguments that are valid but would take forever, skipped
def _too_long(name, args):
    def big(x, lo):
        try:
            return lo <= operator.index(x) and not isinstance(x, bool)
        except TypeError:
            return False
    if name in ("perft", "perft_divide"):
        return bool(args) and big(args[0], 4) and operator.index(args[0]) <= 64
    return False


def _unsafe(state, name, args):
    """``apply`` of an in-range move that is not legal: allowed by the contract (unchecked)."""
    if name != "apply" or len(args) != 1:
        return False
    try:
        m = operator.index(args[0])
    except TypeError:
        return False
    return (not isinstance(args[0], bool) and 0 <= m < state.num_distinct_moves
            and (state.is_terminal() or state.view_seat is not None
                 or m not in state.legal_moves()))


def _call(fn, *args, **kwargs):
    """Call; True if it raised TypeError or ValueError (any other exception fails)."""
    try:
        fn(*args, **kwargs)
    except OK:
        return True
    return False


@settings(SETTINGS, max_examples=400)
@given(i=st.integers(0, len(STATES) - 1), data=st.data())
def test_every_state_method_raises_only_type_or_value_errors_and_changes_nothing(i, data):
    state = STATES[i].clone()
    name = data.draw(st.sampled_from(_public(state)), label="method")
    args = data.draw(st.lists(anything, max_size=3), label="args")
    assume(not _too_long(name, args) and not _unsafe(state, name, args))
    before, h = state.to_text(), state.hash
    if _call(getattr(state, name), *args):
        assert state.to_text() == before and state.hash == h, (name, args)


@FEW
@given(game=st.sampled_from(catsearch.GAMES), players=anything, seed=anything,
       options=st.dictionaries(st.sampled_from(["target", "values", "setup", "bogus"]),
                               anything, max_size=2))
def test_new_game(game, players, seed, options):
    _call(catsearch.new_game, game, players, seed, **options)


@SETTINGS
@given(game=anything, text=anything)
def test_top_level_functions(game, text):
    _call(catsearch.from_text, game, text)
    _call(catsearch.new_game, game)
    _call(catsearch.game_class, game)
    _call(cat_cards.card_name, text)
    _call(cat_cards.set_problem, text)


@FEW
@given(game=st.sampled_from(catsearch.GAMES), players=anything, games=anything, seed=anything)
def test_benchmark_playouts(game, players, games, seed):
    try:
        too_many = operator.index(games) > 3
    except TypeError:
        too_many = False
    assume(not too_many)
    _call(catsearch.benchmark_playouts, game, players, games, seed)


def _mutations(texts):
    """Notations with a slice replaced, inserted or deleted."""
    return st.tuples(st.sampled_from(texts), st.integers(0, 2000), st.integers(0, 8),
                     st.text(alphabet="0123456789?=/ ;,-abxyzOoWSPgpG\t\u00a0", max_size=6)
                     ).map(lambda t: t[0][:t[1]] + t[3] + t[0][t[1] + t[2]:])


@SETTINGS
@given(i=st.integers(0, len(STATES) - 1), data=st.data())
def test_notation_readers(i, data):
    game = STATES[i].game_id
    text = data.draw(st.one_of(_mutations(TEXTS), st.text(max_size=40)), label="text")
    try:
        s = catsearch.from_text(game, text)
    except ValueError:
        return
    # whatever parses is a state that writes back and reads back
    assert catsearch.from_text(game, s.to_text()) == s


@SETTINGS
@given(i=st.integers(0, len(STATES) - 1),
       text=st.one_of(st.text(max_size=12), st.text(alphabet="0123456789?@xoOWSPgpGbB:-/.,=",
                                                    max_size=8)))
def test_move_readers(i, text):
    state = STATES[i].clone()
    before = state.to_text()
    for fn in (state.str_to_move, state.play, state.play_observation):
        if _call(fn, text):
            assert state.to_text() == before
        state = STATES[i].clone()


OPTION_WORDS = ["iterations", "seed", "depth", "nodes", "c", "threads", "mode", "pruning",
                "seconds", "bogus", "max_chance", "playouts", "reuse"]
VALUE_WORDS = ["1", "0", "-1", "1.5", "1e309", "nan", "true", "x", "", "2**64", "maxn",
               "18446744073709551616", "0x10", " 3 "]


@SETTINGS
@given(spec=st.one_of(
    st.text(max_size=30),
    st.tuples(st.sampled_from(list(player_names()) + ["nope", ""]),
              st.lists(st.tuples(st.sampled_from(OPTION_WORDS), st.sampled_from(["=", ":", ""]),
                                 st.sampled_from(VALUE_WORDS)), max_size=3)
              ).map(lambda t: t[0] + ":" + ",".join(k + e + v for k, e, v in t[1]))))
def test_player_specs(spec):
    for fn in (PlayerSpec.parse, catsearch.make_player):
        try:
            player = fn(spec)
        except OK:
            continue
        if hasattr(player, "close"):
            player.close()


def test_examples_of_the_rule():
    s = catsearch.new_game("herding-cats", 3, 1)
    before = s.to_text()
    with pytest.raises(catsearch.InvalidMoveError, match="move 999 is out of range"):
        s.play(999)
    with pytest.raises(TypeError):
        s.view_text(1.0)
    with pytest.raises(TypeError):
        s.perft(1.5)
    with pytest.raises(TypeError):
        s.view(True)
    with pytest.raises(ValueError, match=r"seed=-1 is out of range"):
        s.determinize(0, seed=-1)
    with pytest.raises(ValueError, match="seat 3 does not exist.*from 0 to 2"):
        s.view(3)
    with pytest.raises(ValueError, match=r"depth=65 is out of range: expected a whole number "
                                         r"from 0 to 64"):
        s.perft(65)
    with pytest.raises(ValueError, match="is for 2 to 4 players"):
        catsearch.new_game("herding-cats", players=2**70)
    assert s.to_text() == before
    # numpy integers are integers everywhere
    m = np.flatnonzero(s.legal_mask())[0]
    assert s.move_to_str(m) == s.move_to_str(int(m))
    assert s.view_text(np.int64(1)) == s.view_text(1)
    assert s.perft(np.int8(2)) == s.perft(2)
    assert s.determinize(np.int64(0), seed=np.uint64(3)) == s.determinize(0, seed=3)
    s.play(m)
    assert s.ply == 1
