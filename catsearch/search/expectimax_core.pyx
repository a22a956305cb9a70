# cython: language_level=3
"""Expectimax over one seat's view, in C: one iteration of a given depth over a state stack.

:class:`ExpectimaxCore` extends :class:`catsearch.search.chance.ChanceStack` (the stack of
states and the chance sets) with the search itself: *-minimax with Star1/Star2 pruning or
paranoid (one value, the searching seat's), max-n (one value per seat), the transposition
table and move ordering, the limits. An iteration runs without the GIL and touches no Python
object; :mod:`catsearch.search.expectimax` deepens them and describes the algorithm."""
from cpython.ref cimport PyObject
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memcpy

from catsearch._core.rng cimport splitmix_finish
from catsearch._core.state cimport (State, Header, MAX_PLAYERS, set_heuristic_weights,
                                    weights_pointer)
from catsearch.search.chance cimport (
    ChanceSet, ChanceStack, hdr, copy_into, release, SETTLE, child_depth,
)
from catsearch.search.clock cimport now_c as now
from catsearch.search.ttable cimport TTEntry, tt_slot, tt_answers, tt_replaces, tt_mark

__all__ = ["ExpectimaxCore", "MAX_DEPTH", "PRUNINGS"]

#: the deepest iteration
MAX_DEPTH = EX_MAX_DEPTH
#: the pruning of the scalar search, by its option value
PRUNINGS = {"none": EX_PRUNE_NONE, "star1": EX_PRUNE_STAR1, "star2": EX_PRUNE_STAR2}


cdef class ExpectimaxCore(ChanceStack):
    """The C engine behind :class:`~catsearch.search.expectimax.Expectimax` (one per player;
    not thread-safe itself). Its transposition table is allocated by the first search and
    freed by :meth:`close` (a later search allocates it again)."""

    def __cinit__(self, size_t tt_entries):
        self.tt_entries = tt_entries
        self.tt_mask = tt_entries - 1
        self.tt = NULL

    def __dealloc__(self):
        self._release()
        free(self.tt)

    def stop(self):
        self.stop_flag = 1

    def close(self):
        """Free the transposition table and the search stacks now.

        :raises RuntimeError: a search is running (``stop()`` it and wait for its result)."""
        if self.nlevels:
            raise RuntimeError("close() while a search runs: stop() it and wait for its "
                               "result first")
        self._release()
        release(<void**>&self.tt)

    @property
    def table_allocated(self):
        """Whether the transposition table is allocated (for tests)."""
        return self.tt != NULL

    @property
    def chance_nodes(self):
        """How many of the last search's nodes were chance children (for tests)."""
        return self.chance_total

    @property
    def sampled_nodes(self):
        """How many chance nodes the last search sampled (``chance="sample"``)."""
        return self.sampled

    # -- setup and teardown of one search -----------------------------------------------
    cdef _prepare(self, State root, int nlevels):
        ChanceStack._prepare(self, root, nlevels)
        self.root_moves = <int*>malloc(self.stride * sizeof(int))
        self.root_val = <double*>calloc(self.stride * 4, sizeof(double))
        self.root_nodes = <long long*>calloc(self.stride, sizeof(long long))
        self.root_done = <int*>calloc(self.stride, sizeof(int))
        if (self.root_moves == NULL or self.root_val == NULL or self.root_nodes == NULL
                or self.root_done == NULL):
            self._release()
            raise MemoryError("no memory for the search stacks")

    cdef _release(self):
        release(<void**>&self.root_moves)
        release(<void**>&self.root_val)
        release(<void**>&self.root_nodes)
        release(<void**>&self.root_done)
        ChanceStack._release(self)

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

    cdef bint _chance_node(self, int lvl) noexcept nogil:
        """Whether ``stack[lvl]`` is a chance node, its outcomes then resolved (or sampled)
        into ``sets[lvl]`` (no memory: ``failed``, ``aborted``). Each chance child expanded
        counts as a node: the search stops (``aborted``) where the node would pass the limit."""
        cdef int n = (<State>self.stack[lvl]).chance_outcomes_c(self.outs, self.ws)
        cdef int r
        if n > 0:
            self.chance_nodes = 0
            self.chance_budget = self.node_limit - self.nodes if self.node_limit > 0 else -1
            r = self._enumerate(lvl, n)
            self.nodes += self.chance_nodes
            self.chance_total += self.chance_nodes
            if r == -1:
                self.failed = 1
                self.aborted = 1
            elif r == -2:
                self.aborted = 1
        return n > 0

    # -- the scalar search (*-minimax, paranoid) ----------------------------------------
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
        if depth == SETTLE and lvl + 2 < self.nlevels:
            if self._chance_node(lvl):
                return 0.0 if self.aborted else self._chance_s(lvl, SETTLE, alpha, beta)
            if h.current != self.root and self._hidden(lvl):
                return self._search_s(lvl + 1, SETTLE, alpha, beta)
        if depth <= 0 or lvl + 2 >= self.nlevels:
            self.cutoffs += 1
            self._leaf(sp, out)
            return out[self.root]
        key = self._key(sp)
        e = tt_slot(self.tt, self.tt_mask, key)
        if tt_answers(e, key, depth):
            lo = e.v[0]
            hi = e.v[1]
            if lo >= hi or lo >= beta or hi <= alpha:
                if not e.solved:
                    self.cutoffs += 1
                return lo if (lo >= hi or lo >= beta) else hi
        if e.key == key:
            ttmove = e.move
        cut0 = self.cutoffs
        if self._chance_node(lvl):
            if not self.aborted:
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
        elif not tt_replaces(e, key, depth, self.stamp):
            return v
        tt_mark(e, key, depth, best_move, solved, self.stamp)
        e.v[0] = lo
        e.v[1] = hi
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
                v = self._search_s(lvl + 1, child_depth(<State>sp, m, depth), -1.0, 2.0)
            else:
                v = self._search_s(lvl + 1, child_depth(<State>sp, m, depth), alpha, beta)
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
        e = tt_slot(self.tt, self.tt_mask, key)
        if e.key == key:
            ttmove = e.move
        n = (<State>sp).legal_moves_c(buf)
        self._order(lvl, n, ttmove)
        copy_into(self.stack[lvl + 1], sp)
        (<State>self.stack[lvl + 1]).apply_c(buf[0])
        return self._search_s(lvl + 1, child_depth(<State>sp, buf[0], depth), alpha, beta)

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
        if depth == SETTLE and lvl + 2 < self.nlevels:
            if self._chance_node(lvl):
                if not self.aborted:
                    self._expect_v(lvl, SETTLE, out)
                return
            if h.current != self.root and self._hidden(lvl):
                self._search_v(lvl + 1, SETTLE, out)
                return
        if depth <= 0 or lvl + 2 >= self.nlevels:
            self.cutoffs += 1
            self._leaf(sp, out)
            return
        key = self._key(sp)
        e = tt_slot(self.tt, self.tt_mask, key)
        if tt_answers(e, key, depth):
            if not e.solved:
                self.cutoffs += 1
            for j in range(np):
                out[j] = e.v[j]
            return
        if e.key == key:
            ttmove = e.move
        cut0 = self.cutoffs
        if self._chance_node(lvl):
            if self.aborted:
                return
            self._expect_v(lvl, depth, out)
            if self.aborted:
                return
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
                self._search_v(lvl + 1, child_depth(<State>sp, m, depth), c)
                if self.aborted:
                    return
                if bm < 0 or c[p] > out[p]:
                    bm = m
                    for j in range(np):
                        out[j] = c[j]
                    if out[p] >= 1.0 and self.pruning != EX_PRUNE_NONE:
                        break          # nothing beats a sure win (ties keep the first)
        if not tt_replaces(e, key, depth, self.stamp):
            return
        tt_mark(e, key, depth, bm, self.cutoffs == cut0, self.stamp)
        for j in range(np):
            e.v[j] = out[j]

    cdef void _expect_v(self, int lvl, int depth, double* out) noexcept nogil:
        """The probability-weighted values of the resolved children of chance node
        ``stack[lvl]`` (resolved into ``sets[lvl]``)."""
        cdef ChanceSet* cs = &self.sets[lvl]
        cdef PyObject* child = self.stack[lvl + 1]
        cdef double c[MAX_PLAYERS]
        cdef int i, j, np = hdr(self.stack[lvl]).players
        for j in range(np):
            out[j] = 0.0
        for i in range(cs.n):
            memcpy((<State>child)._data, cs.snaps + i * self.size, self.size)
            self._search_v(lvl + 1, depth, c)
            if self.aborted:
                return
            for j in range(np):
                out[j] += cs.prob[i] * c[j]

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
                self._search_v(1, child_depth(<State>root, self.root_moves[i], depth), vals)
                if self.aborted:
                    self.root_nodes[i] += self.nodes - n0
                    return
                for j in range(self.players):
                    self.root_val[4 * i + j] = vals[j]
                v = vals[self.root]
            else:
                alpha = -1.0 if (self.best_index < 0 or self.pruning == EX_PRUNE_NONE) else best
                v = self._search_s(1, child_depth(<State>root, self.root_moves[i], depth), alpha,
                                   2.0)
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

    # -- one search, driven by catsearch.search.expectimax (iterative deepening) ---------
    def begin(self, State root, *, int seat, int vector, int pruning, int max_chance,
              int sample, uint64_t seed, int max_depth, long long node_limit, double seconds,
              int playouts=0, int samples=0, weights=None, info=None):
        """Start a search of ``root`` (the view of ``seat``, who is to move): set its options
        (``samples``: the draws of a sampled node, 0: ``max_chance``) and limits (the clock
        starts now), allocate its stacks; ``info()`` is called about every 0.1 s while an
        iteration runs. :meth:`end` must follow. Returns the root moves, in the order the
        first iteration searches them."""
        # a level per decision, chance node and hidden choice of another seat (depth free)
        cdef int nlevels = (max_depth + 1) * (hdr(<PyObject*>root).players + 2) + 4
        cdef double t0 = now()
        if self.tt == NULL:     # allocated by the first search (none if it never searches)
            self.tt = <TTEntry*>calloc(self.tt_entries, sizeof(TTEntry))
            if self.tt == NULL:
                raise MemoryError(f"no memory for a transposition table of "
                                  f"{self.tt_entries} entries")
        self.weights = weights          # kept alive while the search's states point at it
        self._prepare(root, nlevels)
        self.root = seat
        self.players = hdr(<PyObject*>root).players
        self.vector = vector
        self.pruning = pruning
        self.by_history = not vector and pruning != EX_PRUNE_NONE
        self.max_chance = max_chance
        self.sample = sample
        self.samples = samples if samples > 0 else max_chance   # draws of a sampled node
        self.sampled = 0
        self.playouts = playouts
        self.seed = seed
        # a new salt per search: no entry of an earlier search matches (no clearing needed)
        self.searches += 1
        self.salt = splitmix_finish((seat + 1) * <uint64_t>0x632BE59BD9B4E019 + vector * 7 + 3
                                    + self.searches * <uint64_t>0xD1B54A32D192ED03)
        self.nodes = 0
        self.chance_total = 0
        self.node_limit = node_limit
        self.deadline = t0 + seconds if seconds > 0 else 1e300
        self.next_info = t0 + 0.1
        self.aborted = 0
        self.failed = 0
        self.stop_flag = 0
        self.info_error = None
        self.info_hook = info
        self.has_info = info is not None
        self.best_index = -1
        self.nroot = root.legal_moves_c(self.root_moves)
        copy_into(self.stack[0], <PyObject*>root)
        # every state of the search is copied from level 0: all play by the search's weights
        set_heuristic_weights(<State>self.stack[0], weights_pointer(weights))
        return [self.root_moves[i] for i in range(self.nroot)]

    def iterate(self, int depth):
        """Search every root move to ``depth`` plies, in the current order.

        :returns: ``(values, best_index, aborted, solved)``: per root move, ``None`` if this
            iteration did not finish it, else its value: the tuple of every seat's (max-n) or
            ``(value, exact)`` (scalar; not exact: an upper bound); the best one's index (-1:
            none); whether the search was stopped (a limit, :meth:`stop`); whether it
            reached no depth cut-off (deeper gives the same).
        """
        cdef int i, j
        self.stamp += 1
        self.cutoffs = 0
        with nogil:
            self._root_iteration(depth)
        if self.info_error is not None:
            error, self.info_error = self.info_error, None
            raise error
        if self.failed:
            raise MemoryError("no memory for the chance outcomes of a node")
        out = []
        for i in range(self.nroot):
            if not self.root_done[i]:
                out.append(None)
            elif self.vector:
                out.append(tuple(self.root_val[4 * i + j] for j in range(self.players)))
            else:
                out.append((self.root_val[4 * i], self.root_val[4 * i + 1] > 0))
        return out, self.best_index, bool(self.aborted), self.cutoffs == 0

    def reorder(self, list order):
        """Search the root moves in ``order`` (indices into the current order) from now on."""
        cdef int i, n = self.nroot
        moves = [self.root_moves[i] for i in order]
        nodes = [self.root_nodes[i] for i in order]
        for i in range(n):
            self.root_moves[i] = moves[i]
            self.root_nodes[i] = nodes[i]

    def end(self):
        """Release what :meth:`begin` took (the table stays, for the next search)."""
        self.info_hook = None
        self.has_info = 0
        self._release()

    def progress(self):
        """``(best_index, nodes, root_nodes)`` of the running search: its iteration's best
        root move so far (-1: none finished), its nodes, and nodes per root move."""
        return (self.best_index, self.nodes,
                [self.root_nodes[i] for i in range(self.nroot)])
