# cython: language_level=3
"""The one pseudo-random generator of catsearch: splitmix64, inline, no Python objects.

Every shuffle, determinization and playout draws from an ``Rng`` held in a C struct, so the
same seed gives the same game and the same search on every machine.
"""
from libc.stdint cimport uint64_t, uint32_t

ctypedef struct Rng:
    uint64_t s


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    r.s = seed


cdef inline uint64_t splitmix_finish(uint64_t z) noexcept nogil:
    """splitmix64's finaliser: three xor-shift-multiply steps, a well-spread 64-bit value of
    ``z`` (the one copy in C; ``catsearch._core.options.mix64(x)`` is ``mix64(x)`` below)."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """The finaliser of ``x`` plus the golden gamma: the value of Python's
    ``catsearch._core.options.mix64(x)`` (and of ``rng_next`` on a generator in state ``x``)."""
    return splitmix_finish(x + <uint64_t>0x9E3779B97F4A7C15)


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    """splitmix64 (Steele, Lea & Flood 2014): one add and the finaliser."""
    r.s += <uint64_t>0x9E3779B97F4A7C15
    return splitmix_finish(r.s)


cdef inline int rng_below(Rng* r, int n) noexcept nogil:
    """A uniform int in ``[0, n)`` for ``0 < n < 2**31`` (Lemire's multiply-shift).

    The bias is at most ``n / 2**32``, far below anything a test or a game can see.
    """
    return <int>(((rng_next(r) >> 32) * <uint64_t>n) >> 32)


cdef inline double rng_double(Rng* r) noexcept nogil:
    """A uniform double in ``[0, 1)`` with 53 random bits."""
    return (rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline void rng_shuffle_u8(Rng* r, unsigned char* a, int n) noexcept nogil:
    """Fisher-Yates shuffle of ``a[0:n]`` in place."""
    cdef int i, j
    cdef unsigned char t
    i = n - 1
    while i > 0:
        j = rng_below(r, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
        i -= 1


cdef inline void fill_keys(uint64_t* keys, Py_ssize_t n, uint64_t seed) noexcept nogil:
    """Fill a Zobrist table with ``n`` keys drawn from a fixed seed (done once, at import)."""
    cdef Rng r
    cdef Py_ssize_t i
    r.s = seed
    for i in range(n):
        keys[i] = rng_next(&r)


ctypedef struct Pick:
    # the best-scoring choice offered so far, ties broken uniformly
    double best
    int choice
    int ties


cdef inline void pick_start(Pick* k, int first) noexcept nogil:
    """Start picking; ``first`` is the choice if nothing better is offered."""
    k.best = -1e300
    k.choice = first
    k.ties = 0


cdef inline void pick_offer(Pick* k, Rng* r, int choice, double score, double eps) noexcept nogil:
    """Offer ``choice`` with ``score``: more than ``eps`` above the best takes the pick;
    within ``eps`` of it ties, and ties are broken uniformly (reservoir sampling: one draw
    from ``r`` per tie). With whole-number scores, ``eps = 0.5`` ties equal scores only."""
    if score > k.best + eps:
        k.best = score
        k.ties = 1
        k.choice = choice
    elif score > k.best - eps:
        k.ties += 1
        if rng_below(r, k.ties) == 0:
            k.choice = choice


cdef inline void fill_tables(uint64_t** tables, const Py_ssize_t* nbytes, int k,
                             uint64_t seed) noexcept nogil:
    """Fill a game's ``k`` Zobrist tables at import: table ``i`` (``nbytes[i]`` bytes, its
    ``sizeof``) from the fixed seed ``seed + i``, with ``fill_keys``."""
    cdef int i
    for i in range(k):
        fill_keys(tables[i], nbytes[i] // sizeof(uint64_t), seed + i)
