"""A game's own playout loop (``State.playout_c``, which ``random_playout`` calls: a search's
playouts and ``benchmark_playouts``) plays the game ``apply_c`` plays: the same moves for the
same draws, to the same scores and ply. Herding Cats' and Cat Earth's loops are their own
(Herding Cats' keeps no hash), so they are held here to the rules move for move: each start
played on through the Python API with the same draws."""
import pytest

import catsearch
from catsearch._core.counting import playout_from

OPTIONS = {"cat-earth": {"setup": "random"}}
MASK = (1 << 64) - 1


def _splitmix(s):
    s = (s + 0x9E3779B97F4A7C15) & MASK
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return s, z ^ (z >> 31)


def _replay(st, seed):
    """``random_playout`` through ``legal_moves``/``apply``: (moves, scores, ply)."""
    st = st.clone()
    n = 0
    while not st.is_terminal():
        moves = st.legal_moves()
        seed, z = _splitmix(seed)
        st.apply(moves[((z >> 32) * len(moves)) >> 32])
        n += 1
    return n, tuple(float(x) for x in st.scores()), st.ply


def _starts(game, players, seed):
    """A fresh deal, a state some random moves in, and a world dealt from a seat's view of
    it (Herding Cats': with what its discards revealed, where a discard was made)."""
    st = catsearch.new_game(game, players, seed=seed, **OPTIONS.get(game, {}))
    yield st
    mid = st.clone()
    for i in range(25 if game == "herding-cats" else 40):
        if mid.is_terminal():
            break
        moves = mid.legal_moves()
        mid.apply(moves[(seed * 7 + i * 13) % len(moves)])
    yield mid
    if not mid.is_terminal():
        yield mid.determinize(mid.current_player, seed)


@pytest.mark.parametrize("game", catsearch.GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_playout_plays_the_rules_game(game, players):
    n_starts = 0
    for seed in range(4):
        for st in _starts(game, players, seed):
            for draw_seed in (seed, seed + 1000):
                moves, scores, ply = playout_from(st, draw_seed)
                assert (moves, scores, ply) == _replay(st, draw_seed), (game, players, seed)
                assert ply == st.ply + moves
                n_starts += 1
    assert n_starts >= 16       # a fresh deal and a state some moves in, at least


def test_playout_from_a_view_is_refused():
    st = catsearch.new_game("herding-cats", 3, seed=1)
    with pytest.raises(ValueError, match="full state"):
        playout_from(st.view(0), 1)
