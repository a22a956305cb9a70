"""One way to declare and check options: types, ranges, text, seeds and their derivation."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

from catsearch._core.options import (
    Option, OptionError, SEED_MAX, check_options, check_seed, derive_seed, mix64,
)

ITERATIONS = Option("iterations", int, 10_000, 1, 10**9)
C = Option("exploration", float, 0.7, 0.0)
FINAL = Option("final", ("visits", "mean"), "visits")
REUSE = Option("reuse", bool, False)
DECLARED = (ITERATIONS, C, FINAL, REUSE)


def test_defaults_fill_in_and_aliases_map_to_full_names():
    assert check_options(DECLARED, {"c": 1.5}, "ismcts", aliases={"c": "exploration"}) == {
        "iterations": 10_000, "exploration": 1.5, "final": "visits", "reuse": False}


@pytest.mark.parametrize("opt,value", [(ITERATIONS, 1.5), (ITERATIONS, "3"), (ITERATIONS, True),
                                       (C, "x"), (FINAL, 3), (REUSE, 1), (ITERATIONS, None)])
def test_a_value_of_the_wrong_type_is_a_type_error(opt, value):
    with pytest.raises(TypeError, match=opt.name):
        opt.check(value, "ismcts")


@pytest.mark.parametrize("opt,value", [(ITERATIONS, 0), (ITERATIONS, 10**9 + 1), (C, -0.1),
                                       (C, float("nan")), (C, float("inf")), (FINAL, "best")])
def test_a_value_out_of_range_is_an_option_error_naming_option_value_and_range(opt, value):
    with pytest.raises(OptionError) as e:
        opt.check(value, "ismcts")
    assert isinstance(e.value, ValueError)
    assert opt.name in str(e.value) and repr(value) in str(e.value)
    assert opt.describe() in str(e.value)
    assert e.value.option == opt.name and e.value.owner == "ismcts"


def test_anything_operator_index_accepts_is_an_int():
    assert ITERATIONS.check(np.int64(5)) == 5 and type(ITERATIONS.check(np.int32(5))) is int
    assert C.check(np.float32(0.5)) == 0.5 and C.check(2) == 2.0


def test_text_is_parsed_then_checked():
    assert check_options(DECLARED, {"iterations": "300", "reuse": "on", "final": "mean"},
                         text=True)["iterations"] == 300
    with pytest.raises(OptionError, match="iterations='3x'"):
        ITERATIONS.parse("3x")
    with pytest.raises(OptionError, match="out of range"):
        ITERATIONS.parse("0")


def test_unknown_and_repeated_options_are_named():
    with pytest.raises(OptionError, match="unknown option 'iters'.*exploration, final"):
        check_options(DECLARED, {"iters": 3}, "ismcts")
    with pytest.raises(OptionError, match="given twice"):
        check_options(DECLARED, {"c": 1.0, "exploration": 2.0}, aliases={"c": "exploration"})


def test_seeds_are_whole_numbers_from_0_to_2_64_minus_1():
    assert check_seed(0) == 0 and check_seed(SEED_MAX) == SEED_MAX and check_seed(None) is None
    for bad in (-1, 2**64):
        with pytest.raises(OptionError, match="2\\*\\*64 - 1"):
            check_seed(bad)
    with pytest.raises(TypeError):
        check_seed(1.0)
    with pytest.raises(TypeError):
        check_seed(None, none_ok=False)


@given(st.integers(0, SEED_MAX), st.lists(st.integers(0, 1000), max_size=3))
def test_derived_seeds_are_seeds_and_depend_on_the_path(seed, path):
    child = derive_seed(seed, *path)
    assert 0 <= child <= SEED_MAX
    assert derive_seed(seed, *path) == child
    assert derive_seed(seed, *path, 1) != derive_seed(seed, *path, 2)


def test_mix64_is_splitmix64():
    # the first output of splitmix64 seeded with 0 (Steele, Lea & Flood 2014)
    assert mix64(0) == 0xE220A8397B1DCDAF
