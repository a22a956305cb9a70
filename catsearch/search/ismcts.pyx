# cython: language_level=3
"""Information Set MCTS (Cowling, Powley & Whitehouse 2012) over the state contract, in C.

:class:`TreeCore` is one worker's search: an arena of C nodes, a scratch state and a seeded
generator. :class:`ISMCTSCore` runs SO-ISMCTS (one tree over the searching seat's information
sets) or MO-ISMCTS (one tree per seat, each move keyed by what that seat saw of it). The
Python player that drives it (options, limits, threads, processes, tree reuse) is
:class:`catsearch.search.mcts.ISMCTS`.

One iteration: copy the root view into the scratch state, ``determinize_c`` it for the
searching seat, select down the tree(s) with UCB over availability counts, expand one node,
play out (uniform random or the game's ``heuristic_move_c``, optionally cut off after some
moves with ``evaluate_c``), and back the reward vector up: each node adds the reward of the
seat that moved into it (max-n).
"""
from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

from catsearch._core.rng cimport Rng, rng_seed, rng_below
from catsearch._core.state cimport State, Header, header, copy_state, MAX_PLAYERS

#: bytes one tree node takes in the arena (the arena grows by doubling, so up to twice this
#: per node is reserved at a time)
NODE_BYTES = sizeof(Node)


cdef inline double now_c() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


def monotonic() -> float:
    """The clock the search loop reads (``CLOCK_MONOTONIC``, as ``time.perf_counter``)."""
    return now_c()


cdef int copy_tree(Arena* src, int root, Arena* dst) noexcept nogil:
    """Copy the subtree of ``src`` under ``root`` into ``dst`` (breadth first, children in
    their order); return the new root, or NO_NODE when memory runs out."""
    cdef int* queue
    cdef int head = 0, tail = 0, s, d, ch, nd, last
    cdef int new_root = arena_add(dst, src.nodes[root].move, src.nodes[root].player)
    if new_root == NO_NODE:
        return NO_NODE
    dst.nodes[new_root] = src.nodes[root]
    dst.nodes[new_root].child = NO_NODE
    dst.nodes[new_root].sibling = NO_NODE
    queue = <int*>malloc(sizeof(int) * 2 * (src.size + 1))
    if queue == NULL:
        return new_root
    queue[0] = root
    queue[1] = new_root
    tail = 2
    while head < tail:
        s = queue[head]
        d = queue[head + 1]
        head += 2
        last = NO_NODE
        ch = src.nodes[s].child
        while ch != NO_NODE:
            nd = arena_add(dst, src.nodes[ch].move, src.nodes[ch].player)
            if nd == NO_NODE:
                free(queue)
                return new_root
            dst.nodes[nd] = src.nodes[ch]
            dst.nodes[nd].child = NO_NODE
            dst.nodes[nd].sibling = NO_NODE
            if last == NO_NODE:
                dst.nodes[d].child = nd
            else:
                dst.nodes[last].sibling = nd
            last = nd
            queue[tail] = ch
            queue[tail + 1] = nd
            tail += 2
            ch = src.nodes[ch].sibling
    free(queue)
    return new_root


cdef class TreeCore:
    """The shared machinery of one search worker (see the module docstring)."""

    def __cinit__(self):
        self.buf = NULL
        self.hbuf = NULL
        self.stamp = NULL
        self.paths = NULL
        self.plen = NULL
        self.roots = NULL
        self.arena.nodes = NULL
        self.arena.size = 0
        self.arena.cap = 0

    def __dealloc__(self):
        free(self.buf)
        free(self.hbuf)
        free(self.stamp)
        free(self.paths)
        free(self.plen)
        free(self.roots)
        arena_free(&self.arena)

    cdef void _setup(self, State view, int seat, int ntrees, double c, bint heuristic,
                     int cutoff, int max_depth, int max_nodes, bint use_avail, uint64_t seed,
                     double prior):
        cdef int i
        if not 0.0 <= prior <= 1.0:
            raise ValueError(f"prior must be from 0 to 1, not {prior}")
        self.root = view.clone_c()
        self.scratch = view.clone_c()
        self.seat = seat
        self.players = header(view).players
        self.ndm = view.num_distinct_moves_c()
        self.ntrees = ntrees
        self.c = c
        self.heuristic = heuristic
        self.prior = prior
        self.cutoff = cutoff
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.use_avail = use_avail
        rng_seed(&self.rng, seed)
        self.buf = <int*>malloc(sizeof(int) * (self.ndm + 1))
        self.hbuf = <int*>malloc(sizeof(int) * (self.ndm + 1))
        self.stamp = <long long*>malloc(sizeof(long long) * (self.ndm + 1))
        self.path_cap = 64
        self.paths = <int*>malloc(sizeof(int) * ntrees * self.path_cap)
        self.plen = <int*>malloc(sizeof(int) * ntrees)
        self.roots = <int*>malloc(sizeof(int) * ntrees)
        if (self.buf == NULL or self.hbuf == NULL or self.stamp == NULL or self.paths == NULL
                or self.plen == NULL or self.roots == NULL
                or not arena_init(&self.arena, 4096)):
            raise MemoryError("cannot allocate the search tree")
        memset(self.stamp, 0, sizeof(long long) * (self.ndm + 1))
        self.gen = 0
        for i in range(ntrees):
            self.roots[i] = arena_add(&self.arena, -1, -1)
        self.reset_counters()

    def reset_counters(self):
        """Zero the per-search counters (iterations, root value, depth, stop flag)."""
        cdef int i
        self.iterations = 0
        self.depth_seen = 0
        self.stop_flag = 0
        for i in range(MAX_PLAYERS):
            self.root_sum[i] = 0.0

    cdef int ensure_path(self, int depth) noexcept nogil:
        """Room for ``depth`` entries in every tree's path (the paths are reshaped)."""
        cdef int cap, q, i
        cdef int* grown
        if depth <= self.path_cap:
            return 1
        cap = self.path_cap * 2
        while cap < depth:
            cap *= 2
        grown = <int*>malloc(sizeof(int) * self.ntrees * cap)
        if grown == NULL:
            return 0
        for q in range(self.ntrees):
            for i in range(self.plen[q]):
                grown[q * cap + i] = self.paths[q * self.path_cap + i]
        free(self.paths)
        self.paths = grown
        self.path_cap = cap
        return 1

    cdef int prior_move(self, State st) noexcept nogil:
        """The game's heuristic move in ``st`` when the search uses it as a prior, else -1."""
        if self.prior > 0.0:
            return st.heuristic_move_c(&self.rng, self.hbuf)
        return -1

    cdef int expand(self, int node, int m, int player, int depth, int reserve,
                    bint* expanded) noexcept nogil:
        """A new child of ``node`` for the untried move ``m`` if the depth limit and the node
        budget allow (``expanded`` set), else NO_NODE (``m`` is then played out)."""
        cdef int ch
        if ((self.max_depth == 0 or depth <= self.max_depth)
                and self.arena.size + reserve <= self.max_nodes):
            ch = arena_link(&self.arena, node, m, player)
            if ch != NO_NODE:
                self.arena.nodes[ch].avail = 1
                expanded[0] = 1
                return ch
        expanded[0] = 0
        return NO_NODE

    cdef long long mark_legal(self, int n, int* untried) noexcept nogil:
        """Stamp the legal moves ``buf[0:n]`` with a new generation mark ``g`` (returned),
        counting the distinct ones into ``untried``; a child found legal is then re-stamped
        ``g + 1`` and taken off the count, so what keeps ``g`` is legal and untried."""
        cdef long long g = self.gen + 2
        cdef int i, m
        self.gen = g
        for i in range(n):
            m = self.buf[i]
            if self.stamp[m] != g:
                self.stamp[m] = g
                untried[0] += 1
        return g

    cdef int select_child(self, int node, int n, int player, int depth, int reserve,
                          int hmove, int* out_move, bint* expanded) noexcept nogil:
        """At ``node``, whose legal moves in this determinization are ``buf[0:n]``: bump the
        availability of the legal children, then expand an untried legal move (uniformly) if
        there is one and the budget allows, else take the legal child of best UCB. With a
        prior (``hmove``, the heuristic's move, >= 0) the choice is :meth:`select_prior`'s.

        :returns: the child, or NO_NODE to leave the tree (``out_move`` is then a random
            untried move to play out).
        """
        cdef Node* nodes = self.arena.nodes
        cdef long long g
        cdef int i, m, ch, best = NO_NODE, untried = 0, k
        cdef double v, x, bestv = -1e300, logp = 0.0
        cdef Node* nd
        if hmove >= 0:
            return self.select_prior(node, n, player, depth, reserve, hmove, out_move, expanded)
        g = self.mark_legal(n, &untried)
        if not self.use_avail and nodes[node].visits > 0:
            logp = log(<double>nodes[node].visits)
        ch = nodes[node].child
        while ch != NO_NODE:
            nd = &nodes[ch]
            m = nd.move
            if 0 <= m < self.ndm and self.stamp[m] == g:
                self.stamp[m] = g + 1
                untried -= 1
                nd.avail += 1
                v = nd.visits
                if self.use_avail:
                    x = nd.reward / v + self.c * sqrt(log(<double>nd.avail) / v)
                else:
                    x = nd.reward / v + self.c * sqrt(logp / v)
                if x > bestv:
                    bestv = x
                    best = ch
            ch = nd.sibling
        if untried > 0:
            k = rng_below(&self.rng, untried)
            m = -1
            for i in range(n):
                if self.stamp[self.buf[i]] == g:
                    if k == 0:
                        m = self.buf[i]
                        break
                    k -= 1
            out_move[0] = m
            return self.expand(node, m, player, depth, reserve, expanded)
        expanded[0] = 0
        out_move[0] = nodes[best].move
        return best

    cdef int select_prior(self, int node, int n, int player, int depth, int reserve,
                          int hmove, int* out_move, bint* expanded) noexcept nogil:
        """PUCT (Rosin 2011; Silver et al. 2016) with the game's heuristic move ``hmove`` as
        the prior: ``P(hmove) = prior + (1 - prior) / n``, any other legal move
        ``(1 - prior) / n``; a legal move scores ``Q + c P sqrt(A) / (1 + visits)``, where
        ``A`` is its availability count (ISMCTS; the parent's visits in PIMC) and ``Q`` its
        mean reward for the seat that makes it. An untried move counts ``Q`` as the mean of
        its tried siblings (first-play urgency; ``1/players`` if none) and ``A`` as the
        parent's visits plus one; it is expanded when it scores best. Untried moves other
        than ``hmove`` share one prior, so one of them is drawn uniformly.
        """
        cdef Node* nodes = self.arena.nodes
        cdef long long g
        cdef int i, m, ch, best = NO_NODE, untried = 0, k
        cdef double v, x, bestv = -1e300, sumr = 0.0, sumv = 0.0, fpu, sq
        cdef double pother = (1.0 - self.prior) / n
        cdef double ph = self.prior + pother
        cdef double parent = nodes[node].visits
        cdef Node* nd
        cdef bint h_untried
        g = self.mark_legal(n, &untried)
        # the legal children: availability, and the first-play value
        ch = nodes[node].child
        while ch != NO_NODE:
            nd = &nodes[ch]
            m = nd.move
            if 0 <= m < self.ndm and self.stamp[m] == g:
                self.stamp[m] = g + 1
                untried -= 1
                nd.avail += 1
                sumr += nd.reward
                sumv += nd.visits
            ch = nd.sibling
        fpu = sumr / sumv if sumv > 0 else 1.0 / self.players
        ch = nodes[node].child
        while ch != NO_NODE:
            nd = &nodes[ch]
            m = nd.move
            if 0 <= m < self.ndm and self.stamp[m] == g + 1:
                v = nd.visits
                x = nd.reward / v + self.c * (ph if m == hmove else pother) * sqrt(
                    <double>nd.avail if self.use_avail else parent) / (1.0 + v)
                if x > bestv:
                    bestv = x
                    best = ch
            ch = nd.sibling
        if untried > 0:
            sq = sqrt(parent + 1.0)
            h_untried = self.stamp[hmove] == g
            m = -1
            if h_untried and fpu + self.c * ph * sq >= bestv:
                m = hmove
            elif (untried > 1 or not h_untried) and fpu + self.c * pother * sq > bestv:
                k = rng_below(&self.rng, untried - (1 if h_untried else 0))
                for i in range(n):
                    if self.stamp[self.buf[i]] == g and self.buf[i] != hmove:
                        if k == 0:
                            m = self.buf[i]
                            break
                        k -= 1
            if m >= 0:
                out_move[0] = m
                return self.expand(node, m, player, depth, reserve, expanded)
        expanded[0] = 0
        out_move[0] = nodes[best].move
        return best

    cdef void playout(self, State st, double* r) noexcept nogil:
        """Play ``st`` on to the end (or to the cut-off), writing the rewards."""
        cdef Header* h = header(st)
        cdef int k = 0, n, m
        while not h.terminal:
            if self.cutoff > 0 and k >= self.cutoff:
                st.evaluate_c(r)
                return
            if self.heuristic:
                m = st.heuristic_move_c(&self.rng, self.buf)
            else:
                n = st.legal_moves_c(self.buf)
                m = self.buf[rng_below(&self.rng, n)]
            st.apply_c(m)
            k += 1
        st.returns_c(r)

    cdef void backprop(self, double* r) noexcept nogil:
        cdef Node* nodes = self.arena.nodes
        cdef Node* nd
        cdef int q, i, base
        for q in range(self.ntrees):
            base = q * self.path_cap
            nodes[self.paths[base]].visits += 1
            for i in range(1, self.plen[q]):
                nd = &nodes[self.paths[base + i]]
                nd.visits += 1
                nd.reward += r[nd.player]
        for i in range(self.players):
            self.root_sum[i] += r[i]

    cdef int iterate(self) noexcept nogil:
        return 0

    cdef long long run_c(self, long long max_iters, double deadline,
                         long long node_limit) noexcept nogil:
        cdef long long done = 0
        while max_iters < 0 or done < max_iters:
            if self.stop_flag:
                break
            if node_limit > 0 and self.arena.size >= node_limit:
                break
            if deadline > 0 and (done & 7) == 0 and now_c() >= deadline:
                break
            if not self.iterate():
                break
            done += 1
        self.iterations += done
        return done

    # -- the Python face (the driver in catsearch.search.mcts) -------------------------
    def run(self, long long max_iters, double deadline=0.0, long long node_limit=0):
        """Run iterations without the GIL until ``max_iters`` (-1: no limit), the
        ``deadline`` (a :func:`monotonic` time; 0: none), ``node_limit`` nodes (0: none) or
        :meth:`stop`; return how many ran."""
        cdef long long done
        with nogil:
            done = self.run_c(max_iters, deadline, node_limit)
        return done

    def set_max_depth(self, int max_depth):
        """Expand no node deeper than ``max_depth`` below a root (0: no limit)."""
        if max_depth < 0:
            raise ValueError(f"a depth limit is >= 0 (0: none), not {max_depth}")
        self.max_depth = max_depth

    def run_one(self):
        """One iteration whatever the limits and the stop flag (a search always runs one)."""
        with nogil:
            self.iterate()
        self.iterations += 1

    def has_hidden_moves(self, int playouts=4, int max_moves=2000):
        """Whether some seat sees some move as other than itself (``observe_move_c``), along
        a few random playouts from determinizations of the root (its own fixed generator, so
        the search's generator is untouched): the game then needs MO-ISMCTS."""
        cdef Rng r
        cdef int g, k, n, m, q
        cdef State st = self.scratch
        cdef Header* h = header(st)
        rng_seed(&r, 0x9E3779B97F4A7C15)
        for g in range(playouts):
            copy_state(st, self.root)
            st.determinize_c(self.seat, &r)
            k = 0
            while not h.terminal and k < max_moves:
                n = st.legal_moves_c(self.buf)
                m = self.buf[rng_below(&r, n)]
                for q in range(self.players):
                    if st.observe_move_c(m, q) != m:
                        return True
                st.apply_c(m)
                k += 1
        return False

    def stop(self):
        """Make a running :meth:`run` return after its current iteration (any thread)."""
        self.stop_flag = 1

    @property
    def searching_seat(self) -> int:
        """The seat this core searches for."""
        return self.seat

    @property
    def stopped(self) -> bool:
        return self.stop_flag != 0

    @property
    def total_iterations(self) -> int:
        """Iterations run since the counters were last reset."""
        return self.iterations

    @property
    def nodes(self) -> int:
        """Nodes in the arena."""
        return self.arena.size

    @property
    def depth(self) -> int:
        """The deepest tree depth reached since the counters were last reset."""
        return self.depth_seen

    @property
    def bytes_per_node(self) -> int:
        return sizeof(Node)

    @property
    def memory_bytes(self) -> int:
        """Bytes held by the arena (allocated, used or not)."""
        return self.arena.cap * sizeof(Node)

    def root_value(self) -> list:
        """Summed rewards per seat over the iterations since the last reset."""
        return [self.root_sum[i] for i in range(self.players)]

    def children(self, int tree=0) -> list:
        """``[(key, visits, reward_sum, avail)]`` of the children of a tree's root."""
        cdef int ch = self.arena.nodes[self.roots[tree]].child
        cdef Node nd
        out = []
        while ch != NO_NODE:
            nd = self.arena.nodes[ch]
            out.append((nd.move, nd.visits, nd.reward, nd.avail))
            ch = nd.sibling
        return out

    def root_visits(self, int tree=0) -> int:
        return self.arena.nodes[self.roots[tree]].visits

    def tree_size(self, int tree=0) -> int:
        """Nodes under (and including) a tree's root."""
        cdef int* stack
        cdef int top = 0, n = 0, s, ch
        stack = <int*>malloc(sizeof(int) * (self.arena.size + 1))
        if stack == NULL:
            raise MemoryError()
        stack[top] = self.roots[tree]
        top += 1
        while top > 0:
            top -= 1
            s = stack[top]
            n += 1
            ch = self.arena.nodes[s].child
            while ch != NO_NODE:
                stack[top] = ch
                top += 1
                ch = self.arena.nodes[ch].sibling
        free(stack)
        return n

    # -- tree reuse ----------------------------------------------------------------------
    def follow(self, int tree, key):
        """Move a tree's root to its child keyed by ``key`` (``None``: forget the tree);
        the tree restarts from a fresh root if there is no such child."""
        cdef int r = self.roots[tree]
        cdef int ch = NO_NODE
        if r != NO_NODE and key is not None:
            ch = find_child(&self.arena, r, key)
        self.roots[tree] = ch

    cdef void _compact(self):
        """Copy the live trees into a fresh arena (dropping the rest); a tree whose root was
        forgotten gets a fresh one."""
        cdef Arena fresh
        cdef int q, r
        if not arena_init(&fresh, max(4096, self.arena.size // 2)):
            raise MemoryError("cannot allocate the search tree")
        for q in range(self.ntrees):
            r = self.roots[q]
            if r != NO_NODE:
                r = copy_tree(&self.arena, r, &fresh)
            if r == NO_NODE:
                r = arena_add(&fresh, -1, -1)
            else:
                fresh.nodes[r].player = -1
            self.roots[q] = r
        arena_free(&self.arena)
        self.arena = fresh

    def rebase(self, State view, uint64_t seed):
        """Search from ``view`` next, keeping the trees under their current roots."""
        self.root = view.clone_c()
        self.scratch = view.clone_c()
        rng_seed(&self.rng, seed)
        self._compact()
        self.reset_counters()


cdef class ISMCTSCore(TreeCore):
    """SO-ISMCTS (``mo=False``: one tree keyed by move) or MO-ISMCTS (``mo=True``: one tree
    per seat, keyed by ``observe_move_c(move, seat)``) from one seat's view."""

    def __init__(self, State view, int seat, *, bint mo=False, double c=0.7,
                 bint heuristic=False, int cutoff=0, int max_depth=0, int max_nodes=10_000_000,
                 uint64_t seed=0, double prior=0.0):
        self.mo = mo
        self._setup(view, seat, header(view).players if mo else 1, c, heuristic, cutoff,
                    max_depth, max_nodes, True, seed, prior)

    @property
    def mode(self) -> str:
        return "mo" if self.mo else "so"

    cdef int iterate(self) noexcept nogil:
        return self._iterate(self.scratch)

    cdef int _iterate(self, State st) noexcept nogil:
        cdef Header* h = header(st)
        cdef Arena* a = &self.arena
        cdef int q, p, tp, n, m, ch, c2, key, depth = 0, cap
        cdef bint expanded = 0, ok
        cdef double r[4]
        copy_state(st, self.root)
        st.determinize_c(self.seat, &self.rng)
        cap = self.path_cap
        for q in range(self.ntrees):
            self.paths[q * cap] = self.roots[q]
            self.plen[q] = 1
        while not h.terminal:
            if not self.ensure_path(depth + 2):
                break
            cap = self.path_cap
            p = h.current
            tp = p if self.mo else 0
            n = st.legal_moves_c(self.buf)
            ch = self.select_child(self.paths[tp * cap + depth], n, p, depth + 1,
                                   self.ntrees, self.prior_move(st), &m, &expanded)
            if ch == NO_NODE:
                st.apply_c(m)
                break
            ok = 1
            if self.mo:
                for q in range(self.ntrees):
                    if q == p:
                        continue
                    key = st.observe_move_c(m, q)
                    c2 = find_child(a, self.paths[q * cap + depth], key)
                    if c2 == NO_NODE and a.size < self.max_nodes:
                        c2 = arena_link(a, self.paths[q * cap + depth], key, p)
                    if c2 == NO_NODE:
                        ok = 0
                        continue
                    self.paths[q * cap + depth + 1] = c2
                    self.plen[q] = depth + 2
            self.paths[tp * cap + depth + 1] = ch
            self.plen[tp] = depth + 2
            st.apply_c(m)
            depth += 1
            if expanded or not ok:
                break
        if depth > self.depth_seen:
            self.depth_seen = depth
        self.playout(st, r)
        self.backprop(r)
        return 1
