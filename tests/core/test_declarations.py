"""What is per game is declared by the game (GameSpec): the longest game, the searchers'
defaults, the glosses and the browser's drawing are read from the declaration, and a game
that declares none of them still works everywhere generic (the toy games declare none)."""
import pytest

import catsearch
from catsearch.play.glosses import describe_observation
from catsearch.search.options import NO_GAME_DEFAULT, game_default
from catsearch.testing import TOY_GAMES, check_game


def test_the_four_games_declare_everything():
    # not parametrized over GAMES: tests/core/test_new_game.py runs those on a new game, and a
    # new game need not declare these
    for game_id in catsearch.GAMES:
        spec = catsearch.game_class(game_id).spec
        assert spec.render == game_id and spec.gloss is not None
        for n in range(spec.seats[0], spec.seats[1] + 1):
            assert spec.max_game_length(n) > 0
        for name, value in spec.search_defaults:
            assert game_default(name, game_id) == value


@pytest.mark.parametrize("game_id", TOY_GAMES)
def test_a_game_that_declares_nothing_more_works_everywhere(game_id):
    spec = catsearch.game_class(game_id).spec
    assert spec.max_game_length is None and spec.gloss is None and spec.render is None
    assert spec.search_defaults == () and spec.ladder == ()
    for name, value in NO_GAME_DEFAULT.items():
        assert game_default(name, game_id) == value
    assert describe_observation(game_id, "anything") is None
    st = catsearch.new_game(game_id, players=2, seed=1)
    player = catsearch.make_player("ismcts:iterations=50,seed=1")
    assert player.choose_move(st) in st.legal_moves()
    check_game(game_id, 2, games=1, playouts=10, draws=50)


def test_the_declarations_are_checked():
    import dataclasses
    from catsearch.testing.conformance import ConformanceError, _Checker, _check_declaration
    spec = catsearch.game_class("herding-cats").spec
    ck = _Checker("herding-cats", 2, 0, {})
    with pytest.raises(ConformanceError, match="'playouts'.*no searcher option"):
        _check_declaration(ck, dataclasses.replace(spec, search_defaults=(("playouts", 3),)), 2)
    with pytest.raises(ConformanceError, match="max_game_length"):
        _check_declaration(ck, dataclasses.replace(spec, max_game_length=lambda n: 0), 2)
    with pytest.raises(ConformanceError, match="ladder.*10 levels, not 2"):
        _check_declaration(ck, dataclasses.replace(spec, ladder=((4, 1.0), (8, 0.5))), 2)
    zero = tuple((9 - k, 0.5) for k in range(10))
    with pytest.raises(ConformanceError, match="level 10's iterations \\(0\\)"):
        _check_declaration(ck, dataclasses.replace(spec, ladder=zero), 2)


@pytest.mark.parametrize("game_id, hidden", [("herding-cats", False), ("the-cat", True),
                                             ("cat-cards", False), ("cat-earth", False),
                                             ("toy-rps", True), ("toy-pennies", True),
                                             ("toy-sum", False)])
def test_each_game_declares_its_hidden_moves(game_id, hidden):
    # The Cat's simultaneous actions (and the toys' choices) are seen by the other seats as
    # "some choice"; every move of the other games is seen as it was made
    assert catsearch.game_class(game_id).spec.hidden_moves is hidden
    st = catsearch.new_game(game_id, seed=3)
    for _ in range(40):
        if st.is_terminal():
            break
        m = st.legal_moves()[0]
        if not hidden:
            assert all(st.observe_move(m, q) == m for q in range(st.players))
        st.apply(m)


def test_hidden_moves_defaults_to_false_and_is_checked():
    import dataclasses
    from catsearch._core.game import GameSpec
    from catsearch.testing.conformance import ConformanceError, _Checker, _check_declaration
    assert GameSpec(id="x", name="X", size=8, moves=2,
                    notation=("players", "rng", "view?")).hidden_moves is False
    spec = catsearch.game_class("the-cat").spec
    ck = _Checker("the-cat", 2, 0, {})
    _check_declaration(ck, spec, 2)
    with pytest.raises(ConformanceError, match="hidden_moves is 1: True or False"):
        _check_declaration(ck, dataclasses.replace(spec, hidden_moves=1), 2)


def test_a_hidden_move_the_game_does_not_declare_is_refused():
    from catsearch.testing.conformance import ConformanceError, _Checker, _check_move_seen
    st = catsearch.new_game("the-cat", players=2, seed=1)
    ck = _Checker("the-cat", 2, 0, {})
    with pytest.raises(ConformanceError, match="declares no hidden moves: set "
                                               "GameSpec.hidden_moves=True"):
        _check_move_seen(ck, 0, 1, 0, st, st.legal_moves()[0])
    hc = catsearch.new_game("herding-cats", players=2, seed=1)
    _check_move_seen(_Checker("herding-cats", 2, 0, {}), 0, 1, 0, hc, hc.legal_moves()[0])
