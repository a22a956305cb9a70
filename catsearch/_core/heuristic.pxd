# cython: language_level=3
"""The heuristic's weights in C: a game's array of defaults filled from its declaration, and a
player's weight vector as the pointer a state reads (``set_heuristic_weights`` in
``state.pxd`` points a state at it). Inline, so that ``state.pxd`` gives them to the games
without an import between the modules; ``heuristic.pyx`` is the checked Python face of the
heuristic move.
"""


cdef inline const double* weights_pointer(object vector) except? NULL:
    """The doubles of ``vector`` (an ``array('d')`` from ``GameSpec.weight_vector``), NULL
    for ``None``: valid while the caller keeps ``vector``."""
    cdef double[::1] w
    if vector is None:
        return NULL
    w = vector
    return &w[0]


cdef inline int fill_weights(double* out, int n, object spec) except -1:
    """Fill a game's C array of ``n`` default heuristic weights from its ``spec`` (at import:
    the declaration is the one source of the defaults and of their order)."""
    cdef int i
    if len(spec.heuristic_weights) != n:
        raise ValueError(f"{spec.id}: {len(spec.heuristic_weights)} heuristic weights "
                         f"declared, the C array holds {n}")
    for i in range(n):
        out[i] = spec.heuristic_weights[i].default
    return 0
