"""The numbers behind what predicts the answer that need NumPy: AUCs, their intervals
and the headroom's bootstrap.

Apart from predictors.py so that a report without verdicts (the cold `report` path)
never imports NumPy (~0.06 s of start-up); predictors.py imports this module when it
has verdicts to weigh.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl

from reportgen.analyse.intervals import Z

_CHUNK = 250
"""Resamples drawn at once: a (250, distinct values) matrix stays a few MB."""


def valued(questions: pl.DataFrame, key: str) -> tuple[np.ndarray, np.ndarray]:
    """The values of ``key`` and the verdicts (True: right) of the questions with a
    value (a null, as a span measure without evidence, reads as NaN and is left out)."""
    values = questions.get_column(key).cast(pl.Float64).to_numpy()
    kept = ~np.isnan(values)
    return values[kept], questions.get_column("correct").to_numpy().astype(bool)[kept]


def _levels(values: np.ndarray, correct: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per distinct value (ascending): how many right and how many wrong answers hold it."""
    _, level = np.unique(values, return_inverse=True)
    size = int(level.max()) + 1 if level.size else 0
    return (
        np.bincount(level[correct], minlength=size),
        np.bincount(level[~correct], minlength=size),
    )


def _auc_of(right: np.ndarray, wrong: np.ndarray) -> np.ndarray:
    """AUC from counts per level (last axis): each right answer beats the wrong ones
    below its level and ties half of those at it. Rows are resamples."""
    below = np.cumsum(wrong, axis=-1) - wrong
    pairs = right.sum(axis=-1) * wrong.sum(axis=-1)
    return np.asarray((right * (below + 0.5 * wrong)).sum(axis=-1) / pairs, dtype=np.float64)


def auc(values: np.ndarray, correct: np.ndarray) -> float | None:
    """P(value of a right answer > value of a wrong one) + half P(equal); None when the
    answers are all right or all wrong."""
    right, wrong = _levels(values, correct)
    if not right.sum() or not wrong.sum():
        return None
    return float(_auc_of(right, wrong))


def percentiles(draws: np.ndarray, level: float) -> tuple[float, float] | None:
    kept = draws[~np.isnan(draws)]
    if not kept.size:
        return None
    tail = (1 - level) / 2
    low, high = np.quantile(kept, [tail, 1 - tail])
    return float(low), float(high)


MULTINOMIAL_LEVELS = 64
"""Up to this many distinct values, a resample draws each group's counts per value (a
multinomial: cheap for hit, recall, MRR at k); above, it draws questions (nDCG, AP and
span measures take thousands of values, where the multinomial took 6 s at 10,000
questions and this 0.3 s). Both draw the same bootstrap distribution."""


def _resampled_aucs(
    right: np.ndarray, wrong: np.ndarray, size: int, generator: np.random.Generator
) -> np.ndarray:
    """``size`` bootstrap AUCs from the counts per level of each group."""
    n_right, n_wrong = int(right.sum()), int(wrong.sum())
    if right.size <= MULTINOMIAL_LEVELS:
        drawn_right = generator.multinomial(n_right, right / n_right, size=size)
        drawn_wrong = generator.multinomial(n_wrong, wrong / n_wrong, size=size)
        return _auc_of(drawn_right, drawn_wrong)
    levels = right.size
    right_levels = np.repeat(np.arange(levels, dtype=np.int32), right)
    wrong_levels = np.repeat(np.arange(levels, dtype=np.int32), wrong)
    picked = wrong_levels[generator.integers(0, n_wrong, (size, n_wrong), dtype=np.int32)]
    picked += (np.arange(size, dtype=np.int32) * levels)[:, None]
    drawn_wrong = np.bincount(picked.ravel(), minlength=size * levels).astype(np.int32)
    drawn_wrong = drawn_wrong.reshape(size, levels)
    # twice the wins: each right answer beats the wrong ones below its level (2 each) and
    # ties those at it (1 each); integers, halved once at the end
    doubled = 2 * np.cumsum(drawn_wrong, axis=1, dtype=np.int32) - drawn_wrong
    right_picked = right_levels[generator.integers(0, n_right, (size, n_right), dtype=np.int32)]
    wins = np.take_along_axis(doubled, right_picked, axis=1).sum(axis=1, dtype=np.int64)
    return np.asarray(wins / (2 * n_right * n_wrong), dtype=np.float64)


def auc_interval(
    values: np.ndarray, correct: np.ndarray, *, resamples: int, seed: int, level: float
) -> tuple[float, float] | None:
    """The percentile bootstrap interval of the AUC, resampling the right and the wrong
    answers separately (their counts stay fixed, so every resample has both)."""
    right, wrong = _levels(values, correct)
    if not right.sum() or not wrong.sum():
        return None
    generator = np.random.default_rng(seed)
    draws = [
        _resampled_aucs(right, wrong, min(_CHUNK, resamples - start), generator)
        for start in range(0, resamples, _CHUNK)
    ]
    return percentiles(np.concatenate(draws), level)


def delong_interval(values: np.ndarray, correct: np.ndarray) -> tuple[float, float] | None:
    """DeLong's 95% normal interval of the AUC (ties counted half), clipped to [0, 1].

    Each right answer's share of wrong ones it beats (V10) and each wrong answer's share
    of right ones beating it (V01) give Var = var(V10) / n_right + var(V01) / n_wrong
    (DeLong, DeLong & Clarke-Pearson 1988), read here off the counts per distinct value.
    """
    right, wrong = _levels(values, correct)
    n_right, n_wrong = int(right.sum()), int(wrong.sum())
    if n_right < 2 or n_wrong < 2:
        return None
    estimate = float(_auc_of(right, wrong))
    beats = (np.cumsum(wrong) - wrong + 0.5 * wrong) / n_wrong
    beaten = (n_right - np.cumsum(right) + 0.5 * right) / n_right
    spread_right = float((right * (beats - estimate) ** 2).sum()) / (n_right - 1)
    spread_wrong = float((wrong * (beaten - estimate) ** 2).sum()) / (n_wrong - 1)
    half = Z * math.sqrt(spread_right / n_right + spread_wrong / n_wrong)
    return max(estimate - half, 0.0), min(estimate + half, 1.0)


def headroom_draws(counts: dict[str, int], size: int, seed: int) -> np.ndarray:
    """Resampled cells: rows (retrieved_correct, retrieved_wrong, missed_correct,
    missed_wrong), the questions of the cells drawn with replacement."""
    n = sum(counts.values())
    shares = (
        np.array(
            [
                counts[c]
                for c in ("retrieved_correct", "retrieved_wrong", "missed_correct", "missed_wrong")
            ]
        )
        / n
    )
    return np.random.default_rng(seed).multinomial(n, shares, size=size).astype(np.float64)


def retrieval_draws(cells: np.ndarray) -> np.ndarray:
    """Per resample: the missed-and-wrong questions times the retrieved ones' pass rate
    (NaN where a resample retrieved none)."""
    rc, rw, _, mw = cells.T
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.asarray(mw * rc / (rc + rw), dtype=np.float64)
