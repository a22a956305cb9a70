# cython: language_level=3
"""Expectimax's transposition table, in C and inline: an entry, where a key lives, when an
entry may be used, and when a new result replaces it (``expectimax_core.pyx`` probes and
writes it; no Python objects).

The table is a power-of-two array of entries, one slot per key (``key & mask``). A slot holds
the last result written there unless a deeper one of the current search would be lost: an
older search's entry, an empty one, the same position's or a shallower one is replaced.
"""
from libc.stdint cimport uint64_t


ctypedef struct TTEntry:
    uint64_t key            # 0: empty
    double v[4]             # max-n: value per seat; scalar: v[0] lower, v[1] upper bound
    short depth             # remaining decision plies the value was searched to
    short move              # best move found, -1 if none (chance node)
    unsigned char solved    # the subtree reached no depth cut-off: valid at any depth >= depth
    unsigned short stamp    # the iteration that wrote it (replacement)


cdef inline TTEntry* tt_slot(TTEntry* tt, uint64_t mask, uint64_t key) noexcept nogil:
    """The one slot of ``key``."""
    return &tt[key & mask]


cdef inline bint tt_answers(const TTEntry* e, uint64_t key, int depth) noexcept nogil:
    """Whether ``e`` holds ``key`` searched to ``depth`` plies, or solved at no more."""
    return e.key == key and (e.depth == depth or (e.solved and e.depth <= depth))


cdef inline bint tt_replaces(const TTEntry* e, uint64_t key, int depth,
                             unsigned short stamp) noexcept nogil:
    """Whether a result for ``key`` at ``depth`` in search ``stamp`` may overwrite ``e``."""
    return e.key == 0 or e.key == key or e.stamp != stamp or depth >= e.depth


cdef inline void tt_mark(TTEntry* e, uint64_t key, int depth, int move, bint solved,
                         unsigned short stamp) noexcept nogil:
    """Write everything of ``e`` but its values (the caller writes ``e.v``)."""
    e.key = key
    e.depth = depth
    e.move = move
    e.solved = solved
    e.stamp = stamp
