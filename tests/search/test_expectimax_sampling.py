"""Expectimax's sampled chance nodes (``chance=sample``, sparse sampling): the same search as
today where no node passes the bound, deterministic per seed, pruning exact on the sample,
unbiased, and deep enough on The Cat within the default budget.
"""
import random

import pytest

import catsearch
from catsearch.search import Expectimax, make_player
from catsearch.search.expectimax import DEFAULT_NODES


def cat_positions(players, plies, seed=5):
    """The Cat after each of ``plies`` uniformly random moves (its opening is ply 0)."""
    state = catsearch.new_game("the-cat", players, seed=seed)
    rng = random.Random(seed)
    out, ply = [], 0
    while not state.is_terminal() and ply <= max(plies):
        if ply in plies:
            out.append(state.clone())
        state.play(rng.choice(state.legal_moves()))
        ply += 1
    return out


def summary(r):
    return r.move, r.value, dict(r.stats), r.nodes, r.depth


@pytest.mark.parametrize("players", [2, 3])
def test_the_default_reaches_depth_two_on_the_cat(players):
    """Within its default budget (200,000 nodes: the depth is a function of the position and
    the seed) the default player completes depth 2 at The Cat's opening and later in a
    round and in later rounds; keeping the most probable outcomes instead (the search before
    sampling) completes depth 1 only."""
    positions = cat_positions(players, (0, 7, 40, 150))
    assert len(positions) == 4
    for st in positions:
        player = Expectimax(seed=3)
        r = player.search(st)
        assert r.depth >= 2 and r.nodes <= DEFAULT_NODES, st.to_text()
        assert player._core.sampled_nodes > 0
    top = Expectimax(seed=3, chance="top", max_chance=24).search(positions[1])
    assert top.depth == 1


@pytest.mark.parametrize("game_id", [g for g in catsearch.GAMES if g != "the-cat"])
def test_below_the_bound_sampling_changes_nothing(game_id):
    """A search that samples no node is the search that keeps the most probable outcomes
    (both then search every outcome): the same move, values, statistics and nodes. (The
    Cat has no such search: a tick resolves into hidden actions, then cards revealed one
    after the other, more than 100,000 outcomes at its opening.)"""
    compared = 0
    bound = 24
    rng = random.Random(11)
    for players in (2, 3):
        state = catsearch.new_game(game_id, players, seed=11)
        for ply in range(60):
            if state.is_terminal():
                break
            if ply % 5 == 0 and len(state.legal_moves()) > 1:
                sampler = Expectimax(depth=1, seed=2, max_chance=bound)
                r = sampler.search(state)
                if sampler._core.sampled_nodes == 0:
                    top = Expectimax(depth=1, seed=2, max_chance=bound, chance="top").search(state)
                    assert summary(r) == summary(top), state.to_text()
                    compared += 1
            state.play(rng.choice(state.legal_moves()))
    assert compared >= 3, f"{game_id}: only {compared} positions without a sampled node"


def test_the_same_seed_gives_the_same_search_every_time():
    """A node's sample depends on the seed and the node alone: a player searching the same
    position twice, and a fresh player, give the same result; another seed another one."""
    st = cat_positions(2, (9,))[0]
    player = Expectimax(seed=4, nodes=20_000)
    first = summary(player.search(st))
    assert summary(player.search(st)) == first
    assert summary(Expectimax(seed=4, nodes=20_000).search(st)) == first
    others = {summary(Expectimax(seed=s, nodes=20_000).search(st))[1] for s in range(5, 9)}
    assert any(v != first[1] for v in others)


@pytest.mark.parametrize("game_id,players,mode", [
    ("the-cat", 2, "auto"), ("the-cat", 3, "paranoid"), ("herding-cats", 2, "auto"),
    ("cat-cards", 2, "auto")])
def test_pruning_is_exact_on_the_sample(game_id, players, mode):
    """Star1 and Star2 bound the sampled average exactly as they bound an expectation: with
    nodes sampled, they give the value plain expectimax gives on the same sample, and a move
    of that value."""
    rng = random.Random(19)
    state = catsearch.new_game(game_id, players, seed=19)
    checked = sampled = 0
    for ply in range(80):
        if state.is_terminal():
            break
        if ply % 7 == 3 and len(state.legal_moves()) > 1:
            seat = state.current_player
            opts = dict(depth=2, seed=6, mode=mode, max_chance=4, samples=3)
            plain_player = Expectimax(pruning="none", **opts)
            plain = plain_player.search(state)
            sampled += plain_player._core.sampled_nodes > 0
            for pruning in ("star1", "star2"):
                r = Expectimax(pruning=pruning, **opts).search(state)
                assert r.value[seat] == pytest.approx(plain.value[seat], abs=1e-9), pruning
                assert plain.stats[r.move].mean == pytest.approx(plain.value[seat], abs=1e-9)
            checked += 1
        state.play(rng.choice(state.legal_moves()))
    assert checked >= 5 and sampled >= 3, (checked, sampled)


def test_many_samples_approach_the_exact_value():
    """The sampled average estimates the expectation: with many draws each sampled node is
    close to the exact one, and so is each root move's value (an opponent's hidden hand)."""
    st = catsearch.new_game("herding-cats", 2, seed=8)
    st.play(random.Random(8).choice(st.legal_moves()))
    exact = Expectimax(depth=2, max_chance=0, mode="maxn").search(st)
    player = Expectimax(depth=2, max_chance=8, samples=20_000, seed=1, mode="maxn")
    sampled = player.search(st)
    assert player._core.sampled_nodes > 0
    for m, s in exact.stats.items():
        assert sampled.stats[m].mean == pytest.approx(s.mean, abs=0.01), m
    few = Expectimax(depth=2, max_chance=8, samples=2, seed=1, mode="maxn").search(st)
    err = max(abs(few.stats[m].mean - s.mean) for m, s in exact.stats.items())
    assert err > 0.01, "two draws a node should not be as close as 20,000"


def test_the_sample_count_is_an_option():
    p = make_player("expectimax:samples=12,chance=sample")
    assert (p.samples, p.chance, p.max_chance) == (12, "sample", 16)
    assert Expectimax().samples == 6 and Expectimax().chance == "sample"
    with pytest.raises(ValueError, match="samples"):
        Expectimax(samples=0)
    with pytest.raises(TypeError, match="samples"):
        Expectimax(samples="many")
