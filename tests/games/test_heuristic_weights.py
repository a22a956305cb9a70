"""The heuristics' weights (``GameSpec.heuristic_weights``): each one declared is read by the
game's heuristic, they reach every searcher that asks the heuristic, and bad ones are
refused with the game's list of weights."""

from __future__ import annotations

import random

import pytest

import catsearch
from catsearch import make_player
from catsearch._core.options import OptionError
from catsearch.search import ISMCTS
from catsearch.search.spec import PlayerSpec

GAMES = list(catsearch.GAMES)


def positions(game_id: str, games: int = 8) -> list:
    """Seat views from games of 2-4 players played mostly by the heuristic (with some random
    moves), every ply."""
    out = []
    for g in range(games):
        st = catsearch.new_game(game_id, 2 + g % 3, seed=100 + g)
        rng = random.Random(g)
        while not st.is_terminal() and st.ply < 600:
            out.append(st.view(st.current_player))
            if rng.random() < 0.75:
                st.apply(st.heuristic_move(seed=rng.randrange(2**32)))
            else:
                st.apply(rng.choice(st.legal_moves()))
    return out


@pytest.fixture(scope="module")
def views():
    return {g: positions(g) for g in GAMES}


def far_values(option) -> list[float]:
    """Values far from a weight's default, on both sides, within its range."""
    d = option.default
    out = [d - 3 * abs(d) - 10, d + 3 * abs(d) + 10]
    if option.low is not None:
        out = [max(v, option.low) for v in out] + [option.low, option.low + 1]
    if option.high is not None:
        out = [min(v, option.high) for v in out]
    return [v for v in dict.fromkeys(out) if v != d]


def test_every_game_declares_weights():
    for g in GAMES:
        spec = catsearch.game_class(g).spec
        assert spec.heuristic_weights, g
        assert spec.default_weights == tuple(o.default for o in spec.heuristic_weights)


@pytest.mark.parametrize("game_id,name", [
    (g, o.name) for g in GAMES for o in catsearch.game_class(g).spec.heuristic_weights])
def test_each_weight_changes_some_move(views, game_id, name):
    """The heuristic reads every weight it declares: moved far from its default, it changes
    the heuristic's move somewhere (and at its default, nowhere)."""
    option = catsearch.game_class(game_id).spec.weight_option(name)
    changed = {}
    for v in far_values(option):
        changed[v] = sum(p.heuristic_move(seed=7) != p.heuristic_move(seed=7, weights={name: v})
                         for p in views[game_id])
    assert any(changed.values()), (game_id, name, changed, len(views[game_id]))
    assert all(p.heuristic_move(seed=7) == p.heuristic_move(seed=7, weights={name: option.default})
               for p in views[game_id][:200])


def test_weights_in_specs_round_trip():
    spec = PlayerSpec.parse("ismcts:iterations=100,weights.start=20,weights.add=3")
    assert str(spec) == "ismcts:iterations=100,weights.add=3.0,weights.start=20.0"
    assert PlayerSpec.parse(str(spec)) == spec
    assert eval(repr(spec), {"PlayerSpec": PlayerSpec}) == spec
    assert spec.get("weights.add") == 3.0 and "weights.add" in spec
    assert spec.replace(**{"weights.add": 4}).build().weights == {"add": 4.0, "start": 20.0}
    assert spec.without("weights.add").build().weights == {"start": 20.0}
    assert str(spec.without("weights")) == "ismcts:iterations=100"
    assert spec.declaration("weights.add").kind is float and spec.accepts("weights.add")
    player = spec.build()
    assert player.weights == {"add": 3.0, "start": 20.0}
    assert player.spec == str(spec)
    # the Python API: one mapping
    assert ISMCTS(iterations=100, weights={"start": 20, "add": 3}).spec == str(spec)
    assert make_player("heuristic:weights.complete=3").spec == "heuristic:weights.complete=3.0"


def test_bad_weights_in_python():
    with pytest.raises(TypeError, match="mapping of names to numbers"):
        ISMCTS(weights=[1.0])
    with pytest.raises(TypeError, match="weights.start must be a finite number, not str"):
        ISMCTS(weights={"start": "x"})
    with pytest.raises(TypeError, match="a name in weights is a str"):
        ISMCTS(weights={1: 2.0})
    with pytest.raises(OptionError, match="out of range"):
        ISMCTS(weights={"start": float("inf")})


@pytest.mark.parametrize("spec", ["ismcts:iterations=50", "pimc:iterations=50",
                                  "expectimax:depth=1", "heuristic"])
def test_a_weight_the_game_lacks_is_refused_before_searching(spec):
    st = catsearch.new_game("the-cat", 2, seed=1)
    player = make_player(spec + (":" if ":" not in spec else ",") + "weights.complete=3")
    with pytest.raises(OptionError, match=r"the-cat's heuristic has no weight 'complete'; "
                                          r"its weights are neutral_swap_every"):
        player.search(st)
    with pytest.raises(OptionError, match="out of range"):
        catsearch.new_game("the-cat", 2, seed=1).heuristic_move(
            weights={"neutral_swap_every": -1})


def test_weights_for_is_every_players():
    """Player.weights_for: the game-dependent options of any player (a player without
    weights has nothing to check)."""
    assert make_player("random").weights_for("the-cat") is None
    assert make_player("heuristic:weights.neutral_swap_every=2").weights_for("the-cat")[0] == 2.0
    with pytest.raises(OptionError, match="no weight 'complete'"):
        make_player("expectimax:weights.complete=3").weights_for("the-cat")


def test_check_game_is_a_deprecated_alias_of_weights_for():
    player = make_player("heuristic:weights.neutral_swap_every=2")
    with pytest.warns(DeprecationWarning, match="weights_for"):
        assert player.check_game("the-cat")[0] == 2.0


def test_the_arena_refuses_a_weight_the_game_lacks_before_playing(tmp_path):
    from catsearch.arena import run_match
    out = tmp_path / "m.jsonl"
    with pytest.raises(OptionError, match="has no weight 'complete'"):
        run_match("the-cat", ["heuristic:weights.complete=3", "random"], groups=1, out=out)
    assert not out.exists()
    r = run_match("herding-cats", ["heuristic:weights.complete=3", "random"], groups=1)
    assert r is not None


def _first_decision(game_id: str, seed: int):
    st = catsearch.new_game(game_id, 3, seed=seed)
    while len(st.legal_moves()) < 2:
        st.apply(st.legal_moves()[0])
    return st


SEARCHES = ["ismcts:iterations=120,seed=5,playout=heuristic,cutoff=0",
            "pimc:iterations=120,seed=5,playout=heuristic,cutoff=0",
            "expectimax:depth=1,playouts=3,seed=5"]


# (expectimax's playouts of The Cat run whole games: slow, and the same code as the others')
@pytest.mark.parametrize("game_id,spec", [(g, s) for s in SEARCHES for g in GAMES
                                          if not (g == "the-cat" and "expectimax" in s)])
def test_weights_reach_the_search(game_id, spec):
    """The searcher's states play by its weights: the declared defaults give the very same
    search as none, weights far from them another one (the playouts ask the heuristic)."""
    options = catsearch.game_class(game_id).spec.heuristic_weights
    defaults = ",".join(f"weights.{o.name}={o.default}" for o in options)
    far = ",".join(f"weights.{o.name}={far_values(o)[0]}" for o in options)   # the low side

    def stats(text):
        found = []
        for seed in (1, 2):
            r = make_player(text).search(_first_decision(game_id, seed))
            found.append((r.move, sorted((m, s.visits, round(s.mean, 9))
                                         for m, s in r.stats.items())))
        return found

    plain = stats(spec)
    assert stats(spec + "," + defaults) == plain
    assert stats(spec + "," + far) != plain


def test_weights_reach_process_workers():
    p = ISMCTS(iterations=200, workers=2, parallel="processes", weights={"start": -50.0})
    assert p._process_options(0, 2)["weights"] == {"start": -50.0}
