"""The law of inference, checked on played games: :func:`check_inference`.

A seat's view keeps what the public moves revealed (a game's :attr:`GameSpec.history
<catsearch._core.game.GameSpec.history>` fields; Herding Cats' discards, for one), and
:meth:`State.allows <catsearch._core.state.State.allows>` says whether a world is one from
which the game seen so far could have happened. The law: the real state is always allowed;
every world :meth:`~catsearch._core.state.State.determinize` deals with ``inference="rules"``
is allowed; a game whose moves reveal nothing beyond its views (no history fields) deals the
same worlds with and without inference. With a ``reference`` (an independent implementation
of "could have happened", written from the rules over the public move log), ``allows`` must
agree with it on worlds dealt without inference, both ways, so that rejecting what it refuses
leaves exactly the worlds the rules allow.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from catsearch._core.state import State
from catsearch.testing.conformance import _Checker

__all__ = ["check_inference", "Reference"]

#: ``reference(log, seat, world) -> bool``: could the game of ``log`` (one ``(mover,
#: move text, notation of the full state before the move)`` per move, oldest first) have
#: happened, for ``seat``, with ``world`` (a full state) as the real state now?
Reference = Callable[[list, int, State], bool]


def check_inference(game_id: str, players: int, *, games: int = 3, seed: int = 0,
                    worlds: int = 4, options: Mapping[str, Any] | None = None,
                    reference: Reference | None = None) -> dict:
    """Check the law of inference on ``games`` games of ``game_id`` (the game's heuristic
    and uniformly random moves, in turn, so that revealing moves happen as in real play).

    At every position, for every seat: the seat's view allows the real state; each of
    ``worlds`` worlds dealt from the view with ``inference="rules"`` is a full state the seat
    cannot tell from the view, and the view allows it; for a game without history fields, the
    worlds dealt with and without inference are the same for the same seed. With
    ``reference``: on ``worlds`` worlds dealt with ``inference="none"``, ``allows`` and the
    reference agree, and the reference accepts every world dealt with ``"rules"``.

    :returns: counts: ``positions``, ``worlds``, ``refused`` (worlds dealt without inference
        that the view refused).
    :raises ConformanceError: the first failure, naming game, seed, ply and what failed.
    """
    options = dict(options or {})
    ck = _Checker(game_id, players, seed, options)
    report = {"positions": 0, "worlds": 0, "refused": 0}
    rng = random.Random(seed)
    for g, game_seed, st in ck.deals(games, salt=3000):
        history = bool(type(st).spec.history)
        log: list = []
        ply = 0
        while True:
            ck.at(g, game_seed, ply, st)
            for seat in range(players):
                _check_position(ck, st, seat, log, history, worlds, reference, rng, report)
            report["positions"] += 1
            if st.is_terminal():
                break
            if ply % 2:
                move = rng.choice(st.legal_moves())
            else:
                move = st.heuristic_move(seed=rng.randrange(2**64))
            log.append((st.current_player, st.move_to_str(move), st.to_text()))
            st.apply(move)
            ply += 1
    return report


def _check_position(ck: _Checker, st: State, seat: int, log: list, history: bool,
                    worlds: int, reference: Reference | None, rng: random.Random,
                    report: dict) -> None:
    view = st.view(seat)
    ck.expect(view.allows(st), f"seat {seat}'s view {view.to_text()!r} refuses the real state")
    for k in range(worlds):
        s = rng.randrange(2**64)
        world = view.determinize(seat, seed=s)
        report["worlds"] += 1
        try:
            allowed = view.allows(world)
        except ValueError as e:
            ck.fail(f"a world dealt from seat {seat}'s view: {e}")
        ck.expect(allowed, f"seat {seat}'s view {view.to_text()!r} dealt the world "
                           f"{world.to_text()!r} (inference='rules', seed {s}), which it refuses")
        if reference is not None:
            ck.expect(reference(log, seat, world),
                      f"seat {seat}'s view dealt {world.to_text()!r} (seed {s}); the reference "
                      f"says the game so far could not have happened in it")
        plain = view.determinize(seat, seed=s, inference="none")
        if not history:
            ck.expect(plain == world, f"no move of {st.game_id} reveals anything beyond the "
                                      f"views, yet seat {seat}'s view deals {world.to_text()!r} "
                                      f"with inference and {plain.to_text()!r} without (seed {s})")
        elif reference is not None:
            mine, theirs = view.allows(plain), reference(log, seat, plain)
            report["refused"] += not mine
            ck.expect(mine == theirs,
                      f"seat {seat}'s view {'allows' if mine else 'refuses'} the world "
                      f"{plain.to_text()!r}; the reference says it "
                      f"{'could not' if mine else 'could'} have happened")
