"""Fit the constants of Cat Earth's evaluation (``evaluate_c`` and ``seat_strengths`` in
``catsearch/games/cat_earth.pyx``) to the outcomes of self-play games.

Per player count (2, 3, 4) it plays two families of seeded games of the heuristic player:
*mixed*, each seat with a share of uniformly random moves drawn per game from 0, 0.1, 0.3 and
1 (a searcher meets weak and strong opponents), and *self-play*, 0.1 for every seat (the
policy of ``benchmarks/evaluation_quality.py``). Every ``--every``-th position of the play
(after setup, before the end) is read from its notation into the quantities the evaluation
reads, per seat: houses, threatened houses (the most that one straight cat move of 1 to 3
squares could push off the board), houses on an edge square, cards in hand; and the game's
progress (the share of the houses that left the board) and whether two seats of 3 or 4 are
left. The model, in numpy, is the evaluation's formula with its constants free::

    s     = max(0.5, houses - EV_THREAT * threatened - EV_EDGE * edge + EV_HAND * hand)
    beta  = EV_BETA0 + EV_BETA1 * progress (+ EV_BETA2 once two seats of 3 or 4 are left)
    p     = s^beta / sum over the seats still in of s^beta

The constants of each player count minimise the log-loss of the final returns on the
training games (Nelder-Mead, started from the constants in the code); the held-out games
(other seeds, as many) report the Brier skill (1 - Brier / Brier of the uniform prediction)
per family, next to the old evaluation (``s^2 / sum s^2``, ``s = houses - 0.5 * threatened``,
at least 0.25) and the constants in the code.

    python benchmarks/fit_cat_earth_evaluation.py --games 300

prints the fitted constants as the table of ``docs/evaluation.rst`` (paste them into
``cat_earth.pyx``); progress goes to stderr. ``--check`` instead compares the model, with the
constants in the code, with the built ``evaluate()`` on the positions of other games (they
agree to rounding). Needs scipy (the ``test`` extra).
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import catsearch

HOUSES_EACH = {2: 10, 3: 7, 4: 6}
NAMES = ("EV_BETA0", "EV_BETA1", "EV_BETA2", "EV_THREAT", "EV_EDGE", "EV_HAND")
#: the constants in ``cat_earth.pyx``, per player count: the starting point of the fit and
#: what ``--check`` compares with the build (EV_BETA2 is unused with 2 players)
CODE = {
    2: (5.05, -4.25, 0.0, 0.256, 0.197, 0.284),
    3: (2.24, -1.72, 1.13, 0.343, 0.0294, 0.339),
    4: (0.699, -0.00478, 0.891, 0.237, 0.212, 0.225),
}
#: the range of each constant: beta stays positive at the start (a house is worth having)
BOUNDS = ((0.0, 20.0), (-20.0, 20.0), (-10.0, 10.0), (-1.0, 3.0), (-1.0, 3.0), (-1.0, 3.0))
MIN_STRENGTH = 0.5
MIXED = (0.0, 0.1, 0.3, 1.0)
SELF_PLAY = 0.1

# the board: a1 = 0, ..., g7 = 48; the notation writes ranks 7 to 1
CONTENT = {".": 0, "0": 1, "1": 2, "2": 3, "3": 4, "T": 5, "C": 6}
TREE, CAT = 5, 6
NEIGH = [[s + 7 if s // 7 < 6 else -1, s + 1 if s % 7 < 6 else -1,
          s - 7 if s // 7 > 0 else -1, s - 1 if s % 7 > 0 else -1] for s in range(49)]
EDGE = [s // 7 in (0, 6) or s % 7 in (0, 6) for s in range(49)]


def board_of(text: str) -> list[int]:
    rows = text.split("/")
    return [CONTENT[rows[6 - s // 7][s % 7]] for s in range(49)]


def threats(board: list[int], n: int) -> list[int]:
    """Per seat, the most of its houses that one straight move of 1 to 3 squares by one cat
    pushes off the board (``threats`` in ``cat_earth.pyx``)."""
    thr = [0] * n
    for cat in range(49):
        if board[cat] != CAT:
            continue
        for d in range(4):
            ray, sq = [], NEIGH[cat][d]
            while sq >= 0:
                ray.append(board[sq])
                sq = NEIGH[sq][d]
            c, cnt = -1, [0] * 5
            for _ in range(3):
                nxt = c + 1
                if nxt >= len(ray) or ray[nxt] >= TREE:
                    break
                if ray[nxt]:
                    z = nxt
                    while z + 1 < len(ray) and 1 <= ray[z + 1] <= 4:
                        z += 1
                    if z + 1 >= len(ray):            # the last house of the line falls off
                        cnt[ray[z]] += 1
                        thr[ray[z] - 1] = max(thr[ray[z] - 1], cnt[ray[z]])
                    elif ray[z + 1] == 0:
                        ray[z + 1] = ray[z]
                    else:
                        break
                    ray[nxt + 1:z + 1] = ray[nxt:z]
                ray[nxt] = CAT
                c = nxt
    return thr


def features(text: str) -> dict:
    """What the evaluation reads of a position in play, per seat, from its notation."""
    fields = dict(kv.split("=", 1) for kv in text.split())
    n = int(fields["players"])
    board = board_of(fields["board"])
    houses, edge = [0] * n, [0] * n
    for sq, v in enumerate(board):
        if 1 <= v <= 4:
            houses[v - 1] += 1
            edge[v - 1] += EDGE[sq]
    hand = [0 if h == "-" else len(h) for h in fields["hands"].split("/")]
    alive = [h > 0 for h in houses]
    return dict(houses=houses, thr=threats(board, n), edge=edge, hand=hand, alive=alive,
                prog=max(0.0, 1 - sum(houses) / (n * HOUSES_EACH[n])),
                two_left=float(n > 2 and sum(alive) == 2))


def play(args: tuple[int, int, bool, int]) -> list[dict]:
    """The kept positions of one game (``players`` seats, seed ``seed``; mixed or
    self-play), each with the game's returns."""
    players, seed, mixed, every = args
    rnd = random.Random(f"fit-cat-earth/{players}/{seed}/{mixed}")
    state = catsearch.new_game("cat-earth", players, seed=rnd.getrandbits(64))
    eps = [rnd.choice(MIXED) if mixed else SELF_PLAY for _ in range(players)]
    rows = []
    k = 0
    while not state.is_terminal():
        text = state.to_text()
        if " phase=house " not in text and " phase=tree " not in text:
            if k % every == 0:
                row = features(text)
                row["evaluate"] = state.evaluate()
                rows.append(row)
            k += 1
        if rnd.random() < eps[state.current_player]:
            move = rnd.choice(state.legal_moves())
        else:
            move = state.heuristic_move(seed=rnd.getrandbits(32))
        state.play(move)
    returns = state.returns()
    for row in rows:
        row["returns"] = returns
    return rows


def stack(rows: list[dict]) -> dict:
    return {k: np.array([r[k] for r in rows], dtype=float) for k in rows[0]}


def predict(theta, data: dict) -> np.ndarray:
    """The evaluation's win chances, vectorised: the same formula as ``evaluate_c``."""
    beta0, beta1, beta2, threat, edge, hand = theta
    s = data["houses"] - threat * data["thr"] - edge * data["edge"] + hand * data["hand"]
    s = np.maximum(s, MIN_STRENGTH)
    beta = beta0 + beta1 * data["prog"] + beta2 * data["two_left"]
    z = np.where(data["alive"] > 0, beta[:, None] * np.log(s), -np.inf)
    z -= z.max(1, keepdims=True)
    chances = np.exp(z)
    return chances / chances.sum(1, keepdims=True)


def predict_old(data: dict) -> np.ndarray:
    """The evaluation before the fit: ``s^2 / sum s^2``, ``s = houses - 0.5 * threatened``
    (at least 0.25), the seats that are out 0."""
    s = np.maximum(data["houses"] - 0.5 * data["thr"], 0.25) ** 2 * (data["alive"] > 0)
    return s / s.sum(1, keepdims=True)


def log_loss(theta, data) -> float:
    chances = predict(theta, data)
    return -np.sum(data["returns"] * np.log(chances + 1e-12)) / len(chances)


def skill(chances, data) -> float:
    n = chances.shape[1]
    brier = np.mean(np.sum((chances - data["returns"]) ** 2, 1))
    uniform = np.mean(np.sum((1 / n - data["returns"]) ** 2, 1))
    return 1 - brier / uniform


def collect(pool, players: int, seeds, every: int, label: str) -> dict:
    """Both families of games on ``seeds``, as arrays (``family``: 1 mixed, 0 self-play)."""
    jobs = [(players, seed, mixed, every) for mixed in (True, False) for seed in seeds]
    rows = []
    for i, game in enumerate(pool.map(play, jobs, chunksize=8)):
        for r in game:
            r["family"] = float(jobs[i][2])
        rows.extend(game)
        if (i + 1) % 50 == 0 or i + 1 == len(jobs):
            print(f"\r  {players}p {label}: game {i + 1}/{len(jobs)}, {len(rows)} positions",
                  end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return stack(rows)


def subset(data: dict, mask) -> dict:
    return {k: v[mask] for k, v in data.items()}


def fmt(x: float) -> str:
    return f"{x:.3g}"


def table(fits: dict) -> str:
    counts = sorted(fits)
    cells = [["constant"] + [f"{p}p" for p in counts]]
    for i, name in enumerate(NAMES):
        cells.append([name] + ["--" if name == "EV_BETA2" and p == 2 else fmt(fits[p][i])
                               for p in counts])
    widths = [max(len(c[j]) for c in cells) for j in range(len(cells[0]))]
    rule = "  ".join("=" * w for w in widths)
    line = lambda c: "  ".join(x.ljust(w) for x, w in zip(c, widths)).rstrip()
    return "\n".join([rule, line(cells[0]), rule, *map(line, cells[1:]), rule])


def check(pool, players_list, games: int, every: int) -> int:
    """The model with the constants in the code against the built ``evaluate()``."""
    worst = 0.0
    for players in players_list:
        data = collect(pool, players, range(900_000, 900_000 + games), every, "check")
        diff = np.abs(predict(CODE[players], data) - data["evaluate"]).max()
        worst = max(worst, diff)
        print(f"{players} players: {len(data['returns'])} positions, "
              f"largest difference {diff:.2e}")
    return 0 if worst < 1e-9 else 1


def main(argv=None) -> int:
    from scipy.optimize import minimize

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300,
                        help="training games per family and player count (as many held out)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), action="append",
                        help="only this player count (repeatable)")
    parser.add_argument("--seed", type=int, default=1, help="the games' seeds start here")
    parser.add_argument("--every", type=int, default=2, help="keep every k-th position")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--check", action="store_true",
                        help="compare the model with the built evaluate() instead of fitting")
    args = parser.parse_args(argv)
    players_list = args.players or (2, 3, 4)
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        if args.check:
            return check(pool, players_list, args.games, args.every)
        data = {}
        for players in players_list:
            first = args.seed + 100_000 * players
            train = collect(pool, players, range(first, first + args.games), args.every,
                            "train")
            test = collect(pool, players, range(first + args.games, first + 2 * args.games),
                           args.every, "held out")
            data[players] = train, test
    fits, report = {}, []
    for players, (train, test) in data.items():
        start = np.array(CODE[players])
        free = [i for i in range(len(NAMES)) if players > 2 or NAMES[i] != "EV_BETA2"]

        def loss(x, train=train, start=start, free=free):
            theta = start.copy()
            theta[free] = x
            return log_loss(theta, train)

        fit = minimize(loss, start[free], method="Nelder-Mead",
                       bounds=[BOUNDS[i] for i in free],
                       options=dict(maxiter=4000, xatol=1e-4, fatol=1e-8))
        theta = start.copy()
        theta[free] = fit.x
        fits[players] = theta
        print(f"  {players}p: log-loss {log_loss(start, train):.5f} (code) -> {fit.fun:.5f} "
              f"(fit), {fit.nfev} evaluations", file=sys.stderr)
        for family, mask in (("mixed", test["family"] == 1), ("self-play", test["family"] == 0)):
            part = subset(test, mask)
            report.append(f"{players} players, {family:9}: held-out skill  "
                          f"old {skill(predict_old(part), part):+.3f}  "
                          f"code {skill(predict(start, part), part):+.3f}  "
                          f"fit {skill(predict(theta, part), part):+.3f}  "
                          f"({len(part['returns'])} positions)")
    print(f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    print(table(fits))
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
