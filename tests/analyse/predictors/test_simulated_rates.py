"""How the trend test and the AUC interval behave over many simulated gold sets: the
trend's false alarms stay near alpha with no fall, it finds a real fall, and the AUC's
bootstrap interval covers the true AUC about 95% of the time."""

from __future__ import annotations

import numpy as np
import pytest

from reportgen.analyse.auc import auc_interval
from reportgen.analyse.predictors import ALPHA, LEVEL, RESAMPLES, SEED, cochran_armitage

pytestmark = pytest.mark.slow

SETS = 2_000

SETTINGS = {"resamples": RESAMPLES, "seed": SEED, "level": LEVEL}


def _trend_rejections(pass_by_rank: list[float], seed: int) -> float:
    """Share of simulated gold sets (150 questions, ranks 1..5 equally likely) whose
    Cochran-Armitage test says the pass rate falls beyond noise."""
    generator = np.random.default_rng(seed)
    falls = 0
    for _ in range(SETS):
        n = generator.multinomial(150, [0.2] * 5)
        right = generator.binomial(n, pass_by_rank)
        trend = cochran_armitage([1, 2, 3, 4, 5], n.tolist(), right.tolist())
        falls += trend.falls
    return falls / SETS


def test_no_fall_rarely_reads_as_one() -> None:
    # one-sided use of a two-sided test: a fall is called at about alpha / 2
    rate = _trend_rejections([0.7] * 5, seed=1)
    assert rate <= ALPHA / 2 + 0.015, rate


def test_a_fall_from_0_9_to_0_3_is_found() -> None:
    rate = _trend_rejections([0.9, 0.75, 0.6, 0.45, 0.3], seed=2)
    assert rate >= 0.99, rate


def test_the_auc_interval_covers_the_true_auc() -> None:
    """Recall-like values with ties; the true AUC from the two distributions exactly."""
    generator = np.random.default_rng(3)
    levels = np.array([0.0, 0.5, 1.0])
    p_right, p_wrong = np.array([0.1, 0.3, 0.6]), np.array([0.3, 0.3, 0.4])
    below = np.cumsum(p_wrong) - p_wrong
    truth = float((p_right * (below + 0.5 * p_wrong)).sum())
    covered = 0
    trials = 400
    for _ in range(trials):
        right = generator.choice(levels, size=90, p=p_right)
        wrong = generator.choice(levels, size=40, p=p_wrong)
        values = np.concatenate([right, wrong])
        correct = np.arange(130) < 90
        low, high = auc_interval(values, correct, **SETTINGS) or (np.nan, np.nan)
        covered += low <= truth <= high
    assert 0.91 <= covered / trials <= 0.98, covered / trials
