"""Budget sweeps: one searcher at several budgets against a fixed opponent, and the plot.

Every budget plays the same deals (the same master seed), so the points differ by the
budget, not by the cards. Each budget's match is an ordinary match with its own results file,
so a sweep resumes like a match.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import sys
from dataclasses import dataclass, field

from catsearch.arena.entrants import Entrant, load_imports
from catsearch.arena.match import MatchResult, run_match
from catsearch.search.spec import PlayerSpec

__all__ = ["run_sweep", "SweepResult", "plot_sweep", "budget_spec", "PlotUnavailable",
           "PLOT_INSTALL"]


def budget_spec(template: str, budget) -> str:
    """The player at ``budget``: ``template`` with ``{}`` (or ``{budget}``) replaced."""
    if "{}" not in template and "{budget}" not in template:
        raise ValueError(f"a sweep template marks the budget with {{}}, like "
                         f"'ismcts:iterations={{}}'; got {template!r}")
    return template.replace("{budget}", str(budget)).replace("{}", str(budget))


def _candidate(text: str, budget) -> Entrant:
    """The entrant of one budget, labelled ``<name>@<budget>``: its label if it has one
    (``fast=...``, an engine's name), else its player's name (``ismcts@300``)."""
    cand = Entrant.parse(text)
    name = cand.label
    if not cand.is_engine and cand.label == cand.spec:      # no label given: the player
        name = PlayerSpec.parse(cand.spec).name
    return dataclasses.replace(cand, label=f"{name}@{budget}")


@dataclass
class SweepResult:
    """The points of a sweep: per budget, the candidate's score and (2 seats) Elo."""

    game: str
    template: str
    opponent: str
    points: list[dict]
    matches: list[MatchResult] = field(repr=False, default_factory=list)
    plot: str | None = None
    interrupted: bool = False
    #: why no plot was drawn although one was asked for (matplotlib missing)
    plot_error: str | None = None

    def to_dict(self) -> dict:
        d = {"type": "sweep", "game": self.game, "template": self.template,
             "opponent": self.opponent, "points": self.points, "plot": self.plot,
             "interrupted": self.interrupted}
        if self.plot_error:
            d["plot_error"] = self.plot_error
        return d

    def table(self) -> str:
        rows = [f"budget sweep of {self.template} against {self.opponent} on {self.game}",
                f"  {'budget':>8}  {'games':>6}  {'score':>15}  {'Elo':>20}"]
        for p in self.points:
            s = p["score"]
            score = (f"{s['value']:.3f} ± {(s['high'] - s['low']) / 2:.3f}"
                     if s["low"] is not None else f"{s['value']:.3f}")
            e = p.get("elo")
            if e and e["value"] is not None and not isinstance(e["value"], str):
                lo = e["low"] if not isinstance(e["low"], str) else -math.inf
                hi = e["high"] if not isinstance(e["high"], str) else math.inf
                elo = (f"{_signed(e['value'])} [{_signed(lo)}, {_signed(hi)}]"
                       if lo is not None else _signed(e["value"]))
            else:
                elo = "-"
            rows.append(f"  {p['budget']:>8}  {p['games']:>6}  {score:>15}  {elo:>20}")
        if self.plot:
            rows.append(f"plot: {self.plot}")
        elif self.plot_error:
            rows.append(f"no plot: {self.plot_error}")
        return "\n".join(rows)


def run_sweep(game: str, template: str, budgets, opponent: str, *, out_dir: str | None = None,
              plot: str | None = None, progress=False, concurrency: int = 1,
              backend: str = "auto", ray_address: str | None = None, **options) -> SweepResult:
    """Play ``budget_spec(template, b)`` against ``opponent`` for every budget ``b``.

    :param out_dir: a folder for one results file per budget (``budget-<b>.jsonl``) and the
        sweep's ``sweep.json``; reruns resume.
    :param plot: a PNG path for the plot of score (or Elo with 2 seats) against budget,
        drawn with matplotlib. Without matplotlib the sweep still runs and writes its
        results; the result's ``plot_error`` (and its table) says how to install it.
    :param options: :class:`~catsearch.arena.MatchConfig` fields (``groups``, ``seed``,
        ``seats``, ...), the same for every budget.
    """
    load_imports(options.get("imports", ()))     # before the players are read
    budgets = list(budgets)
    if not budgets:
        raise ValueError("a sweep needs at least one budget")
    seats = options.get("seats") or 2
    options["seats"] = seats
    points, matches = [], []
    interrupted = False
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    plot_error = None
    if plot:
        try:
            _pyplot()
        except PlotUnavailable as e:     # say so now, not after the whole sweep
            plot_error = str(e)
            if progress is True:
                print(f"no plot: {plot_error}", file=sys.stderr)
    for b in budgets:
        spec = budget_spec(template, b)
        cand = _candidate(spec, b)
        players = [cand] + [Entrant.parse(opponent)] * (seats - 1)
        out = os.path.join(out_dir, f"budget-{b}.jsonl") if out_dir else None
        if progress is True:
            print(f"budget {b}: {spec}", file=sys.stderr)
        m = run_match(game, players, out=out, progress=progress, concurrency=concurrency,
                      backend=backend, ray_address=ray_address, **options)
        matches.append(m)
        p = m.summary["players"][0]
        point = {"budget": b, "spec": spec, "games": p["games"], "score": p["score"],
                 "win": p["win"], "ms_per_move": p["ms_per_move"]}
        if "elo" in m.summary:
            e = m.summary["elo"]
            point["elo"] = {k: e[k] for k in ("value", "low", "high", "se", "n")}
        points.append(point)
        if m.interrupted:
            interrupted = True
            break
    res = SweepResult(game, template, opponent, points, matches, None, interrupted, plot_error)
    if plot and points and plot_error is None:
        try:
            res.plot = plot_sweep(res, plot)
        except PlotUnavailable as e:
            res.plot_error = str(e)
    if out_dir:
        with open(os.path.join(out_dir, "sweep.json"), "w", encoding="utf-8") as f:
            json.dump(res.to_dict(), f, indent=2)
            f.write("\n")
    return res


def _signed(v: float) -> str:
    """An Elo figure with its sign, rounded (never ``-0``)."""
    if not math.isfinite(v):
        return "+inf" if v > 0 else "-inf"
    r = round(v)
    return f"{r:+d}" if r else "0"


def _num(v, default):
    if v is None:
        return default
    if isinstance(v, str):
        return math.inf if v == "inf" else -math.inf
    return float(v)


#: how to get the plots
PLOT_INSTALL = 'pip install "catsearch[plot]"'


class PlotUnavailable(ImportError):
    """matplotlib, which draws the sweep plots, is not installed (the message says how to
    install it)."""


def _pyplot():
    """matplotlib's pyplot on the Agg backend (files only, no display).

    :raises PlotUnavailable: matplotlib is not installed.
    """
    try:
        import matplotlib
    except ImportError as e:
        raise PlotUnavailable(f"the sweep plot needs matplotlib, which is not installed: "
                              f"{PLOT_INSTALL}") from e
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_sweep(sweep: SweepResult, path: str) -> str:
    """Write the sweep's plot, a PNG (Elo with 2 seats, else score, against budget on a log
    axis), with matplotlib (``pip install "catsearch[plot]"``); return ``path``.

    :raises PlotUnavailable: matplotlib is not installed.
    """
    plt = _pyplot()
    pts = sweep.points
    use_elo = all("elo" in p for p in pts)
    key = "elo" if use_elo else "score"
    xs = [p["budget"] for p in pts]
    ys = [_num(p[key]["value"], math.nan) for p in pts]
    lows = [_num(p[key]["low"], math.nan) for p in pts]
    highs = [_num(p[key]["high"], math.nan) for p in pts]
    ylabel = (f"Elo against {sweep.opponent}" if use_elo else f"score against {sweep.opponent}")
    title = f"{sweep.template.replace('{budget}', 'N').replace('{}', 'N')} on {sweep.game}"
    logx = min(xs) > 0 and (max(xs) / min(xs) >= 4)
    fig, ax = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    try:
        err_lo = [y - lo if math.isfinite(lo) else 0 for y, lo in zip(ys, lows)]
        err_hi = [hi - y if math.isfinite(hi) else 0 for y, hi in zip(ys, highs)]
        ax.errorbar(xs, ys, yerr=[err_lo, err_hi], marker="o", capsize=4)
        if use_elo:
            ax.axhline(0.0, color="grey", linewidth=0.8)
        if logx:
            ax.set_xscale("log")
            ax.set_xticks(xs)
            ax.set_xticklabels([str(x) for x in xs])
            ax.minorticks_off()
        ax.set_xlabel("budget N")
        ax.set_ylabel(ylabel + " (95% interval)")
        ax.set_title(title)
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        fig.savefig(path, format="png")
    finally:
        plt.close(fig)
    return path
