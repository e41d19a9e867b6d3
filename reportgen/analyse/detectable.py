"""What a comparison could have detected: the minimum detectable effect (mde).

A change that is "not significant" means nothing until one knows which change would
have been: with 4 questions the smallest exact McNemar p is 0.125, so no change at all
can reach p < 0.05, and calling a collapse "within noise" would mislead. The mde is the
smallest true difference d that the comparison's own test rejects at ``alpha`` with
probability :data:`POWER` (SPEC.md, "Is a change real?"):

- binary measures (hit@k), exact McNemar: the discordant questions' expected number is
  n times the observed discordance rate (at least d: a difference d needs that many
  questions to change); among them the gains are Binomial(m, 1/2 + d / 2q);
- the others, the paired randomization test, approximated by the normal test on the
  per-question differences' standard deviation s: d = (z_{1-alpha/2} + z_{power}) s / sqrt(n)
  (with clusters, s^2 / n is the cluster-robust variance of the mean);
- None when no d within the measure's range reaches that power, or when even a change
  of every question in one direction could not reach p < alpha (n < :func:`fewest`).

NumPy only, imported with paired.py when something is compared.
"""

from __future__ import annotations

import functools
import math
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

POWER = 0.80
NEEDED_FOR = 0.10
"""The change whose question count a comparison gives (``n_needed``): "about N questions
would be needed for a drop of 0.10"."""
_BISECTIONS = 30
"""Halvings of the gain share's interval [1/2, 1]: to within 1e-9."""


def _z(alpha: float) -> float:
    return NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(POWER)


def fewest(alpha: float) -> int:
    """The fewest questions (or discordant ones) that can reach p < alpha at all: every
    one changing the same way gives the exact two-sided p = 2 / 2^m."""
    return max(1, math.floor(math.log2(2 / alpha)) + 1)


@functools.lru_cache(maxsize=64)
def _log_choose(m: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """k = 0..m and log C(m, k): the same m is searched many times (bisection)."""
    log_factorial = np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, m + 1)))])
    return np.arange(m + 1, dtype=np.float64), log_factorial[m] - log_factorial - log_factorial[
        ::-1
    ]


def _log_pmf(m: int, p: float) -> npt.NDArray[np.float64]:
    """log P(Binomial(m, p) = k) for k = 0..m."""
    k, log_choose = _log_choose(m)
    with np.errstate(divide="ignore"):
        return np.asarray(log_choose + k * np.log(p) + (m - k) * np.log1p(-p), dtype=np.float64)


def _critical(m: int, alpha: float) -> int:
    """The largest count c such that min(gains, losses) <= c rejects at alpha (exact
    two-sided McNemar); -1 when nothing rejects."""
    cdf = np.cumsum(np.exp(_log_pmf(m, 0.5)))
    below = np.flatnonzero(2 * cdf[: m // 2 + 1] < alpha)
    return int(below[-1]) if below.size else -1


def _mcnemar_power(m: int, c: int, share: float) -> float:
    """P(reject) with m discordant questions of which a share ``share`` are gains."""
    if share >= 1.0:
        return 1.0
    pmf = np.exp(_log_pmf(m, share))
    return float(pmf[: c + 1].sum() + pmf[m - c :].sum())


def mcnemar_mde(n: int, discordant: int, alpha: float) -> float | None:
    """The mde of a binary measure over n questions, ``discordant`` of which changed."""
    if n == 0:
        return None
    m = discordant
    c = _critical(m, alpha) if m else -1
    if c < 0:
        # too few changed for any split to reject: a larger d brings more changes, all
        # one way (power 1 once 2 / 2^m < alpha)
        least = fewest(alpha)
        return None if least > n else least / n
    rate = m / n
    low, high = 0.5, 1.0
    for _ in range(_BISECTIONS):
        middle = (low + high) / 2
        if _mcnemar_power(m, c, middle) >= POWER:
            high = middle
        else:
            low = middle
    return rate * (2 * high - 1)


def normal_mde(n: int, variance_of_mean: float, alpha: float, bound: float | None) -> float | None:
    """The mde of a measure tested by randomization, from the variance of its mean
    difference; None beyond ``bound`` (the largest possible difference) or below
    :func:`fewest` questions (clusters, when whole clusters are flipped)."""
    if n < fewest(alpha):
        return None
    mde = _z(alpha) * math.sqrt(max(variance_of_mean, 0.0))
    return None if bound is not None and mde > bound else mde


def normal_n_needed(n: int, variance_of_mean: float, alpha: float, change: float) -> int:
    """Questions for ``change`` to be detectable, at this spread (variance scales as 1/n)."""
    spread = variance_of_mean * n
    needed = math.ceil((_z(alpha) ** 2) * spread / change**2) if spread > 0 else 0
    return max(needed, fewest(alpha))


def mcnemar_n_needed(n: int, discordant: int, alpha: float, change: float) -> int:
    """Questions for ``change`` to be detectable, at this discordance rate (at least
    ``change``): Connor's (1987) sample size for McNemar's test,
    n = (z_{1-alpha/2} sqrt(q) + z_power sqrt(q - d^2))^2 / d^2, q the discordance rate
    (an estimate: "about N questions"; the exact search costs seconds at 10,000)."""
    rate = max(discordant / n if n else 0.0, change)
    a, b = NormalDist().inv_cdf(1 - alpha / 2), NormalDist().inv_cdf(POWER)
    needed = (a * math.sqrt(rate) + b * math.sqrt(max(rate - change**2, 0.0))) ** 2 / change**2
    return max(math.ceil(needed), fewest(alpha))
