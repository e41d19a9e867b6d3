"""Monte Carlo checks that the mde and the clustered intervals mean what they say.

At the mde a comparison reports, its own test detects the change 80% of the time
(0.80 +- 0.05); the mde shrinks as 1/sqrt(n); with clustered questions the 95%
intervals cover the true change 93-97% of the time when clusters are resampled, and
less when questions are taken as independent. Seeded; slow (a few seconds each).
"""

from __future__ import annotations

import numpy as np
import pytest

from reportgen.analyse.detectable import mcnemar_mde, normal_mde
from reportgen.analyse.paired import paired_statistics

ALPHA = 0.05
DATASETS = 1000

pytestmark = pytest.mark.slow


def _binary_datasets(
    rng: np.random.Generator, n: int, discordance: float, change: float
) -> tuple[np.ndarray, np.ndarray]:
    """before/after hit values (n x DATASETS): a question changes with probability
    ``discordance``; a change is a gain with probability 1/2 + change / (2 discordance)."""
    before = (rng.random((n, DATASETS)) < 0.5).astype(float)
    moved = rng.random((n, DATASETS)) < discordance
    gain = rng.random((n, DATASETS)) < 0.5 + change / (2 * discordance)
    # a gain is a miss then a hit, a loss a hit then a miss
    after = np.where(moved, np.where(gain, 1.0, 0.0), before)
    before = np.where(moved, np.where(gain, 0.0, 1.0), before)
    return before, after


def _detection_rate(before: np.ndarray, after: np.ndarray, binary: bool) -> float:
    (found,) = paired_statistics([(before, after)], [[binary] * before.shape[1]], seed=7)
    assert found is not None
    p = np.array(found.p_mcnemar if binary else found.p_randomization, dtype=float)
    return float((p < ALPHA).mean())


@pytest.mark.parametrize("n", [200, 400])
def test_hit_at_k_is_detected_80_percent_of_the_time_at_its_mde(n: int) -> None:
    discordance = 0.2
    mde = mcnemar_mde(n, round(discordance * n), ALPHA)
    assert mde is not None
    before, after = _binary_datasets(np.random.default_rng(n), n, discordance, mde)
    assert _detection_rate(before, after, binary=True) == pytest.approx(0.80, abs=0.05)


@pytest.mark.parametrize("n", [100, 300])
def test_recall_and_ndcg_are_detected_80_percent_of_the_time_at_their_mde(n: int) -> None:
    rng = np.random.default_rng(n)
    spread = 0.3
    # the mde each comparison would report (the spread of its differences), typically
    before = rng.random((n, DATASETS))
    (reported,) = paired_statistics(
        [(before, before + spread * rng.standard_normal((n, DATASETS)))],
        [[False] * DATASETS],
        seed=7,
    )
    assert reported is not None
    mde = float(np.median(np.array(reported.mde, dtype=float)))
    after = before + mde + spread * rng.standard_normal((n, DATASETS))
    assert _detection_rate(before, after, binary=False) == pytest.approx(0.80, abs=0.05)


def test_the_mde_shrinks_as_one_over_the_square_root_of_n() -> None:
    binary = [mcnemar_mde(n, n // 5, ALPHA) for n in (100, 400, 1600)]
    other = [normal_mde(n, 0.09 / n, ALPHA, 1.0) for n in (100, 400, 1600)]
    for found in (binary, other):
        assert all(value is not None for value in found)
        ratios = [found[i + 1] / found[i] for i in range(2)]  # type: ignore[operator]
        assert ratios == pytest.approx([0.5, 0.5], abs=0.05)


def _clustered(rng: np.random.Generator, icc: float, clusters: int, size: int) -> np.ndarray:
    """Per-question differences (n x DATASETS), true mean 0, intra-cluster correlation icc."""
    shared = np.repeat(rng.standard_normal((clusters, DATASETS)), size, axis=0)
    own = rng.standard_normal((clusters * size, DATASETS))
    return np.sqrt(icc) * shared + np.sqrt(1 - icc) * own


def _coverage(diffs: np.ndarray, groups: np.ndarray | None) -> float:
    (found,) = paired_statistics(
        [(np.zeros_like(diffs), diffs)],
        [[False] * diffs.shape[1]],
        seed=11,
        clusters=[groups],
        bounds=[[None] * diffs.shape[1]],
    )
    assert found is not None
    return float(((found.ci_low <= 0) & (found.ci_high >= 0)).mean())


@pytest.mark.parametrize("icc", [0.0, 0.3, 0.6])
def test_clustered_intervals_cover_95_percent_and_independent_ones_fall_short(icc: float) -> None:
    clusters, size = 80, 5
    diffs = _clustered(np.random.default_rng(int(icc * 10)), icc, clusters, size)
    groups = np.repeat(np.arange(clusters), size).astype(np.int64)
    assert 0.93 <= _coverage(diffs, groups) <= 0.97
    if icc > 0:
        assert _coverage(diffs, None) < 0.93
