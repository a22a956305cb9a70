"""catsearch's games as PettingZoo AEC environments (catsearch.interop.pettingzoo):
PettingZoo's api_test and seed_test, seeding, spaces, rendering only the agent's view, bad
input, and a catsearch player acting as a policy."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import catsearch

CASES = [(g, n) for g in catsearch.GAMES for n in (2, 3, 4)]
IDS = [f"{g}-{n}p" for g, n in CASES]
#: The Cat's random games run ~800 moves: api_test's cycles bound the game it plays
CYCLES = {"the-cat": 300}


@pytest.mark.parametrize("game_id,players", CASES, ids=IDS)
def test_api_test_and_seed_test(cpz, game_id, players):
    from pettingzoo.test import api_test, seed_test
    cycles = CYCLES.get(game_id, 1000)
    with warnings.catch_warnings():
        # the dict observation (observation + action_mask) draws PettingZoo's generic
        # advice, as its own classic environments do
        warnings.filterwarnings("ignore", message="Observation (space for each agent|is not)")
        api_test(cpz.env(game_id, players=players, render_mode="ansi"), num_cycles=cycles)
        seed_test(lambda: cpz.env(game_id, players=players), num_cycles=cycles)


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_spaces_seed_and_observations(cpz, game_id):
    e = cpz.env(game_id, players=3)
    e.reset(seed=77)
    st = catsearch.new_game(game_id, 3, 77)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert e.agent_selection == f"player_{st.current_player}"
    for seat, agent in enumerate(e.possible_agents):
        space = e.observation_space(agent)
        assert space["observation"].shape == st.tensor_shape("observation")
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (st.num_distinct_moves,)
        assert e.action_space(agent).n == st.num_distinct_moves
        obs = e.observe(agent)
        assert np.array_equal(obs["observation"], st.observation_tensor(seat))
        assert obs["observation"] in space["observation"]
        legal = st.legal_moves() if seat == st.current_player else []
        assert list(np.flatnonzero(obs["action_mask"])) == legal


def test_a_whole_game_and_its_rewards(cpz):
    e = cpz.env("herding-cats", players=2)
    e.reset(seed=3)
    st = catsearch.new_game("herding-cats", 2, 3)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        total[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        move = int(np.flatnonzero(obs["action_mask"])[0])
        st.apply(move)
        e.step(move)
    assert st.is_terminal()
    assert [total[a] for a in e.possible_agents] == st.returns()


def test_an_illegal_move_ends_the_game_for_its_agent(cpz):
    e = cpz.env("herding-cats", players=2)
    e.reset(seed=3)
    obs = e.observe(e.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    agent = e.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e.step(bad)
    assert all(e.terminations.values()) and e.rewards[agent] == -1


@pytest.mark.parametrize("game_id,players", [(g, n) for g in catsearch.GAMES for n in (2, 3)])
def test_no_peeking(cpz, game_id, players, played):
    """An agent's observation and the ansi render of its turn are the same in every state its
    seat cannot tell apart."""
    e = cpz.env(game_id, players=players, render_mode="ansi")
    e.reset(seed=1)
    raw = e.unwrapped
    for seed, plies in ((1, 0), (2, 6), (3, 19), (4, 44)):
        cs = played(game_id, players, seed, plies)
        if cs.is_terminal():
            continue
        for seat, agent in enumerate(raw.possible_agents):
            seen = []
            for k in range(3):
                raw.state_ = cs.determinize(seat, 100 * seed + k)
                raw.agent_selection = agent
                obs = raw.observe(agent)
                seen.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(),
                             raw.render()))
            assert all(s == seen[0] for s in seen), (game_id, players, seed, seat)
            assert cs.view_text(seat) in seen[0][2]


def test_render(cpz):
    e = cpz.env("herding-cats", players=2, render_mode="ansi")
    e.reset(seed=5)
    st = catsearch.new_game("herding-cats", 2, 5)
    text = e.render()
    assert st.view_text(st.current_player) in text and "legal:" in text
    assert st.to_text() not in text
    quiet = cpz.env("herding-cats", players=2)
    quiet.reset(seed=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert quiet.render() is None


def test_bad_input(cpz):
    with pytest.raises(ValueError, match="unknown game 'nope'"):
        cpz.env("nope")
    with pytest.raises(TypeError, match="str"):
        cpz.env(7)
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        cpz.env("herding-cats", players=5)
    with pytest.raises(TypeError):
        cpz.env("herding-cats", players="2")
    with pytest.raises(ValueError, match="render_mode='human'.*'ansi'"):
        cpz.env("herding-cats", players=2, render_mode="human")
    with pytest.raises(ValueError, match="target"):
        cpz.env("the-cat", players=2, target=13)
    with pytest.raises(ValueError, match="colour"):
        cpz.env("the-cat", players=2, colour=1)
    with pytest.raises(TypeError, match="Player"):
        cpz.PlayerPolicy("ismcts")


def test_seed_is_the_deal_seed(cpz):
    e = cpz.env("cat-cards", players=2)
    e.reset(seed=2**64 - 1)
    assert e.unwrapped.state_ == catsearch.new_game("cat-cards", 2, 2**64 - 1)
    with pytest.raises(ValueError, match="seed"):
        e.reset(seed=-1)
    e.reset()
    e.reset(seed=None)


def test_a_catsearch_player_as_a_policy(cpz):
    """The docs' example (docs/interop.rst): an ISMCTS player against random, on the env."""
    from catsearch import make_player
    from catsearch.interop.pettingzoo import PlayerPolicy, env

    e = env("herding-cats", players=2)
    e.reset(seed=1)
    policy = PlayerPolicy(make_player("ismcts:iterations=200,seed=1"))
    rng = np.random.default_rng(1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        if termination or truncation:
            action = None
        elif agent == "player_0":
            action = policy(e, agent)
        else:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
    returns = e.unwrapped.state_.returns()
    assert abs(sum(returns) - 1.0) < 1e-9
