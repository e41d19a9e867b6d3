"""The paired statistics' arithmetic: NumPy resampling, imported only to compare.

compare.py says what is compared and builds the report's entries; this module takes
each comparison's (questions x measures) matrices and returns arrays: the bootstrap
and sign-flip resamples as matrix products, McNemar's test, wins, ties and losses.
The resamples depend only on the seed and n, so the pairs sharing n are resampled
together: one draw per block for all of them (see :func:`paired_statistics`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from threadpoolctl import threadpool_limits

from reportgen.analyse.detectable import (
    NEEDED_FOR,
    mcnemar_mde,
    mcnemar_n_needed,
    normal_mde,
    normal_n_needed,
)
from reportgen.analyse.resampling import LEVEL, RESAMPLES, TOLERANCE
from reportgen.core.records import dataclass

BOOTSTRAP_BLOCK_CELLS = 500_000
SIGN_FLIP_BLOCK_CELLS = 4_000_000
"""Resamples are drawn in blocks of at most this many (resample, question) cells: memory
stays bounded, and these sizes were the fastest at 10,000 questions on 2 cores."""

STACKED_COLUMNS = 1_000
"""At most this many (pair, measure) columns are resampled together: the bootstrap
means (resamples x columns) stay under 80 MB however many runs are compared. More
columns re-draw the same resamples (same seed and n) for the next batch."""

Matrix = npt.NDArray[np.float64]


def _blocks(resamples: int, n: int, cells: int) -> list[int]:
    size = max(1, cells // max(n, 1))
    full, rest = divmod(resamples, size)
    return [size] * full + ([rest] if rest else [])


def bootstrap_interval(
    diffs: Matrix,
    rng: np.random.Generator,
    resamples: int = RESAMPLES,
    sizes: Matrix | None = None,
) -> tuple[Matrix, Matrix]:
    """Percentile interval of the mean difference, per column of ``diffs`` (n x M).

    Each resample is a row of counts (how often each question was drawn), so a
    block of resamples is one matrix product with the differences. With ``sizes``,
    the rows of ``diffs`` are clusters' summed differences and whole clusters are
    drawn: a resample's mean is its drawn sums over its drawn questions.
    """
    n = diffs.shape[0]
    means = []
    for size in _blocks(resamples, n, BOOTSTRAP_BLOCK_CELLS):
        draws = rng.integers(0, n, size=(size, n), dtype=np.int32)
        offsets = (np.arange(size, dtype=np.int32) * n)[:, None]
        counts = np.bincount((draws + offsets).ravel(), minlength=size * n).reshape(size, n)
        if sizes is None:
            means.append(counts @ diffs / n)
        else:
            means.append((counts @ diffs) / (counts @ sizes)[:, None])
    boot = np.vstack(means)
    tail = (1 - LEVEL) / 2
    low, high = np.quantile(boot, [tail, 1 - tail], axis=0)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def _two_sided(null: Matrix, observed: Matrix, adjustment: int) -> Matrix:
    """scipy.stats.permutation_test's two-sided p: twice the smaller tail, at most 1."""
    less = ((null <= observed + TOLERANCE).sum(axis=0) + adjustment) / (len(null) + adjustment)
    greater = ((null >= observed - TOLERANCE).sum(axis=0) + adjustment) / (len(null) + adjustment)
    return np.asarray(np.minimum(1.0, 2 * np.minimum(less, greater)), dtype=np.float64)


def randomization_p(
    diffs: Matrix, rng: np.random.Generator, resamples: int = RESAMPLES
) -> tuple[Matrix, npt.NDArray[np.bool_]]:
    """Two-sided p-value of the mean difference per column, and whether it is exact.

    Under the null each question's difference is as likely to have either sign.
    Questions whose values are equal never move the statistic, so when the m that
    differ allow 2^m <= resamples every flip is enumerated (an exact p-value, as
    scipy gives); otherwise random flips, with the +1 correction that keeps a Monte
    Carlo p-value valid.
    """
    n, columns = diffs.shape
    observed = diffs.sum(axis=0)
    p = np.ones(columns)
    changed = np.abs(diffs) > TOLERANCE
    exact = changed.sum(axis=0) <= math.floor(math.log2(resamples))
    sampled = ~exact
    if sampled.any():
        chosen = diffs[:, sampled]
        nulls = []
        for size in _blocks(resamples, n, SIGN_FLIP_BLOCK_CELLS):
            # Flipping the questions marked 1 turns sum(d) into sum(d) - 2 * sum(flipped d).
            flipped = rng.integers(0, 2, size=(size, n), dtype=np.int8).astype(np.float64)
            nulls.append(chosen.sum(axis=0) - 2.0 * (flipped @ chosen))
        p[sampled] = _two_sided(np.vstack(nulls), observed[sampled], adjustment=1)
    for column in np.flatnonzero(exact):
        values = diffs[changed[:, column], column]
        m = len(values)
        flips = 1.0 - 2.0 * ((np.arange(2**m)[:, None] >> np.arange(m)) & 1)
        p[column] = _two_sided(
            (flips @ values)[:, None], observed[column : column + 1], adjustment=0
        )[0]
    return p, exact


def mcnemar_p(before: npt.NDArray[np.float64], after: npt.NDArray[np.float64]) -> float:
    """Exact two-sided McNemar p-value of a binary measure before and after."""
    lost = int(((before > 0.5) & (after < 0.5)).sum())
    gained = int(((before < 0.5) & (after > 0.5)).sum())
    return exact_mcnemar(lost, gained)


def exact_mcnemar(lost: int, gained: int) -> float:
    """Exact two-sided McNemar p-value: the discordant questions as fair coin flips.

    The binomial tail is summed in exact integers, each coefficient from the one
    before (C(d, i+1) = C(d, i) * (d - i) / (i + 1)): one multiplication per term, not
    a fresh ``math.comb``, which cost ~1 s over 15 pairs at 10,000 questions.
    """
    discordant = lost + gained
    if discordant == 0:
        return 1.0
    term = tail = 1
    for i in range(min(lost, gained)):
        term = term * (discordant - i) // (i + 1)
        tail += term
    return min(1.0, 2 * tail / (1 << discordant))


@dataclass(frozen=True)
class _Pair:
    """One comparison's paired values: questions (sorted by id) x measures.

    ``clusters`` numbers each question's cluster (0, 1, ... in order of first
    appearance), or is None when every question stands alone; ``sums`` are then the
    clusters' summed differences and ``sizes`` their question counts.
    """

    old: Matrix
    new: Matrix
    diffs: Matrix
    clusters: npt.NDArray[np.int64] | None
    sums: Matrix
    sizes: Matrix | None

    @property
    def key(self) -> tuple[int, bytes | None]:
        """Pairs resampled with the same draws: same n and the same clusters."""
        return self.diffs.shape[0], None if self.clusters is None else self.clusters.tobytes()


def _pair(old: Matrix, new: Matrix, clusters: npt.NDArray[np.int64] | None) -> _Pair:
    old, new = old.astype(np.float64), new.astype(np.float64)
    diffs = new - old
    diffs[np.abs(diffs) <= TOLERANCE] = 0.0  # values read back from CSV differ in the last bits
    if clusters is None or len(np.unique(clusters)) == len(clusters):
        return _Pair(old, new, diffs, None, diffs, None)
    count = int(clusters.max()) + 1 if len(clusters) else 0
    sums = np.zeros((count, diffs.shape[1]))
    np.add.at(sums, clusters, diffs)
    sums[np.abs(sums) <= TOLERANCE] = 0.0
    sizes = np.bincount(clusters, minlength=count).astype(np.float64)
    return _Pair(old, new, diffs, clusters, sums, sizes)


def variance_of_mean(pair_diffs: Matrix, sums: Matrix, sizes: Matrix | None) -> Matrix:
    """Per column, the variance of the mean difference: s^2 / n for independent
    questions; with clusters, the cluster-robust C / (C - 1) * sum_c (S_c - n_c
    mean)^2 / n^2, which gives s^2 / n again when every cluster has one question."""
    n = pair_diffs.shape[0]
    if n < 2:
        return np.zeros(pair_diffs.shape[1])
    if sizes is None:
        return np.asarray(pair_diffs.var(axis=0, ddof=1) / n, dtype=np.float64)
    count = len(sizes)
    if count < 2:
        return np.full(pair_diffs.shape[1], np.inf)
    mean = pair_diffs.mean(axis=0)
    residual = sums - sizes[:, None] * mean[None, :]
    return np.asarray(count / (count - 1) * (residual**2).sum(axis=0) / n**2, dtype=np.float64)


Resampled = tuple[Matrix, Matrix, Matrix, npt.NDArray[np.bool_]]
"""A pair's (ci_low, ci_high, p_randomization, randomization_exact), one value per measure."""


def _resampled(pairs: Sequence[_Pair], seed: int) -> list[Resampled]:
    """Each pair's (low, high, p_randomization, exact), the draws shared by equal n.

    Every group of pairs with the same number of questions (and the same clusters) is
    resampled in one go: their difference matrices (clusters' sums) side by side, the
    generator seeded afresh per group, so each pair gets exactly the draws it would
    get alone. The products run on one BLAS thread: OpenBLAS's extra threads
    spin-wait, and on a busy 2-core machine they made the bootstrap 3-6x slower than
    one thread (6-13 s against 2 s).
    """
    nothing: Resampled = (np.empty(0), np.empty(0), np.empty(0), np.empty(0, dtype=np.bool_))
    results = [nothing] * len(pairs)
    groups: dict[tuple[int, bytes | None], list[list[int]]] = {}
    for index, pair in enumerate(pairs):
        if not (pair.diffs.shape[0] and pair.diffs.shape[1]):
            continue
        chunks = groups.setdefault(pair.key, [[]])
        if sum(pairs[i].diffs.shape[1] for i in chunks[-1]) + pair.diffs.shape[1] > STACKED_COLUMNS:
            chunks.append([])
        chunks[-1].append(index)
    for members in (chunk for chunks in groups.values() for chunk in chunks if chunk):
        stacked = np.hstack([pairs[i].sums for i in members])
        sizes = pairs[members[0]].sizes
        with threadpool_limits(limits=1, user_api="blas"):
            low, high = bootstrap_interval(stacked, np.random.default_rng(seed), sizes=sizes)
            p_random, exact = randomization_p(stacked, np.random.default_rng(seed))
        bounds = np.cumsum([0, *(pairs[i].diffs.shape[1] for i in members)])
        for i, start, stop in zip(members, bounds[:-1], bounds[1:], strict=True):
            results[i] = (
                low[start:stop],
                high[start:stop],
                p_random[start:stop],
                exact[start:stop],
            )
    return results


@dataclass(frozen=True)
class PairedStatistics:
    """One comparison's statistics, one value per measure (a column of its matrices)."""

    before: Matrix
    after: Matrix
    difference: Matrix
    ci_low: Matrix
    ci_high: Matrix
    p_randomization: Matrix
    randomization_exact: npt.NDArray[np.bool_]
    p_mcnemar: list[float | None]
    """McNemar's p for the binary measures, None for the others."""
    wins: npt.NDArray[np.int64]
    ties: npt.NDArray[np.int64]
    losses: npt.NDArray[np.int64]
    mde: list[float | None]
    """The minimum detectable effect per measure (detectable.py), None when none is."""
    n_needed: list[int]
    """Questions that would make a change of :data:`NEEDED_FOR` detectable."""
    clusters: int
    """Clusters among the paired questions (n when every question stands alone)."""
    design_effect: Matrix
    """Per measure, the mean's variance with clusters over that of independent questions."""
    clustered: bool


def _detectable(
    pair: _Pair,
    binary: Sequence[bool],
    alphas: Sequence[float],
    bounds: Sequence[float | None],
) -> tuple[list[float | None], list[int], Matrix]:
    """Each measure's mde, questions needed for a change of 0.10, and design effect,
    each at its own per-test alpha (the one its label's correction implies)."""
    n = pair.diffs.shape[0]
    variances = variance_of_mean(pair.diffs, pair.sums, pair.sizes)
    independent = variance_of_mean(pair.diffs, pair.diffs, None)
    design = np.where(independent > 0, variances / np.where(independent > 0, independent, 1), 1.0)
    found: list[float | None] = []
    needed: list[int] = []
    for column, (flag, alpha, bound) in enumerate(zip(binary, alphas, bounds, strict=True)):
        if flag and pair.clusters is None:
            discordant = int((np.abs(pair.diffs[:, column]) > TOLERANCE).sum())
            found.append(mcnemar_mde(n, discordant, alpha))
            needed.append(mcnemar_n_needed(n, discordant, alpha, NEEDED_FOR))
            continue
        variance = float(variances[column])
        if not math.isfinite(variance):
            # one cluster: its variance cannot be estimated (no mde); the questions'
            # own spread stands in for how many more would be needed
            variance = float(independent[column])
        if variance == 0.0:
            # no question moved: the spread of two independent runs stands in for it
            variance = float(
                (pair.old[:, column].var(ddof=1) + pair.new[:, column].var(ddof=1)) / n
                if n > 1
                else 0.0
            )
        if variance == 0.0 and bound is not None:
            # every value the same on both sides: as if each question could move by the range
            variance = bound**2 / max(n, 1)
        # the test can flip only as many signs as there are clusters
        units = n if pair.sizes is None else len(pair.sizes)
        found.append(normal_mde(units, variance, alpha, bound, smallest_p=2 / (RESAMPLES + 1)))
        needed.append(normal_n_needed(n, variance, alpha, NEEDED_FOR))
    return found, needed, np.asarray(design, dtype=np.float64)


def paired_statistics(
    matrices: Sequence[tuple[Matrix, Matrix]],
    binary: Sequence[Sequence[bool]],
    seed: int,
    *,
    clusters: Sequence[npt.NDArray[np.int64] | None] | None = None,
    bounds: Sequence[Sequence[float | None]] | None = None,
    alphas: Sequence[Sequence[float]] | None = None,
) -> list[PairedStatistics | None]:
    """Each comparison's statistics from its (before, after) matrices (questions x
    measures, rows paired by question), in the order given; None for one with no
    question. ``binary`` says, per comparison and column, which measures also get
    McNemar's test; ``clusters`` numbers each row's cluster (None: independent);
    ``bounds`` is each measure's largest possible difference (None: unbounded);
    ``alphas`` the per-test alpha each mde is computed at (default 0.05)."""
    clusters = clusters or [None] * len(matrices)
    bounds = bounds or [[1.0] * len(flags) for flags in binary]
    alphas = alphas or [[0.05] * len(flags) for flags in binary]
    pairs = [_pair(old, new, groups) for (old, new), groups in zip(matrices, clusters, strict=True)]
    found: list[PairedStatistics | None] = []
    for pair, flags, limits, levels, (low, high, p_random, exact) in zip(
        pairs, binary, bounds, alphas, _resampled(pairs, seed), strict=True
    ):
        if not pair.diffs.shape[0]:
            found.append(None)
            continue
        columns = range(pair.diffs.shape[1])
        olds = [pair.old[:, column] for column in columns]
        news = [pair.new[:, column] for column in columns]
        diffs = [pair.diffs[:, column] for column in columns]
        mde, needed, design = _detectable(pair, flags, levels, limits)
        found.append(
            PairedStatistics(
                before=np.array([old.mean() for old in olds]),
                after=np.array([new.mean() for new in news]),
                difference=np.array([diff.mean() for diff in diffs]),
                ci_low=low,
                ci_high=high,
                p_randomization=p_random,
                randomization_exact=exact,
                p_mcnemar=[
                    mcnemar_p(old, new) if flag else None
                    for old, new, flag in zip(olds, news, flags, strict=True)
                ],
                wins=np.array([int((diff > TOLERANCE).sum()) for diff in diffs]),
                ties=np.array([int((np.abs(diff) <= TOLERANCE).sum()) for diff in diffs]),
                losses=np.array([int((diff < -TOLERANCE).sum()) for diff in diffs]),
                mde=mde,
                n_needed=needed,
                clusters=pair.diffs.shape[0] if pair.sizes is None else len(pair.sizes),
                design_effect=design,
                clustered=pair.clusters is not None,
            )
        )
    return found
