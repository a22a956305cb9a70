# cython: language_level=3
"""Determinized MCTS (Perfect Information Monte Carlo, PIMC) over the state contract, in C.

The searching seat's view is determinized ``N`` times up front; each determinization is a
perfect-information game and gets its own UCT tree (the policy of :mod:`catsearch.search.tree`
over the parent's visits), all in one node pool. Iterations go round-robin over the trees. The driver
(:class:`catsearch.search.mcts.DeterminizedMCTS`) combines the trees' root statistics by vote
or by averaged value. This is the classic baseline whose *strategy fusion* and *non-locality*
(Long, Sturtevant, Buro & Furtak 2010) ISMCTS is built to avoid.
"""
from libc.stdint cimport uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy

from catsearch._core.rng cimport rng_seed
from catsearch._core.state cimport State, Header, header, copy_state
from catsearch.search.pool cimport NO_NODE, child_of

from catsearch.search.tree import EXPLORATION, MAX_NODES


cdef class PIMCCore(TreeCore):
    """``determinizations`` UCT trees, one per determinization of ``view`` for ``seat``.

    ``dets`` holds the game structs of the determinizations, one after another."""

    def __dealloc__(self):
        free(self.dets)

    def __init__(self, State view, int seat, *, int determinizations=16, double c=EXPLORATION,
                 double mix=0.0, int cutoff=0, int max_depth=0,
                 int max_nodes=MAX_NODES, uint64_t seed=0, double prior=0.0, weights=None,
                 belief=None):
        if determinizations < 1:
            raise ValueError(f"determinizations must be at least 1, not {determinizations}")
        self._setup(view, seat, determinizations, c, mix, cutoff, max_depth, max_nodes,
                    False, seed, prior, weights)
        self.size = view._size
        self.dets = <char*>malloc(self.size * determinizations)
        if self.dets == NULL:
            raise MemoryError("cannot allocate the determinizations")
        self.next_tree = 0
        self.set_belief(belief)
        cdef int t
        for t in range(determinizations):
            self._deal(t)

    cdef void _deal(self, int t):
        """Tree ``t`` gets a fresh determinization of the root view and a fresh root."""
        self.deal(self.scratch)
        memcpy(self.dets + t * self.size, self.scratch._data, self.size)

    @property
    def determinizations(self) -> int:
        return self.ntrees

    cdef int _iterate(self, State st) noexcept nogil:
        cdef Header* h = header(st)
        cdef int t = self.next_tree
        cdef int n, m, ch, depth = 0
        cdef bint expanded = 0
        cdef double r[4]
        self.next_tree = (t + 1) % self.ntrees
        memcpy(st._data, self.dets + t * self.size, self.size)
        self.paths[0] = self.roots[t]
        self.plen[0] = 1
        while not h.terminal:
            if not self.ensure_path(depth + 2):
                break
            n = st.legal_moves_c(self.buf)
            ch = self.select(self.paths[depth], n, h.current, depth + 1, 1,
                             self.prior_move(st, n), &m, &expanded)
            st.apply_c(m)
            if ch == NO_NODE:
                break
            self.paths[depth + 1] = ch
            self.plen[0] = depth + 2
            depth += 1
            if expanded:
                break
        if depth > self.depth_seen:
            self.depth_seen = depth
        self.tree_moves += depth
        self.playout(st, r)
        self.backprop(r, 1)          # this tree's path, kept in the first slot
        return 1

    # -- tree reuse ----------------------------------------------------------------------
    def advance(self, int move):
        """Play the public ``move`` in every determinization and move each tree's root to its
        child; a determinization in which the move is illegal is forgotten (its tree too)."""
        cdef int t, n, i, legal
        cdef Header* h
        for t in range(self.ntrees):
            if self.roots[t] == NO_NODE:
                continue
            memcpy(self.scratch._data, self.dets + t * self.size, self.size)
            h = header(self.scratch)
            legal = 0
            if not h.terminal:
                n = self.scratch.legal_moves_c(self.buf)
                for i in range(n):
                    if self.buf[i] == move:
                        legal = 1
                        break
            if not legal:
                self.roots[t] = NO_NODE
                continue
            self.scratch.apply_c(move)
            memcpy(self.dets + t * self.size, self.scratch._data, self.size)
            self.roots[t] = child_of(&self.pool, &self.index, self.roots[t], move)

    def forget_all(self):
        cdef int t
        for t in range(self.ntrees):
            self.roots[t] = NO_NODE

    def rebase_pimc(self, State view, uint64_t seed):
        """Search from ``view`` next: keep each tree whose determinization (advanced by
        :meth:`advance`) is still consistent with ``view`` (same information-set key for the
        seat), deal fresh determinizations for the others. Returns how many were kept."""
        cdef int t, kept = 0
        cdef uint64_t key = view.compute_hash_c()
        cdef list keep = []
        self._set_root(view)
        rng_seed(&self.rng, seed)
        for t in range(self.ntrees):
            ok = False
            if self.roots[t] != NO_NODE:
                memcpy(self.scratch._data, self.dets + t * self.size, self.size)
                if header(self.scratch).current == self.seat:
                    self.scratch.hide_c(self.seat)
                    ok = self.scratch.compute_hash_c() == key
            if not ok:
                self.roots[t] = NO_NODE
            keep.append(ok)
        self._compact()
        for t in range(self.ntrees):
            if not keep[t]:
                self._deal(t)
            else:
                kept += 1
        self.next_tree = 0
        self.reset_counters()
        return kept
