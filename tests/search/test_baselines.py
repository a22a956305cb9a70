"""The player interface, the spec parser and the two baselines."""
import pytest

import catsearch
from catsearch.search import HeuristicPlayer, RandomPlayer, SearchResult, make_player


def test_make_player_builds_baselines_from_specs():
    p = make_player("random:seed=3")
    assert isinstance(p, RandomPlayer) and p.seed == 3
    assert p.spec == "random:seed=3" and repr(p) == "make_player('random:seed=3')"
    assert isinstance(make_player("heuristic"), HeuristicPlayer)
    assert isinstance(catsearch.make_player(" heuristic : seed = 2 "), HeuristicPlayer)


@pytest.mark.parametrize("spec,needle", [
    ("nobody", "the players are"),
    ("random:depth=3", "the options are seed"),
    ("random:seed=abc", "expected a whole number"),
    ("random:seed=-1", "seed=-1 is out of range"),
    ("random:seed", "expected key=value"),
    ("random:seed=1,seed=2", "given twice"),
    ("", "non-empty"),
])
def test_bad_specs_are_refused_with_what_is_valid(spec, needle):
    with pytest.raises(ValueError) as e:
        make_player(spec)
    assert needle in str(e.value)


@pytest.mark.parametrize("game_id", catsearch.GAMES)
@pytest.mark.parametrize("spec", ["random:seed=1", "heuristic:seed=1"])
def test_baselines_play_legal_moves_from_full_states_and_views(game_id, spec):
    player = make_player(spec)
    state = catsearch.new_game(game_id, 3, seed=8)
    for _ in range(60):
        if state.is_terminal():
            break
        view = state.view(state.current_player)
        result = player.search(view)
        assert isinstance(result, SearchResult)
        assert result.move in state.legal_moves()
        with pytest.raises(AttributeError):
            result.move = 0                       # frozen
        state.play(player.choose_move(state))


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_baselines_are_reproducible(game_id):
    def game(seed):
        players = [make_player(f"heuristic:seed={seed}"), make_player(f"random:seed={seed}")]
        st = catsearch.new_game(game_id, 2, seed=seed)
        while not st.is_terminal():
            st.play(players[st.current_player].choose_move(st))
        return st.to_text()
    assert game(4) == game(4)


def test_heuristic_beats_random_at_herding_cats():
    """200 two-player games on 100 paired deals, played by the arena: a sensible beginner
    must clearly beat random (the 95% interval of 200 games is about +-0.055)."""
    from catsearch.arena import run_match
    result = run_match("herding-cats", ["heuristic", "random"], groups=100, seed=1)
    score = result.summary["players"][0]["score"]
    assert score["value"] > 0.65 and score["low"] > 0.5, score


def test_a_player_refuses_a_finished_game():
    st = catsearch.new_game("herding-cats", 2, seed=1)
    while not st.is_terminal():
        st.play(st.legal_moves()[0])
    with pytest.raises(ValueError):
        make_player("random").choose_move(st)
