"""catsearch's games as OpenSpiel games (catsearch.interop.openspiel): OpenSpiel's own random
simulation test with serialization, the game type, observers, resampling, bad input, no
peeking, and OpenSpiel's ISMCTS and MCTS bots playing whole games."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import catsearch

GAMES = catsearch.GAMES
CASES = [(g, n) for g in GAMES for n in (2, 3, 4)]
#: random_sim_test games per case: The Cat's random games run ~800 moves (about 1 s each)
SIMS = {"the-cat": 1, "cat-earth": 2}


@pytest.mark.parametrize("game_id,players", CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_random_sim_test(cio, game_id, players):
    import pyspiel
    game = pyspiel.load_game(cio.short_name(game_id), {"players": players})
    pyspiel.random_sim_test(game, num_sims=SIMS.get(game_id, 3), serialize=True, verbose=False)


@pytest.mark.parametrize("game_id", GAMES)
def test_game_type_and_info(cio, game_id):
    import pyspiel
    game = cio.load_game(game_id, players=3)
    t = game.get_type()
    assert t.short_name == "python_catsearch_" + game_id.replace("-", "_")
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (2, 4)
    assert game.num_players() == 3
    assert game.utility_sum() == 1.0 and (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    st = catsearch.new_game(game_id, 3, 0)
    assert game.num_distinct_actions() == st.num_distinct_moves
    assert game.max_chance_outcomes() == 256
    assert cio.game_id_of(t.short_name) == game_id


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_ends_with_returns_summing_to_one(game_id, played):
    """CONSTANT_SUM with utility sum 1: no game ends with all returns 0."""
    for players in (2, 3, 4):
        for seed in range(15):
            st = played(game_id, players, seed, 100_000)
            assert st.is_terminal()
            r = st.returns()
            assert abs(sum(r) - 1.0) < 1e-9 and all(0.0 <= x <= 1.0 for x in r), r


@pytest.mark.parametrize("game_id", GAMES)
def test_game_length_bound_holds(cio, game_id, played):
    for players in (2, 3, 4):
        bound = cio.max_game_length(game_id, players)
        for seed in range(10):
            st = played(game_id, players, seed, bound + 1)
            assert st.is_terminal() and st.ply <= bound


def _dealt(game, seed=5):
    """An OpenSpiel state right after the deal, dealt from ``seed``."""
    st = game.new_initial_state()
    for k in range(8):
        assert st.is_chance_node()
        outcomes = st.chance_outcomes()
        assert len(outcomes) == 256 and abs(sum(p for _, p in outcomes) - 1) < 1e-12
        st.apply_action((seed >> (8 * k)) & 0xFF)
    return st


@pytest.mark.parametrize("game_id", GAMES)
def test_the_deal_is_catsearch_seed(cio, game_id):
    """The 8 chance outcomes are the deal seed's bytes: the state is new_game(seed)."""
    game = cio.load_game(game_id, players=2)
    seed = 0x0123456789ABCDEF
    st = _dealt(game, seed)
    assert not st.is_chance_node()
    assert str(st) == catsearch.new_game(game_id, 2, seed).to_text()
    assert st.catsearch_state() == catsearch.new_game(game_id, 2, seed)


@pytest.mark.parametrize("game_id", GAMES)
def test_actions_are_move_ids_with_their_text(cio, game_id, played):
    game = cio.load_game(game_id, players=3)
    st = _dealt(game)
    cs = st.catsearch_state()
    for _ in range(30):
        if st.is_terminal():
            break
        legal = st.legal_actions()
        assert legal == cs.legal_moves()
        p = st.current_player()
        assert p == cs.current_player
        for a in legal[:5]:
            assert st.action_to_string(p, a) == cs.move_to_str(a)
        mask = st.legal_actions_mask()
        assert list(np.flatnonzero(mask)) == legal
        st.apply_action(legal[len(legal) // 2])
        cs.apply(legal[len(legal) // 2])
        assert str(st) == cs.to_text()
    assert game.new_initial_state().action_to_string(-1, 7) == "seed byte 7"


@pytest.mark.parametrize("game_id", GAMES)
def test_serialization_round_trips(cio, game_id):
    import pyspiel
    game = cio.load_game(game_id, players=3)
    st = game.new_initial_state()
    rng = np.random.RandomState(3)
    for ply in range(60):
        if st.is_terminal():
            break
        text = pyspiel.serialize_game_and_state(game, st)
        game2, st2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game) and str(st2) == str(st)
        assert st2.history() == st.history()
        assert pickle.loads(pickle.dumps(st)).__str__() == str(st)
        if st.is_chance_node():
            st.apply_action(int(rng.randint(256)))
        else:
            st.apply_action(int(rng.choice(st.legal_actions())))


def test_options_as_parameters(cio):
    import pyspiel
    g = pyspiel.load_game("python_catsearch_the_cat", {"players": 3, "target": 12})
    assert "target=12" in str(_dealt(g))
    g = cio.load_game("cat-cards", players=2, values=(2, 2, 2, 2, 2))
    assert str(g) == "python_catsearch_cat_cards(inference=rules,players=2,values=2/2/2/2/2)"
    assert "values=2,2,2,2,2" in str(_dealt(g))
    g = pyspiel.load_game("python_catsearch_cat_earth(players=4,setup=random)")
    assert g.num_players() == 4 and "setup=random" in str(_dealt(g))
    assert cio.load_game("herding-cats").num_players() == 3


def test_bad_names_and_parameters(cio):
    import pyspiel
    with pytest.raises(ValueError, match="'nope'.*herding-cats"):
        cio.load_game("nope")
    with pytest.raises(TypeError, match="int"):
        cio.load_game(3)
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        cio.load_game("the-cat", players=5)
    with pytest.raises(ValueError, match="2 to 4 players, not 5"):
        pyspiel.load_game("python_catsearch_the_cat", {"players": 5})
    with pytest.raises(ValueError, match="target=13"):
        pyspiel.load_game("python_catsearch_the_cat", {"target": 13})
    with pytest.raises(ValueError, match="colour"):
        cio.load_game("the-cat", colour=1)
    with pytest.raises(TypeError, match="players"):
        cio.load_game("the-cat", players="3")
    with pytest.raises(ValueError, match="values"):
        cio.load_game("cat-cards", values=(1, 2))
    # OpenSpiel checks unknown parameters and their types itself, naming them
    with pytest.raises(pyspiel.SpielError, match="colour"):
        pyspiel.load_game("python_catsearch_the_cat", {"colour": 1})
    with pytest.raises(ValueError, match="not a catsearch game"):
        cio.game_id_of("kuhn_poker")
    with pytest.raises(ValueError, match="view"):
        cio.from_catsearch(catsearch.new_game("herding-cats", 2, 1).view(0))
    with pytest.raises(TypeError):
        cio.from_catsearch("players=2")


def test_observers(cio):
    import pyspiel
    game = cio.load_game("herding-cats", players=3)
    st = _dealt(game)
    cs = st.catsearch_state()
    for p in range(3):
        assert st.information_state_string(p) == cs.view_text(p)
        assert st.observation_string(p) == cs.view_text(p)
    public = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    assert public.tensor is None
    text = public.string_from(st, 0)
    assert text == cio.public_text(cs) and "hands=*" in text and "deck=?" in text
    every = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    assert every.string_from(st, 0) == " | ".join(cs.view_text(p) for p in range(3))
    with pytest.raises(ValueError, match="parameters"):
        game.make_py_observer(None, {"x": 1})
    with pytest.raises(ValueError, match="public_info"):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, public_info=False,
            private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    pre = game.new_initial_state()
    assert pre.information_state_string(1) == "dealing 0/8"
    assert game.get_type().provides_observation_tensor
    assert game.observation_tensor_shape() == list(cs.tensor_shape("observation"))
    assert game.information_state_tensor_shape() == list(cs.tensor_shape("information_state"))
    for p in range(3):
        assert np.array_equal(st.observation_tensor(p), cs.observation_tensor(p))
        assert np.array_equal(st.information_state_tensor(p), cs.information_state_tensor(p))
    assert not any(pre.observation_tensor(0))
    assert len(every.tensor) == 3 * cs.tensor_shape("information_state")[0]
    every.set_from(st, 0)
    assert np.array_equal(every.tensor[:len(every.tensor) // 3], cs.information_state_tensor(0))
    obs = game.make_py_observer()
    assert list(obs.dict) == [p.name for p in cs.tensor_layout("observation")]


@pytest.mark.parametrize("game_id,players", [(g, n) for g in GAMES for n in (2, 3)])
def test_no_peeking(cio, game_id, players, played):
    """Everything OpenSpiel shows player p (information state and observation strings and
    tensors, the public observation) is the same in every state p cannot tell apart."""
    import pyspiel
    game = cio.load_game(game_id, players=players)
    with_tensors = game.get_type().provides_observation_tensor
    public = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    for seed, plies in ((1, 0), (2, 5), (3, 17), (4, 40), (5, 101)):
        cs = played(game_id, players, seed, plies)
        if cs.is_terminal():
            continue
        st = cio.from_catsearch(cs, game)
        for p in range(players):
            seen = []
            for k in range(4):
                d = cio.from_catsearch(cs.determinize(p, 1000 * seed + k), game)
                look = [d.information_state_string(p), d.observation_string(p),
                        public.string_from(d, p)]
                if with_tensors:
                    look += [list(d.information_state_tensor(p)),
                             list(d.observation_tensor(p))]
                seen.append(look)
            assert all(s == seen[0] for s in seen), (game_id, players, seed, p)
            assert seen[0][0] == st.information_state_string(p)
            assert seen[0][2] == public.string_from(st, p)


@pytest.mark.parametrize("game_id", GAMES)
def test_resample_from_infostate(cio, game_id, played):
    import pyspiel
    game = cio.load_game(game_id, players=3)
    st = cio.from_catsearch(played(game_id, 3, 9, 12), game)
    p = st.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [st.resample_from_infostate(p, sampler) for _ in range(6)]
    for s in samples:
        assert s.information_state_string(p) == st.information_state_string(p)
        assert s.legal_actions() == st.legal_actions()
        assert s.current_player() == p
    assert len({str(s) for s in samples}) > 1       # the hidden cards are redealt
    assert st.resample(p, 7).__str__() == st.resample(p, 7).__str__()


def _bot_game(cio, game_id, players, iterations, max_length=None, seed=0, **options):
    """One whole game of OpenSpiel's ISMCTSBot (seat 0) against its MCTSBot (seat 1; more
    seats: random), on the OpenSpiel game."""
    from open_spiel.python.algorithms import ismcts, mcts
    game = cio.load_game(game_id, players=players, **options)
    rs = np.random.RandomState(seed)
    ev = mcts.RandomRolloutEvaluator(1, rs, max_length=max_length)
    bots = [ismcts.ISMCTSBot(game, ev, 2.0, iterations, random_state=rs),
            mcts.MCTSBot(game, 2.0, iterations, ev, random_state=rs, solve=False)]
    st = game.new_initial_state()
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_action(int(rs.randint(256)))
            continue
        p = st.current_player()
        action = bots[p].step(st) if p < 2 else int(rs.choice(st.legal_actions()))
        assert action in st.legal_actions()
        st.apply_action(action)
    assert abs(sum(st.returns()) - 1.0) < 1e-9
    return st


@pytest.mark.parametrize("game_id,players", [("herding-cats", 2), ("herding-cats", 3),
                                             ("cat-cards", 2)])
def test_openspiel_bots_play_whole_games(cio, game_id, players):
    _bot_game(cio, game_id, players, iterations=8)


@pytest.mark.parametrize("game_id,options", [("the-cat", {"target": 12}),
                                             ("cat-earth", {"setup": "random"})])
def test_openspiel_bots_play_whole_long_games(cio, game_id, options):
    """The long games, with rollouts cut at 8 moves (OpenSpiel's evaluator then counts 0)."""
    _bot_game(cio, game_id, 2, iterations=3, max_length=8, **options)


@pytest.mark.slow
@pytest.mark.parametrize("game_id,players", CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_openspiel_bots_play_whole_games_slow(cio, game_id, players):
    """Full rollouts, but The Cat's (~800 random moves to the end) cut at 100 moves."""
    _bot_game(cio, game_id, players, iterations=10, seed=players,
              max_length=100 if game_id == "the-cat" else None)


def test_resample_honours_the_inference_parameter(cio):
    """Herding Cats after a discard: resampling deals only worlds the discard allows, unless
    the game is loaded with inference=none."""
    import catsearch
    rng = __import__("random").Random(4)
    st = catsearch.new_game("herding-cats", 2, seed=4)
    while "cannot=" not in st.to_text() or st.is_terminal():
        st.apply(st.heuristic_move(seed=rng.randrange(2**32)))
    p = st.current_player
    view = st.view(p)
    refused = {}
    for inference in ("rules", "none"):
        game = cio.load_game("herding-cats", players=2, inference=inference)
        os_state = cio.from_catsearch(st, game)
        worlds = [os_state.resample(p, k).catsearch_state() for k in range(60)]
        refused[inference] = sum(not view.allows(w) for w in worlds)
    assert refused["rules"] == 0
    assert refused["none"] > 0
    with pytest.raises(ValueError, match="inference"):
        cio.load_game("herding-cats", players=2, inference="policyx")


def test_resample_with_policy_inference_replays_the_history(cio):
    """inference=policy: the worlds come from the seat's belief, built by replaying the
    game since the deal on the seat's view, kept on the state (not on its copies); each is
    one the seat could be in."""
    import random
    game = cio.load_game("cat-earth", players=2, inference="policy")
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(rng.randrange(256))
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    st = cio.catsearch_state(state)
    p = st.current_player
    view = st.view(p)
    worlds = [state.resample(p, k).catsearch_state() for k in range(20)]
    for w in worlds:
        assert w.view(p).to_text() == view.to_text() and view.allows(w)
    belief = state._beliefs.by_seat[p]
    assert belief.stats()["updates"] == 9
    assert state.clone()._beliefs.by_seat == {}
    rs = state.resample_from_infostate(p, rng.random)
    assert cio.catsearch_state(rs).view(p).to_text() == view.to_text()
