# cython: language_level=3
"""Counting over the state contract in C: ``perft`` (the move-generator check), random games
(the playout loop of :func:`catsearch.benchmark_playouts`), and the heuristic asked both ways
(told the legal moves, as a search asks it, and not)."""
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, free

from catsearch._core.rng cimport Rng, rng_below, rng_seed, rng_next
from catsearch._core.state cimport State, header, copy_state, random_playout

import time


cdef long long perft_count(list states, int* bufs, int stride, int ply, int depth):
    cdef State st = <State>states[ply]
    cdef State child
    cdef long long total = 0
    cdef int n, i
    if depth == 0:
        return 1
    if header(st).terminal:
        return 0
    n = st.legal_moves_c(bufs + ply * stride)
    if depth == 1:
        return n
    child = <State>states[ply + 1]
    for i in range(n):
        copy_state(child, st)
        child.apply_c(bufs[ply * stride + i])
        total += perft_count(states, bufs, stride, ply + 1, depth - 1)
    return total


cdef _need_full(State st):
    if header(st).view_seat >= 0:
        raise ValueError("perft needs a full state, not a seat's view")


def perft(State root, int depth):
    """:meth:`State.perft <catsearch._core.state.State.perft>` (``depth`` checked there)."""
    _need_full(root)
    cdef int stride = root.num_distinct_moves_c() + 1
    cdef list states = [root.clone_c() for _ in range(depth + 1)]
    cdef int* bufs = <int*>malloc(sizeof(int) * stride * (depth + 1))
    if bufs == NULL:
        raise MemoryError()
    try:
        return perft_count(states, bufs, stride, 0, depth)
    finally:
        free(bufs)


def perft_divide(State root, int depth):
    """:meth:`State.perft_divide <catsearch._core.state.State.perft_divide>`."""
    cdef State c
    _need_full(root)
    out = {}
    for m in root.legal_moves():
        c = root.clone_c()
        c.apply_c(m)
        out[root._move_to_str(m)] = perft(c, depth - 1)
    return out


def play_random_games(State template, long long games, uint64_t seed, bint hashed=False):
    """Play ``games`` full uniformly random games, each a fresh deal with ``template``'s
    players and options, in one C loop (the loop a playout uses, ``random_playout``: the
    game's ``playout_c``, on a search's own copy, ``Header.scratch``: without the record a
    real game keeps of what its moves reveal, which no playout reads; the moves are the
    same). ``hashed``: every move through ``legal_moves_c`` and ``apply_c`` instead, keeping
    the hash, as a search's moves down its tree (``benchmarks/playouts_vs_c.py``).

    :returns: ``(moves, seconds)``.
    """
    cdef State st = template.clone_c()
    cdef int* buf = <int*>malloc(sizeof(int) * (st.num_distinct_moves_c() + 1))
    cdef Rng deal, play
    cdef long long g, moves = 0
    if buf == NULL:
        raise MemoryError()
    header(st).scratch = 1
    rng_seed(&deal, seed)
    rng_seed(&play, seed ^ <uint64_t>0x5DEECE66D)
    t0 = time.perf_counter()
    try:
        with nogil:
            for g in range(games):
                st.reset_c(rng_next(&deal))
                if hashed:
                    while not header(st).terminal:
                        st.apply_c(buf[rng_below(&play, st.legal_moves_c(buf))])
                        moves += 1
                else:
                    moves += random_playout(st, &play, buf)
    finally:
        free(buf)
    return moves, time.perf_counter() - t0


def play_random_from(State view, int seat, long long games, uint64_t seed):
    """Play ``games`` uniformly random games from ``view``, each from a fresh determinization
    for ``seat`` (what one ISMCTS iteration does besides walking its tree: the yardstick of
    the search's overhead, ``benchmarks/search_overhead.py``).

    :returns: ``(moves, seconds)``.
    """
    cdef State st = view.clone_c()
    cdef int* buf = <int*>malloc(sizeof(int) * (st.num_distinct_moves_c() + 1))
    cdef Rng rng
    cdef long long g, moves = 0
    if buf == NULL:
        raise MemoryError()
    rng_seed(&rng, seed)
    t0 = time.perf_counter()
    try:
        with nogil:
            for g in range(games):
                copy_state(st, view)
                st.determinize_c(seat, &rng)
                moves += random_playout(st, &rng, buf)
    finally:
        free(buf)
    return moves, time.perf_counter() - t0


def playout_from(State st, uint64_t seed):
    """Play a copy of ``st`` to the end with ``random_playout`` (the game's ``playout_c``),
    moves drawn from a generator seeded ``seed``: what a search's playout reaches, to hold a
    game's own playout loop to its ``apply_c`` (tests/core/test_playout.py).

    :returns: ``(moves, scores, ply)`` of the end state.
    """
    _need_full(st)
    cdef State c = st.clone_c()
    cdef int* buf = <int*>malloc(sizeof(int) * (c.num_distinct_moves_c() + 1))
    cdef double sc[4]
    cdef Rng r
    cdef int n
    if buf == NULL:
        raise MemoryError()
    rng_seed(&r, seed)
    try:
        n = random_playout(c, &r, buf)
    finally:
        free(buf)
    c.scores_c(sc)
    return n, tuple(sc[i] for i in range(header(c).players)), header(c).ply


def heuristic_both_ways(State st, uint64_t seed):
    """The heuristic's move in ``st`` asked as a search's prior asks it, told the legal moves
    (``heuristic_move_c(rng, buf, n)``), and as a playout asks it, not told (``n`` = 0), each
    with a generator seeded ``seed``; and whether the first left the moves it was told as they
    were (it must not write them). The conformance suite expects the same move twice.

    :returns: ``(told, not_told, moves_untouched)``.
    """
    cdef int ndm = st.num_distinct_moves_c()
    cdef int* buf = <int*>malloc(sizeof(int) * 2 * (ndm + 1))
    cdef int* copy
    cdef Rng r
    cdef int n, i, told, not_told
    cdef bint untouched = True
    if buf == NULL:
        raise MemoryError()
    copy = buf + ndm + 1
    try:
        n = st.legal_moves_c(buf)
        for i in range(n):
            copy[i] = buf[i]
        rng_seed(&r, seed)
        told = st.heuristic_move_c(&r, buf, n)
        for i in range(n):
            untouched = untouched and copy[i] == buf[i]
        rng_seed(&r, seed)
        not_told = st.heuristic_move_c(&r, buf, 0)
        return told, not_told, untouched
    finally:
        free(buf)
