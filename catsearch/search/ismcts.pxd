# cython: language_level=3
from catsearch._core.state cimport State
from catsearch.search.tree cimport TreeCore


cdef class ISMCTSCore(TreeCore):
    cdef bint mo
    cdef bint move_hidden(self, State st, int n, int player) noexcept nogil
    cdef int select_hidden(self, int node, int n, int player, int depth, int reserve,
                           int hmove, int* out_move, bint* expanded) noexcept nogil
