# cython: language_level=3
"""The selection policy's scoring rules, in C and inline: what a child of a tree node scores
(``TreeCore.select`` in ``tree.pyx`` descends by them; no Python objects).

Every rule scores a child by its mean reward ``Q = reward / N`` (for the seat that moves into
it; ``N`` its visits) plus an exploration term over a count ``A``: the child's availability
(how often it was legal when its parent was visited: ISMCTS, where a move is not legal in
every determinization) or the parent's visits (UCT, in PIMC's perfect-information trees).

* UCB (Kocsis & Szepesvari 2006): ``Q + c sqrt(ln(A) / N)``.
* PUCT (Rosin 2011; Silver et al. 2016), with a prior ``P`` on the move:
  ``Q + c P sqrt(A) / (1 + N)``; a move not tried yet scores its first-play urgency ``q``
  plus ``c P sqrt(A)`` (``N = 0``).

At nodes where the mover's move is hidden from the others (``select=rm|exp3``,
``TreeCore.select_hidden``) a child is not scored but drawn from a strategy over the ``K``
legal children, mixed with ``gamma`` of exploration (Lisy, Kovarik, Lanctot & Bosansky 2013;
Tak, Lanctot & Winands 2014; uniform, or weighted towards the heuristic's move as PUCT's
prior is where the search has one), from each child's one statistic ``s``:

* regret matching (Hart & Mas-Colell 2000): ``s`` is the child's cumulative regret;
  ``(1 - gamma) max(s, 0) / sum max(s', 0) + gamma / K`` (the exploration distribution
  where no regret is positive);
* Exp3 (Auer et al. 2002): ``s`` is the child's summed importance-weighted reward;
  ``(1 - gamma) exp(eta s) / sum exp(eta s') + gamma / K``, ``eta = gamma / K``.
"""
from libc.math cimport log, sqrt, exp

# which rule a descent scores by (TreeCore.select picks one per node from its options and
# whether the node has a prior move)
cdef enum Scoring:
    UCB_VISITS = 0      # UCB over the parent's visits (UCT)
    UCB_AVAIL = 1       # UCB over the child's availability (ISMCTS)
    PUCT_VISITS = 2     # PUCT over the parent's visits
    PUCT_AVAIL = 3      # PUCT over the child's availability


cdef inline double ucb(double reward, double visits, double log_count, double c) noexcept nogil:
    """UCB of a child of ``visits`` > 0 visits and summed ``reward``, ``log_count`` being
    ``ln(A)``."""
    return reward / visits + c * sqrt(log_count / visits)


cdef inline double puct(double reward, double visits, double prior, double count,
                        double c) noexcept nogil:
    """PUCT of a child of ``visits`` > 0 visits and summed ``reward``, its move's prior
    ``prior``, ``count`` being ``A``."""
    return reward / visits + c * prior * sqrt(count) / (1.0 + visits)


cdef inline double puct_untried(double urgency, double prior, double count,
                                double c) noexcept nogil:
    """PUCT of a move not tried yet: its first-play ``urgency`` in place of ``Q``."""
    return urgency + c * prior * sqrt(count)


cdef inline double child_score(Scoring rule, double reward, double visits, double avail,
                               double parent, double log_parent, double prior,
                               double c) noexcept nogil:
    """A child's score by ``rule``: ``avail`` its availability, ``parent`` its parent's
    visits and ``log_parent`` their log (computed once per node), ``prior`` its move's prior
    (PUCT only)."""
    if rule == PUCT_AVAIL:
        return puct(reward, visits, prior, avail, c)
    if rule == PUCT_VISITS:
        return puct(reward, visits, prior, parent, c)
    if rule == UCB_AVAIL:
        return ucb(reward, visits, log(avail), c)
    return ucb(reward, visits, log_parent, c)


cdef inline double explore_share(int i, int k, int hidx, double prior) noexcept nogil:
    """The exploration distribution over ``k`` children: uniform, or with the heuristic's
    move (child ``hidx`` >= 0) weighted as PUCT weighs it: ``prior + (1 - prior) / k``, the
    others ``(1 - prior) / k``."""
    if hidx < 0:
        return 1.0 / k
    return (1.0 - prior) / k + (prior if i == hidx else 0.0)


cdef inline void rm_strategy(double* s, int k, double gamma, int hidx,
                             double prior) noexcept nogil:
    """Regret matching: the ``k`` cumulative regrets ``s`` become the strategy, in place,
    mixed with ``gamma`` of the exploration distribution (:func:`explore_share`; all of it
    where no regret is positive)."""
    cdef double total = 0.0
    cdef int i
    for i in range(k):
        if s[i] > 0.0:
            total += s[i]
    for i in range(k):
        if total > 0.0:
            s[i] = ((1.0 - gamma) * (s[i] / total if s[i] > 0.0 else 0.0)
                    + gamma * explore_share(i, k, hidx, prior))
        else:
            s[i] = explore_share(i, k, hidx, prior)


cdef inline void exp3_strategy(double* s, int k, double gamma, int hidx,
                               double prior) noexcept nogil:
    """Exp3: the ``k`` summed importance-weighted rewards ``s`` become the strategy, in
    place, mixed with ``gamma`` of the exploration distribution (exponents taken from the
    largest, so that none overflows)."""
    cdef double top = s[0], total = 0.0, eta = gamma / k
    cdef int i
    for i in range(1, k):
        if s[i] > top:
            top = s[i]
    for i in range(k):
        s[i] = exp(eta * (s[i] - top))
        total += s[i]
    for i in range(k):
        s[i] = (1.0 - gamma) * s[i] / total + gamma * explore_share(i, k, hidx, prior)
