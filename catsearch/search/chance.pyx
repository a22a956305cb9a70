# cython: language_level=3
"""The state stack of an expectimax search, and its chance nodes resolved into sets of outcomes.

:class:`ChanceStack` holds what :class:`catsearch.search.expectimax_core.ExpectimaxCore`
searches through: a stack of preallocated clones of the root view addressed by C pointers (one
level per decision or chance step), and per level a *chance set*: the children of a chance
node once every unknown the next decision needs is resolved, one snapshot of the game's C
struct per distinct outcome (one ``memcpy`` each), merged by Zobrist hash, so the order of the
reveals costs nothing. Where a node has more outcomes than ``max_chance``, the most probable
are kept, or ``samples`` resolutions are drawn with a seeded generator (sparse sampling). It
also values cut-off nodes (the game's evaluation, or heuristic playouts), records the hidden
choices of other seats (``apply_hidden_c``) and orders the moves of each level.
"""
from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, calloc, realloc, free, qsort
from libc.string cimport memcpy, memset

from catsearch._core.rng cimport Rng, rng_seed, rng_double, splitmix_finish
from catsearch._core.state cimport State, Header, header, MAX_PLAYERS


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


cdef class ChanceStack:
    """The stack of states and chance sets of one search (set up per search)."""

    def __dealloc__(self):
        ChanceStack._release(self)

    cdef _prepare(self, State root, int nlevels):
        """Room for ``nlevels`` levels of clones of ``root`` (a fresh stack)."""
        cdef int i
        self._release()
        self.size = root._size
        self.nlevels = nlevels
        self.chance_nodes = 0
        self.chance_budget = -1
        self.stride = root.num_distinct_moves_c() + 1
        self._objs = [root.clone_c() for _ in range(nlevels + 2)]
        for i in range(nlevels + 2):
            header(<State>self._objs[i]).scratch = 1    # the search's own copies
        self.stack = <PyObject**>malloc(nlevels * sizeof(PyObject*))
        self.moves = <int*>malloc(nlevels * self.stride * sizeof(int))
        self.history = <double*>calloc(self.stride, sizeof(double))
        self.sets = <ChanceSet*>calloc(nlevels, sizeof(ChanceSet))
        self.pbuf = <int*>malloc(self.stride * sizeof(int))
        if (self.stack == NULL or self.moves == NULL or self.history == NULL or self.sets == NULL
                or self.pbuf == NULL):
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
        release(<void**>&self.sets)
        release(<void**>&self.stack)
        release(<void**>&self.moves)
        release(<void**>&self.history)
        release(<void**>&self.pbuf)
        release(<void**>&self.pairs)
        self.pairs_cap = 0
        self.scr1 = NULL
        self.scr2 = NULL
        self._objs = None
        self.nlevels = 0

    cdef uint64_t _key(self, PyObject* s) noexcept nogil:
        """The table key of a node: its Zobrist hash with what its value depends on besides
        the position (the ply, for games whose hash leaves counters out; the searching seat
        and the valuation, in ``salt``)."""
        cdef Header* h = hdr(s)
        cdef uint64_t k = h.hash ^ splitmix_finish(<uint64_t>h.ply * <uint64_t>0x9E3779B97F4A7C15 + self.salt)
        return k if k != 0 else 1


    cdef int _order(self, int lvl, int n, int ttmove) noexcept nogil:
        """Order the moves at ``moves[lvl]``: the table's move first, then (``by_history``)
        by their history scores (cut-offs they caused, weighted by depth squared)."""
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
        if not self.by_history:
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

    # -- chance ---------------------------------------------------------------------------
    cdef int _enumerate(self, int lvl, int n0) noexcept nogil:
        """Resolve every unknown the next decision at ``stack[lvl]`` needs into
        ``sets[lvl]``: distinct outcomes, most probable first, probabilities summing to 1.
        ``outs``/``ws`` hold the node's first chance step (``n0`` outcomes). Where the
        outcomes would exceed ``max_chance``: the most probable (``sample == 0``, also at
        each intermediate step), or (``sample == 1``) ``samples`` resolutions drawn with the
        seed, as soon as a step's distinct outcomes pass ``max_chance``: known before the
        step is expanded where one state has more (the first step: ``n0``), found as the
        step is expanded otherwise, where the outcomes before merging are more than the
        bound (a wide node costs the steps before it, at most ``max_chance + 1`` children of
        the step that passes the bound, and its draws, not all its outcomes). -1: no memory;
        -2: more than ``chance_budget`` chance children (each ``apply_chance_c`` is one,
        counted in ``chance_nodes``) would be needed.
        """
        cdef PyObject* src = self.stack[lvl]
        cdef ChanceSet* cur = &self.fa
        cdef ChanceSet* nxt = &self.fb
        cdef ChanceSet* done = &self.fc
        cdef ChanceSet* out = &self.sets[lvl]
        cdef ChanceSet* tmp
        cdef int cap = self.max_chance
        cdef int e, k, n, i, keep, widest
        cdef bint strict
        cdef double p, total
        cs_clear(cur)
        cs_clear(nxt)
        cs_clear(done)
        cs_clear(out)
        if self.sample and cap > 0 and n0 > cap:
            return self._sample(lvl, NULL)
        for k in range(n0):
            if self._count_chance():
                return -2
            copy_into(self.scr1, src)
            (<State>self.scr1).apply_chance_c(self.outs[k])
            if cs_push(nxt, <char*>hdr(self.scr1), self.ws[k], hdr(self.scr1).hash) < 0:
                return -1
        while nxt.n > 0:
            if cap > 0 and nxt.n > cap:
                if self.sample:
                    return self._sample(lvl, NULL)
                if self._top(nxt, cur, cap) < 0:
                    return -1
                cs_clear(nxt)
            else:
                tmp = cur
                cur = nxt
                nxt = tmp
            strict = False
            if self.sample and cap > 0:
                # the step's outcomes before merging, and the most of one entry's (distinct):
                # more than the bound for sure, or maybe (merged as they are expanded)
                if self._step_width(cur, done.n, &widest) > cap:
                    if widest > cap:
                        return self._sample_rest(lvl, cur, done)
                    strict = True
            for e in range(cur.n):
                memcpy((<State>self.scr2)._data, cur.snaps + e * self.size, self.size)
                n = (<State>self.scr2).chance_outcomes_c(self.outs, self.ws)
                if n == 0:
                    # resolved: kept now (top), or once the step is done (sample: until
                    # then ``done`` is what the steps before resolved)
                    if not self.sample and cs_push(done, cur.snaps + e * self.size,
                                                   cur.prob[e], cur.key[e]) < 0:
                        return -1
                    continue
                p = cur.prob[e]
                for k in range(n):
                    if self._count_chance():
                        return -2
                    memcpy((<State>self.scr1)._data, cur.snaps + e * self.size, self.size)
                    (<State>self.scr1).apply_chance_c(self.outs[k])
                    if cs_push(nxt, <char*>hdr(self.scr1), p * self.ws[k],
                               hdr(self.scr1).hash) < 0:
                        return -1
                    if strict and nxt.n > cap:
                        return self._sample_rest(lvl, cur, done)
            if self.sample:
                for e in range(cur.n):
                    memcpy((<State>self.scr2)._data, cur.snaps + e * self.size, self.size)
                    if ((<State>self.scr2).chance_outcomes_c(self.outs, self.ws) == 0
                            and cs_push(done, cur.snaps + e * self.size, cur.prob[e],
                                        cur.key[e]) < 0):
                        return -1
            cs_clear(cur)
        if cap > 0 and done.n > cap and self.sample:
            return self._sample(lvl, NULL)
        keep = done.n if cap <= 0 or done.n <= cap else cap
        if self._top(done, out, keep) < 0:
            return -1
        total = 0.0
        for i in range(out.n):
            total += out.prob[i]
        for i in range(out.n):
            out.prob[i] /= total
        return 0

    cdef bint _count_chance(self) noexcept nogil:
        """Count one chance child; true (and not counted) when it would go past
        ``chance_budget``."""
        if self.chance_budget >= 0 and self.chance_nodes >= self.chance_budget:
            return True
        self.chance_nodes += 1
        return False

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
            self.pairs[i].tie = splitmix_finish(src.key[i])
        qsort(self.pairs, src.n, sizeof(ProbIdx), cmp_prob)
        cs_clear(dst)
        if keep > src.n:
            keep = src.n
        for i in range(keep):
            e = self.pairs[i].i
            if cs_push(dst, src.snaps + e * self.size, src.prob[e], src.key[e]) < 0:
                return -1
        return 0

    cdef int _step_width(self, ChanceSet* cur, int resolved, int* widest) noexcept nogil:
        """The outcomes of the next resolution step before merging: ``resolved`` plus, per
        entry of ``cur``, its chance outcomes (1 if it needs none); ``widest[0]``: the most
        outcomes of one entry (distinct states: one state's outcomes reveal different
        things). Nothing is expanded."""
        cdef int e, n, total = resolved
        widest[0] = 0
        for e in range(cur.n):
            memcpy((<State>self.scr2)._data, cur.snaps + e * self.size, self.size)
            n = (<State>self.scr2).chance_outcomes_c(self.outs, self.ws)
            total += n if n > 0 else 1
            if n > widest[0]:
                widest[0] = n
        return total

    cdef int _sample_rest(self, int lvl, ChanceSet* cur, ChanceSet* done) noexcept nogil:
        """Sparse sampling from the step ``cur`` on: draws start from the partial
        resolutions so far (``cur``, and those ``done`` before it), by their probabilities."""
        cdef int e
        for e in range(done.n):
            if cs_push(cur, done.snaps + e * self.size, done.prob[e], done.key[e]) < 0:
                return -1
        return self._sample(lvl, cur)

    cdef int _sample(self, int lvl, ChanceSet* frontier) noexcept nogil:
        """Sparse sampling (Kearns, Mansour & Ng 2002): ``samples`` resolutions of the node
        at ``stack[lvl]``, each drawn step by step with the game's probabilities, the same
        ones merged (weight: the share of the draws that gave it). Each starts from the node
        (``frontier`` NULL) or from an entry of ``frontier`` (partial resolutions whose
        probabilities sum to 1) drawn by its probability: the same distribution. The
        generator is seeded from the search seed and the node alone (its hash and ply, not
        the search), so a node gets the same sample wherever and whenever it is searched,
        in every search with that seed: one fixed chance node, for pruning and the table."""
        cdef PyObject* src = self.stack[lvl]
        cdef ChanceSet* acc = &self.fc
        cdef int K = self.samples
        cdef int s, n
        cdef Rng rng
        rng_seed(&rng, self._sample_seed(src))
        self.sampled += 1
        cs_clear(acc)
        for s in range(K):
            if frontier == NULL:
                copy_into(self.scr1, src)
            else:
                memcpy((<State>self.scr1)._data,
                       frontier.snaps + pick(&rng, frontier.prob, frontier.n) * self.size,
                       self.size)
            while True:
                n = (<State>self.scr1).chance_outcomes_c(self.outs, self.ws)
                if n == 0:
                    break
                if self._count_chance():
                    return -2
                (<State>self.scr1).apply_chance_c(self.outs[pick(&rng, self.ws, n)])
            if cs_push(acc, <char*>hdr(self.scr1), 1.0 / K, hdr(self.scr1).hash) < 0:
                return -1
        return self._top(acc, &self.sets[lvl], acc.n)

    cdef uint64_t _sample_seed(self, PyObject* s) noexcept nogil:
        """The seed of the sample of node ``s``: the search seed, the node's hash and ply."""
        cdef Header* h = hdr(s)
        return self.seed ^ splitmix_finish(
            h.hash ^ splitmix_finish(<uint64_t>h.ply * <uint64_t>0x9E3779B97F4A7C15
                                     + <uint64_t>0x2545F4914F6CDD1D))

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
        rng_seed(&rng, self.seed ^ splitmix_finish(self._key(sp) + <uint64_t>0x5851F42D4C957F2D))
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
                        (<State>self.scr1).heuristic_move_c(&rng, self.pbuf, 0))
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
