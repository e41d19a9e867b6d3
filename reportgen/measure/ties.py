"""Ties that decide a measure: questions whose value at k depends on the tie-break.

A run ranked by score puts equal scores in an arbitrary order (chunk id descending, as
trec_eval does, SPEC.md). Where the scores at positions k and k + 1 are equal (a tie
across k, :func:`ties_at_cutoffs`), which chunks are in the top k depends on that order.
A tie wholly inside the top k keeps the same chunks but can still change the measures
that read positions, and only then is it flagged (:func:`ties_within_top_k`):

- RR@k, when the block holds a relevant and a non-relevant chunk and no relevant chunk
  stands above it (the first relevant rank moves within the block);
- AP@k, when the block holds a relevant and a non-relevant chunk (the precision at a
  relevant rank moves);
- nDCG@k, when the block holds chunks of different gains (grade, 0 for unjudged), since
  every rank has its own discount.

A block of relevant chunks only, or of non-relevant ones only, changes nothing (for
nDCG, of one gain only), and is not flagged.
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from reportgen.core.model import GoldSet, Run
from reportgen.measure.blocks import block_positions, block_starts

_STARTS = block_starts()

RANK_SENSITIVE = ("mrr", "ndcg", "ap")
"""The measures whose value at k depends on the order inside the top k."""


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
    qid, position = tied.get_column("qid"), tied.get_column("position")
    ties: dict[int, list[str]] = {}
    for k in ks:  # Series masks: a few rows, no query per cutoff
        qids = qid.filter(position == k).to_list()
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


def ties_within_top_k(
    run: Run, gold: GoldSet, ks: Sequence[int], threshold: int = 1
) -> dict[str, list[str]]:
    """Measure key (``mrr@5``) -> the questions whose value at k a tie-break decides."""
    if run.order != "score" or not run.has_scores:
        return {}
    score = pl.col("score")
    if run.in_blocks:  # rows in ranking order: equal scores sit side by side in a block
        same = (score == score.shift(1)) & (pl.col("qid") == pl.col("qid").shift(1))
        tied = run.results.lazy().filter(same).select(pl.col("qid").unique()).collect()
    else:  # most lists have no equal scores at all: only the others are looked into
        tied = (
            run.results.lazy()
            .group_by("qid")
            .agg(tied=pl.col("score").n_unique() < pl.len())
            .filter(pl.col("tied"))
            .select("qid")
            .collect()
        )
    if tied.is_empty():
        return {}
    # one plan from the tied lists to their blocks of equal scores
    ranked = (
        run.results.lazy()
        .join(tied.lazy(), on="qid", how="semi")
        .join(gold.questions.lazy().select("qid"), on="qid", how="semi")
        .join(gold.judgments.lazy(), on=["qid", "chunk_id"], how="left")
        .with_columns(pl.col("grade").fill_null(0))
        .sort("qid", "rank")
        .with_columns(
            relevant=pl.col("grade") >= threshold,
            gain=pl.col("grade").clip(lower_bound=0),
            block=(score != score.shift(1)).fill_null(True).cum_sum().over("qid"),
        )
        .with_columns(first_relevant=pl.col("rank").filter(pl.col("relevant")).min().over("qid"))
    )
    blocks = (
        ranked.group_by("qid", "block")
        .agg(
            start=pl.col("rank").min(),
            end=pl.col("rank").max(),
            size=pl.len(),
            mixed=pl.col("relevant").any() & (~pl.col("relevant")).any(),
            gains=pl.col("gain").n_unique(),
            first_relevant=pl.col("first_relevant").first(),
        )
        .filter(pl.col("size") > 1)
        .collect()
    )
    changes = {
        "mrr": pl.col("mixed") & (pl.col("first_relevant") >= pl.col("start")),
        "ap": pl.col("mixed"),
        "ndcg": pl.col("gains") > 1,
    }
    asked = [(name, k) for k in sorted(set(ks)) for name in RANK_SENSITIVE]
    # one collect_all for every (measure, k), not a filter collected per pair
    frames = pl.collect_all(
        blocks.lazy()
        .filter((pl.col("end") <= k) & changes[name])
        .select(pl.col("qid").unique().sort())
        for name, k in asked
    )
    found: dict[str, list[str]] = {}
    for (name, k), frame in zip(asked, frames, strict=True):
        qids = frame.get_column("qid").to_list()
        if qids:
            found[f"{name}@{k}"] = qids
    return found
