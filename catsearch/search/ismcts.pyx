# cython: language_level=3
"""Information Set MCTS (Cowling, Powley & Whitehouse 2012) over the state contract, in C.

:class:`ISMCTSCore` runs SO-ISMCTS (one tree over the searching seat's information sets) or
MO-ISMCTS (one tree per seat, each move keyed by what that seat saw of it) on the tree of
:mod:`catsearch.search.tree`. The Python player that drives it (options, limits, threads,
processes, tree reuse) is :class:`catsearch.search.mcts.ISMCTS`.

One iteration: copy the root view into the scratch state, ``determinize_c`` it for the
searching seat, select down the tree(s) with the tree's policy (UCB over availability counts,
or PUCT with the heuristic prior; with ``select=rm|exp3``, regret matching or Exp3 at the
nodes where the mover's move is hidden from the others), expand one node, play out (uniform
random or the game's ``heuristic_move_c``, optionally cut off after some moves with
``evaluate_c``), and back the reward vector up: each node adds the reward of the seat that
moved into it (max-n).
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, realloc

from catsearch._core.rng cimport rng_double
from catsearch._core.state cimport State, Header, header, copy_state
from catsearch.search.pool cimport (Node, NodePool, NO_NODE, child_of, link_child,
                                    next_indexed, pool_use_aux, prefetch_children)
from catsearch.search.scoring cimport rm_strategy, exp3_strategy
from catsearch.search.tree cimport (SIM_UCB, SIM_RM, SimRule, SimStep, PATH_START)

from catsearch.search.tree import EXPLORATION, GAMMA, MAX_NODES, SELECT_RULES


cdef class ISMCTSCore(TreeCore):
    """SO-ISMCTS (``mo=False``: one tree keyed by move) or MO-ISMCTS (``mo=True``: one tree
    per seat, keyed by ``observe_move_c(move, seat)``) from one seat's view."""

    def __init__(self, State view, int seat, *, bint mo=False, double c=EXPLORATION,
                 double mix=0.0, int cutoff=0, int max_depth=0, int max_nodes=MAX_NODES,
                 uint64_t seed=0, double prior=0.0, weights=None):
        self.mo = mo
        self._setup(view, seat, header(view).players if mo else 1, c, mix, cutoff,
                    max_depth, max_nodes, True, seed, prior, weights)

    @property
    def mode(self) -> str:
        return "mo" if self.mo else "so"

    cdef int _iterate(self, State st) noexcept nogil:
        cdef Header* h = header(st)
        cdef NodePool* a = &self.pool
        cdef int q, p, tp, n, m, ch, c2, key, node, depth = 0, cap
        cdef bint expanded = 0, ok
        cdef double r[4]
        # the root's children load while the determinization is dealt (MO: the seat's tree)
        prefetch_children(a, self.roots[self.seat if self.mo else 0])
        self.deal(st)
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
            node = self.paths[tp * cap + depth]
            if self.sim_rule != SIM_UCB and self.move_hidden(st, n, p):
                ch = self.select_hidden(node, n, p, depth + 1, self.ntrees,
                                        self.prior_move(st, n), &m, &expanded)
            else:
                ch = self.select(node, n, p, depth + 1, self.ntrees, self.prior_move(st, n),
                                 &m, &expanded)
            if ch == NO_NODE:
                st.apply_c(m)
                break
            ok = 1
            if self.mo:
                for q in range(self.ntrees):
                    if q == p:
                        continue
                    key = st.observe_move_c(m, q)
                    c2 = child_of(a, &self.index, self.paths[q * cap + depth], key)
                    if c2 == NO_NODE and a.size < self.max_nodes:
                        c2 = link_child(a, &self.index, self.paths[q * cap + depth], key, p)
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
        self.tree_moves += depth
        self.playout(st, r)
        self.backprop(r, self.ntrees)
        return 1

    def set_select(self, str rule, double gamma=GAMMA):
        """Select at the nodes where the mover's move is hidden from the other seats by
        ``rule``: ``ucb`` (as everywhere else: :meth:`select`), ``rm`` (regret matching) or
        ``exp3``, mixed with ``gamma`` (in (0, 1]) of uniform exploration (see
        :meth:`select_hidden`). Set it before the first iteration."""
        cdef int which
        if rule not in SELECT_RULES:
            raise ValueError(f"select is one of {', '.join(SELECT_RULES)}, not {rule!r}")
        if not 0.0 < gamma <= 1.0:
            raise ValueError(f"gamma (select's exploration) must be in (0, 1], not {gamma}")
        which = SELECT_RULES.index(rule)
        self.sim_rule = <SimRule>which
        self.gamma = gamma
        if self.sim_rule == SIM_UCB:
            return
        if self.sim == NULL:
            self.sim_cap = PATH_START
            self.sim_kcap = self.ndm + 1
            self.sim = <SimStep*>malloc(sizeof(SimStep) * self.sim_cap)
            self.sim_kids = <int*>malloc(sizeof(int) * self.sim_kcap)
            self.sim_w = <double*>malloc(sizeof(double) * (self.ndm + 1))
        if (self.sim == NULL or self.sim_kids == NULL or self.sim_w == NULL
                or not pool_use_aux(&self.pool)):
            raise MemoryError("cannot allocate the statistics of select")

    @property
    def select_rule(self) -> str:
        """``ucb``, ``rm`` or ``exp3`` (see :meth:`set_select`)."""
        return SELECT_RULES[<int>self.sim_rule]

    cdef bint move_hidden(self, State st, int n, int player) noexcept nogil:
        """Whether a legal move of ``player`` (``buf[0:n]``) is seen by another seat as other
        than it was (``observe_move_c``): the node is a hidden, simultaneous choice."""
        cdef int i, q, m
        for i in range(n):
            m = self.buf[i]
            for q in range(self.players):
                if q != player and st.observe_move_c(m, q) != m:
                    return 1
        return 0

    cdef int select_hidden(self, int node, int n, int player, int depth, int reserve,
                           int hmove, int* out_move, bint* expanded) noexcept nogil:
        """The descent at a node whose mover's move is hidden, by ``sim_rule``: an untried
        legal move first (the heuristic's move ``hmove`` if untried, else one drawn
        uniformly); else a legal child drawn from the strategy of ``scoring.pxd`` (regret
        matching or Exp3) over the children's statistic in ``pool.aux``, its exploration
        weighted towards ``hmove`` by ``prior`` (``hmove`` < 0: uniform), recorded for
        :meth:`sim_backup`. Availability counts as in :meth:`select`; the children's visits
        are the average strategy."""
        cdef Node* nodes = self.pool.nodes
        cdef long long g
        cdef int m, ch, i = 0, k = 0, untried = 0, start, hidx = -1
        cdef bint wide = nodes[node].wide
        cdef double u
        cdef SimStep* grown
        cdef int* more
        g = self.mark_legal(n, &untried)
        if self.sim_klen + n > self.sim_kcap:
            more = <int*>realloc(self.sim_kids, sizeof(int) * 2 * (self.sim_klen + n))
            if more == NULL:
                return self.select(node, n, player, depth, reserve, hmove, out_move,
                                   expanded)
            self.sim_kids = more
            self.sim_kcap = 2 * (self.sim_klen + n)
        start = self.sim_klen
        ch = NO_NODE if wide else nodes[node].child
        while True:
            if wide:
                ch = next_indexed(&self.index, node, self.buf, n, self.stamp, g, &i)
            if ch == NO_NODE:
                break
            m = nodes[ch].move
            if 0 <= m < self.ndm and self.stamp[m] == g:
                self.stamp[m] = g + 1
                untried -= 1
                nodes[ch].avail += 1
                if m == hmove:
                    hidx = k
                self.sim_kids[start + k] = ch
                self.sim_w[k] = self.pool.aux[ch]
                k += 1
            if not wide:
                ch = nodes[ch].sibling
        if untried > 0:
            m = hmove if hmove >= 0 and self.stamp[hmove] == g else self.draw_untried(
                g, n, untried, -1)
            out_move[0] = m
            return self.expand(node, m, player, depth, reserve, expanded)
        if self.sim_rule == SIM_RM:
            rm_strategy(self.sim_w, k, self.gamma, hidx, self.prior)
        else:
            exp3_strategy(self.sim_w, k, self.gamma, hidx, self.prior)
        u = rng_double(&self.rng)
        i = 0
        while i < k - 1 and u >= self.sim_w[i]:
            u -= self.sim_w[i]
            i += 1
        ch = self.sim_kids[start + i]
        if self.sim_n == self.sim_cap:
            grown = <SimStep*>realloc(self.sim, sizeof(SimStep) * 2 * self.sim_cap)
            if grown == NULL:
                expanded[0] = 0
                out_move[0] = nodes[ch].move
                return ch           # taken, but not backed up by the rule (out of memory)
            self.sim = grown
            self.sim_cap *= 2
        self.sim[self.sim_n].chosen = ch
        self.sim[self.sim_n].seat = player
        self.sim[self.sim_n].start = start
        self.sim[self.sim_n].count = k
        self.sim[self.sim_n].prob = self.sim_w[i]
        self.sim_n += 1
        self.sim_klen = start + k
        expanded[0] = 0
        out_move[0] = nodes[ch].move
        prefetch_children(&self.pool, ch)
        return ch

    cdef void sim_backup(self, double* r) noexcept nogil:
        """Back the rewards ``r`` up into the statistic of the iteration's draws by
        :meth:`select_hidden`, as sampled (outcome-sampling) regret matching and Exp3 do:
        the drawn child's reward ``x`` for its seat, weighed by the inverse of its
        probability, is added to its statistic; regret matching also takes ``x`` (the
        estimated value of the strategy) from every legal child's."""
        cdef double* aux = self.pool.aux
        cdef SimStep* st
        cdef double x
        cdef int j, i
        for j in range(self.sim_n):
            st = &self.sim[j]
            x = r[st.seat]
            if self.sim_rule == SIM_RM:
                for i in range(st.start, st.start + st.count):
                    aux[self.sim_kids[i]] -= x
            aux[st.chosen] += x / st.prob
        self.sim_n = 0
        self.sim_klen = 0
