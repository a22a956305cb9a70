# cython: language_level=3
"""What a seat observes, written once for every game: a live game's observations (the game
master's full state writes them, a seat's view follows them) and the observation and
information-state tensors (a seat's view encoded by the game's ``tensor_c``)."""
from catsearch._core.state cimport State, header, copy_state

from collections import namedtuple

import numpy as np

from catsearch.errors import IllegalMoveError, ObservationError

#: One part of a tensor: its name and its ``[start, stop)`` slice of the flat tensor.
TensorPart = namedtuple("TensorPart", "name start stop")

#: the tensor kinds, by name, as ``tensor_c`` and ``_tensor_layout`` number them
TENSOR_KINDS = {"observation": 0, "information_state": 1}


def observation(State st, seat, move):
    """:meth:`State.observation <catsearch._core.state.State.observation>`."""
    if header(st).view_seat >= 0:
        raise ValueError("observations are written by the full state (the game master's), "
                         f"not by seat {header(st).view_seat}'s view")
    seat = st._check_seat(seat, knowledge=False)
    m = st.str_to_move(move) if isinstance(move, str) else st._move_index(move)
    st._check_legal(m)
    return st._observation(seat, m)


def play_observation(State st, text):
    """:meth:`State.play_observation <catsearch._core.state.State.play_observation>`: applied
    on a copy, so a refused observation leaves ``st`` unchanged."""
    if not isinstance(text, str):
        raise TypeError(f"an observation is a str, not {type(text).__name__}")
    if header(st).view_seat < 0:
        raise ObservationError("observations are followed by a seat's view; this is the "
                               "full state", text, st.to_text())
    if header(st).terminal:
        raise ObservationError("the game is over", text, st.to_text())
    cdef State c = st.clone_c()
    try:
        code = c._play_observation(text.strip())
    except ObservationError:
        raise
    except (ValueError, IndexError, KeyError) as e:
        raise ObservationError(str(e), text, st.to_text()) from None
    copy_state(st, c)
    return code


def _kind(kind) -> int:
    if not isinstance(kind, str):
        raise TypeError(f"a tensor kind is a str, not {type(kind).__name__}")
    if kind not in TENSOR_KINDS:
        raise ValueError(f"unknown tensor kind {kind!r}: expected one of "
                         f"{', '.join(TENSOR_KINDS)}")
    return TENSOR_KINDS[kind]


def layout(State st, kind) -> tuple:
    """:meth:`State.tensor_layout <catsearch._core.state.State.tensor_layout>`: the game's
    ``_tensor_layout`` as ``TensorPart`` slices, checked (names unique, lengths positive)."""
    parts, start = [], 0
    for name, length in st._tensor_layout(_kind(kind)):
        if length <= 0 or any(p.name == name for p in parts):
            raise RuntimeError(f"{st.game_id}: bad tensor part {name!r} of length {length}")
        parts.append(TensorPart(name, start, start + length))
        start += length
    return tuple(parts)


def size(State st, kind) -> int:
    """The length of the tensors of ``kind`` (the last part's stop)."""
    parts = layout(st, kind)
    return parts[len(parts) - 1].stop


def tensor(State st, seat, kind):
    """The tensor of ``kind`` for ``seat``: made from ``seat``'s view only (a full state is
    hidden first), so nothing the seat cannot know can reach it."""
    cdef int k = _kind(kind)
    cdef int s = st._check_seat(seat)
    cdef State v = st
    cdef float[::1] buf
    out = np.zeros(size(st, kind), dtype=np.float32)
    buf = out
    if header(st).view_seat < 0:
        v = st.clone_c()
        header(v).show_hands = 0       # the seat's own view, even of a world an oracle dealt
        v.hide_c(s)
    v.tensor_c(k, &buf[0])
    return out


def legal_mask(State st):
    """:meth:`State.legal_mask <catsearch._core.state.State.legal_mask>`: for learners, with
    the tensors."""
    import numpy as np
    mask = np.zeros(st.num_distinct_moves_c(), dtype=bool)
    mask[st.legal_moves()] = True
    return mask
