# cython: language_level=3
from catsearch._core.state cimport State, Header

ctypedef struct ToyData:
    Header h
    int choice[4]       # this round: a move, UNKNOWN in a view, NOT_YET before the seat chose
    int points[4]
    int round           # rounds resolved
    int rounds          # the option: rounds in a game


cdef class ToyRPS(State):
    cdef ToyData d
    cdef void score_round_c(self) noexcept nogil
    cdef void resolve(self) noexcept nogil


cdef class ToyPennies(ToyRPS):
    pass


cdef class ToyBiasedPennies(ToyPennies):
    pass
