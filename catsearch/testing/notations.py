"""The law of an accepted notation, checked on whatever ``from_text`` accepts:
:func:`check_accepted`.

``from_text`` either refuses a notation with a ``NotationError`` naming the field, or gives a
state that behaves as one reached in a real game: it reads back, prints, plays on to states
that read back, and, in a seat's view, holds exactly what that seat can know: every world
drawn from it (``determinize``) shows the seat the same view, every move the view allows
leaves a view that reads back, and every observation of a move in such a world is one the
view can follow, to the world's own view. A fuzzer (``tests/conformance/test_view_fuzz.py``
mutates real notations with Hypothesis) feeds it the notations it makes.
"""

from __future__ import annotations

import random

from catsearch._core.state import State

__all__ = ["check_accepted", "NotationLawError"]


class NotationLawError(AssertionError):
    """An accepted notation broke the law; the message names the notation and what failed."""


def _fail(text: str, what: str) -> None:
    raise NotationLawError(f"{what}\n  accepted notation: {text}")


def _reads_back(st: State, origin: str, what: str) -> str:
    try:
        text = st.to_text()
        str(st)
        repr(st)
    except Exception as e:
        _fail(origin, f"{what}: cannot print the state: {type(e).__name__}: {e}")
    try:
        back = type(st).from_text(text)
    except Exception as e:
        _fail(origin, f"{what}: its notation {text!r} does not read back: "
                      f"{type(e).__name__}: {e}")
    if back != st or back.hash != st.recompute_hash() or st.hash != st.recompute_hash():
        _fail(origin, f"{what}: {text!r} reads back as another state, or its hash differs")
    return text


def check_accepted(state: State, *, seed: int = 0, steps: int = 40, worlds: int = 3) -> None:
    """Check the law on ``state``, a state ``from_text`` accepted (left unchanged).

    A full state plays ``steps`` random legal moves, each state reading back and each seat's
    view of it checked as below. A view (of seat ``s``): it reads back; ``worlds``
    determinizations of it are full states that show ``s`` exactly this view
    (``determinize(s).view_text(s) == view``) and read back; every move of the view's
    ``legal_moves`` (up to 8 of them) applied to a copy leaves a view that reads back; and for
    a random legal move of each world, ``s``'s observation of it is one the view follows, to
    the world's own view of ``s`` after the move.

    :raises NotationLawError: the first failure, naming the notation and what failed.
    """
    origin = state.to_text()
    rng = random.Random(seed)
    if state.view_seat is None:
        st = state.clone()
        for ply in range(steps + 1):
            _reads_back(st, origin, f"after {ply} random moves")
            for s in range(st.players):
                _check_view(st.view(s), origin, rng, worlds=1,
                            what=f"seat {s}'s view after {ply} random moves")
            if st.is_terminal():
                return
            moves = st.legal_moves()
            if not moves:
                _fail(origin, f"after {ply} random moves: no legal move in a live full state")
            st.apply(rng.choice(moves))
    else:
        _check_view(state.clone(), origin, rng, worlds=worlds, what="the view")


def _check_view(view: State, origin: str, rng: random.Random, *, worlds: int,
                what: str) -> None:
    seat = view.view_seat
    vt = _reads_back(view, origin, what)
    if view.view_text(seat) != vt:
        _fail(origin, f"{what}: view_text({seat}) of a view is not the view: "
                      f"{view.view_text(seat)!r}")
    legal = view.legal_moves() if not view.is_terminal() else []
    for m in rng.sample(legal, min(8, len(legal))):
        c = view.clone()
        try:
            c.apply(m)
        except Exception as e:
            _fail(origin, f"{what}: its legal move {view.move_to_str(m)!r} raised "
                          f"{type(e).__name__}: {e}")
        _reads_back(c, origin, f"{what}, after its legal move {view.move_to_str(m)!r}")
    for k in range(worlds):
        try:
            world = view.determinize(seat, seed=rng.randrange(2**32))
        except Exception as e:
            _fail(origin, f"{what}: determinize({seat}) raised {type(e).__name__}: {e}")
        _reads_back(world, origin, f"{what}: a world drawn from it")
        if world.view_seat is not None or world.view_text(seat) != vt:
            _fail(origin, f"{what}: a world drawn from it shows seat {seat} another view: "
                          f"{world.view_text(seat)!r} (the view holds what the seat cannot "
                          f"know, or contradicts itself)")
        if world.is_terminal():
            continue
        m = rng.choice(world.legal_moves())
        if m not in legal:
            _fail(origin, f"{what}: move {world.move_to_str(m)!r}, legal in a world drawn "
                          f"from it, is not among the view's legal moves")
        obs = world.observation(seat, m)
        after = world.clone()
        after.apply(m)
        followed = view.clone()
        try:
            followed.play_observation(obs)
        except Exception as e:
            _fail(origin, f"{what}: cannot follow {obs!r}, seat {seat}'s observation of "
                          f"{world.move_to_str(m)!r} in a world drawn from it: "
                          f"{type(e).__name__}: {e}")
        if followed.to_text() != after.view_text(seat):
            _fail(origin, f"{what}: after observation {obs!r} the view is "
                          f"{followed.to_text()!r}, the world's view "
                          f"{after.view_text(seat)!r}")
