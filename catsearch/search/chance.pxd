# cython: language_level=3
"""The state stack of an expectimax search and its chance nodes (see ``chance.pyx``)."""
from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t
from libc.stdlib cimport free
from libc.string cimport memcpy

from catsearch._core.state cimport State, Header

cdef enum:
    EX_OUTCOMES = 1024      # room for one chance_outcomes_c answer

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


cdef inline void release(void** p) noexcept nogil:
    """Free the block at ``p[0]`` and forget it (``p[0]`` set to NULL)."""
    free(p[0])
    p[0] = NULL


cdef inline Header* hdr(PyObject* s) noexcept nogil:
    return <Header*>(<State>s)._data


cdef inline void copy_into(PyObject* dst, PyObject* src) noexcept nogil:
    memcpy((<State>dst)._data, (<State>src)._data, (<State>src)._size)



# The depth of a node past the horizon whose hidden simultaneous choice has not resolved yet:
# it is not evaluated there (every choice would look the same, as nothing has happened yet)
# but followed through the other seats' hidden choices and the chance that resolves them, for
# no depth, to the next decision, which is the leaf.
cdef enum:
    SETTLE = -1


cdef inline int child_depth(State st, int move, int depth) noexcept nogil:
    """The depth left after ``move`` is played in ``st`` with ``depth`` to go: one less, or
    ``SETTLE`` at the horizon when some other seat cannot see the move (a simultaneous
    choice, which only resolves once every seat has chosen)."""
    cdef int s, p = (<Header*>st._data).current
    if depth > 1:
        return depth - 1
    for s in range((<Header*>st._data).players):
        if s != p and st.observe_move_c(move, s) != move:
            return SETTLE
    return depth - 1

cdef class ChanceStack:
    # the state stack: level 0 is the root; each decision or chance step goes one level down
    cdef list _objs
    cdef PyObject** stack
    cdef PyObject* scr1
    cdef PyObject* scr2
    cdef int nlevels
    cdef size_t size
    cdef int stride             # room for every move + 1
    cdef int* moves             # nlevels x stride: the moves of each level
    cdef double* history        # per move: its history score (move ordering)
    cdef int* pbuf              # scratch for heuristic_move_c
    cdef ChanceSet* sets        # per level: the outcomes of its chance node
    cdef ChanceSet fa
    cdef ChanceSet fb
    cdef ChanceSet fc
    cdef ProbIdx* pairs
    cdef int pairs_cap
    cdef int outs[EX_OUTCOMES]
    cdef double ws[EX_OUTCOMES]

    # options of this search
    cdef bint by_history        # order moves by history (see _order)
    cdef int max_chance
    cdef int sample             # wide nodes: 0 keep the most probable, 1 sample them
    cdef int samples            # the resolutions a sampled node draws (sparse sampling)
    cdef long long sampled      # chance nodes sampled in this search
    cdef int playouts
    cdef uint64_t seed
    cdef uint64_t salt

    # the chance children expanded (apply_chance_c) since the counter was last cleared, and
    # how many more _enumerate may expand before it gives up (-1: no bound)
    cdef long long chance_nodes
    cdef long long chance_budget

    cdef _prepare(self, State root, int nlevels)
    cdef _release(self)
    cdef uint64_t _key(self, PyObject* s) noexcept nogil
    cdef int _order(self, int lvl, int n, int ttmove) noexcept nogil
    cdef int _enumerate(self, int lvl, int n0) noexcept nogil
    cdef bint _count_chance(self) noexcept nogil
    cdef int _top(self, ChanceSet* src, ChanceSet* dst, int keep) noexcept nogil
    cdef int _step_width(self, ChanceSet* cur, int resolved, int* widest) noexcept nogil
    cdef int _sample_rest(self, int lvl, ChanceSet* cur, ChanceSet* done) noexcept nogil
    cdef int _sample(self, int lvl, ChanceSet* frontier) noexcept nogil
    cdef uint64_t _sample_seed(self, PyObject* s) noexcept nogil
    cdef int _hidden(self, int lvl) noexcept nogil
    cdef void _leaf(self, PyObject* sp, double* out) noexcept nogil
