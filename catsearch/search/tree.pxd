# cython: language_level=3
"""The search shared by ISMCTS (SO and MO) and determinized MCTS (PIMC): the selection policy,
playouts, backup and the run loop (see ``tree.pyx``), over the node pool of ``pool.pxd``.
"""
from libc.stdint cimport uint64_t

from catsearch._core.rng cimport Rng
from catsearch._core.state cimport State
from catsearch.search.pool cimport NodePool, ChildIndex
from catsearch.search.particles cimport Belief

# The search's constants, in one place (the selection policy's own are in tree.pyx:
# EXPLORATION, PRIOR and the first-play urgency of untried_move; its scoring rules in
# scoring.pxd; the memory's in pool.pxd).
cdef enum:
    PATH_START = 64         # path entries per tree at first (doubled as needed)
    STALL_MIN = 1000        # see TreeCore.run_c: the fewest idle iterations that end a search

# select=ucb|rm|exp3 (TreeCore.set_select): the rule at nodes whose mover's move is hidden
cdef enum SimRule:
    SIM_UCB = 0
    SIM_RM = 1
    SIM_EXP3 = 2


ctypedef struct SimStep:
    # one selection by regret matching or Exp3 in the current iteration (its backup)
    int chosen          # the child taken
    int seat            # the seat that chose
    int start           # its legal children: sim_kids[start:start + count]
    int count
    double prob         # the probability the child was drawn with


cdef class TreeCore:
    """One worker's search: its node pool, scratch state, generator and buffers (no Python
    objects are touched inside :meth:`run_c`)."""
    cdef State root            # the seat's view: the information set searched from
    cdef State scratch         # the determinization played through in one iteration
    cdef Belief belief         # None: worlds by determinize_c; else drawn from the belief
    cdef object weights        # the heuristic's weights (GameSpec.weight_vector) or None
    cdef const double* hw      # their doubles, which root and scratch point at (NULL: none)
    cdef int seat
    cdef int players
    cdef int ndm               # num_distinct_moves
    cdef Rng rng
    cdef NodePool pool
    cdef ChildIndex index      # the children of the wide nodes (see ChildIndex)
    cdef int* buf              # legal moves (room for every move + 1)
    cdef long long* stamp      # per move: a generation mark used while selecting
    cdef long long gen
    cdef int* paths            # ntrees x path_cap node indices of the current iteration
    cdef int* plen             # per tree, how many entries of its path are used
    cdef int path_cap
    cdef int ntrees
    cdef int* roots            # per tree, its root node
    # options
    cdef double c
    cdef double mix            # the share of playout moves the heuristic picks (0: random)
    cdef double prior          # > 0: PUCT with the heuristic move as the prior (its weight)
    cdef int cutoff
    cdef int max_depth         # tree depth limit (0: none)
    cdef int max_nodes         # node pool budget: no expansion beyond it
    cdef bint use_avail        # UCB over availability (ISMCTS) or parent visits (UCT)
    cdef SimRule sim_rule      # the rule at hidden-move nodes (SIM_UCB: select's UCB/PUCT)
    cdef double gamma          # its share of uniform exploration
    cdef SimStep* sim          # the iteration's selections by that rule (sim_n of sim_cap)
    cdef int sim_n
    cdef int sim_cap
    cdef int* sim_kids         # their legal children (sim_klen of sim_kcap)
    cdef int sim_klen
    cdef int sim_kcap
    cdef double* sim_w         # scratch: a strategy over one node's legal children
    # state of the search
    cdef int stop_flag
    cdef long long iterations
    cdef long long idle        # iterations in a row that added no node
    cdef long long moves       # game moves played by the iterations (tree and playouts)
    cdef long long tree_moves  # of them, the moves chosen in the tree (a selection each)
    cdef double root_sum[4]
    cdef int depth_seen
    cdef int relayout_at       # the pool size at which run_c next lays the trees out again

    cdef void _setup(self, State view, int seat, int ntrees, double c, double mix,
                     int cutoff, int max_depth, int max_nodes, bint use_avail, uint64_t seed,
                     double prior, object weights=*)
    cdef _set_root(self, State view)
    cdef void deal(self, State st) noexcept nogil
    cdef void _compact(self)
    cdef int ensure_path(self, int depth) noexcept nogil
    cdef int prior_move(self, State st, int n) noexcept nogil
    cdef long long mark_legal(self, int n, int* untried) noexcept nogil
    cdef int draw_untried(self, long long g, int n, int count, int exclude) noexcept nogil
    cdef int select(self, int node, int n, int player, int depth, int reserve,
                    int hmove, int* out_move, bint* expanded) noexcept nogil
    cdef void sim_backup(self, double* r) noexcept nogil
    cdef int untried_move(self, long long g, int n, int untried, int hmove, double bestv,
                          double urgency, double parent, double p_h,
                          double p_other) noexcept nogil
    cdef int expand(self, int node, int m, int player, int depth, int reserve,
                    bint* expanded) noexcept nogil
    cdef void playout(self, State st, double* r) noexcept nogil
    cdef void backprop(self, double* r, int ntrees) noexcept nogil
    cdef int iterate(self) noexcept nogil
    cdef int _iterate(self, State st) noexcept nogil
    cdef long long run_c(self, long long max_iters, double deadline, long long node_limit,
                         bint stall) noexcept nogil
