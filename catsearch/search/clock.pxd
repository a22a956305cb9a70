# cython: language_level=3
"""The clock every search loop reads: ``CLOCK_MONOTONIC`` in seconds, no Python objects.

It is the clock of ``time.perf_counter`` (and of :func:`catsearch.search.tree.monotonic`),
so a deadline computed in Python is read the same in C.
"""
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC


cdef inline double now_c() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9
