# cython: language_level=3
"""Expectimax over one seat's view: the C structures of :mod:`catsearch.search.expectimax`."""
from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t
from catsearch._core.rng cimport Rng
from catsearch._core.state cimport State

cdef enum:
    EX_MAX_DEPTH = 64       # deepest iteration (decision plies)
    EX_OUTCOMES = 1024      # room for one chance_outcomes_c answer

# How decision nodes are valued.
cdef enum:
    EX_SCALAR = 0           # one value, the searching seat's: *-minimax / paranoid
    EX_VECTOR = 1           # one value per seat: max-n

# Pruning in the scalar search.
cdef enum:
    EX_PRUNE_NONE = 0       # plain expectimax: every node searched with the full window
    EX_PRUNE_STAR1 = 1      # alpha-beta at decision nodes, Star1 at chance nodes
    EX_PRUNE_STAR2 = 2      # Star1 plus Star2 probing

ctypedef struct TTEntry:
    uint64_t key            # 0: empty
    double v[4]             # max-n: value per seat; scalar: v[0] lower, v[1] upper bound
    short depth             # remaining decision plies the value was searched to
    short move              # best move found, -1 if none (chance node)
    unsigned char solved    # the subtree reached no depth cut-off: valid at any depth >= depth
    unsigned short stamp    # the iteration that wrote it (replacement)

ctypedef struct ChanceSet:
    # The children of one chance node once every unknown the next decision needs is
    # resolved: one snapshot of the game struct per distinct outcome, merged by hash.
    char* snaps
    double* prob
    uint64_t* key
    int* slot               # where each entry sits in index (to clear it cheaply)
    double* lo              # bounds on each child's value (Star1/Star2)
    double* hi
    unsigned int* index     # open addressing by key: entry + 1, 0 empty
    int n
    int cap
    int index_cap           # a power of two, at least 2 * cap
    size_t size             # bytes of one snapshot

ctypedef struct ProbIdx:
    double p
    uint64_t tie
    int i


cdef class ExpectimaxCore:
    # the state stack: level 0 is the root; each decision or chance step goes one level down
    cdef list _objs
    cdef PyObject** stack
    cdef PyObject* scr1
    cdef PyObject* scr2
    cdef int nlevels
    cdef size_t size
    cdef int stride
    cdef int* moves
    cdef double* history
    cdef ChanceSet* sets
    cdef ChanceSet fa
    cdef ChanceSet fb
    cdef ChanceSet fc
    cdef ProbIdx* pairs
    cdef int pairs_cap
    cdef int outs[EX_OUTCOMES]
    cdef double ws[EX_OUTCOMES]
    cdef TTEntry* tt
    cdef uint64_t tt_mask
    cdef size_t tt_entries

    # options of this search
    cdef int root
    cdef int players
    cdef int vector
    cdef int pruning
    cdef int max_chance
    cdef int sample
    cdef int playouts
    cdef int* pbuf
    cdef uint64_t seed
    cdef uint64_t salt
    cdef unsigned short stamp
    cdef uint64_t searches

    # limits and progress
    cdef long long nodes
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

    cdef _prepare(self, State root, int nlevels)
    cdef _release(self)
    cdef _reorder(self, list moves, list values, list exact, int best)
    cdef int _tick(self) noexcept nogil
    cdef uint64_t _key(self, PyObject* s) noexcept nogil
    cdef int _enumerate(self, int lvl, int n0) noexcept nogil
    cdef int _top(self, ChanceSet* src, ChanceSet* dst, int keep) noexcept nogil
    cdef int _sample(self, int lvl) noexcept nogil
    cdef double _search_s(self, int lvl, int depth, double alpha, double beta) noexcept nogil
    cdef double _decision_s(self, int lvl, int depth, double alpha, double beta, int ttmove,
                            int* best_move) noexcept nogil
    cdef double _chance_s(self, int lvl, int depth, double alpha, double beta) noexcept nogil
    cdef double _probe_s(self, int lvl, int depth, double alpha, double beta) noexcept nogil
    cdef void _search_v(self, int lvl, int depth, double* out) noexcept nogil
    cdef int _order(self, int lvl, int n, int ttmove) noexcept nogil
    cdef void _root_iteration(self, int depth) noexcept nogil
    cdef void _report(self) noexcept nogil
    cdef int _hidden(self, int lvl) noexcept nogil
    cdef void _leaf(self, PyObject* sp, double* out) noexcept nogil
