"""``State.apply`` is fast, and memory-safe whatever it is given (issue 18, item 2).

Every case runs in a subprocess: a move id that corrupts memory ends that process (a
segmentation fault) and fails the test, instead of ending the test run.
"""
import subprocess
import sys
import textwrap

import pytest

import catsearch

SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import catsearch
    import catsearch.testing        # the test games too
    from catsearch import InvalidMoveError

    game = sys.argv[1]
    st = catsearch.new_game(game, players=3, seed=5)
    n = st.num_distinct_moves
    before = st.to_text()
    for bad in (2**31 - 1, -2**31, -1, n, n + 1, 2**63, -2**63 - 1, 2**200, np.int64(n),
                np.int32(-1), np.uint64(2**64 - 1)):
        try:
            st.apply(bad)
        except InvalidMoveError as e:
            assert str(int(bad)) in str(e) and f"0 to {n - 1}" in str(e), str(e)
        else:
            raise SystemExit(f"apply({bad!r}) was accepted")
        assert st.to_text() == before, bad
    for bad in (1.0, "0", None, True, [0], np.float64(0)):
        try:
            st.apply(bad)
        except TypeError:
            pass
        else:
            raise SystemExit(f"apply({bad!r}) was accepted")
        assert st.to_text() == before, bad
    # in range but illegal, in a full state: refused too (the C rules assume legal moves;
    # herding-cats and cat-earth crashed on some)
    from catsearch import IllegalMoveError
    import random
    rng = random.Random(3)
    s = st.clone()
    while not s.is_terminal():
        legal = set(s.legal_moves())
        text = s.to_text()
        # every move of the small games; 60 drawn at random (and the ends) of the big ones
        tried = range(n) if n <= 64 else [0, n - 1] + rng.sample(range(n), 60)
        for m in tried if s.ply % 5 == 0 else ():
            if m not in legal:
                try:
                    s.apply(m)
                except IllegalMoveError:
                    pass
                else:
                    raise SystemExit(f"illegal apply({m}) was accepted in {text}")
                assert s.to_text() == text
        s.apply(rng.choice(sorted(legal)))
    try:
        s.apply(0)
    except IllegalMoveError:
        pass
    else:
        raise SystemExit("apply after the end was accepted")
    # in range: numpy integers and ints play like play()
    m = st.legal_moves()[0]
    a, b = st.clone(), st.clone()
    a.apply(np.int64(m))
    b.play(m)
    assert a == b
    print("ok")
""")


@pytest.mark.parametrize("game_id", catsearch.GAMES)
def test_apply_refuses_moves_outside_the_move_space(game_id):
    r = subprocess.run([sys.executable, "-c", SCRIPT, game_id], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok", (r.returncode, r.stdout, r.stderr)


def test_a_view_that_waits_for_chance_has_no_move():
    """Where the game is on but no seat is to move (a toy-pennies view waiting for chance to
    reveal the other choice), asking for moves is refused, as The Cat's waiting views are."""
    import catsearch.testing  # noqa: F401  (registers the toy games)
    from catsearch.errors import IllegalMoveError
    st = catsearch.new_game("toy-pennies", 2, seed=1)
    st.play("tails")
    view = st.view(1)
    view.play("heads")
    assert view.current_player == -1 and not view.is_terminal() and view.chance_outcomes()
    for ask in (view.legal_moves, view.heuristic_move, lambda: view.play("heads")):
        with pytest.raises(IllegalMoveError, match="nobody can move: this view waits for chance"):
            ask()
