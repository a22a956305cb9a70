# cython: language_level=3
# What a seat observes (observing.pyx): observations and tensors. The helpers below are for
# the games' tensor_c hooks, which encode a seat's view with every seat counted from that
# seat (0 is itself, then the others in seat order).
from catsearch._core.state cimport Header


cdef inline int relative(int p, int seat, int n) noexcept nogil:
    """Seat ``p`` counted from ``seat``: 0 is ``seat`` itself, then the next in seat order."""
    return (p - seat + n) % n


cdef inline int put_turn(float* out, int o, Header* h) noexcept nogil:
    """The part ``turn`` of a view's tensor, from ``out[o]``: the seat to move, one-hot over
    the ``players`` seats counted from the view's seat (all 0 once nobody is to move).
    Returns the offset after it."""
    if h.current >= 0:
        out[o + relative(h.current, h.view_seat if h.view_seat >= 0 else 0, h.players)] = 1.0
    return o + h.players
