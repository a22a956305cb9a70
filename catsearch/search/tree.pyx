# cython: language_level=3
"""The search of the MCTS searchers, in C: the selection policy, playouts, backup, the run loop.

:class:`TreeCore` is one worker's search: a pool of C nodes (``pool.pxd``; laying the
trees out and indexing wide nodes in ``pool.pyx``), a scratch state,
a seeded generator and the buffers of one iteration. Its subclasses walk their trees in
``_iterate``: :class:`catsearch.search.ismcts.ISMCTSCore` (SO- and MO-ISMCTS) and
:class:`catsearch.search.pimc.PIMCCore` (determinized MCTS). Everything else is here, once:

* selection (:meth:`TreeCore.select`; its scoring rules in ``scoring.pxd``): UCB over
  availability counts (ISMCTS) or over the parent's visits (UCT, for PIMC's
  perfect-information trees), or PUCT with the game's heuristic move as the prior and
  first-play urgency for untried moves;
* the statistics of ``select=rm|exp3`` (drawn and backed up by ``ISMCTSCore``);
* expansion under the depth limit and the node budget, playouts (random, heuristic or a mix,
  with an optional cut-off), the max-n backup, and the run loop with its limits;
* tree reuse: moving a root to a child, and compacting the live trees into a fresh node pool.

The Python player that drives the cores (options, limits, threads, processes) is
:class:`catsearch.search.mcts.ISMCTS` / :class:`~catsearch.search.mcts.DeterminizedMCTS`
with :mod:`catsearch.search.driver`.
"""
from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memset

from catsearch._core.rng cimport Rng, rng_seed, rng_below, rng_double
from catsearch._core.state cimport (State, Header, header, MAX_PLAYERS, random_playout, copy_state,
                                    set_heuristic_weights, weights_pointer)
from catsearch.search.pool cimport (Node, IndexEntry, NO_NODE, WIDE, POOL_START, pool_init,
                                     pool_add, pool_use_aux, pool_free, index_free, index_get,
                                     next_indexed,
                                     prefetch, prefetch_children, child_of, link_child,
                                     make_wide, relayout, reindex, copy_tree, next_relayout,
                                     subtree_size, index_agrees)
from catsearch.search.clock cimport now_c
from catsearch.search.scoring cimport (Scoring, UCB_VISITS, UCB_AVAIL, PUCT_VISITS, PUCT_AVAIL,
                                       child_score, puct_untried, rm_strategy,
                                       exp3_strategy)

# -- the policy's constants, in one place (the option declarations take their defaults here)

#: the default exploration constant ``c`` of UCB and PUCT
EXPLORATION = 0.7
#: the default weight of the heuristic's move in PUCT (0: plain UCB)
PRIOR = 0.5
#: the default share of uniform exploration of select=rm|exp3 (TreeCore.set_select)
GAMMA = 0.1
#: the rules of select (TreeCore.set_select)
SELECT_RULES = ("ucb", "rm", "exp3")
#: the default node budget of a tree pool
MAX_NODES = 10_000_000
#: the largest node budget (node indices are C ints)
MAX_NODES_LIMIT = 2**31 - 1024
#: bytes one tree node takes in the node pool (the node pool grows by doubling, so up to twice this
#: per node is reserved at a time)
NODE_BYTES = sizeof(Node)
#: bytes each node takes beside it with select=rm|exp3 (its statistic in the pool's side array)
AUX_BYTES = sizeof(double)


def monotonic() -> float:
    """The clock the search loop reads (``CLOCK_MONOTONIC``, as ``time.perf_counter``)."""
    return now_c()


cdef class TreeCore:
    """The shared machinery of one search worker (see the module docstring)."""

    # (a new core's C fields are zero: its pointers NULL, its node pool empty)

    def __dealloc__(self):
        free(self.buf)
        free(self.stamp)
        free(self.paths)
        free(self.plen)
        free(self.roots)
        free(self.sim)
        free(self.sim_kids)
        free(self.sim_w)
        pool_free(&self.pool)
        index_free(&self.index)

    cdef void _setup(self, State view, int seat, int ntrees, double c, double mix,
                     int cutoff, int max_depth, int max_nodes, bint use_avail, uint64_t seed,
                     double prior, object weights=None):
        cdef int i
        if not 0.0 <= prior <= 1.0:
            raise ValueError(f"prior must be from 0 to 1, not {prior}")
        if not 0.0 <= mix <= 1.0:
            raise ValueError(f"mix (the heuristic's share of playout moves) must be from 0 to 1,"
                             f" not {mix}")
        self.weights = weights
        self.hw = weights_pointer(weights)
        self._set_root(view)
        self.seat = seat
        self.players = header(view).players
        self.ndm = view.num_distinct_moves_c()
        self.ntrees = ntrees
        self.c = c
        self.mix = mix
        self.prior = prior
        self.cutoff = cutoff
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.use_avail = use_avail
        rng_seed(&self.rng, seed)
        self.buf = <int*>malloc(sizeof(int) * (self.ndm + 1))
        self.stamp = <long long*>malloc(sizeof(long long) * (self.ndm + 1))
        self.path_cap = PATH_START
        self.paths = <int*>malloc(sizeof(int) * ntrees * self.path_cap)
        self.plen = <int*>malloc(sizeof(int) * ntrees)
        self.roots = <int*>malloc(sizeof(int) * ntrees)
        if (self.buf == NULL or self.stamp == NULL or self.paths == NULL or self.plen == NULL
                or self.roots == NULL
                or not pool_init(&self.pool, POOL_START)):
            raise MemoryError("cannot allocate the search tree")
        memset(self.stamp, 0, sizeof(long long) * (self.ndm + 1))
        memset(self.plen, 0, sizeof(int) * ntrees)
        self.gen = 0
        for i in range(ntrees):
            self.roots[i] = pool_add(&self.pool, -1, -1)
        self.relayout_at = next_relayout(0)
        self.reset_counters()

    def reset_counters(self):
        """Zero the per-search counters (iterations, root value, depth, stop flag)."""
        cdef int i
        self.iterations = 0
        self.moves = 0
        self.tree_moves = 0
        self.idle = 0
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

    cdef int prior_move(self, State st, int n) noexcept nogil:
        """The game's heuristic move in ``st``, whose ``n`` legal moves are in ``buf``, when
        the search uses it as a prior, else -1: asked at every visit, in that visit's
        determinization (docs/search.rst says what else was tried)."""
        if self.prior > 0.0:
            if n == 1:
                return self.buf[0]      # a forced move: the heuristic's too
            return st.heuristic_move_c(&self.rng, self.buf, n)
        return -1

    cdef int expand(self, int node, int m, int player, int depth, int reserve,
                    bint* expanded) noexcept nogil:
        """A new child of ``node`` for the untried move ``m`` if the depth limit and the node
        budget allow (``expanded`` set), else NO_NODE (``m`` is then played out)."""
        cdef int ch
        if ((self.max_depth == 0 or depth <= self.max_depth)
                and self.pool.size + reserve <= self.max_nodes):
            ch = link_child(&self.pool, &self.index, node, m, player)
            if ch != NO_NODE:
                self.pool.nodes[ch].avail = 1
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

    cdef int draw_untried(self, long long g, int n, int count, int exclude) noexcept nogil:
        """One of the ``count`` legal untried moves (stamped ``g``) other than ``exclude``,
        uniformly, in the order of ``buf``; -1 if there is none."""
        cdef int k = rng_below(&self.rng, count)
        cdef int i, m
        for i in range(n):
            m = self.buf[i]
            if self.stamp[m] == g and m != exclude:
                if k == 0:
                    return m
                k -= 1
        return -1

    cdef int select(self, int node, int n, int player, int depth, int reserve,
                    int hmove, int* out_move, bint* expanded) noexcept nogil:
        """The descent at ``node``, whose legal moves in this determinization are
        ``buf[0:n]``: bump the availability of the legal children and score them by one
        rule of ``scoring.pxd``; then expand an untried legal move (:meth:`untried_move`) or
        take the legal child of best score.

        The rule: without a prior (``hmove`` < 0) UCB, with the heuristic's move ``hmove``
        PUCT, ``P(hmove) = prior + (1 - prior) / n`` and any other legal move
        ``(1 - prior) / n``; each over the child's availability (ISMCTS) or the parent's
        visits (UCT).

        :returns: the child, or NO_NODE to leave the tree (``out_move`` is then the untried
            move to play out).
        """
        cdef Node* nodes = self.pool.nodes
        cdef Node* nd
        cdef long long g
        cdef int m, ch, best = NO_NODE, untried = 0, i = 0, width = 0
        cdef double x, bestv = -1e300, log_parent = 0.0, sumr = 0.0, sumv = 0.0
        cdef double parent = nodes[node].visits
        cdef double p_other = 0.0, p_h = 0.0
        cdef bint wide = nodes[node].wide
        cdef Scoring rule
        g = self.mark_legal(n, &untried)
        if hmove >= 0:
            rule = PUCT_AVAIL if self.use_avail else PUCT_VISITS
            p_other = (1.0 - self.prior) / n
            p_h = self.prior + p_other
        else:
            rule = UCB_AVAIL if self.use_avail else UCB_VISITS
            if rule == UCB_VISITS and parent > 0:
                log_parent = log(parent)
        # the legal children: a narrow node's by its sibling list, a wide one's by looking
        # each legal move up in the index (each taken once: its stamp moves on to g + 1)
        ch = NO_NODE if wide else nodes[node].child
        while True:
            if wide:
                ch = next_indexed(&self.index, node, self.buf, n, self.stamp, g, &i)
            if ch == NO_NODE:
                break
            nd = &nodes[ch]
            if not wide and ch + 8 < self.pool.size:   # siblings lie side by side (relayout):
                prefetch(nd + 8)            # load the ones after next while scoring this one
            m = nd.move
            if 0 <= m < self.ndm and self.stamp[m] == g:
                self.stamp[m] = g + 1
                untried -= 1
                nd.avail += 1
                sumr += nd.reward
                sumv += nd.visits
                x = child_score(rule, nd.reward, nd.visits, nd.avail, parent, log_parent,
                                p_h if m == hmove else p_other, self.c)
                if x > bestv:
                    bestv = x
                    best = ch
            if not wide:
                ch = nd.sibling
                width += 1
        if width > WIDE:
            make_wide(&self.pool, &self.index, node)
        if untried > 0:
            m = self.untried_move(g, n, untried, hmove, bestv, sumr / sumv if sumv > 0
                                  else 1.0 / self.players, parent, p_h, p_other)
            if m >= 0:
                out_move[0] = m
                return self.expand(node, m, player, depth, reserve, expanded)
        expanded[0] = 0
        out_move[0] = nodes[best].move
        prefetch_children(&self.pool, best)
        return best

    cdef void sim_backup(self, double* r) noexcept nogil:
        """select=rm|exp3's backup (:class:`~catsearch.search.ismcts.ISMCTSCore`): nothing
        here, where no move is drawn by those rules."""
        pass

    cdef int untried_move(self, long long g, int n, int untried, int hmove, double bestv,
                          double urgency, double parent, double p_h,
                          double p_other) noexcept nogil:
        """The untried legal move (of the ``untried`` stamped ``g``) to expand at a node
        whose best tried child scores ``bestv``, or -1 to take that child.

        Without a prior (``hmove`` < 0): any untried move comes first, drawn uniformly.
        With one: an untried move scores PUCT with its first-play ``urgency`` (the mean
        reward of its tried siblings, ``1/players`` if none) and the parent's visits plus
        one as its count; it is expanded when it scores best. Untried moves other than
        ``hmove`` share one prior (``p_other``), so one of them is drawn uniformly."""
        cdef bint h_untried
        if hmove < 0:
            return self.draw_untried(g, n, untried, -1)
        h_untried = self.stamp[hmove] == g
        if h_untried and puct_untried(urgency, p_h, parent + 1.0, self.c) >= bestv:
            return hmove
        if ((untried > 1 or not h_untried)
                and puct_untried(urgency, p_other, parent + 1.0, self.c) > bestv):
            return self.draw_untried(g, n, untried - (1 if h_untried else 0), hmove)
        return -1

    cdef void playout(self, State st, double* r) noexcept nogil:
        """Play ``st`` on to the end (or to the cut-off), writing the rewards."""
        cdef Header* h = header(st)
        cdef int k = 0, n, m
        cdef Rng rng
        if self.mix == 0.0 and self.cutoff == 0:
            rng = self.rng          # a local generator: kept in registers across the moves
            random_playout(st, &rng, self.buf)
            self.rng = rng
            st.returns_c(r)
            return
        while not h.terminal:
            if self.cutoff > 0 and k >= self.cutoff:
                st.evaluate_c(r)
                return
            if self.mix >= 1.0:
                m = st.heuristic_move_c(&self.rng, self.buf, 0)
            else:
                n = st.legal_moves_c(self.buf)
                if self.mix > 0.0 and rng_double(&self.rng) < self.mix:
                    m = st.heuristic_move_c(&self.rng, self.buf, n)
                else:
                    m = self.buf[rng_below(&self.rng, n)]
            st.apply_c(m)
            k += 1
        st.returns_c(r)

    cdef void backprop(self, double* r, int ntrees) noexcept nogil:
        """Back the rewards ``r`` up the paths of the first ``ntrees`` trees: each node adds
        the reward of the seat that moved into it (max-n)."""
        cdef Node* nodes = self.pool.nodes
        cdef Node* nd
        cdef int q, i, base
        for q in range(ntrees):
            base = q * self.path_cap
            nodes[self.paths[base]].visits += 1
            for i in range(1, self.plen[q]):
                nd = &nodes[self.paths[base + i]]
                nd.visits += 1
                nd.reward += r[nd.player]
        for i in range(self.players):
            self.root_sum[i] += r[i]
        if self.sim_n > 0:
            self.sim_backup(r)

    cdef int iterate(self) noexcept nogil:
        """One iteration through the scratch state: 1, or 0 to end the run."""
        cdef int ok = self._iterate(self.scratch)
        self.moves += header(self.scratch).ply - header(self.root).ply
        return ok

    cdef int _iterate(self, State st) noexcept nogil:
        """One iteration played through ``st`` (the subclasses walk their trees here)."""
        return 0

    cdef long long run_c(self, long long max_iters, double deadline, long long node_limit,
                         bint stall) noexcept nogil:
        """Iterations until ``max_iters`` (-1: none), the ``deadline`` (0: none), ``node_limit``
        nodes in the node pool (0: none) or the stop flag. With ``stall`` the run also ends when
        the tree stops growing: after as many iterations in a row without a new node as the
        node pool has nodes (at least ``STALL_MIN``): the whole tree is then built, or no budget
        is left to grow it (the depth limit, ``max_nodes``)."""
        cdef long long done = 0
        cdef int size
        while max_iters < 0 or done < max_iters:
            if self.stop_flag:
                break
            if node_limit > 0 and self.pool.size >= node_limit:
                break
            if deadline > 0 and (done & 7) == 0 and now_c() >= deadline:
                break
            if stall and self.idle >= STALL_MIN and self.idle >= self.pool.size:
                break           # the same test as the property stalled
            if self.pool.size >= self.relayout_at:
                relayout(&self.pool, &self.index, self.roots, self.ntrees)
                self.relayout_at = next_relayout(self.pool.size)
            size = self.pool.size
            if not self.iterate():
                break
            done += 1
            if self.pool.size == size:
                self.idle += 1
            else:
                self.idle = 0
        self.iterations += done
        return done

    # -- the Python face (the driver in catsearch.search.driver) -------------------------
    def run(self, long long max_iters, double deadline=0.0, long long node_limit=0,
            bint stall=False):
        """Run iterations without the GIL until ``max_iters`` (-1: no limit), the
        ``deadline`` (a :func:`monotonic` time; 0: none), ``node_limit`` nodes (0: none),
        :meth:`stop`, or (``stall``) the tree no longer growing; return how many ran."""
        cdef long long done
        with nogil:
            done = self.run_c(max_iters, deadline, node_limit, stall)
        return done

    def lay_out(self) -> bool:
        """Lay the trees out again now (``relayout``; the run loop does it as the node pool
        grows): the search goes on exactly as it would have. False when it could not (out of
        memory, or nodes outside the live trees after a root moved without ``rebase``)."""
        cdef int ok
        with nogil:
            ok = relayout(&self.pool, &self.index, self.roots, self.ntrees)
        return ok != 0

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
    def stalled(self) -> bool:
        """Whether the tree has stopped growing (see :meth:`run`'s ``stall``)."""
        return self.idle >= STALL_MIN and self.idle >= self.pool.size

    @property
    def total_iterations(self) -> int:
        """Iterations run since the counters were last reset."""
        return self.iterations

    @property
    def moves_played(self) -> int:
        """Game moves played by the iterations since the counters were last reset (in the
        tree and in the playouts)."""
        return self.moves

    @property
    def tree_moves_played(self) -> int:
        """Of :attr:`moves_played`, the moves chosen in the tree (one a selection step)."""
        return self.tree_moves

    @property
    def wide_nodes(self) -> int:
        """Nodes whose children selection looks up in the index (more than 32 children)."""
        cdef int k, n = 0
        for k in range(self.pool.size):
            n += self.pool.nodes[k].wide
        return n

    def _index_agrees(self) -> bool:
        """Whether every child of every wide node is found in the index, and nothing else
        is (a check for the tests)."""
        return index_agrees(&self.pool, &self.index)

    @property
    def nodes(self) -> int:
        """Nodes in the node pool."""
        return self.pool.size

    @property
    def depth(self) -> int:
        """The deepest tree depth reached since the counters were last reset."""
        return self.depth_seen

    @property
    def bytes_per_node(self) -> int:
        return sizeof(Node) + (sizeof(double) if self.pool.aux != NULL else 0)

    @property
    def memory_bytes(self) -> int:
        """Bytes held by the node pool (allocated, used or not)."""
        return (self.pool.cap * sizeof(Node) + self.index.cap * sizeof(IndexEntry)
                + (self.pool.cap * sizeof(double) if self.pool.aux != NULL else 0))

    def root_value(self) -> list:
        """Summed rewards per seat over the iterations since the last reset."""
        return [self.root_sum[i] for i in range(self.players)]

    def children(self, int tree=0) -> list:
        """``[(key, visits, reward_sum, avail)]`` of the children of a tree's root."""
        cdef int ch = self.pool.nodes[self.roots[tree]].child
        cdef Node nd
        out = []
        while ch != NO_NODE:
            nd = self.pool.nodes[ch]
            out.append((nd.move, nd.visits, nd.reward, nd.avail))
            ch = nd.sibling
        return out

    def root_visits(self, int tree=0) -> int:
        return self.pool.nodes[self.roots[tree]].visits

    def tree_size(self, int tree=0) -> int:
        """Nodes under (and including) a tree's root."""
        return subtree_size(&self.pool, self.roots[tree])

    # -- tree reuse ----------------------------------------------------------------------
    def follow(self, int tree, key):
        """Move a tree's root to its child keyed by ``key`` (``None``: forget the tree);
        the tree restarts from a fresh root if there is no such child."""
        cdef int r = self.roots[tree]
        cdef int ch = NO_NODE
        if r != NO_NODE and key is not None:
            ch = child_of(&self.pool, &self.index, r, key)
        self.roots[tree] = ch

    cdef void _compact(self):
        """Copy the live trees into a fresh node pool (dropping the rest); a tree whose root was
        forgotten gets a fresh one."""
        cdef NodePool fresh
        cdef int q, r
        if not pool_init(&fresh, max(POOL_START, self.pool.size // 2)):
            raise MemoryError("cannot allocate the search tree")
        if self.pool.aux != NULL and not pool_use_aux(&fresh):
            pool_free(&fresh)
            raise MemoryError("cannot allocate the search tree")
        for q in range(self.ntrees):
            r = self.roots[q]
            if r != NO_NODE:
                r = copy_tree(&self.pool, r, &fresh)
            if r == NO_NODE:
                r = pool_add(&fresh, -1, -1)
            else:
                fresh.nodes[r].player = -1
            self.roots[q] = r
        pool_free(&self.pool)
        self.pool = fresh
        reindex(&self.pool, &self.index)
        self.relayout_at = next_relayout(fresh.size)

    cdef _set_root(self, State view):
        """Root and scratch become copies of ``view`` that use the core's heuristic weights
        (and so does every state copied from them)."""
        self.root = view.clone_c()
        self.scratch = view.clone_c()
        set_heuristic_weights(self.root, self.hw)
        set_heuristic_weights(self.scratch, self.hw)
        header(self.root).scratch = 1       # the search's own copies (Header.scratch)
        header(self.scratch).scratch = 1

    cdef void deal(self, State st) noexcept nogil:
        """Deal the world of an iteration into ``st``: a particle of the belief, by weight,
        where the search has one (``inference=policy``), else a determinization of the root
        view (uniform among the worlds the rules allow)."""
        if self.belief is not None:
            self.belief.draw_c(st, &self.rng)
        else:
            copy_state(st, self.root)
            st.determinize_c(self.seat, &self.rng)

    def set_belief(self, Belief belief):
        """Draw each iteration's world from ``belief`` (a :class:`~catsearch.search.particles.
        Belief` of this core's seat that stands for its root view), or, with ``None``, by
        ``determinize`` again."""
        if belief is not None and belief.seat != self.seat:
            raise ValueError(f"a belief of seat {belief.seat} given to a search of seat "
                             f"{self.seat}")
        self.belief = belief

    def rebase(self, State view, uint64_t seed):
        """Search from ``view`` next, keeping the trees under their current roots."""
        self._set_root(view)
        rng_seed(&self.rng, seed)
        self._compact()
        self.reset_counters()
