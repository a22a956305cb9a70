# cython: language_level=3
"""A seat's belief over the worlds it can be in: weighted particles (see ``particles.pyx``)."""
from libc.stdint cimport uint64_t

from catsearch._core.rng cimport Rng
from catsearch._core.state cimport State


cdef class Belief:
    cdef readonly int seat
    cdef readonly int count    # particles
    cdef size_t size           # bytes of one world (the game's struct)
    cdef char* worlds          # count worlds, one after another
    cdef double* logw          # their log weights (-inf: dead)
    cdef unsigned char* dup    # 1: a copy made by resampling, its unknown-to-all cards not yet dealt again
    cdef double* cdf           # cumulative normalised weights, for drawing (built by _norm)
    cdef int* buf              # legal moves
    cdef double* probs         # per legal move: the model's probability
    cdef State tmp             # a world being moved on
    cdef State alt             # a world with its unknown-to-all cards dealt again
    cdef bint redeal           # deal them again before each move (no hidden moves)
    cdef State probe           # tmp hidden for the seat, to check it against the real view
    cdef Rng rng
    cdef readonly double temperature
    cdef double refill         # refill dead particles when fewer than this share live
    cdef double threshold      # resample when the effective sample size falls below it
    cdef uint64_t key          # info key of the view every live particle agrees with
    cdef long long ply         # that view's ply
    # what happened so far (for the cost and the docs)
    cdef long long updates, resamples, refills, restarts, deaths
    cdef double seconds

    cdef double model_c(self, State w, int n, int move) noexcept nogil
    cdef int draw_c(self, State out, Rng* rng) noexcept nogil
    cdef void _norm(self) noexcept nogil
    cdef void _advance(self, State w, int mover, int code, uint64_t key, int ndm) noexcept nogil
    cdef void _kill(self, int i) noexcept nogil
    cdef bint _shows(self, State w, int move, uint64_t key) noexcept nogil
    cdef void _redeal(self, State w) noexcept nogil
    cdef double _own(self, State w, int move, uint64_t key) noexcept nogil
    cdef int _live(self) noexcept nogil
