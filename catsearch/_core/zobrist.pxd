# cython: language_level=3
"""Hash bookkeeping shared by the games: Zobrist keys of counters, of values and of the turn.

A game keeps ``Header.hash`` up to date as it changes the state: each helper changes one
thing and xors the keys of its old and new value in and out, so that the incremental hash
always equals the game's ``compute_hash_c``. Keys come from tables the game fills once at
import with ``fill_keys`` (``rng.pxd``).

*Counters* (cards of one type in a hand, herds won) are hashed by count: the key of the
``c``-th copy is ``keys[c]``, so ``count_up`` xors in the key of the count before adding and
``count_down`` the key of the count after taking, and ``count_key`` is the counter's hash from
scratch. *Values* (a phase, a round) are hashed by value: ``keys[v]``.
"""
from libc.stdint cimport uint64_t
from catsearch._core.state cimport Header, MAX_PLAYERS


cdef inline void count_up(uint64_t* z, const uint64_t* keys, unsigned char* count) noexcept nogil:
    """One more in ``count``: xor in the key of the count before adding."""
    z[0] ^= keys[count[0]]
    count[0] += 1


cdef inline void count_down(uint64_t* z, const uint64_t* keys, unsigned char* count) noexcept nogil:
    """One fewer in ``count``: xor out the key of the count after taking."""
    count[0] -= 1
    z[0] ^= keys[count[0]]


cdef inline uint64_t count_key(const uint64_t* keys, int count) noexcept nogil:
    """A counter's hash from scratch: the keys of the counts ``0 .. count - 1``."""
    cdef uint64_t z = 0
    cdef int c
    for c in range(count):
        z ^= keys[c]
    return z


cdef inline void set_value(uint64_t* z, const uint64_t* keys, int* value, int v) noexcept nogil:
    """Set an int field hashed by value (``keys[value]``) to ``v``."""
    z[0] ^= keys[value[0]] ^ keys[v]
    value[0] = v


cdef inline uint64_t turn_key(const uint64_t* keys, int seat) noexcept nogil:
    """The key of the seat to move: ``keys[seat]``, ``keys[MAX_PLAYERS]`` for nobody (a
    table of ``MAX_PLAYERS + 1`` keys)."""
    return keys[MAX_PLAYERS if seat < 0 else seat]


cdef inline void set_turn(Header* h, const uint64_t* keys, int seat) noexcept nogil:
    """Pass the turn to ``seat`` (``NO_SEAT``: nobody), keeping the hash (``turn_key``)."""
    h.hash ^= turn_key(keys, h.current) ^ turn_key(keys, seat)
    h.current = seat
