# cython: language_level=3
"""Expectimax for hidden information, over one seat's view (``expectimax``).

The search never sees a full state: it starts from ``state.view(seat)`` and treats every
unknown the next decision needs as a chance node, through the contract's
``chance_outcomes_c`` / ``apply_chance_c``: a draw from the unknown deck, the hidden cards of
an opponent about to act. The outcomes are the card types the seat has not seen, weighted by
how many of each remain unseen, never the true hidden cards. Consecutive chance steps (an
opponent's three hidden cards, one after the other) are resolved into one chance node whose
children are merged by Zobrist hash, so the order of the reveals costs nothing.

Decision nodes are valued either as one number, the searching seat's utility (two players:
*-minimax with Star1 and Star2 pruning, Ballard 1983, Hauk, Buro & Schaeffer 2004; three or
four players on request: paranoid, the others as one minimising coalition), or as one number
per seat (max-n, the default for three and four players). Iterative deepening runs under a
depth, node or time limit, with a transposition table keyed by the Zobrist hash of the node
together with the ply, the searching seat and the valuation; the table's best moves order the
next iteration. Cut-off nodes are valued by the game's ``evaluate_c`` (or by heuristic
playouts). Where a game records the hidden simultaneous choices of the other seats as unknown
(``apply_hidden_c``), the search does so instead of branching on them: chance reveals them
once the step resolves, after the searching seat's own choice.

The search loop runs without the GIL and touches no Python object: states live on a stack of
preallocated clones addressed by C pointers, and chance children are snapshots of the game's
C struct (one ``memcpy`` each).
"""
from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memcpy, memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from catsearch._core.rng cimport Rng, rng_seed, rng_double
from catsearch._core.state cimport State, Header, MAX_PLAYERS

import os
import time

from catsearch.search.players import (
    Limits, MoveStats, Player, SearchResult, _seat_view,
)

__all__ = ["Expectimax"]


# -- small C helpers -----------------------------------------------------------------------

cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


cdef inline uint64_t mix64(uint64_t z) noexcept nogil:
    """The splitmix64 finaliser: a good 64-bit mixing of z."""
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EB
    return z ^ (z >> 31)


cdef inline Header* hdr(PyObject* s) noexcept nogil:
    return <Header*>(<State>s)._data


cdef inline void copy_into(PyObject* dst, PyObject* src) noexcept nogil:
    memcpy((<State>dst)._data, (<State>src)._data, (<State>src)._size)


cdef inline int pick(Rng* rng, const double* ws, int n) noexcept nogil:
    """An index in ``[0, n)`` drawn with probabilities proportional to ``ws``."""
    cdef double total = 0.0, x, acc = 0.0
    cdef int k
    for k in range(n):
        total += ws[k]
    x = rng_double(rng) * total
    for k in range(n - 1):
        acc += ws[k]
        if x < acc:
            return k
    return n - 1


# -- chance sets: snapshots of resolved outcomes, merged by hash ---------------------------

cdef inline int regrow(void** p, size_t nbytes) noexcept nogil:
    """Resize the block at ``p[0]`` to ``nbytes`` (keeping it on failure); -1: no memory."""
    cdef void* q = realloc(p[0], nbytes)
    if q == NULL:
        return -1
    p[0] = q
    return 0


cdef int cs_grow(ChanceSet* c) noexcept nogil:
    cdef int cap = 16 if c.cap == 0 else 2 * c.cap
    cdef int icap = 2 * cap, e
    cdef unsigned int j, mask
    if (regrow(<void**>&c.snaps, cap * c.size) < 0
            or regrow(<void**>&c.prob, cap * sizeof(double)) < 0
            or regrow(<void**>&c.key, cap * sizeof(uint64_t)) < 0
            or regrow(<void**>&c.slot, cap * sizeof(int)) < 0
            or regrow(<void**>&c.lo, cap * sizeof(double)) < 0
            or regrow(<void**>&c.hi, cap * sizeof(double)) < 0
            or regrow(<void**>&c.index, icap * sizeof(unsigned int)) < 0):
        return -1
    c.cap = cap
    c.index_cap = icap
    memset(c.index, 0, icap * sizeof(unsigned int))
    mask = icap - 1
    for e in range(c.n):
        j = <unsigned int>(c.key[e] & mask)
        while c.index[j]:
            j = (j + 1) & mask
        c.index[j] = e + 1
        c.slot[e] = j
    return 0


cdef inline void cs_clear(ChanceSet* c) noexcept nogil:
    cdef int e
    for e in range(c.n):
        c.index[c.slot[e]] = 0
    c.n = 0


cdef int cs_push(ChanceSet* c, const char* data, double p, uint64_t key) noexcept nogil:
    """Add an outcome (or add p to the one with the same key); -1 when out of memory."""
    cdef unsigned int j, mask
    cdef int e
    if c.index_cap:
        mask = c.index_cap - 1
        j = <unsigned int>(key & mask)
        while c.index[j]:
            e = c.index[j] - 1
            if c.key[e] == key:
                c.prob[e] += p
                return 0
            j = (j + 1) & mask
    if c.n == c.cap:
        if cs_grow(c) < 0:
            return -1
    mask = c.index_cap - 1
    j = <unsigned int>(key & mask)
    while c.index[j]:
        j = (j + 1) & mask
    e = c.n
    c.n += 1
    memcpy(c.snaps + e * c.size, data, c.size)
    c.prob[e] = p
    c.key[e] = key
    c.slot[e] = j
    c.index[j] = e + 1
    return 0


cdef void cs_free(ChanceSet* c) noexcept nogil:
    free(c.snaps)
    free(c.prob)
    free(c.key)
    free(c.slot)
    free(c.lo)
    free(c.hi)
    free(c.index)
    memset(c, 0, sizeof(ChanceSet))


cdef int cmp_prob(const void* a, const void* b) noexcept nogil:
    """Most probable first; equal probabilities in an order drawn from their hashes (not
    the order they were found in, which would favour the first legal actions when many
    outcomes are equally likely and only some are kept)."""
    cdef const ProbIdx* x = <const ProbIdx*>a
    cdef const ProbIdx* y = <const ProbIdx*>b
    if x.p > y.p:
        return -1
    if x.p < y.p:
        return 1
    if x.tie != y.tie:
        return -1 if x.tie < y.tie else 1
    return (x.i > y.i) - (x.i < y.i)


cdef class ExpectimaxCore:
    """The C engine behind :class:`Expectimax` (one per player; not thread-safe itself)."""

    def __cinit__(self, size_t tt_entries):
        self.tt_entries = tt_entries
        self.tt_mask = tt_entries - 1
        self.tt = <TTEntry*>calloc(tt_entries, sizeof(TTEntry))
        if self.tt == NULL:
            raise MemoryError(f"no memory for a transposition table of {tt_entries} entries")

    def __dealloc__(self):
        self._release()
        free(self.tt)

    def stop(self):
        self.stop_flag = 1

    # -- setup and teardown of one search -----------------------------------------------
    cdef _prepare(self, State root, int nlevels):
        cdef int i
        self._release()
        self.size = root._size
        self.nlevels = nlevels
        self.stride = root.num_distinct_moves_c() + 1
        self._objs = [root.clone_c() for _ in range(nlevels + 2)]
        self.stack = <PyObject**>malloc(nlevels * sizeof(PyObject*))
        self.moves = <int*>malloc(nlevels * self.stride * sizeof(int))
        self.history = <double*>calloc(self.stride, sizeof(double))
        self.sets = <ChanceSet*>calloc(nlevels, sizeof(ChanceSet))
        self.root_moves = <int*>malloc(self.stride * sizeof(int))
        self.pbuf = <int*>malloc(self.stride * sizeof(int))
        self.root_val = <double*>calloc(self.stride * 4, sizeof(double))
        self.root_nodes = <long long*>calloc(self.stride, sizeof(long long))
        self.root_done = <int*>calloc(self.stride, sizeof(int))
        if (self.stack == NULL or self.moves == NULL or self.history == NULL or self.sets == NULL
                or self.root_moves == NULL or self.pbuf == NULL or self.root_val == NULL or self.root_nodes == NULL
                or self.root_done == NULL):
            self._release()
            raise MemoryError("no memory for the search stacks")
        for i in range(nlevels):
            self.stack[i] = <PyObject*>self._objs[i]
            self.sets[i].size = self.size
        self.scr1 = <PyObject*>self._objs[nlevels]
        self.scr2 = <PyObject*>self._objs[nlevels + 1]
        self.fa.size = self.fb.size = self.fc.size = self.size

    cdef _release(self):
        cdef int i
        if self.sets != NULL:
            for i in range(self.nlevels):
                cs_free(&self.sets[i])
        cs_free(&self.fa)
        cs_free(&self.fb)
        cs_free(&self.fc)
        free(self.sets)
        free(self.stack)
        free(self.moves)
        free(self.history)
        free(self.root_moves)
        free(self.pbuf)
        free(self.root_val)
        free(self.root_nodes)
        free(self.root_done)
        free(self.pairs)
        self.sets = NULL
        self.stack = NULL
        self.moves = NULL
        self.history = NULL
        self.root_moves = NULL
        self.pbuf = NULL
        self.root_val = NULL
        self.root_nodes = NULL
        self.root_done = NULL
        self.pairs = NULL
        self.pairs_cap = 0
        self.scr1 = NULL
        self.scr2 = NULL
        self._objs = None
        self.nlevels = 0

    # -- bookkeeping --------------------------------------------------------------------
    cdef int _tick(self) noexcept nogil:
        """Count a node; 1 when the search must stop (limit reached, stop() called)."""
        cdef double t
        if self.aborted:
            return 1
        if self.node_limit > 0 and self.nodes >= self.node_limit:
            self.aborted = 1
            return 1
        self.nodes += 1
        if (self.nodes & 1023) == 0:
            if self.stop_flag:
                self.aborted = 1
                return 1
            t = now()
            if t >= self.deadline:
                self.aborted = 1
                return 1
            if self.has_info and t >= self.next_info:
                self.next_info = t + 0.1
                self._report()
        return self.aborted

    cdef void _report(self) noexcept nogil:
        with gil:
            try:
                self.info_hook()
            except BaseException as e:
                self.info_error = e
                self.aborted = 1

    cdef uint64_t _key(self, PyObject* s) noexcept nogil:
        """The table key of a node: its Zobrist hash with what its value depends on besides
        the position (the ply, for games whose hash leaves counters out; the searching seat
        and the valuation, in ``salt``)."""
        cdef Header* h = hdr(s)
        cdef uint64_t k = h.hash ^ mix64(<uint64_t>h.ply * <uint64_t>0x9E3779B97F4A7C15 + self.salt)
        return k if k != 0 else 1

    # -- chance ---------------------------------------------------------------------------
    cdef int _enumerate(self, int lvl, int n0) noexcept nogil:
        """Resolve every unknown the next decision at ``stack[lvl]`` needs into
        ``sets[lvl]``: distinct outcomes, most probable first, probabilities summing to 1.
        ``outs``/``ws`` hold the node's first chance step (``n0`` outcomes). Where the
        outcomes would exceed ``max_chance``: the most probable (``sample == 0``, also at
        each intermediate step) or ``max_chance`` paths sampled with the seed. -1: no memory.
        """
        cdef PyObject* src = self.stack[lvl]
        cdef ChanceSet* cur = &self.fa
        cdef ChanceSet* nxt = &self.fb
        cdef ChanceSet* done = &self.fc
        cdef ChanceSet* out = &self.sets[lvl]
        cdef ChanceSet* tmp
        cdef int cap = self.max_chance
        cdef int e, k, n, i, keep
        cdef double p, total
        cs_clear(cur)
        cs_clear(nxt)
        cs_clear(done)
        cs_clear(out)
        for k in range(n0):
            copy_into(self.scr1, src)
            (<State>self.scr1).apply_chance_c(self.outs[k])
            if cs_push(nxt, <char*>hdr(self.scr1), self.ws[k], hdr(self.scr1).hash) < 0:
                return -1
        while nxt.n > 0:
            if cap > 0 and nxt.n > cap:
                if self.sample:
                    return self._sample(lvl)
                if self._top(nxt, cur, cap) < 0:
                    return -1
                cs_clear(nxt)
            else:
                tmp = cur
                cur = nxt
                nxt = tmp
            for e in range(cur.n):
                memcpy((<State>self.scr2)._data, cur.snaps + e * self.size, self.size)
                n = (<State>self.scr2).chance_outcomes_c(self.outs, self.ws)
                if n == 0:
                    if cs_push(done, cur.snaps + e * self.size, cur.prob[e], cur.key[e]) < 0:
                        return -1
                    continue
                p = cur.prob[e]
                for k in range(n):
                    memcpy((<State>self.scr1)._data, cur.snaps + e * self.size, self.size)
                    (<State>self.scr1).apply_chance_c(self.outs[k])
                    if cs_push(nxt, <char*>hdr(self.scr1), p * self.ws[k],
                               hdr(self.scr1).hash) < 0:
                        return -1
            cs_clear(cur)
        if cap > 0 and done.n > cap and self.sample:
            return self._sample(lvl)
        keep = done.n if cap <= 0 or done.n <= cap else cap
        if self._top(done, out, keep) < 0:
            return -1
        total = 0.0
        for i in range(out.n):
            total += out.prob[i]
        for i in range(out.n):
            out.prob[i] /= total
        return 0

    cdef int _top(self, ChanceSet* src, ChanceSet* dst, int keep) noexcept nogil:
        """Copy the ``keep`` most probable entries of src into dst (cleared), in order."""
        cdef int i, e
        cdef ProbIdx* pairs
        if src.n > self.pairs_cap:
            pairs = <ProbIdx*>realloc(self.pairs, src.n * sizeof(ProbIdx))
            if pairs == NULL:
                return -1
            self.pairs = pairs
            self.pairs_cap = src.n
        for i in range(src.n):
            self.pairs[i].p = src.prob[i]
            self.pairs[i].i = i
            self.pairs[i].tie = mix64(src.key[i])
        qsort(self.pairs, src.n, sizeof(ProbIdx), cmp_prob)
        cs_clear(dst)
        if keep > src.n:
            keep = src.n
        for i in range(keep):
            e = self.pairs[i].i
            if cs_push(dst, src.snaps + e * self.size, src.prob[e], src.key[e]) < 0:
                return -1
        return 0

    cdef int _sample(self, int lvl) noexcept nogil:
        """``max_chance`` resolutions of the node at ``stack[lvl]`` drawn with a generator
        seeded from the search seed and the node, so a node always gets the same sample."""
        cdef PyObject* src = self.stack[lvl]
        cdef ChanceSet* done = &self.fc
        cdef int K = self.max_chance
        cdef int s, n
        cdef Rng rng
        rng_seed(&rng, self.seed ^ mix64(self._key(src)))
        cs_clear(done)
        for s in range(K):
            copy_into(self.scr1, src)
            while True:
                n = (<State>self.scr1).chance_outcomes_c(self.outs, self.ws)
                if n == 0:
                    break
                (<State>self.scr1).apply_chance_c(self.outs[pick(&rng, self.ws, n)])
            if cs_push(done, <char*>hdr(self.scr1), 1.0 / K, hdr(self.scr1).hash) < 0:
                return -1
        return self._top(done, &self.sets[lvl], done.n)

    # -- leaves ---------------------------------------------------------------------------
    cdef void _leaf(self, PyObject* sp, double* out) noexcept nogil:
        """The value per seat of a cut-off node: the game's evaluation, or (``playouts``)
        the mean returns of that many playouts of the game's heuristic player, unknown
        cards resolved by chance as they are needed, seeded from the node."""
        cdef double acc[MAX_PLAYERS]
        cdef int np = hdr(sp).players, j, r, n
        cdef Rng rng
        if self.playouts <= 0:
            (<State>sp).evaluate_c(out)
            return
        rng_seed(&rng, self.seed ^ mix64(self._key(sp) + <uint64_t>0x5851F42D4C957F2D))
        for j in range(np):
            acc[j] = 0.0
        for r in range(self.playouts):
            copy_into(self.scr1, sp)
            while not hdr(self.scr1).terminal:
                n = (<State>self.scr1).chance_outcomes_c(self.outs, self.ws)
                if n > 0:
                    (<State>self.scr1).apply_chance_c(self.outs[pick(&rng, self.ws, n)])
                else:
                    (<State>self.scr1).apply_c(
                        (<State>self.scr1).heuristic_move_c(&rng, self.pbuf))
            (<State>self.scr1).returns_c(out)
            for j in range(np):
                acc[j] += out[j]
        for j in range(np):
            out[j] = acc[j] / self.playouts

    cdef int _hidden(self, int lvl) noexcept nogil:
        """1 when the choice of the seat to move at ``stack[lvl]`` is hidden from the
        searching seat (``apply_hidden_c``): ``stack[lvl + 1]`` then holds the state with that
        choice recorded as unknown, to be revealed by chance when it resolves, after the
        searching seat's own choice. The other seats never see the searching seat's hidden
        choices, and the searching seat never sees theirs. Such a step has one successor
        and costs no depth."""
        copy_into(self.stack[lvl + 1], self.stack[lvl])
        return (<State>self.stack[lvl + 1]).apply_hidden_c()

    # -- the scalar search (*-minimax, paranoid) ----------------------------------------
    cdef int _order(self, int lvl, int n, int ttmove) noexcept nogil:
        """Order the moves at ``moves[lvl]``: the table's move first, then by history."""
        cdef int* buf = self.moves + lvl * self.stride
        cdef int i, j, m, start = 0
        cdef double hm
        if ttmove >= 0:
            for i in range(n):
                if buf[i] == ttmove:
                    while i > 0:
                        buf[i] = buf[i - 1]
                        i -= 1
                    buf[0] = ttmove
                    start = 1
                    break
        if self.vector or self.pruning == EX_PRUNE_NONE:
            return n
        for i in range(start + 1, n):
            m = buf[i]
            hm = self.history[m]
            j = i
            while j > start and self.history[buf[j - 1]] < hm:
                buf[j] = buf[j - 1]
                j -= 1
            buf[j] = m
        return n

    cdef double _search_s(self, int lvl, int depth, double alpha, double beta) noexcept nogil:
        """The searching seat's value of ``stack[lvl]`` with ``depth`` decision plies to go.

        Fail-soft: a result ``<= alpha`` is an upper bound, ``>= beta`` a lower bound, else
        exact. With pruning off the window is always ``(-1, 2)``: every value is exact.
        """
        cdef PyObject* sp = self.stack[lvl]
        cdef Header* h = hdr(sp)
        cdef double out[MAX_PLAYERS]
        cdef uint64_t key
        cdef TTEntry* e
        cdef int ttmove = -1, best_move = -1, n
        cdef long long cut0
        cdef double v, lo, hi
        cdef bint solved
        if self._tick():
            return 0.0
        if h.terminal:
            (<State>sp).returns_c(out)
            return out[self.root]
        if depth <= 0 or lvl + 2 >= self.nlevels:
            self.cutoffs += 1
            self._leaf(sp, out)
            return out[self.root]
        key = self._key(sp)
        e = &self.tt[key & self.tt_mask]
        if e.key == key:
            if e.depth == depth or (e.solved and e.depth <= depth):
                lo = e.v[0]
                hi = e.v[1]
                if lo >= hi or lo >= beta or hi <= alpha:
                    if not e.solved:
                        self.cutoffs += 1
                    return lo if (lo >= hi or lo >= beta) else hi
            ttmove = e.move
        cut0 = self.cutoffs
        n = (<State>sp).chance_outcomes_c(self.outs, self.ws)
        if n > 0:
            if self._enumerate(lvl, n) < 0:
                self.failed = 1
                self.aborted = 1
                return 0.0
            v = self._chance_s(lvl, depth, alpha, beta)
        elif h.current != self.root and self._hidden(lvl):
            v = self._search_s(lvl + 1, depth, alpha, beta)
        else:
            v = self._decision_s(lvl, depth, alpha, beta, ttmove, &best_move)
        if self.aborted:
            return 0.0
        solved = self.cutoffs == cut0
        if v <= alpha:
            lo, hi = 0.0, v
        elif v >= beta:
            lo, hi = v, 1.0
        else:
            lo = hi = v
        if e.key == key and e.depth == depth:
            if e.v[0] > lo:
                lo = e.v[0]
            if e.v[1] < hi:
                hi = e.v[1]
            if lo > hi:
                lo = hi = v
            solved = solved or e.solved
        elif not (e.key == 0 or e.key == key or e.stamp != self.stamp or depth >= e.depth):
            return v
        e.key = key
        e.depth = depth
        e.v[0] = lo
        e.v[1] = hi
        e.move = best_move
        e.solved = solved
        e.stamp = self.stamp
        return v

    cdef double _decision_s(self, int lvl, int depth, double alpha, double beta, int ttmove,
                            int* best_move) noexcept nogil:
        cdef PyObject* sp = self.stack[lvl]
        cdef PyObject* child = self.stack[lvl + 1]
        cdef int* buf = self.moves + lvl * self.stride
        cdef int n, i, m, bm
        cdef bint maximizing = hdr(sp).current == self.root
        cdef bint full = self.pruning == EX_PRUNE_NONE
        cdef double v, best
        n = (<State>sp).legal_moves_c(buf)
        n = self._order(lvl, n, ttmove)
        best = -1.0 if maximizing else 2.0
        bm = buf[0]
        for i in range(n):
            m = buf[i]
            copy_into(child, sp)
            (<State>child).apply_c(m)
            if full:
                v = self._search_s(lvl + 1, depth - 1, -1.0, 2.0)
            else:
                v = self._search_s(lvl + 1, depth - 1, alpha, beta)
            if self.aborted:
                return 0.0
            if maximizing:
                if v > best:
                    best = v
                    bm = m
                    if best > alpha:
                        alpha = best
            else:
                if v < best:
                    best = v
                    bm = m
                    if best < beta:
                        beta = best
            if alpha >= beta:
                self.history[m] += depth * depth
                break
        best_move[0] = bm
        return best

    cdef double _chance_s(self, int lvl, int depth, double alpha, double beta) noexcept nogil:
        """A chance node: the probability-weighted value of its resolved children, with
        Star1 windows and (``EX_PRUNE_STAR2``) a probing pass first."""
        cdef ChanceSet* cs = &self.sets[lvl]
        cdef PyObject* child = self.stack[lvl + 1]
        cdef Header* ch
        cdef int N = cs.n, i
        cdef double v, p, A, B, a, b, others_lo, others_hi, sum_lo, sum_hi
        cdef double out[MAX_PLAYERS]
        if self.pruning == EX_PRUNE_NONE:
            v = 0.0
            for i in range(N):
                memcpy((<State>child)._data, cs.snaps + i * self.size, self.size)
                p = self._search_s(lvl + 1, depth, -1.0, 2.0)
                if self.aborted:
                    return 0.0
                v += cs.prob[i] * p
            return v
        sum_lo = 0.0
        sum_hi = 0.0
        for i in range(N):
            cs.lo[i] = 0.0
            cs.hi[i] = 1.0
            sum_hi += cs.prob[i]
        if self.pruning == EX_PRUNE_STAR2 and (alpha > 0.0 or beta < 1.0):
            # probing: one successor of each child bounds it from one side (lower bounds of
            # max nodes can only cut below beta < 1, upper bounds of min nodes above alpha > 0)
            for i in range(N):
                memcpy((<State>child)._data, cs.snaps + i * self.size, self.size)
                ch = hdr(child)
                p = cs.prob[i]
                if ch.terminal:
                    (<State>child).returns_c(out)
                    v = out[self.root]
                    sum_lo += p * v
                    sum_hi -= p * (1.0 - v)
                    cs.lo[i] = cs.hi[i] = v
                elif (beta < 1.0) if ch.current == self.root else (alpha > 0.0):
                    A = (alpha - (sum_hi - p * cs.hi[i])) / p
                    B = (beta - (sum_lo - p * cs.lo[i])) / p
                    a = A if A > 0.0 else 0.0
                    b = B if B < 1.0 else 1.0
                    v = self._probe_s(lvl + 1, depth, a, b)
                    if self.aborted:
                        return 0.0
                    if ch.current == self.root:
                        if v > a and v > cs.lo[i]:     # a max node is worth at least v
                            sum_lo += p * (v - cs.lo[i])
                            cs.lo[i] = v
                    elif v < b and v < cs.hi[i]:       # a min node at most v
                        sum_hi -= p * (cs.hi[i] - v)
                        cs.hi[i] = v
                if sum_lo >= beta:
                    return sum_lo
                if sum_hi <= alpha:
                    return sum_hi
        for i in range(N):
            if sum_lo >= beta:
                return sum_lo
            if sum_hi <= alpha:
                return sum_hi
            if cs.lo[i] >= cs.hi[i]:
                continue
            p = cs.prob[i]
            others_lo = sum_lo - p * cs.lo[i]
            others_hi = sum_hi - p * cs.hi[i]
            A = (alpha - others_hi) / p
            B = (beta - others_lo) / p
            a = A if A > 0.0 else 0.0
            b = B if B < 1.0 else 1.0
            memcpy((<State>child)._data, cs.snaps + i * self.size, self.size)
            v = self._search_s(lvl + 1, depth, a, b)
            if self.aborted:
                return 0.0
            if v >= B:
                return others_lo + p * v
            if v <= A:
                return others_hi + p * v
            cs.lo[i] = cs.hi[i] = v
            sum_lo = others_lo + p * v
            sum_hi = others_hi + p * v
        # every child exact: the same sum, in the same order, as plain expectimax
        v = 0.0
        for i in range(N):
            v += cs.prob[i] * cs.lo[i]
        return v

    cdef double _probe_s(self, int lvl, int depth, double alpha, double beta) noexcept nogil:
        """Star2's probe: the value of one successor of the decision node ``stack[lvl]``
        (the table's move, else the first in order), a bound on the node's own value."""
        cdef PyObject* sp = self.stack[lvl]
        cdef int* buf = self.moves + lvl * self.stride
        cdef uint64_t key
        cdef TTEntry* e
        cdef int n, ttmove = -1
        if self._tick():
            return 0.0
        if hdr(sp).current != self.root and self._hidden(lvl):
            return self._search_s(lvl + 1, depth, alpha, beta)    # its only successor
        key = self._key(sp)
        e = &self.tt[key & self.tt_mask]
        if e.key == key:
            ttmove = e.move
        n = (<State>sp).legal_moves_c(buf)
        self._order(lvl, n, ttmove)
        copy_into(self.stack[lvl + 1], sp)
        (<State>self.stack[lvl + 1]).apply_c(buf[0])
        return self._search_s(lvl + 1, depth - 1, alpha, beta)

    # -- the vector search (max-n) --------------------------------------------------------
    cdef void _search_v(self, int lvl, int depth, double* out) noexcept nogil:
        """The value per seat of ``stack[lvl]``: each seat maximises its own component."""
        cdef PyObject* sp = self.stack[lvl]
        cdef PyObject* child = self.stack[lvl + 1]
        cdef Header* h = hdr(sp)
        cdef int* buf = self.moves + lvl * self.stride
        cdef int np = h.players
        cdef double c[MAX_PLAYERS]
        cdef uint64_t key
        cdef TTEntry* e
        cdef int n, i, j, m, p, ttmove = -1, bm = -1
        cdef long long cut0
        cdef ChanceSet* cs
        if self._tick():
            return
        if h.terminal:
            (<State>sp).returns_c(out)
            return
        if depth <= 0 or lvl + 2 >= self.nlevels:
            self.cutoffs += 1
            self._leaf(sp, out)
            return
        key = self._key(sp)
        e = &self.tt[key & self.tt_mask]
        if e.key == key:
            if e.depth == depth or (e.solved and e.depth <= depth):
                if not e.solved:
                    self.cutoffs += 1
                for j in range(np):
                    out[j] = e.v[j]
                return
            ttmove = e.move
        cut0 = self.cutoffs
        n = (<State>sp).chance_outcomes_c(self.outs, self.ws)
        if n > 0:
            if self._enumerate(lvl, n) < 0:
                self.failed = 1
                self.aborted = 1
                return
            cs = &self.sets[lvl]
            for j in range(np):
                out[j] = 0.0
            for i in range(cs.n):
                memcpy((<State>child)._data, cs.snaps + i * self.size, self.size)
                self._search_v(lvl + 1, depth, c)
                if self.aborted:
                    return
                for j in range(np):
                    out[j] += cs.prob[i] * c[j]
        elif h.current != self.root and self._hidden(lvl):
            self._search_v(lvl + 1, depth, out)
            if self.aborted:
                return
        else:
            p = h.current
            n = (<State>sp).legal_moves_c(buf)
            n = self._order(lvl, n, ttmove)
            for i in range(n):
                m = buf[i]
                copy_into(child, sp)
                (<State>child).apply_c(m)
                self._search_v(lvl + 1, depth - 1, c)
                if self.aborted:
                    return
                if bm < 0 or c[p] > out[p]:
                    bm = m
                    for j in range(np):
                        out[j] = c[j]
                    if out[p] >= 1.0 and self.pruning != EX_PRUNE_NONE:
                        break          # nothing beats a sure win (ties keep the first)
        if not (e.key == 0 or e.key == key or e.stamp != self.stamp or depth >= e.depth):
            return
        e.key = key
        e.depth = depth
        for j in range(np):
            e.v[j] = out[j]
        e.move = bm
        e.solved = self.cutoffs == cut0
        e.stamp = self.stamp

    # -- the root -------------------------------------------------------------------------
    cdef void _root_iteration(self, int depth) noexcept nogil:
        """Search every root move to ``depth`` plies in the current order; record values."""
        cdef PyObject* root = self.stack[0]
        cdef PyObject* child = self.stack[1]
        cdef int i, j
        cdef long long n0
        cdef double v, alpha, best = -1.0
        cdef double vals[MAX_PLAYERS]
        self.best_index = -1
        for i in range(self.nroot):
            self.root_done[i] = 0
        for i in range(self.nroot):
            n0 = self.nodes
            copy_into(child, root)
            (<State>child).apply_c(self.root_moves[i])
            if self.vector:
                self._search_v(1, depth - 1, vals)
                if self.aborted:
                    self.root_nodes[i] += self.nodes - n0
                    return
                for j in range(self.players):
                    self.root_val[4 * i + j] = vals[j]
                v = vals[self.root]
            else:
                alpha = -1.0 if (self.best_index < 0 or self.pruning == EX_PRUNE_NONE) else best
                v = self._search_s(1, depth - 1, alpha, 2.0)
                if self.aborted:
                    self.root_nodes[i] += self.nodes - n0
                    return
                self.root_val[4 * i] = v
                self.root_val[4 * i + 1] = 1.0 if v > alpha else 0.0   # exact, or an upper bound
            self.root_nodes[i] += self.nodes - n0
            self.root_done[i] = 1
            if self.best_index < 0 or v > best:
                best = v
                self.best_index = i
                if self.has_info and now() >= self.next_info:
                    self.next_info = now() + 0.1
                    self._report()

    # -- the driver -------------------------------------------------------------------------
    def run(self, State root, *, int seat, int vector, int pruning, int max_chance,
            int sample, uint64_t seed, int max_depth, long long node_limit, double seconds,
            int playouts=0, info=None):
        """Search ``root`` (the view of ``seat``, who is to move) by iterative deepening.

        :returns: a dict with ``moves`` (root moves), ``values`` (per root move, the value
            per seat, or ``None`` if never searched), ``exact`` (per root move), ``nodes``
            (per root move), ``best`` (index), ``depth`` (completed), ``iterations``,
            ``total_nodes``, ``aborted`` and ``solved``.
        """
        # a level per decision, per chance node, per hidden choice of another seat (which
        # costs no depth: the searching seat's own decisions count)
        cdef int nlevels = (max_depth + 1) * (hdr(<PyObject*>root).players + 2) + 4
        cdef int i, d, n
        cdef int prev_best = -1
        cdef double t0 = now()
        self._prepare(root, nlevels)
        try:
            self.root = seat
            self.players = hdr(<PyObject*>root).players
            self.vector = vector
            self.pruning = pruning
            self.max_chance = max_chance
            self.sample = sample
            self.playouts = playouts
            self.seed = seed
            # a new salt per search: entries of earlier searches never match, so the table
            # needs no clearing
            self.searches += 1
            self.salt = mix64(<uint64_t>(seat + 1) * <uint64_t>0x632BE59BD9B4E019
                              + <uint64_t>(vector * 7 + 3)
                              + self.searches * <uint64_t>0xD1B54A32D192ED03)
            self.nodes = 0
            self.node_limit = node_limit
            self.deadline = t0 + seconds if seconds > 0 else 1e300
            self.next_info = t0 + 0.1
            self.aborted = 0
            self.failed = 0
            self.stop_flag = 0
            self.info_error = None
            n = root.legal_moves_c(self.root_moves)
            self.nroot = n
            copy_into(self.stack[0], <PyObject*>root)
            moves = [self.root_moves[i] for i in range(n)]
            values = [None] * n
            exact = [False] * n
            best = -1
            depth_done = 0
            solved = False
            result = {}

            def snapshot(b):
                return dict(moves=list(moves), values=list(values), exact=list(exact),
                            nodes=[self.root_nodes[j] for j in range(n)], best=b,
                            depth=depth_done, iterations=depth_done, total_nodes=self.nodes,
                            aborted=bool(self.aborted), solved=solved,
                            seconds=now() - t0)

            def hook():
                # the last completed iteration's best, or the best so far of the first
                b = best if best >= 0 else self.best_index
                if b >= 0:
                    info(snapshot(b))

            self.info_hook = hook
            self.has_info = info is not None
            for d in range(1, max_depth + 1):
                self.stamp += 1
                self.cutoffs = 0
                with nogil:
                    self._root_iteration(d)
                if self.info_error is not None:
                    raise self.info_error
                if self.failed:
                    raise MemoryError("no memory for the chance outcomes of a node")
                # take this iteration's values for the moves it finished
                for i in range(n):
                    if self.root_done[i]:
                        if vector:
                            values[i] = tuple(self.root_val[4 * i + j]
                                              for j in range(self.players))
                            exact[i] = True
                        else:
                            values[i] = self.root_val[4 * i]
                            exact[i] = self.root_val[4 * i + 1] > 0
                if self.aborted:
                    # a partial iteration counts once it has searched the previous best move
                    if self.root_done[0] and self.best_index >= 0:
                        best = self.best_index
                    break
                best = self.best_index
                depth_done = d
                solved = self.cutoffs == 0
                if info is not None:
                    info(snapshot(best))
                if solved or (n == 1 and (seconds > 0 or node_limit > 0)):
                    break          # deeper gives the same (solved), or the only move is known
                if seconds > 0 and now() - t0 > 0.5 * seconds:
                    break          # the next iteration would not finish in time
                self._reorder(moves, values, exact, best)
                best = 0
            return snapshot(best)
        finally:
            self.info_hook = None
            self.has_info = 0
            self._release()

    cdef _reorder(self, list moves, list values, list exact, int best):
        """Put the best move first, then the others by their value (most promising first),
        for the next iteration; write the new order into ``root_moves``."""
        cdef int i, n = len(moves)
        seat = self.root
        def score(i):
            v = values[i]
            if v is None:
                return -1.0
            return v[seat] if isinstance(v, tuple) else v
        order = [best] + sorted((i for i in range(n) if i != best), key=lambda i: -score(i))
        moves[:] = [moves[i] for i in order]
        values[:] = [values[i] for i in order]
        exact[:] = [exact[i] for i in order]
        nodes = [self.root_nodes[i] for i in order]
        for i in range(n):
            self.root_moves[i] = moves[i]
            self.root_nodes[i] = nodes[i]

# -- the player -------------------------------------------------------------------------------

_MODES = ("auto", "maxn", "paranoid")
_PRUNINGS = {"none": EX_PRUNE_NONE, "star1": EX_PRUNE_STAR1, "star2": EX_PRUNE_STAR2}
_CHANCES = ("top", "sample")

#: the depth searched when no limit at all is given, within DEFAULT_NODES nodes
DEFAULT_DEPTH = 3
#: the node budget when no limit at all is given (about a second in The Cat with 3-4
#: players, whose hidden choices make depth 3 cost millions of nodes; the other games reach
#: depth 3 well within it)
DEFAULT_NODES = 200_000
#: deepest iteration
MAX_DEPTH = EX_MAX_DEPTH


def _check_int(name, value, low, high=None, none=True):
    if value is None and none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number"
                         + (f" from {low} to {high}" if high is not None else f" >= {low}")
                         + (" or None" if none else "") + f", not {value!r}")
    if value < low or (high is not None and value > high):
        raise ValueError(f"{name} must be "
                         + (f"from {low} to {high}" if high is not None else f">= {low}")
                         + f", not {value}")
    return value


def _check_seconds(name, value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"{name} must be a number of seconds > 0 or None, not {value!r}")
    return float(value)


def _check_choice(name, value, choices):
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(choices)}, not {value!r}")
    return value


class Expectimax(Player):
    """Expectimax over the searching seat's view: chance nodes for what it cannot see.

    Every option is keyword-only; :func:`catsearch.make_player` builds the same player from
    ``"expectimax:depth=3,mode=paranoid"``.

    :param depth: deepest iteration, in decision plies (1 to 64). When no limit at all is
        given the search goes to depth 3 within 200,000 nodes.
    :param nodes: stop after this many nodes (decision, chance and leaf nodes visited).
    :param seconds: stop after this much wall time.
    :param mode: how decision nodes are valued with 3 or 4 players: ``maxn`` (each seat
        maximises its own value), ``paranoid`` (the others minimise the searching seat's);
        ``auto`` (default) is max-n for 3-4 players and *-minimax for 2. ``maxn`` with 2
        players gives the same values as *-minimax, without its pruning.
    :param pruning: in *-minimax and paranoid search: ``star2`` (default: alpha-beta at
        decision nodes, Star1 windows and Star2 probing at chance nodes), ``star1``, or
        ``none`` (plain expectimax). All three return the same value; they differ in nodes.
    :param max_chance: the most outcomes one chance node may have (0: no bound). Where the
        exact outcomes are more, the search keeps the ``max_chance`` most probable ones
        (``chance="top"``, also at each step of a multi-card resolution) or samples
        ``max_chance`` of them with the seed (``chance="sample"``), and renormalises.
    :param chance: ``top`` (default) or ``sample``, see ``max_chance``.
    :param tt_size: transposition table entries (rounded up to a power of two).
    :param seed: seeds the sampling of wide chance nodes (``None``: a fresh seed per
        search); with ``chance="top"`` the search is deterministic whatever the seed.
    """

    name = "expectimax"
    OPTIONS = {
        "depth": int,
        "nodes": int,
        "seconds": float,
        "mode": _MODES,
        "pruning": tuple(_PRUNINGS),
        "max_chance": int,
        "chance": _CHANCES,
        "tt_size": int,
        "playouts": int,
        "seed": int,
    }
    ALIASES = {"d": "depth", "time": "seconds", "prune": "pruning", "width": "max_chance"}

    def __init__(self, *, depth=None, nodes=None, seconds=None, mode="auto",
                 pruning="star2", max_chance=24, chance="top", tt_size=1 << 18, playouts=0,
                 seed=None):
        self.depth = _check_int("depth", depth, 1, MAX_DEPTH)
        self.nodes = _check_int("nodes", nodes, 1)
        self.seconds = _check_seconds("seconds", seconds)
        self.mode = _check_choice("mode", mode, _MODES)
        self.pruning = _check_choice("pruning", pruning, tuple(_PRUNINGS))
        self.max_chance = _check_int("max_chance", max_chance, 0, None, none=False)
        self.chance = _check_choice("chance", chance, _CHANCES)
        self.tt_size = _check_int("tt_size", tt_size, 1, 1 << 30, none=False)
        self.playouts = _check_int("playouts", playouts, 0, None, none=False)
        if seed is not None:
            _check_int("seed", seed, 0, 2**64 - 1)
        self.seed = seed
        entries = 1
        while entries < self.tt_size:
            entries *= 2
        self._core = ExpectimaxCore(entries)

    # -- Player -------------------------------------------------------------------------
    def search(self, state, *, limits=None, info=None):
        """Search ``state`` for its seat to move, from that seat's view only.

        :param limits: for this search: a budget (``nodes``, ``seconds``, ``infinite``,
            or ``iterations``, which counts MCTS iterations and so limits nothing here)
            replaces this player's depth, nodes and seconds as a whole; ``depth`` and
            ``seed`` override where given; with no limit left, depth 3 within 200,000 nodes.
            ``infinite`` searches until :meth:`stop`, the deepest depth (64) or the whole
            game tree.
        :param info: called with a partial :class:`SearchResult` after each iteration and
            about every 0.1 s (at most), from the searching thread.
        :raises ValueError: the game is over, or the state is another seat's view.
        """
        t0 = time.perf_counter()
        if not isinstance(state, State):
            raise TypeError(f"search needs a catsearch State, not {type(state).__name__}")
        view = _seat_view(state)
        seat = view.current_player
        if view.chance_outcomes():
            raise ValueError(f"seat {seat}'s own view {view.to_text()!r} asks for chance "
                             f"outcomes before its decision: a seat's view must show what it "
                             f"needs to decide (the game's chance_outcomes_c is wrong here)")
        lim = Limits() if limits is None else limits
        # a budget in the limits replaces the player's own (its depth, nodes and seconds:
        # the depth is what expectimax iterates over) as a whole; limits.depth overrides.
        # limits.iterations counts MCTS iterations: it replaces the budget but sets none.
        if (lim.iterations is not None or lim.nodes is not None or lim.seconds is not None
                or lim.infinite):
            depth = None
            nodes = None if lim.nodes is None else _check_int("limits.nodes", lim.nodes, 1)
            seconds = _check_seconds("limits.seconds", lim.seconds)
            if lim.iterations is not None:
                _check_int("limits.iterations", lim.iterations, 1)
        else:
            depth, nodes, seconds = self.depth, self.nodes, self.seconds
        if lim.depth is not None:
            depth = _check_int("limits.depth", lim.depth, 1, MAX_DEPTH)
        if lim.infinite:
            nodes = seconds = None
        elif depth is None and nodes is None and seconds is None:
            depth, nodes = DEFAULT_DEPTH, DEFAULT_NODES
        seed = lim.seed if lim.seed is not None else self.seed
        if seed is None:
            seed = int.from_bytes(os.urandom(8), "little")
        seed = _check_int("seed", seed, 0, 2**64 - 1)
        players = view.players
        vector = self.mode == "maxn" or (self.mode == "auto" and players > 2)
        n = players

        def to_result(r):
            if r["best"] < 0:
                move = view.heuristic_move(seed=seed)
                value = tuple(view.evaluate())
            else:
                move = r["moves"][r["best"]]
                value = self._value(r["values"][r["best"]], seat, n)
            stats = {}
            for m, v, k in zip(r["moves"], r["values"], r["nodes"]):
                if v is not None:
                    stats[m] = MoveStats(visits=k, mean=v[seat] if isinstance(v, tuple) else v)
            return SearchResult(move=move, value=value, stats=stats,
                                iterations=r["iterations"], seconds=time.perf_counter() - t0,
                                nodes=r["total_nodes"], depth=r["depth"])

        callback = None
        if info is not None:
            def callback(r):
                info(to_result(r))

        r = self._core.run(view, seat=seat, vector=vector, pruning=_PRUNINGS[self.pruning],
                           max_chance=self.max_chance, sample=self.chance == "sample",
                           seed=seed, max_depth=depth or MAX_DEPTH,
                           node_limit=nodes or 0, seconds=seconds or 0.0,
                           playouts=self.playouts, info=callback)
        return to_result(r)

    @staticmethod
    def _value(v, seat, n):
        if isinstance(v, tuple):
            return v
        if n == 2:
            return (v, 1.0 - v) if seat == 0 else (1.0 - v, v)
        rest = (1.0 - v) / (n - 1)
        return tuple(v if p == seat else rest for p in range(n))

    def stop(self):
        """Ask a running search (from another thread) to finish now with its best move."""
        self._core.stop()

    @property
    def spec(self):
        parts = []
        defaults = dict(depth=None, nodes=None, seconds=None, mode="auto", pruning="star2",
                        max_chance=24, chance="top", tt_size=1 << 18, playouts=0, seed=None)
        for key, default in defaults.items():
            value = getattr(self, key)
            if value != default:
                parts.append(f"{key}={value}")
        return "expectimax" + (":" + ",".join(parts) if parts else "")
