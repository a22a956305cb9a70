"""The game kit: a declaration, and what the kit derives from it for every game."""
import pickle
import re
from pathlib import Path

import pytest

import catsearch
from catsearch._core import state as state_module
from catsearch._core.game import GameSpec, listed, lookup, registered
from catsearch._core.options import OptionError

CORE = Path(catsearch.__file__).parent / "_core"


def test_the_registry_is_built_from_the_declarations():
    assert catsearch.GAMES == listed() == ("herding-cats", "the-cat", "cat-cards", "cat-earth")
    for g in catsearch.GAMES:
        cls = catsearch.game_class(g)
        assert cls.spec.id == g and lookup(g) is cls
        assert catsearch.new_game(g, seed=1).num_distinct_moves == cls.spec.moves
    assert set(registered()) >= set(catsearch.GAMES)


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_player_counts_are_checked_by_type_and_range(game_id):
    assert catsearch.new_game(game_id, seed=1).players == 3
    with pytest.raises(OptionError, match=f"{game_id} is for 2 to 4 players, not 5"):
        catsearch.new_game(game_id, 5)
    with pytest.raises(TypeError, match="players"):
        catsearch.new_game(game_id, 2.0)
    with pytest.raises(TypeError):
        catsearch.new_game(game_id, True)


@pytest.mark.parametrize("seed", [-1, 2**64])
def test_seeds_are_checked_once(seed):
    with pytest.raises(OptionError, match=r"2\*\*64 - 1"):
        catsearch.new_game("herding-cats", 3, seed)
    with pytest.raises(TypeError):
        catsearch.new_game("herding-cats", 3, "7")
    assert catsearch.new_game("herding-cats", 3, 2**64 - 1) == catsearch.new_game(
        "herding-cats", 3, 2**64 - 1)


@pytest.mark.parametrize("game_id,options,kind,words", [
    ("herding-cats", {"x": 1}, OptionError, "unknown option 'x'; the options are (none)"),
    ("the-cat", {"target": 15}, OptionError, "target is 20 (the default) or 12"),
    ("the-cat", {"target": "twelve"}, TypeError, "target"),
    ("cat-earth", {"setup": "fast"}, OptionError, "expected one of moves, random"),
    ("cat-earth", {"setup": 1}, TypeError, "setup"),
    ("cat-cards", {"values": (1, 2)}, OptionError, "values"),
])
def test_options_are_checked_with_one_kind_of_message(game_id, options, kind, words):
    with pytest.raises(kind) as e:
        catsearch.new_game(game_id, 3, 1, **options)
    assert words in str(e.value) and game_id in str(e.value)


def test_option_values_reach_the_game():
    assert catsearch.new_game("the-cat", 3, 1, target=12).target == 12
    assert "setup=random" in catsearch.new_game("cat-earth", 3, 1, setup="random").to_text()
    assert catsearch.new_game("cat-cards", 3, 1, values="1,1,1,1,1").values == (1, 1, 1, 1, 1)


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_a_view_stands_only_for_its_own_seat(game_id):
    view = catsearch.new_game(game_id, 3, 2).view(1)
    with pytest.raises(ValueError, match="seat 1's view"):
        view.determinize(2, seed=1)
    with pytest.raises(ValueError, match="seat 3 does not exist"):
        view.view(3)


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_pickling_goes_through_the_class_not_the_registry(game_id):
    st = catsearch.new_game(game_id, 3, 4)
    fn, args = st.__reduce__()
    assert fn is state_module._restore and args == (type(st), st.to_text())
    assert pickle.loads(pickle.dumps(st)) == st


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_a_full_state_must_give_its_generator(game_id):
    text = catsearch.new_game(game_id, 2, 3).to_text()
    with pytest.raises(catsearch.NotationError, match="rng"):
        catsearch.from_text(game_id, re.sub(r"rng=\w+", "rng=?", text))


def test_a_class_that_holds_more_than_its_struct_is_refused():
    from catsearch._core.game import register
    from catsearch.testing import ToyRPS

    class Odd(ToyRPS):
        pass

    Odd.spec = GameSpec(id="toy-odd", name="Odd", size=ToyRPS.spec.size + 8, moves=3,
                        notation=ToyRPS.spec.notation)
    with pytest.raises(TypeError, match="one C field"):
        register(Odd, listed=False)


def test_the_core_imports_nothing_above_it():
    """``_core`` is the bottom of arena -> engine -> search -> games -> _core."""
    above = re.compile(r"^\s*(from|cimport|import)\s+catsearch\.(games|search|engine|arena|"
                       r"testing|play|interop)\b", re.M)
    for path in sorted(CORE.glob("*.p*")):
        if path.suffix in (".py", ".pyx", ".pxd"):
            assert not above.search(path.read_text()), f"{path.name} imports upward"
