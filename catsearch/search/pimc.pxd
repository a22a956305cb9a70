# cython: language_level=3
from catsearch._core.state cimport State
from catsearch.search.ismcts cimport TreeCore


cdef class PIMCCore(TreeCore):
    cdef char* dets
    cdef size_t size
    cdef int next_tree

    cdef void _deal(self, int t)
    cdef int _iterate(self, State st) noexcept nogil
