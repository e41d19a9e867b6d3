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
_BISECTIONS = 20
"""Halvings of the change's interval [0, 1]: to within 1e-6 (mde is read to 0.001)."""
_COUNTS = 120
_THINNED = 15
"""Up to :data:`_COUNTS` likely discordant counts are summed one by one (about 400
questions at a discordance of 0.25); more are thinned to :data:`_THINNED`: the mde
moves by under 0.5% (under 0.0001 at 10,000 questions), and costs about 0.05 s instead
of 1.5 s per binary measure."""


def _z(alpha: float) -> float:
    return NormalDist().inv_cdf(1 - alpha / 2) + NormalDist().inv_cdf(POWER)


def fewest(alpha: float) -> int:
    """The fewest questions (or discordant ones) that can reach p < alpha at all: every
    one changing the same way gives the exact two-sided p = 2 / 2^m."""
    return max(1, math.floor(math.log2(2 / alpha)) + 1)


@functools.lru_cache(maxsize=8)
def _log_factorials(n: int) -> npt.NDArray[np.float64]:
    """log k! for k = 0..n: every log C(m, k) with m <= n is three look-ups."""
    return np.concatenate([[0.0], np.cumsum(np.log(np.arange(1, n + 1)))])


@functools.lru_cache(maxsize=4096)
def _critical(m: int, alpha: float) -> int:
    """The largest count c such that min(gains, losses) <= c rejects at alpha (exact
    two-sided McNemar); -1 when nothing rejects."""
    factorials = _log_factorials(m)
    k = np.arange(m // 2 + 1)
    cdf = np.cumsum(np.exp(factorials[m] - factorials[k] - factorials[m - k] - m * math.log(2)))
    below = np.flatnonzero(2 * cdf < alpha)
    return int(below[-1]) if below.size else -1


def _discordant_counts(
    n: int, rate: float
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """The likely discordant counts m ~ Binomial(n, rate) and their probabilities: every
    m within 6 standard deviations of n * rate; beyond :data:`_COUNTS` of them, every
    few (each kept m carries the probability of the counts it stands for: the power's
    steps from one m to the next are small by then)."""
    spread = 6 * math.sqrt(n * rate * (1 - rate)) + 1
    low, high = max(0, math.floor(n * rate - spread)), min(n, math.ceil(n * rate + spread))
    counts = np.arange(low, high + 1)
    factorials = _log_factorials(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        log_pmf = (
            factorials[n]
            - factorials[counts]
            - factorials[n - counts]
            + counts * np.log(rate)
            + np.where(counts < n, (n - counts) * np.log1p(-rate), 0.0)
        )
    weights = np.exp(log_pmf)
    step = 1 if len(counts) <= _COUNTS else math.ceil(len(counts) / _THINNED)
    kept = counts[step // 2 :: step]
    summed = np.add.reduceat(weights, np.arange(0, len(counts), step))[: len(kept)]
    return kept, np.asarray(summed / summed.sum(), dtype=np.float64)


@functools.lru_cache(maxsize=256)
def _rejections(
    n: int, rate: float, alpha: float
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Every (gains, losses) outcome the exact test rejects, over the likely discordant
    counts m: gains, losses, and log(P(m) C(m, gains)), flat, so that the power at any
    gain share is one vectorised sum (the bisection asks for dozens)."""
    counts, weights = _discordant_counts(n, rate)
    factorials = _log_factorials(n)
    gains, losses, logs = [np.empty(0)], [np.empty(0)], [np.empty(0)]
    for m, weight in zip(counts.tolist(), weights.tolist(), strict=True):
        c = _critical(m, alpha) if m else -1
        if c < 0 or weight <= 0.0:
            continue
        k = np.concatenate([np.arange(c + 1), np.arange(m - c, m + 1)])
        gains.append(k.astype(np.float64))
        losses.append((m - k).astype(np.float64))
        logs.append(math.log(weight) + factorials[m] - factorials[k] - factorials[m - k])
    return np.concatenate(gains), np.concatenate(losses), np.concatenate(logs)


def mcnemar_power(n: int, rate: float, change: float, alpha: float) -> float:
    """P(exact McNemar rejects at ``alpha``) when the true change is ``change``: each
    question is discordant with probability q = max(rate, change) (a change d needs at
    least d of the questions to move), so the discordant count is Binomial(n, q), and
    among them the gains are Binomial(m, 1/2 + d / 2q) (SPEC.md, "Calibration of
    labels")."""
    q = max(rate, change)
    if q <= 0.0:
        return 0.0
    share = min(1.0, 0.5 + change / (2 * q))
    gains, losses, logs = _rejections(n, q, alpha)
    with np.errstate(divide="ignore", invalid="ignore"):
        lost = np.where(losses > 0, losses * np.log1p(-share), 0.0)
        return float(np.exp(logs + gains * np.log(share) + lost).sum())


def mcnemar_mde(n: int, discordant: int, alpha: float) -> float | None:
    """The mde of a binary measure over n questions, ``discordant`` of which changed:
    the smallest d with :func:`mcnemar_power` >= :data:`POWER`, searched by bisection
    (power grows with d); None when even every question changing one way falls short
    (n below :func:`fewest`)."""
    if n == 0 or mcnemar_power(n, discordant / n, 1.0, alpha) < POWER:
        return None
    rate = discordant / n
    low, high = 0.0, 1.0
    for _ in range(_BISECTIONS):
        middle = (low + high) / 2
        if mcnemar_power(n, rate, middle, alpha) >= POWER:
            high = middle
        else:
            low = middle
    return high


def normal_mde(
    n: int,
    variance_of_mean: float,
    alpha: float,
    bound: float | None,
    smallest_p: float = 0.0,
) -> float | None:
    """The mde of a measure tested by randomization, from the variance of its mean
    difference; None beyond ``bound`` (the largest possible difference), below
    :func:`fewest` questions (clusters, when whole clusters are flipped), or when
    ``alpha`` is at most the test's ``smallest_p`` (R random sign flips never give a
    two-sided p below 2 / (R + 1): a large family's alpha / m can sit under it)."""
    if n < fewest(alpha) or alpha <= smallest_p:
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
