# cython: language_level=3
"""The checked Python face of a game's heuristic move (:meth:`State.heuristic_move`), with a
player's weights set for the one call (``heuristic.pxd``: the weights in C)."""
from libc.stdlib cimport malloc, free

from catsearch._core.rng cimport Rng, rng_seed
from catsearch._core.state cimport State, header, set_heuristic_weights
from catsearch._core.heuristic cimport weights_pointer

from catsearch._core.options import check_seed, fresh_seed
from catsearch.errors import IllegalMoveError


def heuristic_move(State st, seed, weights) -> int:
    """:meth:`State.heuristic_move`: the game's rule-based move in ``st``, its ties drawn
    with ``seed`` (``None``: a fresh one), with ``weights`` (name -> value) where given."""
    cdef Rng r
    cdef const double* keep = header(st).hweights
    cdef int* buf
    seed = check_seed(seed)
    vector = st.spec.weight_vector(weights)
    if seed is None:
        seed = fresh_seed()
    if header(st).terminal:
        raise IllegalMoveError(f"the game is over in {st.to_text()!r}")
    st._check_can_move()
    rng_seed(&r, seed)
    buf = <int*>malloc(sizeof(int) * (st.num_distinct_moves_c() + 1))
    if buf == NULL:
        raise MemoryError()
    if vector is not None:
        set_heuristic_weights(st, weights_pointer(vector))
    try:
        return st.heuristic_move_c(&r, buf, 0)
    finally:
        set_heuristic_weights(st, keep)
        free(buf)
