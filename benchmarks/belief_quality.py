"""How much a belief learns of the opponent's hand (docs/search.rst, "Policy inference").

    python benchmarks/belief_quality.py --games 20 --temperatures 0.05,1 --particles 256

Heuristic games of Herding Cats, 2 players: seat 1 plays the heuristic, so the belief's
model (the heuristic as a softmax) is seat 1's real policy up to its tie-breaks. Seat 0's
belief (:class:`catsearch.search.particles.Belief`) follows every move; at each of seat 0's
turns after a move of seat 1 it is asked how well it knows seat 1's hand:

* ``acc``: the expected share of seat 1's cards a world drawn from it has right (multiset
  overlap with the true hand); ``ptrue``: the weight of worlds with exactly the true hand;
* ``distinct``: how many different hands of seat 1 its live particles hold;
* the filter's health: deaths per update of the seat's own moves and of the opponent's,
  refills and resamplings per game, the effective sample size (share of ``count``).

The same numbers for rule inference (``count`` worlds of ``determinize``, equal weights) are
the baseline. ``--one-step N`` adds the exact one-move posterior: at every third move of seat
1, ``N`` rule worlds of seat 0's view *before* the move, each weighed by the model's
likelihood of the move (and dropped where the move does not show seat 0 what it saw), an
importance-sampling reference of what one observed move can teach (no filter involved).
"""
from __future__ import annotations

import argparse
import collections
import math
import random
import statistics

from catsearch._core.game import lookup
from catsearch.search.particles import Belief

GAME = "herding-cats"


def overlap(world: str, true: str) -> float:
    a, b = collections.Counter(world), collections.Counter(true)
    return sum((a & b).values()) / max(1, len(true))


def hand_scores(worlds_weights: list, true: str) -> tuple:
    acc = sum(w * overlap(x.cards()["hand1"], true) for x, w in worlds_weights)
    exact = sum(w for x, w in worlds_weights if sorted(x.cards()["hand1"]) == sorted(true))
    distinct = len({"".join(sorted(x.cards()["hand1"])) for x, _ in worlds_weights})
    return acc, exact, distinct


def one_step(before, after, move: int, true: str, n: int, temperature: float,
             rng: random.Random) -> tuple | None:
    """The exact posterior's ``acc`` from one observed move (importance sampling), the share
    of the rule worlds in which the move was legal, and the share of those in which the
    heuristic chose it."""
    e = math.exp(1.0 / temperature)
    b = before.clone()
    b.inference = "rules"
    total = acc = 0.0
    legal_n = chosen = 0
    for _ in range(n):
        w = b.determinize(0, seed=rng.getrandbits(63))
        legal = w.legal_moves()
        if move not in legal:
            continue
        legal_n += 1
        h = w.heuristic_move(seed=rng.getrandbits(63))
        chosen += h == move
        p = (e if h == move else 1.0) / (e + len(legal) - 1)
        w.apply(move)
        if w.view(0).to_text() != after.to_text():
            continue
        total += p
        acc += p * overlap(w.cards()["hand1"], true)
    if total == 0:
        return None
    return acc / total, legal_n / n, chosen / legal_n


def run(games: int, temperatures: list, count: int, refill: float, steps: int) -> dict:
    rows = {t: collections.defaultdict(list) for t in temperatures}
    rules = collections.defaultdict(list)
    deaths = {t: collections.defaultdict(list) for t in temperatures}
    gold: list = []
    rng = random.Random(1)
    for seed in range(games):
        st = lookup(GAME).new(players=2, seed=seed)
        view = st.view(0)
        beliefs = {t: Belief(view, 0, count=count, temperature=t, refill=refill, seed=seed)
                   for t in temperatures}
        while not st.is_terminal():
            m = st.heuristic_move(seed=st.ply * 7 + seed)
            mover = st.current_player
            after = view.clone()
            code = after.play_observation(st.observation(0, m))
            st.apply(m)
            if st.is_terminal():
                break
            for t, b in beliefs.items():
                before = b.stats()["deaths"]
                b.update(after, mover, code)
                deaths[t]["own" if mover == 0 else "opponent"].append(
                    (b.stats()["deaths"] - before) / count)
            if mover == 1:
                true = st.cards()["hand1"]
                for t, b in beliefs.items():
                    acc, exact, distinct = hand_scores(b.particles(), true)
                    r = rows[t]
                    r["acc"].append(acc)
                    r["ptrue"].append(exact)
                    r["distinct"].append(distinct)
                    r["ess"].append(b.effective_size / count)
                v = after.clone()
                v.inference = "rules"
                worlds = [(v.determinize(0, seed=i), 1.0 / count) for i in range(count)]
                acc, exact, distinct = hand_scores(worlds, true)
                rules["acc"].append(acc)
                rules["ptrue"].append(exact)
                rules["distinct"].append(distinct)
                if steps and st.ply % 3 == 0:
                    g = one_step(view, after, m, true, steps, min(temperatures), rng)
                    if g is not None:
                        gold.append((*g, acc))
            view = after
        for t, b in beliefs.items():
            s = b.stats()
            rows[t]["refills"].append(s["refills"])
            rows[t]["resamples"].append(s["resamples"])
            rows[t]["restarts"].append(s["restarts"])
    mean = statistics.mean
    print(f"{GAME}, 2 players, {games} heuristic games, {count} particles, refill {refill}")
    print(f"{'inference':>12} {'acc':>6} {'ptrue':>6} {'distinct':>8} {'ess':>5} "
          f"{'own deaths':>10} {'opp deaths':>10} {'refills':>7} {'resamples':>9}")
    print(f"{'rules':>12} {mean(rules['acc']):6.3f} {mean(rules['ptrue']):6.3f} "
          f"{mean(rules['distinct']):8.1f}")
    for t, r in rows.items():
        print(f"{'policy T=' + str(t):>12} {mean(r['acc']):6.3f} {mean(r['ptrue']):6.3f} "
              f"{mean(r['distinct']):8.1f} {mean(r['ess']):5.2f} "
              f"{mean(deaths[t]['own']):10.1%} {mean(deaths[t]['opponent']):10.1%} "
              f"{mean(r['refills']):7.1f} {mean(r['resamples']):9.1f}")
    if gold:
        print(f"one observed move, exact posterior (T={min(temperatures)}, {len(gold)} "
              f"positions): acc {mean(g[0] for g in gold):.3f} against rules' "
              f"{mean(g[3] for g in gold):.3f}; the move legal in {mean(g[1] for g in gold):.0%}"
              f" of the rule worlds, the heuristic's choice in {mean(g[2] for g in gold):.0%} "
              f"of those")
    return {"rules": rules, "policy": rows, "one_step": gold}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--temperatures", default="0.05,1", help="comma-separated")
    ap.add_argument("--particles", type=int, default=256)
    ap.add_argument("--refill", type=float, default=0.25)
    ap.add_argument("--one-step", type=int, default=0, metavar="N",
                    help="also the exact one-move posterior from N rule worlds")
    args = ap.parse_args(argv)
    run(args.games, [float(t) for t in args.temperatures.split(",")], args.particles,
        args.refill, args.one_step)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
