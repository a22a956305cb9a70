# cython: language_level=3
from catsearch.search.tree cimport TreeCore


cdef class ISMCTSCore(TreeCore):
    cdef bint mo
