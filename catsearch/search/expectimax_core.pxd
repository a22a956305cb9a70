# cython: language_level=3
"""Expectimax over one seat's view: the C structures of :mod:`catsearch.search.expectimax_core`."""
from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t
from catsearch._core.state cimport State
from catsearch.search.chance cimport ChanceStack
from catsearch.search.ttable cimport TTEntry

cdef enum:
    EX_MAX_DEPTH = 64       # deepest iteration (decision plies)

# How decision nodes are valued.
cdef enum:
    EX_SCALAR = 0           # one value, the searching seat's: *-minimax / paranoid
    EX_VECTOR = 1           # one value per seat: max-n

# Pruning in the scalar search.
cdef enum:
    EX_PRUNE_NONE = 0       # plain expectimax: every node searched with the full window
    EX_PRUNE_STAR1 = 1      # alpha-beta at decision nodes, Star1 at chance nodes
    EX_PRUNE_STAR2 = 2      # Star1 plus Star2 probing

cdef class ExpectimaxCore(ChanceStack):
    cdef TTEntry* tt
    cdef uint64_t tt_mask
    cdef size_t tt_entries
    cdef object weights         # the heuristic's weights (GameSpec.weight_vector) or None

    # options of this search
    cdef int root
    cdef int players
    cdef int vector
    cdef int pruning
    cdef unsigned short stamp
    cdef uint64_t searches

    # limits and progress
    cdef long long nodes
    cdef long long chance_total     # of nodes: the chance children expanded
    cdef long long node_limit
    cdef double deadline
    cdef double next_info
    cdef public int stop_flag
    cdef int aborted
    cdef int failed
    cdef long long cutoffs
    cdef object info_hook
    cdef int has_info
    cdef object info_error

    # per root move of the current iteration
    cdef int nroot
    cdef int* root_moves
    cdef double* root_val       # nroot x 4 (scalar: [0] is the value, [1] 1 if exact)
    cdef long long* root_nodes
    cdef int* root_done
    cdef int best_index

    cdef int _tick(self) noexcept nogil
    cdef bint _chance_node(self, int lvl) noexcept nogil
    cdef double _search_s(self, int lvl, int depth, double alpha, double beta) noexcept nogil
    cdef double _decision_s(self, int lvl, int depth, double alpha, double beta, int ttmove,
                            int* best_move) noexcept nogil
    cdef double _chance_s(self, int lvl, int depth, double alpha, double beta) noexcept nogil
    cdef double _probe_s(self, int lvl, int depth, double alpha, double beta) noexcept nogil
    cdef void _search_v(self, int lvl, int depth, double* out) noexcept nogil
    cdef void _expect_v(self, int lvl, int depth, double* out) noexcept nogil
    cdef void _root_iteration(self, int depth) noexcept nogil
    cdef void _report(self) noexcept nogil
