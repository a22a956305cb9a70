"""The arena's statistics against values computed independently (scipy, numpy algebra,
the exact GSPRT, simulation)."""

import math

import numpy as np
import pytest

from catsearch.arena.stats import (NELO_SCALE, SPRT, Estimate, bradley_terry, clustered_mean,
                                   elo_estimate, elo_from_score, likelihood_of_superiority,
                                   score_from_elo, t_quantile,
                                   wilson_interval)

scipy_stats = pytest.importorskip("scipy.stats")


@pytest.mark.parametrize("df", [1, 2, 3, 5, 9, 29, 99, 1000])
@pytest.mark.parametrize("p", [0.5, 0.6, 0.9, 0.975, 0.995, 0.025, 0.1])
def test_t_quantile_matches_scipy(p, df):
    assert t_quantile(p, df) == pytest.approx(scipy_stats.t.ppf(p, df), rel=1e-8, abs=1e-10)


def test_t_quantile_rejects_bad_input():
    with pytest.raises(ValueError, match="p must be"):
        t_quantile(1.0, 3)
    with pytest.raises(ValueError, match="df must be"):
        t_quantile(0.5, 0)


def _sandwich_se(values, clusters):
    """The cluster-robust standard error of an intercept-only regression, by matrix algebra:
    (X'X)^-1 (sum_g X_g' u_g u_g' X_g) (X'X)^-1 with the small-sample factor G/(G-1)."""
    y = np.asarray(values, float)
    X = np.ones((len(y), 1))
    beta = np.linalg.lstsq(X, y, rcond=None)[0]
    u = y - X @ beta
    bread = np.linalg.inv(X.T @ X)
    meat = np.zeros((1, 1))
    ids = sorted(set(clusters))
    for g in ids:
        m = np.array([c == g for c in clusters])
        s = X[m].T @ u[m]
        meat += np.outer(s, s)
    G = len(ids)
    V = G / (G - 1) * bread @ meat @ bread
    return float(beta[0]), math.sqrt(V[0, 0])


def test_clustered_mean_is_the_sandwich_estimate():
    rng = np.random.default_rng(3)
    values, clusters = [], []
    for g in range(40):
        size = int(rng.integers(1, 7))            # unequal cluster sizes
        effect = rng.normal(0, 0.3)
        for _ in range(size):
            values.append(float(effect + rng.normal(0.5, 0.2)))
            clusters.append(g)
    sums = [sum(v for v, c in zip(values, clusters) if c == g) for g in range(40)]
    counts = [clusters.count(g) for g in range(40)]
    est = clustered_mean(sums, counts)
    mean, se = _sandwich_se(values, clusters)
    assert est.value == pytest.approx(mean, rel=1e-12)
    assert est.se == pytest.approx(se, rel=1e-10)
    q = scipy_stats.t.ppf(0.975, 39)
    assert est.low == pytest.approx(mean - q * se, rel=1e-9)
    assert est.high == pytest.approx(mean + q * se, rel=1e-9)
    assert est.n == 40


def test_clustered_mean_of_equal_groups_is_the_se_of_group_means():
    means = np.array([0.5, 1.0, 0.0, 0.75, 0.25, 0.5, 1.0, 0.5])
    est = clustered_mean(means * 2, [2] * len(means))
    assert est.value == pytest.approx(means.mean())
    assert est.se == pytest.approx(means.std(ddof=1) / math.sqrt(len(means)))


def test_correlated_games_widen_the_interval():
    """Games that share a deal are correlated: treating them as independent would give too
    narrow an interval. The clustered one is wider, and covers the truth as often as it
    says (checked by simulation)."""
    rng = np.random.default_rng(11)
    covered = naive_covered = 0
    trials = 400
    for _ in range(trials):
        deal = rng.normal(0, 1, size=30)                 # the luck of each deal
        games = deal[:, None] + rng.normal(0, 0.3, size=(30, 4))
        est = clustered_mean(games.sum(axis=1), [4] * 30)
        flat = games.ravel()
        naive_se = flat.std(ddof=1) / math.sqrt(flat.size)
        covered += est.low <= 0.0 <= est.high
        naive_covered += abs(flat.mean()) <= 1.96 * naive_se
        assert est.se > naive_se
    assert 0.92 <= covered / trials <= 0.98
    assert naive_covered / trials < 0.85


def test_too_few_groups_give_no_interval():
    est = clustered_mean([1.0], [2])
    assert est.value == 0.5 and math.isnan(est.low) and est.n == 1
    assert math.isnan(clustered_mean([], []).value)


def test_elo_formula():
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_from_score(0.0) == -math.inf and elo_from_score(1.0) == math.inf
    for e in (-300.0, -25.0, 0.0, 40.0, 250.0):
        assert elo_from_score(score_from_elo(e)) == pytest.approx(e)


def test_elo_interval_from_the_formula():
    """The Elo interval is the score interval (mean +- t * sd / sqrt(n) over groups) put
    through -400 log10(1/s - 1), computed here by hand."""
    group_means = np.array([0.5, 1.0, 0.5, 0.5, 1.0, 0.0, 0.5, 1.0, 1.0, 0.5, 0.5, 1.0])
    n = len(group_means)
    s = group_means.mean()
    se = group_means.std(ddof=1) / math.sqrt(n)
    q = scipy_stats.t.ppf(0.975, n - 1)
    lo, hi = s - q * se, s + q * se
    elo = elo_estimate(clustered_mean(group_means * 2, [2] * n))
    assert elo.value == pytest.approx(-400 * math.log10(1 / s - 1))
    assert elo.low == pytest.approx(-400 * math.log10(1 / lo - 1))
    assert elo.high == pytest.approx(-400 * math.log10(1 / hi - 1))
    # the delta-method standard error
    assert elo.se == pytest.approx(se / (s * (1 - s)) * 400 / math.log(10))


def test_likelihood_of_superiority():
    est = Estimate(0.55, 0.5, 0.6, 0.025, 50)
    assert likelihood_of_superiority(est) == pytest.approx(scipy_stats.norm.cdf(2.0))


# -- the GSPRT -------------------------------------------------------------------------------

def _exact_gsprt_llr(x, s0, s1):
    """The generalized SPRT without approximation: the log-likelihood ratio of the two
    maximum-likelihood distributions on the observed outcomes whose means are s1 and s0
    (each found by its Lagrange multiplier)."""
    vals, counts = np.unique(np.asarray(x), return_counts=True)
    p = counts / counts.sum()

    def mle(s):
        d = vals - s
        lo = -1.0 / d.max() + 1e-12 if d.max() > 0 else -1e6
        hi = -1.0 / d.min() - 1e-12 if d.min() < 0 else 1e6
        f = lambda lam: np.sum(p * d / (1 + lam * d))  # noqa: E731 - decreasing in lam
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if f(mid) > 0:
                lo = mid
            else:
                hi = mid
        lam = 0.5 * (lo + hi)
        return p / (1 + lam * d)

    q0, q1 = mle(s0), mle(s1)
    return len(x) * float(np.sum(p * np.log(q1 / q0)))


@pytest.mark.parametrize("model", ["normalized", "logistic"])
def test_llr_matches_the_exact_gsprt(model):
    rng = np.random.default_rng(5)
    # pentanomial outcomes of 2-game groups, slightly in favour of the first player
    x = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], p=[0.05, 0.2, 0.45, 0.22, 0.08], size=3000)
    sprt = SPRT(elo0=0, elo1=10, model=model)
    var = x.var()
    if model == "normalized":
        s0 = 0.5 + 0 * math.sqrt(2 * var) / NELO_SCALE
        s1 = 0.5 + 10 * math.sqrt(2 * var) / NELO_SCALE
    else:
        s0, s1 = 0.5, 1 / (1 + 10 ** (-10 / 400))
    approx = sprt.llr(x, games_per_group=2)
    exact = _exact_gsprt_llr(x, s0, s1)
    assert approx == pytest.approx(exact, rel=0.03, abs=0.02)
    # and the formula itself
    a = x.mean()
    assert approx == pytest.approx((s1 - s0) * (2 * a - s0 - s1) / (2 * var / len(x)))


def test_sprt_bounds():
    sprt = SPRT(elo0=0, elo1=5, alpha=0.05, beta=0.05)
    assert sprt.lower == pytest.approx(math.log(0.05 / 0.95))
    assert sprt.upper == pytest.approx(math.log(0.95 / 0.05))
    assert sprt.decide(3.0) == "H1" and sprt.decide(-3.0) == "H0" and sprt.decide(0.1) is None
    # no decision on too few groups, however large the ratio
    assert sprt.decide(30.0, groups=9) is None and sprt.decide(30.0, groups=10) == "H1"
    assert SPRT(min_groups=3).decide(-5.0, groups=3) == "H0"


def _run_sprt(sprt, true_elo, rng, max_groups=20000):
    """Draw 2-game groups of a player whose true (logistic) Elo is ``true_elo`` with 30%
    draws, until the SPRT decides; return the decision."""
    s = score_from_elo(true_elo)
    draw = 0.3
    win = s - draw / 2
    p = [1 - win - draw, draw, win]                   # loss, draw, win of one game
    scores = []
    n_chunk = 50
    while len(scores) < max_groups:
        g = rng.choice([0.0, 0.5, 1.0], p=p, size=(n_chunk, 2)).mean(axis=1)
        for v in g:
            scores.append(v)
            if len(scores) >= 10:
                d = sprt.decide(sprt.llr(scores))
                if d:
                    return d
    return None


def test_sprt_decides_as_it_should():
    """With alpha = beta = 0.1: a player at elo1 is accepted as H1, and at elo0 as H0, at
    least about 90% of the time; a much stronger or weaker one always."""
    sprt = SPRT(elo0=0, elo1=60, alpha=0.1, beta=0.1, model="logistic")
    rng = np.random.default_rng(2024)
    assert all(_run_sprt(sprt, 200, rng) == "H1" for _ in range(5))
    assert all(_run_sprt(sprt, -140, rng) == "H0" for _ in range(5))
    trials = 60
    h1_at_elo1 = sum(_run_sprt(sprt, 60, rng) == "H1" for _ in range(trials))
    h0_at_elo0 = sum(_run_sprt(sprt, 0, rng) == "H0" for _ in range(trials))
    # expected 90%; 60 trials: below 80% would be 3 standard errors off
    assert h1_at_elo1 / trials >= 0.8
    assert h0_at_elo0 / trials >= 0.8


def test_sprt_parse_and_errors():
    s = SPRT.parse("elo0=-1, elo1=4,alpha=0.01,beta=0.2,model=logistic")
    assert (s.elo0, s.elo1, s.alpha, s.beta, s.model) == (-1, 4, 0.01, 0.2, "logistic")
    with pytest.raises(ValueError, match="elo1 must be greater"):
        SPRT(elo0=5, elo1=0)
    with pytest.raises(ValueError, match="not one of"):
        SPRT.parse("elo2=3")
    with pytest.raises(ValueError, match="not a number"):
        SPRT.parse("elo1=x")
    assert SPRT.parse("min_groups=4").min_groups == 4
    with pytest.raises(ValueError, match="min_groups"):
        SPRT(min_groups=1)


# -- Bradley-Terry ----------------------------------------------------------------------------

def test_bradley_terry_recovers_strengths_and_matches_a_direct_fit():
    scipy_optimize = pytest.importorskip("scipy.optimize")
    true = np.array([0.0, 100.0, -150.0, 60.0])
    rng = np.random.default_rng(9)
    groups = 400
    gw = np.zeros((groups, 4, 4))
    for g in range(groups):
        for i in range(4):
            for j in range(i + 1, 4):
                p = 1 / (1 + 10 ** ((true[j] - true[i]) / 400))
                w = rng.random() < p
                gw[g, i, j] += w
                gw[g, j, i] += 1 - w
    bt = bradley_terry(gw, prior=0.0, bootstrap=100, seed=1)
    W = gw.sum(axis=0)

    def nll(theta):
        r = np.concatenate([[0.0], theta])
        total = 0.0
        for i in range(4):
            for j in range(4):
                if i != j and W[i, j]:
                    total -= W[i, j] * (r[i] - np.logaddexp(r[i], r[j]))
        return total

    fit = scipy_optimize.minimize(nll, np.zeros(3), method="BFGS").x
    r = np.concatenate([[0.0], fit]) * 400 / math.log(10)
    r -= r.mean()
    assert np.allclose(bt.ratings, r, atol=0.05)
    truth = true - true.mean()
    assert np.all(np.abs(np.array(bt.ratings) - truth) < 45)
    for k in range(4):
        assert bt.low[k] < bt.ratings[k] < bt.high[k]


def test_bradley_terry_prior_keeps_an_unbeaten_player_finite():
    gw = np.zeros((3, 2, 2))
    gw[:, 0, 1] = 2
    bt = bradley_terry(gw, prior=1.0, bootstrap=0)
    assert math.isfinite(bt.ratings[0]) and bt.ratings[0] > 100


def test_a_bounded_mean_keeps_its_interval_inside_the_bounds():
    """A score lives in [0, 1]: the interval is clipped to it, and when every deal group
    scored the same end (all won) it is the exact binomial interval of that many groups
    rather than a point."""
    est = clustered_mean([2.0] * 9 + [1.0], [2] * 10, bounds=(0.0, 1.0))
    assert est.high == 1.0 and est.low < est.value == 0.95
    free = clustered_mean([2.0] * 9 + [1.0], [2] * 10)
    assert free.high > 1.0 and free.low == est.low
    allwon = clustered_mean([2.0] * 15, [2] * 15, bounds=(0.0, 1.0))
    assert allwon.value == allwon.high == 1.0
    assert allwon.low == pytest.approx(0.025 ** (1 / 15))       # Clopper-Pearson, 15 groups
    alllost = clustered_mean([0.0] * 15, [2] * 15, bounds=(0.0, 1.0))
    assert alllost.low == 0.0 and alllost.high == pytest.approx(1 - 0.025 ** (1 / 15))
    assert clustered_mean([0.0] * 15, [2] * 15).high == 0.0    # unbounded: a point


@pytest.mark.parametrize("k,n", [(0, 10), (3, 10), (10, 10), (47, 100), (1, 1), (150, 151)])
def test_wilson_interval_matches_scipy(k, n):
    scipy_ci = scipy_stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    est = wilson_interval(k / n, n)
    assert (est.low, est.high) == pytest.approx((scipy_ci.low, scipy_ci.high), abs=1e-12)
    assert est.value == k / n and est.n == n and 0.0 <= est.low <= est.value <= est.high <= 1.0
    assert est.se == pytest.approx(math.sqrt(k / n * (1 - k / n) / n))
    wider = wilson_interval(k / n, n, level=0.99)
    assert wider.low <= est.low and wider.high >= est.high


def test_wilson_interval_rejects_what_is_no_proportion():
    with pytest.raises(ValueError, match="n must be"):
        wilson_interval(0.5, 0)
    with pytest.raises(ValueError, match="from 0 to 1"):
        wilson_interval(1.5, 10)
