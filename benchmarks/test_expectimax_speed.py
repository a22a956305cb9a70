"""Expectimax speed: nodes per second per game, and the nodes Star1 and Star2 save.

Run with pytest-benchmark::

    python -m pytest benchmarks/test_expectimax_speed.py --benchmark-enable

or as a script, which prints the report tables (the figures in ``benchmarks/expectimax.md``)::

    python benchmarks/test_expectimax_speed.py

Positions: 16 non-terminal positions spread evenly over 4 random games per game and player
count (seed 2024), the same for every configuration. Node counts are deterministic; times
depend on the machine.
"""
from __future__ import annotations

import sys
import time

import pytest

import catsearch
from catsearch.search import Expectimax
from catsearch.testing import random_game_states

SPEED_DEPTH = 3
PRUNE_DEPTHS = (2, 3)
#: The Cat one ply shallower: every other seat's hidden choice in a tick is a chance node
#: of up to 22 outcomes (no depth), so its depth 3 costs millions of nodes a position
SHALLOWER = {"the-cat": 1}


def depth_for(game_id: str, depth: int) -> int:
    return depth - SHALLOWER.get(game_id, 0)
PRUNINGS = ("none", "star1", "star2")


def positions(game_id: str, players: int, games: int = 4, count: int = 16) -> list:
    """``count`` non-terminal positions spread evenly over ``games`` random games."""
    states = [st.clone() for st, move in random_game_states(game_id, players, games, seed=2024)
              if move is not None]
    return [states[i * len(states) // count] for i in range(count)]


def run(states, **options) -> tuple[int, float]:
    """Search every state once; return (nodes, seconds)."""
    nodes, seconds = 0, 0.0
    for st in states:
        t0 = time.perf_counter()
        r = Expectimax(**options).search(st)
        seconds += time.perf_counter() - t0
        nodes += r.nodes
    return nodes, seconds


SPEED_CASES = [(g, p) for g in catsearch.GAMES for p in (2, 3)]


@pytest.mark.parametrize("game_id,players", SPEED_CASES,
                         ids=[f"{g}-{p}p" for g, p in SPEED_CASES])
def test_nodes_per_second(benchmark, game_id, players):
    states = positions(game_id, players)
    result = benchmark.pedantic(run, args=(states,),
                                kwargs=dict(depth=depth_for(game_id, SPEED_DEPTH)),
                                rounds=3, iterations=1)
    nodes, seconds = result
    benchmark.extra_info.update(nodes=nodes, positions=len(states),
                                nodes_per_second=nodes / seconds)
    assert nodes > len(states)


PRUNE_CASES = [(g, p, depth_for(g, d)) for g in catsearch.GAMES for p in (2, 3)
               for d in PRUNE_DEPTHS]


@pytest.mark.parametrize("game_id,players,depth", PRUNE_CASES,
                         ids=[f"{g}-{p}p-d{d}" for g, p, d in PRUNE_CASES])
def test_pruning_saves_nodes(benchmark, game_id, players, depth):
    """Nodes at a fixed depth without pruning, with Star1 and with Star2 (2 players:
    *-minimax; 3 players: paranoid)."""
    states = positions(game_id, players)
    mode = "auto" if players == 2 else "paranoid"
    counts = {p: run(states, depth=depth, mode=mode, pruning=p)[0] for p in PRUNINGS}
    benchmark.extra_info.update(counts)
    benchmark.pedantic(run, args=(states,), kwargs=dict(depth=depth, mode=mode),
                       rounds=1, iterations=1)
    assert counts["star1"] <= counts["none"]


def report(out=sys.stdout) -> None:
    """Print the two tables of the report."""
    print(f"Nodes per second, depth {SPEED_DEPTH} (The Cat {depth_for('the-cat', SPEED_DEPTH)}), "
          f"default options (2 players *-minimax with Star2, 3 players max-n):", file=out)
    print("| game | players | positions | nodes | seconds | nodes/s |", file=out)
    print("|---|---|---|---|---|---|", file=out)
    for game_id, players in SPEED_CASES:
        states = positions(game_id, players)
        nodes, seconds = run(states, depth=depth_for(game_id, SPEED_DEPTH))
        print(f"| {game_id} | {players} | {len(states)} | {nodes} | {seconds:.2f} | "
              f"{nodes / seconds:,.0f} |", file=out)
    print(file=out)
    print("Nodes at a fixed depth, by pruning (2 players *-minimax, 3 players paranoid):",
          file=out)
    print("| game | players | depth | none | star1 | star2 | star1 saves | star2 saves |",
          file=out)
    print("|---|---|---|---|---|---|---|---|", file=out)
    for game_id, players, depth in PRUNE_CASES:
        states = positions(game_id, players)
        mode = "auto" if players == 2 else "paranoid"
        c = {p: run(states, depth=depth, mode=mode, pruning=p)[0] for p in PRUNINGS}
        print(f"| {game_id} | {players} | {depth} | {c['none']} | {c['star1']} | {c['star2']} "
              f"| {1 - c['star1'] / c['none']:.0%} | {1 - c['star2'] / c['none']:.0%} |",
              file=out)


if __name__ == "__main__":
    report()
