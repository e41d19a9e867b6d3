"""Monte Carlo checks that a label and the mde printed beside it agree (issue 38).

SPEC.md, "Calibration of labels": at a true change of exactly the reported ``mde``, the
label (Holm within its family, interval excluding 0) reads better / worse with
probability 0.80; with no true change, a label in the primary family reads better /
worse with probability at most alpha. The family here is m measures that move
together (hit@k, recall@k, MRR@k and AP@k do when the gold chunk is at rank 1 or
absent): their p-values are equal and Holm multiplies them by m, its strictest step.
Seeded; slow (10-30 s each on one core). docs/verdicts.md records the rates measured.
"""

from __future__ import annotations

import numpy as np
import pytest

from reportgen.analyse.compare import ALPHA, holm, label
from reportgen.analyse.detectable import mcnemar_mde
from reportgen.analyse.paired import PairedStatistics, paired_statistics

pytestmark = pytest.mark.slow

DRAWS = 600
"""Simulated comparisons per rate: a rate of 0.80 is then known to +- 0.016 (one s.e.)."""


def _binary_draws(
    rng: np.random.Generator, n: int, discordance: float, change: float
) -> tuple[np.ndarray, np.ndarray]:
    """before / after hit values (n x DRAWS): a question moves with probability
    q = max(discordance, change), and a move is a gain with probability 1/2 + change / 2q
    (the model the mde is computed under)."""
    q = max(discordance, change)
    before = (rng.random((n, DRAWS)) < 0.5).astype(float)
    moved = rng.random((n, DRAWS)) < q
    gain = rng.random((n, DRAWS)) < 0.5 + change / (2 * q)
    after = np.where(moved, np.where(gain, 1.0, 0.0), before)
    before = np.where(moved, np.where(gain, 0.0, 1.0), before)
    return before, after


def _statistics(before: np.ndarray, after: np.ndarray, binary: bool, m: int) -> PairedStatistics:
    columns = before.shape[1]
    (found,) = paired_statistics(
        [(before, after)], [[binary] * columns], seed=7, alphas=[[ALPHA / m] * columns]
    )
    assert found is not None
    return found


def _labelled(found: PairedStatistics, binary: bool, m: int) -> np.ndarray:
    """Per draw, whether the label reads better or worse: its p Holm-corrected among
    the m equal p-values of its family, the interval, the mde (as compare.py does)."""
    p = found.p_mcnemar if binary else found.p_randomization
    words = [
        label(holm([float(p_value)] * m)[0], float(low), float(high), mde)
        for p_value, low, high, mde in zip(p, found.ci_low, found.ci_high, found.mde, strict=True)
    ]
    return np.array([word in ("better", "worse") for word in words])


@pytest.mark.parametrize("n", [100, 400])
def test_hit_at_k_labels_fire_80_percent_of_the_time_at_the_reported_mde(n: int) -> None:
    m, discordance = 9, 0.25
    mde = mcnemar_mde(n, round(discordance * n), ALPHA / m)
    assert mde is not None
    before, after = _binary_draws(np.random.default_rng(n), n, discordance, -mde)
    rate = _labelled(_statistics(before, after, True, m), True, m).mean()
    print(f"hit@k, n = {n}, m = {m}: mde {mde:.4f}, labelled worse in {rate:.3f}")
    assert rate == pytest.approx(0.80, abs=0.05)


@pytest.mark.parametrize("n", [100, 400])
def test_recall_labels_fire_80_percent_of_the_time_at_the_reported_mde(n: int) -> None:
    m, spread = 4, 0.3
    rng = np.random.default_rng(n + 1)
    before = rng.random((n, DRAWS))
    # the mde the comparison reports at this spread of differences (its median over draws)
    pilot = _statistics(before, before + spread * rng.standard_normal((n, DRAWS)), False, m)
    mde = float(np.median(np.array(pilot.mde, dtype=float)))
    after = before + mde + spread * rng.standard_normal((n, DRAWS))
    rate = _labelled(_statistics(before, after, False, m), False, m).mean()
    print(f"recall@k, n = {n}, m = {m}: mde {mde:.4f}, labelled better in {rate:.3f}")
    assert rate == pytest.approx(0.80, abs=0.05)


@pytest.mark.parametrize("n", [100, 400])
def test_with_no_change_the_primary_family_labels_at_most_alpha_of_the_time(n: int) -> None:
    # the default primary family of one comparison: hit@k (McNemar) and recall@k
    # (randomization), independent noise, no true change
    rng = np.random.default_rng(n + 2)
    hit_before, hit_after = _binary_draws(rng, n, 0.25, 0.0)
    recall_before = rng.random((n, DRAWS))
    recall_after = recall_before + 0.3 * rng.standard_normal((n, DRAWS))
    hit = _statistics(hit_before, hit_after, True, 2)
    recall = _statistics(recall_before, recall_after, False, 2)
    fired = 0
    for draw in range(DRAWS):
        p = holm([float(hit.p_mcnemar[draw]), float(recall.p_randomization[draw])])  # type: ignore[arg-type]
        words = [
            label(p[0], hit.ci_low[draw], hit.ci_high[draw], hit.mde[draw]),
            label(p[1], recall.ci_low[draw], recall.ci_high[draw], recall.mde[draw]),
        ]
        fired += any(word in ("better", "worse") for word in words)
    rate = fired / DRAWS
    print(f"no change, n = {n}: a primary label fired in {rate:.3f}")
    assert rate <= ALPHA + 0.02
