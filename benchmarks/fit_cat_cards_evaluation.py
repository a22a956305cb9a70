"""Fit the constants of Cat Cards' evaluation (``expected_scores`` in
``catsearch/games/cat_cards.pyx``) to the outcomes of self-play games.

Games are played between seats that each follow the heuristic player with a fixed chance of a
random move instead (0, 0.1, 0.3 or 1, drawn per seat), 2 to 4 players. Every position is
recorded with its features and the game's final returns; the constants are those that
minimise the log-loss of the predicted win chances on the games of odd seeds, and the Brier
skill (1 - Brier / Brier of the uniform prediction) is reported on the games of even seeds.

    python benchmarks/fit_cat_cards_evaluation.py --games 200

prints the fitted constants (paste them into ``cat_cards.pyx``) and the held-out skill per
player count. Needs scipy (the ``test`` extra).
"""
from __future__ import annotations

import argparse
import random
import sys
from concurrent.futures import ProcessPoolExecutor

import numpy as np

import catsearch

LETTERS = "0123456789abcdeSPML?"
POST = 16
NAMES = ("EV_HAND_TOY", "EV_SOFT0", "EV_SOFT1", "EV_HAND_CAT", "EV_TEMP0", "EV_TEMP1")
START = (0.5, 1.0, 0.3, 0.5, 10.0, 10.0)
#: the range of each constant: a majority's curve keeps a width at the end, the softmax a
#: temperature of at least one point
BOUNDS = ((0.0, 5.0), (0.05, 10.0), (0.05, 5.0), (0.0, 3.0), (1.0, 50.0), (1.0, 50.0))


def card_values(text: str) -> list[int]:
    """Point value per card type from a notation's ``values=`` field."""
    fields = dict(kv.split("=", 1) for kv in text.split())
    one, two, three, sphynx, siamese = (int(v) for v in fields["values"].split(","))
    vals = []
    for t in range(19):
        if t == 0:
            vals.append(sphynx)
        elif t == 15:
            vals.append(siamese)
        elif t >= POST:
            vals.append(0)
        else:
            vals.append((one, two, three)[bin(t).count("1") - 1])
    return vals


def features(text: str) -> dict:
    """What the evaluation reads of a full state, per seat, from its notation."""
    fields = dict(kv.split("=", 1) for kv in text.split())
    vals = card_values(text)
    n = int(fields["players"])
    sets = [[] if s == "-" else s.split(",") for s in fields["sets"].split("/")]
    deck = 0 if fields["deck"] == "-" else len(fields["deck"])
    prog = max([(120 - deck) / 120] + [len(s) / 5 for s in sets]
               + ([1.0] if fields["step"] == "final" else []))
    set_toys, hand_toys = np.zeros((n, 3)), np.zeros((n, 3))
    points, hand_value = np.zeros(n), np.zeros(n)
    for p, hand in enumerate(fields["hands"].split("/")):
        for s in sets[p]:
            for ch in s:
                t = LETTERS.index(ch)
                if t >= POST:
                    set_toys[p, t - POST] += 1
                else:
                    points[p] += vals[t]
        for ch in hand.replace(":", "").replace("-", ""):
            t = LETTERS.index(ch)
            if t >= POST:
                hand_toys[p, t - POST] += 1
            else:
                hand_value[p] += vals[t]
    return dict(prog=min(prog, 1.0), set_toys=set_toys, hand_toys=hand_toys, points=points,
                hand_value=hand_value)


def play(args: tuple[int, int]) -> list[dict]:
    """The positions of one self-play game (seed ``seed``, ``players`` seats) with its
    returns."""
    players, seed = args
    rnd = random.Random(seed)
    state = catsearch.new_game("cat-cards", players=players, seed=seed)
    eps = [rnd.choice((0.0, 0.1, 0.3, 1.0)) for _ in range(players)]
    rows = []
    while not state.is_terminal():
        rows.append(features(state.to_text()))
        if rnd.random() < eps[state.current_player]:
            move = rnd.choice(state.legal_moves())
        else:
            move = state.heuristic_move(seed=rnd.getrandbits(32))
        state.play(move)
    returns = np.array(state.returns())
    for row in rows:
        row["returns"] = returns
        row["seed"] = seed
    return rows


def stack(rows: list[dict]) -> dict:
    return {k: np.array([r[k] for r in rows]) for k in rows[0]}


def predict(theta, data: dict) -> np.ndarray:
    """The evaluation's win chances, vectorised: the same formula as ``expected_scores``."""
    hand_toy, soft0, soft1, hand_cat, temp0, temp1 = theta
    prog = data["prog"][:, None]
    held = data["hand_toys"]
    est = data["points"] + data["hand_value"] * (hand_cat * (1 - prog) - prog)
    est = est - 2 * prog * held.sum(2)
    eff = data["set_toys"] + hand_toy * (1 - prog)[:, :, None] * held
    soft = (soft0 * (1 - prog) + soft1)[:, :, None]
    n = eff.shape[1]
    for p in range(n):
        other = np.delete(eff, p, axis=1).max(1)
        lead = np.clip((eff[:, p] - other - 0.5) / soft[:, 0], -30, 30)
        est[:, p] += (15 / (1 + np.exp(-lead))).sum(1)
    temp = temp0 * (1 - prog) + temp1 * prog
    z = est / temp
    z -= z.max(1, keepdims=True)
    chances = np.exp(z)
    return chances / chances.sum(1, keepdims=True)


def log_loss(theta, datasets) -> float:
    total = count = 0
    for data in datasets:
        chances = predict(theta, data)
        total -= np.sum(data["returns"] * np.log(chances + 1e-12))
        count += len(chances)
    return total / count


def main(argv=None) -> int:
    from scipy.optimize import minimize

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per player count")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    train, test = [], []
    with ProcessPoolExecutor(args.jobs) as pool:
        for players in (2, 3, 4):
            jobs = [(players, 1000 * players + g) for g in range(args.games)]
            rows = [r for game in pool.map(play, jobs) for r in game]
            print(f"{players} players: {len(rows)} positions", file=sys.stderr)
            train.append(stack([r for r in rows if r["seed"] % 2]))
            test.append(stack([r for r in rows if not r["seed"] % 2]))
    fit = minimize(log_loss, START, args=(train,), method="Nelder-Mead", bounds=BOUNDS,
                   options=dict(maxiter=4000, xatol=1e-3, fatol=1e-7))
    fit.x = np.round(fit.x, 2)
    for name, value in zip(NAMES, fit.x):
        print(f"{name} = {value:.2f}")
    for players, data in zip((2, 3, 4), test):
        brier = np.mean((predict(fit.x, data) - data["returns"]) ** 2)
        uniform = np.mean((1 / players - data["returns"]) ** 2)
        print(f"{players} players: held-out Brier {brier:.4f}, uniform {uniform:.4f}, "
              f"skill {1 - brier / uniform:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
