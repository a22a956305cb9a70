"""What the MCTS searchers answer: merging the workers' root statistics and picking the move.

A worker reports a *snapshot* (:func:`snapshot`): the root children of its tree(s), its summed
root value, iterations, nodes and depth. :func:`merge` turns the snapshots of all workers into
a :class:`~catsearch.search.players.SearchResult`, with the move chosen by the searcher's
``decide`` (:func:`decide_summed` for ISMCTS, :func:`decide_voted` for PIMC), both built on
the ``final`` rule of :func:`pick`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

from catsearch.search.players import MoveStats, SearchResult

__all__ = ["pick", "split", "snapshot", "merge", "decide_summed", "decide_voted",
           "sample_by_visits", "average_strategy", "decide_drawn"]

#: move -> (visits, reward sum)
Stats = dict[int, tuple[int, float]]
#: (trees, legal moves) -> (move, the summed stats of every legal move)
Decide = Callable[[list[list[tuple]], list[int]], tuple[int, Stats]]


def pick(stats: Stats, final: str) -> int:
    """The move of ``stats`` (move -> (visits, reward sum)) by the ``final`` rule.

    ``visits``: most visits, then best mean, then the lowest move. ``mean``: best mean among
    the moves visited at least a tenth as often as the most visited one (a move tried once
    cannot win by luck), then most visits, then the lowest move.
    """
    def mean(m):
        v, r = stats[m]
        return r / v if v else -1.0

    if final == "visits":
        return min(stats, key=lambda m: (-stats[m][0], -mean(m), m))
    top = max(v for v, _ in stats.values())
    pool = [m for m in stats if stats[m][0] >= max(1, top / 10)] or list(stats)
    return min(pool, key=lambda m: (-mean(m), -stats[m][0], m))


def sample_by_visits(result: SearchResult, temperature: float, rng) -> int:
    """The final move drawn from a search's root visits with a ``temperature``: each move
    with probability proportional to ``visits ** (1 / temperature)`` (1: as often as the
    search tried it; towards 0: ever more surely the most tried; 0: ``result.move``, no
    draw). A softer choice, as a weaker player's: a move the search found bad is rarely
    drawn, since it was rarely tried. ``rng``: a ``random.Random``.

    :raises ValueError: a negative temperature.
    """
    if not temperature >= 0:
        raise ValueError(f"temperature must be >= 0, not {temperature!r}")
    visited = [(m, s.visits) for m, s in sorted(result.stats.items()) if s.visits > 0]
    if temperature == 0 or len(visited) < 2:
        return result.move
    top = max(v for _, v in visited)
    weights = [(v / top) ** (1.0 / temperature) for _, v in visited]
    return rng.choices([m for m, _ in visited], weights=weights)[0]


def split(total: int, parts: int) -> list[int]:
    """``total`` (``-1``: unlimited) shared as evenly as possible among ``parts``."""
    if total < 0:
        return [-1] * parts
    base, extra = divmod(total, parts)
    return [base + (1 if i < extra else 0) for i in range(parts)]


def snapshot(core, trees: list[list[tuple]]) -> dict:
    """One worker's report: its root ``trees`` (``[(move, visits, reward, avail)]`` each),
    summed root value, iterations, nodes and depth."""
    return {"trees": trees, "value": core.root_value(), "iterations": core.total_iterations,
            "nodes": core.nodes, "depth": core.depth}


def _summed(trees: Iterable[list[tuple]], legal: list[int],
            keep: Callable[[int], bool] = lambda v: True) -> dict[int, list]:
    total: dict[int, list] = {m: [0, 0.0] for m in legal}
    for tree in trees:
        for m, v, r, _avail in tree:
            if m in total and keep(v):
                total[m][0] += v
                total[m][1] += r
    return total


def _visited(stats: Stats) -> Stats:
    return {m: s for m, s in stats.items() if s[0] > 0} or stats


def decide_summed(final: str) -> Decide:
    """ISMCTS: the trees' root statistics summed (over workers), then the ``final`` rule."""
    def decide(trees, legal):
        stats = {m: (v, r) for m, (v, r) in _summed(trees, legal).items()}
        return pick(_visited(stats), final), stats
    return decide


def average_strategy(visits: dict[int, int], gamma: float = 0.0) -> dict[int, float]:
    """The average strategy of a node searched by regret matching or Exp3 (``select=rm|exp3``):
    its children's visit frequencies (the empirical frequencies, which converge to an
    equilibrium where the strategies drawn from do: Lisy et al. 2013), less the ``gamma``
    share of uniform exploration they were drawn with (each child's ``gamma N / K`` of the
    ``N`` visits over ``K`` children), as Lisy et al. remove the exploration samples. With
    ``gamma=0``: the plain visit frequencies (also UCB's, for comparison)."""
    total = sum(visits.values())
    if total <= 0:
        return {m: 1.0 / len(visits) for m in visits} if visits else {}
    floor = gamma * total / len(visits)
    kept = {m: max(0.0, v - floor) for m, v in visits.items()}
    mass = sum(kept.values())
    if mass <= 0:
        return {m: v / total for m, v in visits.items()}
    return {m: v / mass for m, v in kept.items()}


def decide_drawn(gamma: float, seed: int) -> Decide:
    """ISMCTS with ``select=rm|exp3`` at a root whose move the other seats do not see: the
    move drawn from the root's :func:`average_strategy` (summed over workers) with a
    generator seeded by ``seed`` (the search's: the same search draws the same move)."""
    def decide(trees, legal):
        stats = {m: (v, r) for m, (v, r) in _summed(trees, legal).items()}
        visited = _visited(stats)
        strategy = average_strategy({m: v for m, (v, _r) in visited.items()}, gamma)
        moves = sorted(strategy)
        return random.Random(seed).choices(moves, [strategy[m] for m in moves])[0], stats
    return decide


def decide_voted(final: str, combine: str) -> Decide:
    """PIMC: ``vote`` (each tree votes for its move by the ``final`` rule; most votes wins,
    ties by total visits) or ``average`` (the summed statistics, then the ``final`` rule)."""
    def decide(trees, legal):
        votes = {m: 0 for m in legal}
        for tree in trees:
            mine = {m: (v, r) for m, v, r, _a in tree if m in votes and v > 0}
            if mine:
                votes[pick(mine, final)] += 1
        stats = {m: (v, r) for m, (v, r) in _summed(trees, legal, lambda v: v > 0).items()}
        visited = _visited(stats)
        if combine == "average":
            return pick(visited, final), stats
        return min(visited, key=lambda m: (-votes[m], -stats[m][0], m)), stats
    return decide


def merge(snaps: list[dict], legal: list[int], players: int, seconds: float,
          decide: Decide) -> SearchResult:
    """The :class:`SearchResult` of the workers' snapshots ``snaps``."""
    trees = [t for snap in snaps for t in snap["trees"]]
    move, stats = decide(trees, legal)
    iterations = sum(snap["iterations"] for snap in snaps)
    value = [0.0] * players
    for snap in snaps:
        for p in range(players):
            value[p] += snap["value"][p]
    value = [v / iterations if iterations else 1.0 / players for v in value]
    return SearchResult(
        move=move, value=tuple(value),
        stats={m: MoveStats(visits=v, mean=r / v if v else 0.0)
               for m, (v, r) in sorted(stats.items())},
        iterations=iterations, seconds=seconds,
        nodes=sum(snap["nodes"] for snap in snaps),
        depth=max((snap["depth"] for snap in snaps), default=0))
