"""Run replicates: one system run several times (an ANN index rebuilt, a sampled query
rewriter), given under one name (``dense=a.trec dense=b.trec``).

SPEC.md, "Replicates and judge trials": per question, a measure is the mean over the
replicates; the run's mean is the mean of those. A question is flaky when its hit@k_ctx
differs between replicates. The spread between the replicates' own means is the run's
noise floor: a change smaller than it is what rerunning the same system gives.

Each replicate is measured on its own first (so every check a run gets, each replicate
gets), then they are folded into one run that keeps them (``RunScores.replicates``,
folded in measure/scoring.py with the frames made here). The whole-number columns
(``n_retrieved``, ``first_relevant_rank``, ``context_chars@k``) and the ranked lists the
other analyses read (the cutoff, the stale and leak checks, the pages' top k) are the
first replicate's.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl


def _folded_status() -> pl.Expr:
    """A question one replicate answered counts as answered (the others' 0s are in the
    mean)."""
    status = pl.col("status")
    return pl.when((status == "scored").any()).then(pl.lit("scored")).otherwise(status.first())


def mean_scores(frames: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """The replicates' per-question frames as one: each measure (every float column) the
    mean over the replicates, the first replicate's counts; a question any replicate
    answered counts as answered (the others' 0s are in the mean)."""
    columns = frames[0].columns
    means = [name for name, dtype in frames[0].schema.items() if dtype.is_float()]
    kept = [name for name in columns if name not in (*means, "qid", "status")]
    return (
        pl.concat(
            [f.select(columns).with_columns(replicate=pl.lit(i)) for i, f in enumerate(frames)],
            how="vertical_relaxed",
        )
        .sort("replicate", maintain_order=True)
        .group_by("qid", maintain_order=True)
        .agg(
            _folded_status().alias("status"),
            *[pl.col(name).first() for name in kept],
            *[pl.col(name).mean() for name in means],
        )
        .select(columns)
        .sort("qid")
    )


def flaky_ids(frames: Sequence[pl.DataFrame], context_k: int) -> list[str]:
    """Questions whose hit@k_ctx differs between the replicates (SPEC.md)."""
    if len(frames) < 2:
        return []
    key = f"hit@{context_k}"
    hits = pl.concat(frame.select("qid", key) for frame in frames)
    varied = hits.group_by("qid").agg(pl.col(key).n_unique() > 1).filter(pl.col(key))
    return sorted(varied.get_column("qid").to_list())
