"""Issue 33, item 4: wrong input is a TypeError or a ValueError naming it, never anything else.

- Numbers written as text (player specs, ``setoption``, game options on command lines, the
  web's query, notation fields) are read by one reader, ``options.parse_int``: ASCII digits
  with an optional leading ``-``, nothing else (``docs/api.rst``, "Numbers written as text").
- An option given by an alias is named as the user wrote it.
- ``Limits`` checks its fields when it is made, so no player takes a bad one.
- ``heuristic_move(weights=...)`` of the wrong type is a TypeError naming it.
"""
import math
import re

import numpy as np
import pytest
from hypothesis import given, strategies as st

import catsearch
from catsearch._core.options import OptionError, check_options, option_value, parse_int
from catsearch.engine.commands import BadInput
from catsearch.engine.options import EngineOptions, set_option
from catsearch.search import Limits
from catsearch.search.options import ISMCTS_OPTIONS, MCTS_ALIASES
from catsearch.search.spec import PlayerSpec

#: the integers the issue names, each as Python's int() reads it (all are accepted by it)
BAD_INTEGERS = ["\u0663", "1_000", "+5", "0x10", " 5"]
#: and a few more that int() or a careless check would take
MORE_BAD = ["5 ", "5\n", "\u00b2", "\uff15", "1e3", "5.0", "", "-", "--5", "0b1", "true"]


# -- the one reader ----------------------------------------------------------------------------

_TEXT = st.one_of(
    st.from_regex(r"-?[0-9]{1,25}", fullmatch=True),
    st.text(alphabet="0123456789-+_ x.e\n\t\u0663\u00b2\uff15\u0966", max_size=12),
    st.text(max_size=8),
)
_BOUND = st.one_of(st.none(), st.integers(-10**20, 10**20))


@given(_TEXT, _BOUND, _BOUND)
def test_parse_int_accepts_exactly_plain_digits_within_range(text, low, high):
    plain = re.fullmatch(r"-?[0-9]+", text, flags=re.ASCII) is not None
    inside = plain and (low is None or int(text) >= low) and (high is None or int(text) <= high)
    if inside:
        assert parse_int(text, "n", low, high) == int(text)
    else:
        with pytest.raises(OptionError) as e:
            parse_int(text, "n", low, high)
        assert str(e.value).startswith("n=") and e.value.option == "n"


@pytest.mark.parametrize("text", BAD_INTEGERS + MORE_BAD)
def test_parse_int_refuses_what_int_would_read_naming_name_and_text(text):
    with pytest.raises(OptionError) as e:
        parse_int(text, "iterations", 0, 100)
    assert f"iterations={text!r}" in str(e.value)


def test_parse_int_refuses_a_huge_number_without_converting_it():
    with pytest.raises(OptionError, match=r"n=9{20}.*out of range"):
        parse_int("9" * 100_000, "n", 0, 10)
    with pytest.raises(OptionError, match="out of range"):
        parse_int("9" * 100_000, "n")      # beyond Python's own digit limit


@pytest.mark.parametrize("value", [5, 5.0, b"5", None, ["5"]])
def test_parse_int_takes_only_text(value):
    with pytest.raises(TypeError, match="n must be text"):
        parse_int(value, "n")


# -- player specs, the engine's setoption, game options -------------------------------------

@pytest.mark.parametrize("text", BAD_INTEGERS)
def test_a_spec_integer_written_otherwise_is_an_error_naming_option_and_text(text):
    with pytest.raises(OptionError) as e:
        check_options(ISMCTS_OPTIONS, {"iterations": text}, "ismcts", text=True)
    assert f"option iterations={text!r}" in str(e.value)
    assert e.value.option == "iterations" and e.value.value == text


@pytest.mark.parametrize("text", [t for t in BAD_INTEGERS if t.strip() == t])
@pytest.mark.parametrize("option", ["iterations", "seed", "threads", "max_nodes"])
def test_make_player_refuses_those_integers(option, text):
    with pytest.raises(OptionError) as e:
        catsearch.make_player(f"ismcts:{option}={text}")
    assert f"option {option}={text!r}" in str(e.value)


@pytest.mark.parametrize("text", BAD_INTEGERS)
@pytest.mark.parametrize("option", ["Iterations", "Threads", "Seed", "MoveTime"])
def test_setoption_refuses_those_integers(option, text):
    with pytest.raises(BadInput) as e:
        set_option(EngineOptions(player="random"), option, text)
    assert f"setoption {option}={text!r} is not a whole number" in str(e.value)


@pytest.mark.parametrize("text", ["nan", "inf", "-inf", "1_0.5", "\u0663.5", "1.5.2", "0x1p-2", "+1"])
def test_a_spec_float_is_read_as_strictly(text):
    with pytest.raises(OptionError) as e:
        catsearch.make_player(f"ismcts:exploration={text}")
    assert "option exploration=" in str(e.value)


@pytest.mark.parametrize("text", BAD_INTEGERS)
def test_a_game_option_written_otherwise_is_not_a_number(text):
    """Command lines and the engine read game options by one rule (option_value): such a text
    stays text, and the game's option then refuses it by name."""
    assert option_value(text) == text
    with pytest.raises(TypeError, match="option target"):
        catsearch.new_game("the-cat", players=3, seed=1, target=option_value(text))


def test_game_option_values_are_read_by_the_one_reader():
    from catsearch.arena.config import parse_game_option
    from catsearch.play.terminal import parse_options
    assert parse_game_option("target=-12") == ("target", -12)
    assert parse_game_option("target=1_000") == ("target", "1_000")
    assert parse_options(["target=12", "x=\u0663", "y=0.5"]) == {"target": 12, "x": "\u0663",
                                                                "y": 0.5}


def test_cat_cards_values_text_is_read_by_the_one_reader():
    assert catsearch.new_game("cat-cards", players=2, seed=1, values="3,2,1,4,1") is not None
    with pytest.raises(OptionError, match="values="):
        catsearch.new_game("cat-cards", players=2, seed=1, values="\u0663,2,1,4,1")


def test_a_notation_number_in_other_digits_is_a_notation_error():
    text = catsearch.new_game("herding-cats", players=3, seed=1).to_text()
    for bad in ("players=\u0663", "players=+3", "players=0x3", "players=3_"):
        with pytest.raises(catsearch.NotationError, match="players"):
            catsearch.from_text("herding-cats", text.replace("players=3", bad))


@pytest.mark.parametrize("raw", ["\u00b2", "+2", "2_0", " 2", "0x2", "\u0663"])
def test_the_web_query_reads_numbers_by_the_one_reader(raw):
    pytest.importorskip("starlette")
    from catsearch.play.web import ApiError, new_game_params
    with pytest.raises(ApiError) as e:
        new_game_params({"game": "herding-cats", "players": raw})
    assert e.value.status == 400 and f"players={raw!r}" in e.value.message


# -- an alias is named as written -------------------------------------------------------------

@pytest.mark.parametrize("spec,written", [
    ("ismcts:threads=100000", "threads=100000"),
    ("ismcts:threads=0", "threads=0"),
    ("ismcts:threads=x", "threads='x'"),
    ("ismcts:iters=-1", "iters=-1"),
    ("ismcts:c=-1", "c=-1.0"),
    ("pimc:dets=0", "dets=0"),
    ("expectimax:d=\u0663", "d='\u0663'"),
])
def test_an_alias_is_named_as_the_user_wrote_it(spec, written):
    with pytest.raises(OptionError) as e:
        catsearch.make_player(spec)
    assert f"option {written}" in str(e.value)
    assert e.value.option == written.partition("=")[0]


def test_an_alias_is_named_as_written_by_constructors_and_replace():
    from catsearch.search.mcts import ISMCTS
    with pytest.raises(OptionError, match="option threads=100000 is out of range"):
        ISMCTS(threads=100000)
    with pytest.raises(TypeError, match="option threads must be"):
        ISMCTS(threads=2.0)
    with pytest.raises(OptionError, match="option threads=100000 is out of range"):
        PlayerSpec.parse("ismcts").replace(threads=100000)
    assert "threads" in MCTS_ALIASES       # the alias these tests are about


# -- bool and float where a whole number is expected ------------------------------------------

@pytest.mark.parametrize("value", [True, False, 1.0, 2.5, np.float64(3.0), "3"])
def test_a_bool_or_float_is_no_whole_number_option(value):
    from catsearch.search.mcts import ISMCTS
    with pytest.raises(TypeError, match="option iterations must be a whole number"):
        ISMCTS(iterations=value)


# -- Limits ------------------------------------------------------------------------------------

@pytest.mark.parametrize("field,value,error", [
    ("seed", 1.5, TypeError), ("seed", True, TypeError), ("seed", "1", TypeError),
    ("seed", -1, OptionError), ("seed", 2**64, OptionError),
    ("iterations", "5", TypeError), ("iterations", 5.0, TypeError),
    ("iterations", True, TypeError), ("iterations", 0, OptionError),
    ("nodes", 1.0, TypeError), ("nodes", 0, OptionError),
    ("depth", 2.0, TypeError), ("depth", 0, OptionError),
    ("seconds", math.nan, OptionError), ("seconds", math.inf, OptionError),
    ("seconds", 0, OptionError), ("seconds", -1.0, OptionError), ("seconds", "1", TypeError),
    ("infinite", 1, TypeError), ("infinite", "yes", TypeError),
])
def test_limits_check_their_fields_when_made(field, value, error):
    with pytest.raises(error) as e:
        Limits(**{field: value})
    assert f"Limits.{field}" in str(e.value)
    if error is OptionError:
        assert repr(float(value) if field == "seconds" else value) in str(e.value)


def test_limits_normalise_what_they_accept():
    lim = Limits(iterations=np.int64(5), seconds=2, seed=np.uint64(7))
    assert (type(lim.iterations), type(lim.seconds), type(lim.seed)) == (int, float, int)


@pytest.mark.parametrize("spec", ["random", "heuristic", "ismcts:iterations=20",
                                  "pimc:iterations=20,dets=2", "expectimax:depth=1"])
def test_every_player_refuses_what_is_not_a_limits(spec):
    state = catsearch.new_game("herding-cats", players=3, seed=1)
    player = catsearch.make_player(spec)
    for bad in ("x", {"seed": 1.5}, 5):
        with pytest.raises(TypeError, match="limits must be"):
            player.search(state, limits=bad)
    assert player.search(state, limits=Limits(seed=3)).move in state.legal_moves()


# -- the heuristic's weights -------------------------------------------------------------------

@pytest.mark.parametrize("weights", ["abc", 5, [1.0], [1.0] * 10, (1, 2), b"ab", 0, "", []])
def test_heuristic_move_weights_of_the_wrong_type_is_a_type_error(weights):
    state = catsearch.new_game("herding-cats", players=3, seed=1)
    with pytest.raises(TypeError) as e:
        state.heuristic_move(weights=weights)
    assert "weights must be a mapping" in str(e.value)
    assert type(weights).__name__ in str(e.value) and repr(weights)[:20] in str(e.value)


@pytest.mark.parametrize("weights,error,needle", [
    ({1: 2.0}, TypeError, "a name in weights is a str, not int 1"),
    ({"complete": "x"}, TypeError, "weights.complete must be a finite number, not str 'x'"),
    ({"complete": True}, TypeError, "weights.complete must be a finite number, not True"),
    ({"complete": math.nan}, OptionError, "weights.complete=nan"),
    ({"nope": 1.0}, OptionError, "no weight 'nope'"),
])
def test_heuristic_move_weights_name_what_is_wrong(weights, error, needle):
    state = catsearch.new_game("herding-cats", players=3, seed=1)
    with pytest.raises(error) as e:
        state.heuristic_move(weights=weights)
    assert needle in str(e.value)


def test_heuristic_move_takes_a_mapping_or_none():
    state = catsearch.new_game("herding-cats", players=3, seed=1)
    plain = state.heuristic_move(seed=1)
    assert state.heuristic_move(seed=1, weights=None) == plain
    assert state.heuristic_move(seed=1, weights={}) == plain
    assert state.heuristic_move(seed=1, weights={"complete": 2.0}) in state.legal_moves()
