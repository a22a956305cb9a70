# cython: language_level=3
from catsearch.search.tree cimport TreeCore


cdef class PIMCCore(TreeCore):
    cdef char* dets
    cdef size_t size
    cdef int next_tree

    cdef void _deal(self, int t)
