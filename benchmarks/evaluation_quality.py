"""How well each game's ``evaluate()`` predicts the final returns.

``python benchmarks/evaluation_quality.py [--games N] [--game ID] [--seed S] [--players P]``

For every game in ``catsearch.GAMES`` and 2, 3 and 4 players it plays seeded self-play games
of the heuristic player, each move a uniformly random legal move instead with probability
0.1, and at the sampled positions of each game compares ``evaluate()`` (a per-seat win
chance) with the game's final returns. It prints an reST table (the figures of
``docs/evaluation.rst``); progress goes to stderr. The same seed gives the same table.

Columns:

``positions``
    Positions scored (every position of every game, or every ``k``-th in long games;
    terminal positions are left out, as their evaluation is exact).
``Brier``, ``Brier view``
    The Brier score, ``sum over seats (evaluate - returns)^2`` averaged over positions, of
    the full state and of the view of the seat to move (what a searcher sees).
``skill``
    Brier skill against the uniform prediction ``1/n``: ``1 - Brier / Brier(uniform)``;
    positive is better than knowing nothing, 1 is perfect. Overall (full state, and view),
    then for the full state per third of the game (a position's ply over the game's length).
``top wins``
    How often the seat that ``evaluate()`` ranks first (full state) is a winner; when several
    seats tie for first, each takes an equal share of the credit. ``uniform`` is the same
    for a seat chosen at random (the winners' share of the seats).
"""
from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

import catsearch

EPSILON = 0.1                      # share of uniformly random moves in the self-play
# self-play games per game and player count, and every how many plies a position is scored:
# a run of all twelve takes about a minute on one core. Outcomes are noisy: with 10 games
# The Cat's skill in the first third ranges from -0.5 to +0.3 between seeds.
DEFAULT_GAMES = {"herding-cats": 2000, "the-cat": 2000, "cat-cards": 2000, "cat-earth": 2000}
EVERY = {"the-cat": 5}     # coprime to 2, 3 and 4: every seat gets its views scored


def self_play(game: str, players: int, seed: int, index: int, every: int = 1,
              epsilon: float = EPSILON):
    """Play one seeded game; return ``(positions, returns)`` with positions a list of
    ``(ply, evaluate(full state), evaluate(view of the seat to move))`` and the game's length
    in plies as the last ply."""
    rnd = random.Random(f"evaluation-quality/{game}/{players}/{seed}/{index}")
    st = catsearch.new_game(game, players, seed=rnd.getrandbits(64))
    positions = []
    while not st.is_terminal():
        if st.ply % every == 0:
            seat = st.current_player
            positions.append((st.ply, st.evaluate(), st.view(seat).evaluate()))
        if rnd.random() < epsilon:
            move = rnd.choice(st.legal_moves())
        else:
            move = st.heuristic_move(seed=rnd.getrandbits(32))
        st.play(move)
    return positions, st.ply, st.returns()


def collect(game: str, players: int, games: int, seed: int = 1, every: int | None = None,
            progress: bool = False):
    """Arrays over positions: progress in [0, 1), full-state and view evaluations, returns."""
    every = EVERY.get(game, 1) if every is None else every
    prog, full, view, ret = [], [], [], []
    for g in range(games):
        positions, length, returns = self_play(game, players, seed, g, every)
        for ply, e, v in positions:
            prog.append(ply / length)
            full.append(e)
            view.append(v)
            ret.append(returns)
        if progress:
            print(f"\r  {game} {players}p: game {g + 1}/{games}", end="", file=sys.stderr,
                  flush=True)
    if progress:
        print(file=sys.stderr)
    return (np.array(prog), np.array(full).reshape(-1, players),
            np.array(view).reshape(-1, players), np.array(ret).reshape(-1, players))


def brier(pred, ret):
    return float(np.mean(np.sum((pred - ret) ** 2, axis=1))) if len(ret) else float("nan")


def skill(pred, ret):
    uniform = brier(np.full_like(ret, 1.0 / ret.shape[1]), ret)
    return 1.0 - brier(pred, ret) / uniform if uniform > 0 else float("nan")


def top_wins(pred, ret):
    """The mean over positions of the share of evaluate()'s top seats that are winners."""
    top = pred >= pred.max(axis=1, keepdims=True) - 1e-12
    won = ret > 0
    return float(np.mean((top & won).sum(axis=1) / top.sum(axis=1)))


def measure(game: str, players: int, games: int, seed: int = 1, progress: bool = False):
    prog, full, view, ret = collect(game, players, games, seed, progress=progress)
    thirds = [(prog >= lo) & (prog < hi) for lo, hi in ((0, 1 / 3), (1 / 3, 2 / 3), (2 / 3, 1))]
    return dict(game=game, players=players, positions=len(ret), brier=brier(full, ret),
                brier_view=brier(view, ret), skill=skill(full, ret), skill_view=skill(view, ret),
                thirds=[skill(full[s], ret[s]) for s in thirds],
                top_wins=top_wins(full, ret), top_wins_view=top_wins(view, ret),
                uniform_wins=float(np.mean((ret > 0).sum(axis=1) / players)))


COLUMNS = ["game", "players", "positions", "Brier", "Brier view", "skill", "skill view",
           "skill 1/3", "skill 2/3", "skill 3/3", "top wins", "uniform"]


def row(r):
    return [r["game"], str(r["players"]), str(r["positions"]), f"{r['brier']:.4f}",
            f"{r['brier_view']:.4f}", f"{r['skill']:+.3f}", f"{r['skill_view']:+.3f}",
            *(f"{x:+.3f}" for x in r["thirds"]), f"{r['top_wins']:.3f}",
            f"{r['uniform_wins']:.3f}"]


def table(rows) -> str:
    cells = [COLUMNS] + [row(r) for r in rows]
    widths = [max(len(c[i]) for c in cells) for i in range(len(COLUMNS))]
    rule = "  ".join("=" * w for w in widths)
    fmt = lambda c: "  ".join(x.ljust(w) for x, w in zip(c, widths)).rstrip()
    return "\n".join([rule, fmt(cells[0]), rule, *map(fmt, cells[1:]), rule])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, help="self-play games per game and player count "
                    f"(default: {', '.join(f'{g} {n}' for g, n in DEFAULT_GAMES.items())})")
    ap.add_argument("--game", choices=catsearch.GAMES, action="append",
                    help="only this game (repeatable)")
    ap.add_argument("--players", type=int, choices=(2, 3, 4), action="append",
                    help="only this player count (repeatable)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rows = []
    t0 = time.perf_counter()
    for game in args.game or catsearch.GAMES:
        for players in args.players or (2, 3, 4):
            games = args.games or DEFAULT_GAMES.get(game, 40)
            rows.append(measure(game, players, games, args.seed, progress=True))
    print(f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    print(table(rows))


if __name__ == "__main__":
    main()
