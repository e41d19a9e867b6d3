"""The paired statistics: hand-worked values, scipy as the independent reference."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from reportgen.analyse.compare import RESAMPLES, holm, label
from reportgen.analyse.paired import bootstrap_interval, mcnemar_p, randomization_p


def _scipy_p(after: np.ndarray, before: np.ndarray, resamples: int) -> float:
    result = stats.permutation_test(
        (after, before),
        lambda a, b, axis: np.mean(a - b, axis=axis),
        permutation_type="samples",
        vectorized=True,
        n_resamples=resamples,
        alternative="two-sided",
        rng=np.random.default_rng(0),
    )
    return float(result.pvalue)


def test_three_equal_gains_hand_worked() -> None:
    # diffs 1, 1, 1: the 8 sign flips sum to 3 (once), 1 (3x), -1 (3x), -3 (once);
    # P(null >= 3) = 1/8, so two-sided p = 2/8.
    p, exact = randomization_p(np.ones((3, 1)), np.random.default_rng(0))
    assert exact[0]
    assert p[0] == pytest.approx(0.25)


@pytest.mark.parametrize("seed", range(6))
def test_exact_p_matches_scipy_permutation_test(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 12))
    before = rng.random(n).round(2)
    after = np.where(rng.random(n) < 0.3, before, rng.random(n).round(2))
    p, exact = randomization_p((after - before)[:, None], np.random.default_rng(1))
    assert exact[0]
    assert p[0] == pytest.approx(_scipy_p(after, before, 2**n), abs=1e-12)


def test_sampled_p_is_close_to_scipy_and_deterministic() -> None:
    rng = np.random.default_rng(7)
    before = rng.random(40)
    after = before + rng.normal(0.08, 0.3, 40)
    diffs = (after - before)[:, None]
    first, exact = randomization_p(diffs, np.random.default_rng(3))
    again, _ = randomization_p(diffs, np.random.default_rng(3))
    assert not exact[0]
    assert first[0] == again[0]
    assert first[0] == pytest.approx(_scipy_p(after, before, 50_000), abs=0.02)


def test_no_difference_gives_p_one_and_a_zero_interval() -> None:
    zeros = np.zeros((25, 3))
    p, _ = randomization_p(zeros, np.random.default_rng(0))
    low, high = bootstrap_interval(zeros, np.random.default_rng(0))
    assert list(p) == [1.0, 1.0, 1.0]
    assert list(low) == [0.0, 0.0, 0.0] and list(high) == [0.0, 0.0, 0.0]


def test_bootstrap_interval_of_a_constant_difference_is_that_constant() -> None:
    low, high = bootstrap_interval(np.full((10, 1), 0.5), np.random.default_rng(0))
    assert low[0] == pytest.approx(0.5) and high[0] == pytest.approx(0.5)


def test_bootstrap_interval_covers_the_mean_and_is_reproducible() -> None:
    diffs = np.array([[1.0], [0.0], [0.0], [1.0], [-1.0], [1.0], [0.0], [1.0]])
    low, high = bootstrap_interval(diffs, np.random.default_rng(5))
    again = bootstrap_interval(diffs, np.random.default_rng(5))
    assert low[0] < 3 / 8 < high[0]
    assert (low[0], high[0]) == (again[0][0], again[1][0])
    assert low[0] >= -1 and high[0] <= 1


@pytest.mark.parametrize(
    ("lost", "gained"), [(0, 5), (1, 9), (3, 3), (2, 7), (0, 0), (10, 25), (950, 1060)]
)
def test_mcnemar_matches_the_exact_binomial_test(lost: int, gained: int) -> None:
    before = np.array([1.0] * lost + [0.0] * gained + [1.0, 0.0])
    after = np.array([0.0] * lost + [1.0] * gained + [1.0, 0.0])
    expected = 1.0 if lost + gained == 0 else stats.binomtest(lost, lost + gained).pvalue
    assert mcnemar_p(before, after) == pytest.approx(expected, rel=1e-12)


def test_mcnemar_hand_worked() -> None:
    # 5 gained, 0 lost: P(X <= 0) = 1/32 for X ~ Bin(5, 1/2); two-sided 2/32.
    assert mcnemar_p(np.zeros(5), np.ones(5)) == pytest.approx(0.0625)


def test_holm_hand_worked() -> None:
    # sorted 0.01, 0.03, 0.04 scaled by 3, 2, 1: 0.03, 0.06, 0.04 -> running max 0.06.
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])
    assert holm([]) == []


@pytest.mark.parametrize(
    ("p_holm", "low", "high", "expected"),
    [
        (0.01, 0.02, 0.10, "better"),
        (0.01, -0.10, -0.02, "worse"),
        (0.01, -0.01, 0.10, "within noise"),  # significant, but the interval holds 0
        (0.20, 0.02, 0.10, "within noise"),  # interval clear of 0, test not significant
        (0.05, 0.02, 0.10, "within noise"),  # exactly alpha is not below it
    ],
)
def test_label_needs_both_the_test_and_the_interval(
    p_holm: float, low: float, high: float, expected: str
) -> None:
    assert label(p_holm, low, high) == expected


def test_resamples_are_documented_as_ten_thousand() -> None:
    assert RESAMPLES == 10_000
