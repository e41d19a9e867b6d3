"""Judged chunks and holes: how much of a ranked list the gold set ever looked at.

A chunk is judged for a question when the gold set grades it, whatever the grade
(grade 0 is an explicit "looked at, not relevant"). A measure computed on a list full
of unjudged chunks says as much about the gold set as about the run: these two
measures say how much (SPEC.md, "Judged chunks and holes").

``judged@k`` is judged chunks in the top k divided by k, also when the list holds fewer
than k chunks (SPEC.md: the places a short list leaves empty are holes too, as on
precision@k). ir_measures' ``Judged@k`` (0.4.3, ``judged_provider.py``) divides a short
list by its length instead; the two agree whenever a list reaches k, and the tests check
the numerators against it everywhere. ``hole@k`` = 1 - judged@k
(BEIR's and MTEB's Hole@k), for every question, so that the means keep that identity.
A question the run does not answer has judged@k 0 (as on every measure), so hole@k 1.

The expressions here are applied by :func:`reportgen.measure.measures.per_question` in
the same pass over a run's judged rows as every other measure.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

JUDGED_MEASURES = ("judged", "hole")
"""Per-question columns, each at every k."""


def judged_keys(ks: Sequence[int]) -> list[str]:
    """Column names of the judged measures, measure by measure, each at every k."""
    return [f"{name}@{k}" for name in JUDGED_MEASURES for k in ks]


def judged_counts(ks: Sequence[int]) -> list[pl.Expr]:
    """``_j@k``: judged chunks ranked within k, aggregated per question over the rows of
    judged chunks (each chunk once, at its first rank)."""
    return [(pl.col("rank") <= k).sum().alias(f"_j@{k}") for k in ks]


def judged_values(ks: Sequence[int]) -> list[pl.Expr]:
    """judged@k from ``_j@k`` (0 for a question with no judged chunk ranked)."""
    return [(pl.col(f"_j@{k}") / k).alias(f"judged@{k}") for k in ks]


def hole_values(ks: Sequence[int]) -> list[pl.Expr]:
    """hole@k from judged@k."""
    return [(1.0 - pl.col(f"judged@{k}")).alias(f"hole@{k}") for k in ks]
