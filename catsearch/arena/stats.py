"""The statistics of the arena: clustered intervals, Elo, Bradley-Terry ratings and the GSPRT.

Everything here is plain arithmetic over numpy arrays, with no dependency beyond numpy, so
that a summary can be recomputed anywhere from a results file.

*Clustering.* The games of one deal group (one deal played under every seating) share their
cards, so they are correlated; the unit of independent information is the group. Every
interval here treats the group as the sampling unit: the cluster-robust (sandwich) standard
error of a mean, Student's t with ``groups - 1`` degrees of freedom, and for ratings a
bootstrap that resamples whole groups.
"""

from __future__ import annotations

import functools
import math
from dataclasses import asdict, dataclass
from statistics import NormalDist

import numpy as np

from catsearch._core.options import parse_float, parse_int

__all__ = [
    "Estimate",
    "t_quantile",
    "clustered_mean",
    "wilson_interval",
    "elo_from_score",
    "score_from_elo",
    "elo_estimate",
    "likelihood_of_superiority",
    "bradley_terry",
    "BTRatings",
    "SPRT",
]

_LN10 = math.log(10.0)
#: Normalized Elo: ``nelo = (score - 1/2) / sigma * 800 / ln 10`` (fastchess, fishtest).
NELO_SCALE = 800.0 / _LN10


@dataclass(frozen=True)
class Estimate:
    """A point estimate with its 95% interval (``low``, ``high``) and standard error.

    ``n`` is the number of independent units (deal groups) it rests on. With fewer than two
    units the interval is unknown: ``low`` and ``high`` are NaN.
    """

    value: float
    low: float
    high: float
    se: float
    n: int

    @property
    def pm(self) -> float:
        """Half the interval's width (the ``±`` of a table)."""
        return (self.high - self.low) / 2.0

    def to_dict(self) -> dict:
        return {k: _finite(v) for k, v in asdict(self).items()}


def _finite(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


# -- Student's t ----------------------------------------------------------------------------

@functools.lru_cache(maxsize=4096)
def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (normal for inf),
    from :data:`scipy.stats.t`."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), not {p}")
    if df <= 0:
        raise ValueError(f"df must be positive, not {df}")
    if math.isinf(df):
        return NormalDist().inv_cdf(p)
    from scipy.stats import t     # imported on first use: the arena's start stays quick
    return float(t.ppf(p, df))


# -- means over clusters --------------------------------------------------------------------

def clustered_mean(sums, counts=None, *, level: float = 0.95,
                   bounds: tuple[float, float] | None = None) -> Estimate:
    """The mean of per-game values grouped in clusters, with a cluster-robust interval.

    :param sums: per cluster (deal group), the sum of the values of its games.
    :param counts: per cluster, how many games; all 1 when omitted (``sums`` are then the
        cluster means themselves).
    :returns: the ratio estimate ``sum(sums) / sum(counts)`` with the sandwich standard error
        ``sqrt(G / (G - 1) * sum((s_g - mean * n_g)**2)) / sum(n_g)`` and a Student-t
        interval with ``G - 1`` degrees of freedom. With equal cluster sizes this is the
        plain standard error of the cluster means.
    :param bounds: the range the values live in (a score: ``(0, 1)``): the interval is kept
        inside it, and when every cluster sits at one end (every deal won, say), where the
        spread is nil and a t-interval would shrink to a point, the interval is the exact
        binomial one of ``G`` clusters all at that end (Clopper-Pearson: the far end is
        ``(1 - level) / 2`` to the power ``1 / G`` of the way across).
    """
    y = np.asarray(sums, dtype=float)
    n = np.ones_like(y) if counts is None else np.asarray(counts, dtype=float)
    keep = n > 0
    y, n = y[keep], n[keep]
    g = len(y)
    if g == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan, 0)
    total = n.sum()
    mean = float(y.sum() / total)
    if g < 2:
        return Estimate(mean, math.nan, math.nan, math.nan, g)
    resid = y - mean * n
    se = math.sqrt(g / (g - 1) * float(np.dot(resid, resid))) / total
    q = t_quantile(0.5 + level / 2.0, g - 1)
    low, high = mean - q * se, mean + q * se
    if bounds is not None:
        lo_b, hi_b = bounds
        if se == 0.0 and mean in (lo_b, hi_b):
            reach = (hi_b - lo_b) * (1.0 - ((1.0 - level) / 2.0) ** (1.0 / g))
            low, high = (hi_b - reach, hi_b) if mean == hi_b else (lo_b, lo_b + reach)
        low, high = max(low, lo_b), min(high, hi_b)
    return Estimate(mean, low, high, se, g)


def wilson_interval(score: float, n: int, *, level: float = 0.95) -> Estimate:
    """The Wilson score interval of a proportion: ``score`` (the share of successes, or the
    mean of results in [0, 1]) over ``n`` independent trials.

    For results that are independent game by game (no deal groups to cluster over); it
    stays inside [0, 1] and is sensible at 0 and 1 successes, where the normal interval is
    not. ``se`` is the binomial ``sqrt(score (1 - score) / n)``.
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a whole number >= 1, not {n!r}")
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a proportion is from 0 to 1, not {score!r}")
    z = NormalDist().inv_cdf(0.5 + level / 2.0)
    z2n = z * z / n
    centre = (score + z2n / 2.0) / (1.0 + z2n)
    half = z * math.sqrt(score * (1.0 - score) / n + z2n / (4.0 * n)) / (1.0 + z2n)
    se = math.sqrt(score * (1.0 - score) / n)
    low = min(float(score), max(0.0, centre - half))        # exact at 0 and 1 successes
    high = max(float(score), min(1.0, centre + half))
    return Estimate(float(score), low, high, se, n)


# -- Elo ------------------------------------------------------------------------------------

def elo_from_score(score: float) -> float:
    """The logistic Elo difference of an expected score: ``-400 log10(1/score - 1)``."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """The expected score of an Elo difference: ``1 / (1 + 10**(-elo/400))``."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_estimate(score: Estimate) -> Estimate:
    """The Elo difference of a 2-player score, its interval the score's mapped through
    :func:`elo_from_score` (monotone, so the 95% interval maps onto a 95% interval); the
    standard error is the delta method's ``se / (s (1 - s)) * 400 / ln 10``."""
    s = score.value
    elo = elo_from_score(s) if not math.isnan(s) else math.nan
    if math.isnan(score.low):
        return Estimate(elo, math.nan, math.nan, math.nan, score.n)
    se = (score.se / (s * (1 - s)) * 400.0 / _LN10) if 0.0 < s < 1.0 else math.inf
    return Estimate(elo, elo_from_score(score.low), elo_from_score(score.high), se, score.n)


def likelihood_of_superiority(score: Estimate) -> float:
    """The probability that the true score exceeds 1/2, in the normal approximation."""
    if math.isnan(score.se):
        return math.nan
    if score.se == 0.0:
        return 1.0 if score.value > 0.5 else (0.0 if score.value < 0.5 else 0.5)
    return NormalDist().cdf((score.value - 0.5) / score.se)


# -- Bradley-Terry --------------------------------------------------------------------------

@dataclass(frozen=True)
class BTRatings:
    """Bradley-Terry ratings on the Elo scale (mean 0), with bootstrap 95% intervals.

    :ivar ratings: per player, ``400 log10(strength)`` shifted to mean 0.
    :ivar low: per player, the 2.5% bootstrap quantile (NaN without a bootstrap).
    :ivar high: per player, the 97.5% bootstrap quantile.
    """

    ratings: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]


def _bt_fit(wins: np.ndarray, prior: float, iters: int = 10000, tol: float = 1e-10) -> np.ndarray:
    """Fit strengths by Hunter's MM algorithm; return Elo-scale ratings with mean 0."""
    p = wins.shape[0]
    w = wins + prior * 0.5 * ((wins + wins.T) > 0)           # a virtual draw per pair that met
    games = w + w.T
    total_wins = w.sum(axis=1)
    gamma = np.ones(p)
    for _ in range(iters):
        denom = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            new = np.where(denom > 0, total_wins / denom, gamma)
        new = np.maximum(new, 1e-300)
        new /= math.exp(np.mean(np.log(new)))
        if np.max(np.abs(np.log(new) - np.log(gamma))) < tol:
            gamma = new
            break
        gamma = new
    r = 400.0 * np.log10(gamma)
    return r - r.mean()


def bradley_terry(group_wins, *, prior: float = 1.0, bootstrap: int = 200, seed: int = 0,
                  level: float = 0.95) -> BTRatings:
    """Bradley-Terry ratings from pairwise results, with a clustered bootstrap interval.

    :param group_wins: an array ``(groups, P, P)``: in each deal group, how often player i
        finished ahead of player j (a tie counts 1/2 to each).
    :param prior: virtual games (one tie each way per unit) added between every pair that
        met, so that a player who never lost still gets a finite rating.
    :param bootstrap: resamples of whole groups for the interval (0: no interval).
    """
    gw = np.asarray(group_wins, dtype=float)
    if gw.ndim != 3 or gw.shape[1] != gw.shape[2]:
        raise ValueError("group_wins must have shape (groups, players, players)")
    g, p, _ = gw.shape
    ratings = _bt_fit(gw.sum(axis=0), prior)
    if bootstrap <= 0 or g < 2:
        nan = (math.nan,) * p
        return BTRatings(tuple(map(float, ratings)), nan, nan)
    rng = np.random.default_rng(seed)
    samples = np.empty((bootstrap, p))
    for b in range(bootstrap):
        idx = rng.integers(0, g, size=g)
        samples[b] = _bt_fit(gw[idx].sum(axis=0), prior, iters=2000, tol=1e-8)
    lo = np.quantile(samples, (1 - level) / 2, axis=0)
    hi = np.quantile(samples, 1 - (1 - level) / 2, axis=0)
    return BTRatings(tuple(map(float, ratings)), tuple(map(float, lo)), tuple(map(float, hi)))


# -- the GSPRT ------------------------------------------------------------------------------

@dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test of H0: elo = elo0 against H1: elo = elo1.

    It is the generalized SPRT of fastchess and fishtest (M. Van den Bergh's normal
    approximation): with ``a`` the mean and ``var`` the variance of the per-group scores of
    the first player over ``N`` groups,

        LLR = (s1 - s0) (2 a - s0 - s1) / (2 var / N)

    where ``s0``, ``s1`` are the scores that ``elo0``, ``elo1`` stand for. In the
    ``normalized`` model (the default) the Elo is *normalized* Elo, the score difference in
    units of the per-game standard deviation: ``s = 1/2 + nelo * sqrt(k var) / (800 / ln 10)``
    with ``k`` games per group (for a group of 2 games, fastchess's pentanomial formula); in
    the ``logistic`` model it is plain Elo, ``s = 1 / (1 + 10**(-elo/400))``.

    The match stops when ``LLR`` leaves ``(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))``:
    below, H0 is accepted; above, H1. The approximation needs a variance estimated from a
    fair sample, so no decision is taken before ``min_groups`` groups (10 by default; with
    a handful of groups an unlucky run of equal results would look decisive).
    """

    elo0: float = 0.0
    elo1: float = 5.0
    alpha: float = 0.05
    beta: float = 0.05
    model: str = "normalized"
    min_groups: int = 10

    def __post_init__(self) -> None:
        if not (0.0 < self.alpha < 0.5 and 0.0 < self.beta < 0.5):
            raise ValueError(f"SPRT: alpha and beta must be in (0, 0.5); got alpha={self.alpha}, "
                             f"beta={self.beta}")
        if not self.elo1 > self.elo0:
            raise ValueError(f"SPRT: elo1 must be greater than elo0; got elo0={self.elo0}, "
                             f"elo1={self.elo1}")
        if isinstance(self.min_groups, bool) or not isinstance(self.min_groups, int) \
                or self.min_groups < 2:
            raise ValueError(f"SPRT: min_groups must be a whole number >= 2, not "
                             f"{self.min_groups!r}")
        if self.model not in ("normalized", "logistic"):
            raise ValueError(f"SPRT: model must be normalized or logistic, not {self.model!r}")

    @classmethod
    def parse(cls, text: str) -> SPRT:
        """Read ``"elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=logistic][,min_groups=10]"``
        (any subset)."""
        kwargs: dict = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, eq, value = part.partition("=")
            key = key.strip()
            if not eq or key not in ("elo0", "elo1", "alpha", "beta", "model", "min_groups"):
                raise ValueError(f"SPRT: {part!r} is not one of elo0=, elo1=, alpha=, beta=, "
                                 f"model= (normalized or logistic), min_groups=")
            if key == "model":
                kwargs[key] = value.strip()
            elif key == "min_groups":
                kwargs[key] = parse_int(value.strip(), "SPRT: min_groups")
            else:
                try:
                    kwargs[key] = parse_float(value.strip(), f"SPRT: {key}")
                except ValueError:
                    raise ValueError(f"SPRT: {key}={value!r} is not a number") from None
        return cls(**kwargs)

    @property
    def lower(self) -> float:
        """``ln(beta / (1 - alpha))``: at or below it H0 is accepted."""
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        """``ln((1 - beta) / alpha)``: at or above it H1 is accepted."""
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, group_scores, games_per_group: int = 2) -> float:
        """The log-likelihood ratio after the given per-group mean scores (each in [0, 1])."""
        x = np.asarray(group_scores, dtype=float)
        n = len(x)
        if n < 2:
            return 0.0
        a = float(x.mean())
        var = float(((x - a) ** 2).mean())
        if var <= 0.0:
            return 0.0
        if self.model == "normalized":
            sd = math.sqrt(games_per_group * var)
            s0 = 0.5 + self.elo0 * sd / NELO_SCALE
            s1 = 0.5 + self.elo1 * sd / NELO_SCALE
        else:
            s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return (s1 - s0) * (2.0 * a - s0 - s1) / (2.0 * var / n)

    def decide(self, llr: float, groups: int | None = None) -> str | None:
        """``"H1"``, ``"H0"`` or ``None`` (go on) for a log-likelihood ratio after ``groups``
        groups (``None`` when fewer than ``min_groups``)."""
        if groups is not None and groups < self.min_groups:
            return None
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def to_dict(self) -> dict:
        return asdict(self)
