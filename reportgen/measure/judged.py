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
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from reportgen.core.model import GoldSet, Run

JUDGED_MEASURES = ("judged", "hole")
"""Per-question columns, each at every k."""


def judged_keys(ks: Sequence[int]) -> list[str]:
    """Column names of the judged measures, measure by measure, each at every k."""
    return [f"{name}@{k}" for name in JUDGED_MEASURES for k in ks]


def judged_scores(gold: GoldSet, run: Run, ks: Sequence[int]) -> pl.DataFrame:
    """(qid, judged@k..., hole@k...) for every gold question.

    Only the rows whose chunk the gold set judges for some question are read.
    """
    judgments = gold.judgments.select("qid", "chunk_id").unique()
    ids = judgments.get_column("chunk_id").implode()
    judged = (
        run.results.select("qid", "chunk_id", "rank")
        .filter(pl.col("chunk_id").is_in(ids))
        .join(judgments, on=["qid", "chunk_id"], how="inner")
        # a chunk repeated in one list counts once, at its first rank (SPEC.md)
        .group_by("qid", "chunk_id")
        .agg(pl.col("rank").min())
        .group_by("qid")
        .agg((pl.col("rank") <= k).sum().alias(f"_j@{k}") for k in ks)
    )
    values = [(pl.col(f"_j@{k}") / k).alias(f"judged@{k}") for k in ks]
    holes = [(1.0 - pl.col(f"judged@{k}")).alias(f"hole@{k}") for k in ks]
    return (
        gold.questions.select("qid")
        .join(judged, on="qid", how="left")
        .with_columns(pl.col("^_j@.*$").fill_null(0))
        .with_columns(values)
        .with_columns(holes)
        .select("qid", *judged_keys(ks))
        .sort("qid")
    )
