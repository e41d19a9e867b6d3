"""95% intervals around each run's means, so that a reader sees how far a mean can move.

Closed forms, no resampling (they stay instant on 10,000 questions):
- binary measures (hit@k): the Wilson score interval, which behaves at 0 and 1;
- the others: mean ± 1.96 · s / √n, clipped to [0, 1] (context_chars@k, counted in
  characters, at 0 only).
An interval needs at least two questions; with fewer it is null. A measure null for
some questions (span_*@k, null without evidence) counts only those it has a value for,
as its mean does, so with none at all its interval is null, like its mean (not
``[null, null]``, which report.json's schema refuses).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from reportgen.measure.measures import MEASURES, in_means

Z = 1.959963984540054
"""The 97.5th percentile of the standard normal distribution."""

BINARY = frozenset(m.name for m in MEASURES if m.binary)
CHARACTERS = frozenset({"context_chars"})
"""Measures counted in characters, not shares: clipped at 0 only."""


def _is_binary(key: str) -> bool:
    return key.split("@")[0] in BINARY


def _wilson(key: str) -> tuple[pl.Expr, pl.Expr]:
    n = pl.col(key).count().cast(pl.Float64)
    p = pl.col(key).mean()
    denominator = 1 + Z**2 / n
    centre = (p + Z**2 / (2 * n)) / denominator
    half = Z / denominator * (p * (1 - p) / n + Z**2 / (4 * n**2)).sqrt()
    return centre - half, centre + half


def _normal(key: str) -> tuple[pl.Expr, pl.Expr]:
    half = Z * pl.col(key).std() / pl.col(key).count().cast(pl.Float64).sqrt()
    mean = pl.col(key).mean()
    if key.split("@")[0] in CHARACTERS:
        return (mean - half).clip(lower_bound=0.0), mean + half
    return (mean - half).clip(0.0, 1.0), (mean + half).clip(0.0, 1.0)


def mean_intervals(
    scores: pl.DataFrame, keys: Sequence[str], *, keep_no_relevant: bool = False
) -> dict[str, tuple[float, float] | None]:
    """Each measure's 95% interval over the questions that count in its mean."""
    counted = scores.filter(in_means(keep_no_relevant))
    if counted.height < 2:
        return dict.fromkeys(keys)
    bounds = []
    for key in keys:
        low, high = _wilson(key) if _is_binary(key) else _normal(key)
        few = pl.col(key).count() < 2
        bounds += [
            pl.when(few).then(None).otherwise(low).alias(f"{key}:low"),
            pl.when(few).then(None).otherwise(high).alias(f"{key}:high"),
        ]
    row = counted.select(bounds).row(0, named=True)
    return {
        key: None if row[f"{key}:low"] is None else (row[f"{key}:low"], row[f"{key}:high"])
        for key in keys
    }
