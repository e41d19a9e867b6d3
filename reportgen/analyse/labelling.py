"""The labelling pool: which unjudged (question, chunk) pairs a person should grade first.

TREC builds its judgments by pooling: the top k of every run, judged once. Here the pool
is the pairs in the top k_ctx of any run that the gold set does not grade nor forbid
(SPEC.md, "Judged chunks and holes"), each pair once. Questions answered correctly with no
relevant chunk sent (``missed_correct``) come first: the answer came from somewhere,
most likely from a relevant chunk nobody judged. Then the pairs more runs returned,
then the better best rank. Unanswerable questions are left out: a grade for one of
their chunks contradicts the flag, and the gold set, not the pool, must settle that.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

import polars as pl

from reportgen.core.model import GoldSet, Run

POOL_SCHEMA = pl.Schema(
    [
        ("qid", pl.String),
        ("chunk_id", pl.String),
        ("missed_correct", pl.Boolean),
        ("runs", pl.Int64),
        ("best_rank", pl.Int64),
        ("run_names", pl.List(pl.String)),
    ]
)
"""One row per unjudged pair, in the order a person should grade them."""


def labelling_pool(
    gold: GoldSet,
    runs: Sequence[Run],
    k: int,
    missed_correct: Collection[str] = (),
) -> pl.DataFrame:
    """The unjudged pairs of the top ``k`` of every run, ordered (POOL_SCHEMA)."""
    answerable = gold.questions.filter(~pl.col("unanswerable")).select("qid")
    tops = [
        run.results.filter(pl.col("rank") <= k)
        .select("qid", "chunk_id", "rank")
        .with_columns(run=pl.lit(run.name))
        for run in runs
    ]
    if not tops:
        return pl.DataFrame(schema=POOL_SCHEMA)
    first = pl.col("qid").is_in(pl.Series(list(missed_correct), dtype=pl.String).implode())
    return (
        pl.concat(tops)
        .join(answerable, on="qid", how="semi")
        .join(gold.judgments.select("qid", "chunk_id"), on=["qid", "chunk_id"], how="anti")
        # a forbidden chunk is settled (never relevant): a grade for it would be refused
        .join(gold.forbidden.select("qid", "chunk_id"), on=["qid", "chunk_id"], how="anti")
        .group_by("qid", "chunk_id")
        .agg(
            runs=pl.col("run").n_unique().cast(pl.Int64),
            best_rank=pl.col("rank").min().cast(pl.Int64),
            run_names=pl.col("run").unique().sort(),
        )
        .with_columns(missed_correct=first)
        .sort(
            ["missed_correct", "runs", "best_rank", "qid", "chunk_id"],
            descending=[True, True, False, False, False],
        )
        .select(POOL_SCHEMA.names())
    )


def limited(pool: pl.DataFrame, limit: int | None, per_question: int | None) -> pl.DataFrame:
    """The first ``per_question`` pairs of each question, then the first ``limit`` in all,
    keeping the pool's order."""
    # a count above the pool's size keeps it all (and a 30-digit one is no 64-bit int)
    if per_question is not None and per_question < pool.height:
        pool = pool.filter(pl.int_range(pl.len()).over("qid") < per_question)
    return pool if limit is None or limit >= pool.height else pool.head(limit)
