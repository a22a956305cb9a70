"""Policy inference (catsearch.search.particles.Belief and ``inference=policy``): every world
the belief keeps is one the seat could be in; its weights are the opponents' moves'
likelihoods under the softmax model, checked against an independent importance-sampling
reference; and the searchers follow a game with it through ``Player.observe``."""
import math
import random

import pytest

import catsearch
from catsearch._core.game import lookup
from catsearch._core.options import OptionError
from catsearch.search.particles import Belief
from catsearch.search.spec import make_player
from catsearch.search.table import Table


def _follow(game_id, players, seed, *, every=7, count=64, temperature=1.0):
    """Play a heuristic game, the belief of seat 0 following its observations; yield
    (view, belief, true state) every ``every`` moves."""
    st = lookup(game_id).new(players=players, seed=seed)
    view = st.view(0)
    b = Belief(view, 0, count=count, temperature=temperature, seed=seed)
    while not st.is_terminal():
        m = st.heuristic_move(seed=st.ply)
        mover = st.current_player
        after = view.clone()
        code = after.play_observation(st.observation(0, m))
        st.apply(m)
        if st.is_terminal():
            return
        b.update(after, mover, code)
        view = after
        if st.ply % every == 0:
            yield view, b, st


@pytest.mark.parametrize("game_id", catsearch.GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_particle_is_a_world_the_seat_could_be_in(game_id, players):
    seen = 0
    for view, b, st in _follow(game_id, players, seed=players):
        assert b.agrees(view)
        assert view.allows(st)
        particles = b.particles()
        assert particles and abs(sum(w for _, w in particles) - 1.0) < 1e-9
        for world, weight in particles[:8]:
            assert world.view_seat is None and weight > 0.0
            assert world.view(0).to_text() == view.to_text()
            assert view.allows(world)
        seen += 1
    assert seen > 0


def _hand_marginal(worlds_weights, seat):
    """Per card letter: the expected number of that letter in ``seat``'s hand."""
    out = {}
    for world, w in worlds_weights:
        for card in world.cards()[f"hand{seat}"]:
            out[card] = out.get(card, 0.0) + w
    return out


def test_the_weights_are_the_models_posterior():
    """After seat 1's first move, the belief's expected hand of seat 1 matches an
    independent reference: many worlds of the same view, each weighed by the softmax
    model's probability of the move seen, computed here from legal_moves and
    heuristic_move."""
    temperature = 0.5
    # seat 0's own move, followed on its view: no evidence
    view = lookup("herding-cats").new(players=2, seed=11).view(0)
    start = lookup("herding-cats").new(players=2, seed=11)
    m0 = start.heuristic_move(seed=0)
    view.play_observation(start.observation(0, m0))
    start.apply(m0)
    b = Belief(view, 0, count=4096, temperature=temperature, refill=0.0, seed=3)
    m1 = start.heuristic_move(seed=1)                # seat 1's move: the evidence
    after = view.clone()
    code = after.play_observation(start.observation(0, m1))
    b.update(after, 1, code)
    got = _hand_marginal(b.particles(), 1)
    # the reference: worlds of the view before seat 1 moved, weighed by the model; the hand
    # compared is the one after the move (the move played on each world)
    rng = random.Random(7)
    e = math.exp(1.0 / temperature)
    ref, total = {}, 0.0
    for _ in range(20000):
        w = view.determinize(0, seed=rng.getrandbits(64))
        legal = w.legal_moves()
        if m1 not in legal:
            continue
        h = w.heuristic_move(seed=rng.getrandbits(64))
        p = (e if m1 == h else 1.0) / (e + len(legal) - 1)
        w.apply(m1)
        if w.view(0).to_text() != after.to_text():
            continue
        total += p
        for card in w.cards()["hand1"]:
            ref[card] = ref.get(card, 0.0) + p
    assert total > 0
    for card in set(ref) | set(got):
        assert got.get(card, 0.0) == pytest.approx(ref.get(card, 0.0) / total, abs=0.06), (
            card, got, ref)


def test_options_are_checked():
    with pytest.raises(OptionError, match="policy_temperature"):
        make_player("ismcts:inference=policy,policy_temperature=0")
    with pytest.raises(ValueError):
        make_player("pimc:inference=policy,particles=0")
    view = lookup("herding-cats").new(players=2, seed=1).view(0)
    with pytest.raises(ValueError, match="temperature"):
        Belief(view, 0, temperature=0.0)
    with pytest.raises(ValueError, match="seat 1"):
        Belief(view, 1)


@pytest.mark.parametrize("spec", ["ismcts:iterations=200,inference=policy,particles=64,seed=1",
                                  "pimc:iterations=200,inference=policy,particles=64,seed=1",
                                  "ismcts:iterations=200,inference=policy,particles=64,seed=1,"
                                  "reuse=true"])
@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_the_searchers_follow_a_game_with_their_belief(spec, game_id):
    players = [make_player(spec), make_player("heuristic")]
    table = Table(lookup(game_id).new(players=2, seed=4), players)
    for _ in range(30):
        if table.is_over():
            break
        table.step()
    belief = players[0].belief
    assert belief is not None and belief.seat == 0
    assert belief.stats()["updates"] > 0
    assert belief.agrees(table.view(0)) or table.is_over()


def test_the_same_seed_searches_the_same_way():
    def line(seed):
        p = make_player(f"ismcts:iterations=300,inference=policy,particles=64,seed={seed}")
        table = Table(lookup("cat-earth").new(players=2, seed=2),
                      [p, make_player("heuristic:seed=9")])
        return [table.step().move for _ in range(12) if not table.is_over()]
    assert line(1) == line(1)


def test_the_arena_tells_a_policy_searcher_every_move():
    """A searcher with inference=policy follows the game even without reuse (the arena asks
    follows_moves before sending the observations)."""
    from catsearch.arena.entrants import Entrant, Slot
    assert make_player("ismcts:inference=policy").follows_moves
    assert not make_player("ismcts").follows_moves
    assert make_player("pimc:reuse=true").follows_moves
    slots = {}
    for spec in ("ismcts:inference=policy", "ismcts", "heuristic"):
        slot = Slot(Entrant.parse(spec), None)
        slot.player = make_player(spec)
        slots[spec] = slot.follows_moves
    assert slots == {"ismcts:inference=policy": True, "ismcts": False, "heuristic": False}


def test_the_seats_own_draws_kill_few_particles():
    """The seat's own move (its draw seen) deals each world's deck again until it shows the
    draw: few particles die there (about half did when a world had four deals to show it,
    and the refills that followed threw away what the belief had learned)."""
    died = moves = 0
    for seed in range(3):
        st = lookup("herding-cats").new(players=2, seed=seed)
        view = st.view(0)
        b = Belief(view, 0, count=64, temperature=0.25, seed=seed)
        while not st.is_terminal():
            m = st.heuristic_move(seed=st.ply)
            mover = st.current_player
            after = view.clone()
            code = after.play_observation(st.observation(0, m))
            st.apply(m)
            if st.is_terminal():
                break
            before = b.stats()["deaths"]
            b.update(after, mover, code)
            if mover == 0:
                died += b.stats()["deaths"] - before
                moves += 1
            view = after
    assert moves > 20
    assert died / (moves * 64) < 0.1, died / (moves * 64)


@pytest.mark.parametrize("game_id", ["herding-cats", "cat-cards", "cat-earth"])
def test_each_draw_deals_the_cards_no_seat_knows_again(game_id):
    """A world drawn from the belief keeps its particle's hands but not its deck's order (the
    model's weights do not depend on it): the searches see fresh future draws every
    iteration, as with rule inference, and every world drawn is one the seat could be in."""
    st = lookup(game_id).new(players=2, seed=5)
    for i in range(6):
        st.apply(st.heuristic_move(seed=i))
    seat = st.current_player
    view = st.view(seat)
    view.inference = "rules"
    b = Belief(view, seat, count=1, seed=2)
    worlds = [b.sample(s) for s in range(8)]
    hands = {tuple(v for k, v in sorted(w.cards().items()) if k.startswith("hand"))
             for w in worlds}
    decks = {w.cards()["deck"] for w in worlds}
    assert len(hands) == 1
    assert len(decks) > 1
    for w in worlds:
        assert w.view(seat).to_text() == view.to_text() and view.allows(w)
