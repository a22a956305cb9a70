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

from catsearch._core.state cimport State, Header, header, copy_state
from catsearch.search.pool cimport NodePool, NO_NODE, child_of, link_child, prefetch_children
from catsearch.search.tree cimport SIM_UCB

from catsearch.search.tree import EXPLORATION, MAX_NODES


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
