"""The law of tensors, checked on random games: :func:`check_tensors`.

A seat's tensors (:meth:`State.observation_tensor
<catsearch._core.state.State.observation_tensor>`, :meth:`State.information_state_tensor
<catsearch._core.state.State.information_state_tensor>`) are made from what the seat knows
only: equal in every state the seat cannot tell apart, and the information-state tensor
different whenever the seat's knowledge differs (its :meth:`info_key`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from catsearch.testing.conformance import _Checker

__all__ = ["check_tensors"]

KINDS = ("observation", "information_state")


def check_tensors(game_id: str, players: int, *, games: int = 3, seed: int = 0,
                  options: Mapping[str, Any] | None = None, determinizations: int = 2,
                  every: int = 1) -> dict:
    """Check the tensors of ``game_id`` on ``games`` random games.

    At every ``every``-th ply (and the end), for every seat and both kinds: the layout's parts are named, in order and
    cover the tensor; the tensor is a C-contiguous float32 array of the one shape of this
    game and player count, with finite values; the full state's tensor for the seat equals
    its view's; ``determinizations`` full states drawn from the seat's knowledge give the
    same tensors (so nothing hidden from the seat reaches them); a view refuses another seat.
    Over all the games, two views of a seat with different info keys never have the same
    information-state tensor.

    :returns: counts: ``states``, ``tensors``, ``determinizations``.
    :raises ConformanceError: the first failure, naming game, seed, ply and what failed.
    """
    ck = _Checker(game_id, players, seed, options, ("states", "tensors", "determinizations"))
    report, rng = ck.report, ck.rng
    shapes: dict[str, tuple] = {}
    known: dict[tuple[int, bytes], int] = {}      # (seat, information-state bytes) -> info key
    for g, game_seed, st in ck.deals(games, salt=2000):
        ply = 0
        while True:
            ck.at(g, game_seed, ply, st)
            if ply % every and not st.is_terminal():
                st.play(rng.choice(st.legal_moves()))
                ply += 1
                continue
            report["states"] += 1
            for seat in range(players):
                view = st.view(seat)
                key = st.info_key(seat)
                tensors = {}
                for kind in KINDS:
                    t = _check_one(ck, st, seat, kind, shapes)
                    ck.expect(np.array_equal(t, _tensor(view, seat, kind)),
                              f"seat {seat}'s {kind} tensor differs between the full state "
                              f"and the seat's view")
                    tensors[kind] = t
                    report["tensors"] += 1
                for _ in range(determinizations):
                    d = st.determinize(seat, rng.randrange(2**64))
                    report["determinizations"] += 1
                    for kind in KINDS:
                        td = _tensor(d, seat, kind)
                        if not np.array_equal(td, tensors[kind]):
                            diff = _first_difference(st, kind, tensors[kind], td)
                            ck.fail(f"seat {seat}'s {kind} tensor differs in a determinization "
                                    f"for seat {seat} ({diff}): it shows something the seat "
                                    f"does not know\n  determinization: {d.to_text()}")
                if players > 1:
                    other = (seat + 1) % players
                    ck.raises(ValueError, lambda: view.observation_tensor(other),
                              f"seat {seat}'s view asked for seat {other}'s tensor")
                blob = (seat, tensors["information_state"].tobytes())
                if known.setdefault(blob, key) != key:
                    ck.fail(f"seat {seat}: two different information sets (info keys "
                            f"{known[blob]:#x} and {key:#x}) have the same information-state "
                            f"tensor")
            if st.is_terminal():
                break
            st.play(rng.choice(st.legal_moves()))
            ply += 1
    return report


def _tensor(st, seat, kind):
    return st.observation_tensor(seat) if kind == "observation" \
        else st.information_state_tensor(seat)


def _check_one(ck, st, seat, kind, shapes):
    parts = st.tensor_layout(kind)
    ck.expect(parts and parts[0].start == 0
              and all(a.stop == b.start for a, b in zip(parts, parts[1:]))
              and len({p.name for p in parts}) == len(parts),
              f"the {kind} layout's parts must be named once each and follow each other: "
              f"{parts}")
    t = _tensor(st, seat, kind)
    ck.expect(isinstance(t, np.ndarray) and t.dtype == np.float32 and t.flags.c_contiguous,
              f"the {kind} tensor must be a C-contiguous float32 numpy array, not {t!r}")
    shape = shapes.setdefault(kind, t.shape)
    ck.expect(t.shape == shape == st.tensor_shape(kind) == (parts[-1].stop,),
              f"the {kind} tensor's shape {t.shape} must be the game's one shape {shape} "
              f"(tensor_shape gives {st.tensor_shape(kind)})")
    ck.expect(bool(np.isfinite(t).all()), f"the {kind} tensor holds a value that is not finite")
    return t


def _first_difference(st, kind, a, b) -> str:
    i = int(np.flatnonzero(a != b)[0])
    part = next(p for p in st.tensor_layout(kind) if p.start <= i < p.stop)
    return f"element {i}, in part {part.name!r} at {i - part.start}: {a[i]} against {b[i]}"
