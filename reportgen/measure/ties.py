"""Ties across a cutoff: questions whose measure at k depends on the tie-break.

A run ranked by score puts equal scores in an arbitrary order (chunk id descending, as
trec_eval does); where the scores at positions k and k + 1 are equal, the measures at k
depend on that order, and the report says so.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from reportgen.measure.blocks import block_positions, block_starts
from reportgen.model import Run

_STARTS = block_starts()


def ties_at_cutoffs(run: Run, ks: Sequence[int]) -> dict[int, list[str]]:
    """Questions whose score at position k equals the score at position k + 1.

    Only meaningful when the order came from scores: the measure at k then depends
    on an arbitrary tie-break (chunk id descending).
    """
    if run.order != "score" or not run.has_scores:
        return {}
    same_score = pl.col("score") == pl.col("score").shift(-1)
    # loaded with nothing dropped, a run's ranks are 1, 2, 3... in each block already
    if (run.in_blocks and not run.repeated_chunks) or _numbered_in_blocks(run.results):
        # a position is a rank, and the next row continues the same list exactly when
        # its rank is one more: numbers only, no question ids compared
        next_in_list = pl.col("rank").shift(-1) == pl.col("rank") + 1
        tied = run.results.select(
            "qid", pl.col("rank").alias("position"), (next_in_list & same_score).alias("tie")
        )
    else:
        same_question = pl.col("qid") == pl.col("qid").shift(-1)
        tied = _positions(run.results).select(
            "qid", "position", (same_question & same_score).alias("tie")
        )
    tied = tied.filter(pl.col("tie") & pl.col("position").is_in(list(ks))).sort("qid")
    ties: dict[int, list[str]] = {}
    for k in ks:
        qids = tied.filter(pl.col("position") == k).get_column("qid").to_list()
        if qids:
            ties[k] = qids
    return ties


def _numbered_in_blocks(results: pl.DataFrame) -> bool:
    """Whether each question's rows are together and ranked 1, 2, 3... in row order.

    Loaded runs without repeated chunks are: then a row's position is its rank.
    Rank 1 exactly where the question changes, every other rank one more than the
    row before, and no question starting twice.
    """
    rank = pl.col("rank")
    first = rank == 1
    starts_match, consecutive, questions, blocks = results.select(
        (first == _STARTS).all().alias("starts_match"),
        (first | (rank == rank.shift(1) + 1)).all().alias("consecutive"),
        pl.col("qid").filter(first).n_unique().alias("questions"),
        first.sum().alias("blocks"),
    ).row(0)
    return bool(starts_match and consecutive and questions == blocks)


def _positions(results: pl.DataFrame) -> pl.DataFrame:
    """Results with each row's 1-based ``position`` in its question's ranked list.

    Loaded runs already hold each question's rows together in rank order, so
    positions come from row order without a sort or a window; anything else is
    sorted first.
    """
    qid = pl.col("qid")
    in_blocks = results.select(
        ((pl.col("rank") > pl.col("rank").shift(1)) | _STARTS).all()
        & (_STARTS.sum() == qid.n_unique())
    ).item()
    if not in_blocks:
        results = results.sort("qid", "rank")
    return results.with_columns(block_positions().alias("position"))
