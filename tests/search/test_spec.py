"""Player specs: parsed once, checked by each player's declared options, written back."""
import pytest

import catsearch
from catsearch._core.options import OptionError
from catsearch.search.spec import PlayerSpec, player_class

SPECS = ["random", "heuristic:seed=3", "ismcts:iterations=2000,c=0.7,seed=3",
         "pimc:iterations=100,determinizations=4", "expectimax:depth=2,seed=5"]


@pytest.mark.parametrize("text", SPECS)
def test_str_parses_back_to_an_equal_spec(text):
    spec = PlayerSpec.parse(text)
    assert PlayerSpec.parse(str(spec)) == spec
    assert eval(repr(spec)) == spec
    assert type(spec.build()) is player_class(spec.name)


def test_aliases_become_full_names_and_options_are_kept_in_name_order():
    spec = PlayerSpec.parse("ismcts:seed=3,c=0.7,threads=2")
    assert spec.options == (("exploration", 0.7), ("seed", 3), ("workers", 2))
    assert "threads" in spec and spec.get("c") == 0.7
    assert str(spec) == "ismcts:exploration=0.7,seed=3,workers=2"


def test_replace_checks_like_parse_and_leaves_the_original_alone():
    spec = PlayerSpec.parse("ismcts:iterations=300")
    seeded = spec.replace(seed=9, threads=2)
    assert seeded.get("seed") == 9 and seeded.get("workers") == 2 and "seed" not in spec
    assert seeded.without("seed") == spec.replace(workers=2)
    with pytest.raises(OptionError, match="unknown option 'bogus'"):
        spec.replace(bogus=1)
    with pytest.raises(TypeError, match="iterations"):
        spec.replace(iterations="many")


@pytest.mark.parametrize("text,error,fragment", [
    ("nobody", OptionError, "unknown player 'nobody'"),
    ("ismcts:iterations", OptionError, "expected key=value"),
    ("ismcts:iterations=1,iterations=2", OptionError, "given twice"),
    ("ismcts:iterations=x", OptionError, "iterations='x'"),
    ("random:seed=-1", OptionError, "seed=-1 is out of range"),
    ("random:seed=18446744073709551616", OptionError, "out of range"),
    ("", OptionError, "non-empty"),
    # the heuristic's weights (tests/games/test_heuristic_weights.py)
    ("ismcts:weights=3", OptionError, "set its members one by one"),
    ("ismcts:weights.start=x", OptionError, "weights.start='x' is not valid"),
    ("ismcts:weights.start=nan", OptionError, "weights.start='nan' is not valid: expected a finite number"),
    ("ismcts:weights.start=1,weights.start=2", OptionError, "given twice"),
    ("ismcts:weights.1x=1", OptionError, "a member's name is a word"),
    ("random:weights.start=1", OptionError, "unknown option 'weights.start'"),
])
def test_bad_specs_name_what_was_wrong(text, error, fragment):
    with pytest.raises(error, match=fragment):
        PlayerSpec.parse(text)
    with pytest.raises(ValueError):
        catsearch.make_player(text)


def test_a_spec_that_is_not_a_str_is_a_type_error():
    with pytest.raises(TypeError):
        PlayerSpec.parse(3)
