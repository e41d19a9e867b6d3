"""How much of each question's evidence reached the model: all, some or none of it.

A multi-hop question needs every one of its gold chunks; "retrieved" as "any gold chunk
arrived" then hides most retrieval failures. The four cells can count a question as
retrieved under either rule (SPEC.md, "Which questions count as retrieved"), and the
pass rate split by coverage shows how often the answer was right when all, some or none
of the evidence was sent.

The chunks sent are the top k_ctx, or exactly the ones a trace says were sent.
"""

from __future__ import annotations

from typing import Literal

import polars as pl

from reportgen.core.model import GoldSet, RetrievedRule, Run

COVERAGES = ("all", "some", "none")
ContextSource = Literal["top_k", "trace"]


def sent_chunks(run: Run, k: int) -> pl.DataFrame:
    """(qid, chunk_id) of the chunks sent to the model: the trace's, else the top ``k``."""
    top = run.results.filter(pl.col("rank") <= k).select("qid", "chunk_id")
    if run.sent is None:
        return top
    traced = (
        run.sent.explode("sent")
        .drop_nulls("sent")
        .select("qid", chunk_id=pl.col("sent"))
        .unique(maintain_order=True)
    )
    return pl.concat([top.join(run.sent.select("qid"), on="qid", how="anti"), traced])


def coverage(gold: GoldSet, run: Run, k: int, threshold: int) -> pl.DataFrame:
    """Per gold question: qid, relevant (its chunks at or above the threshold), sent
    (how many of them were sent), coverage (all, some, none; null with nothing relevant),
    traced (whether the trace said what was sent, rather than the top ``k``)."""
    relevant = gold.judgments.filter(pl.col("grade") >= threshold).select("qid", "chunk_id")
    arrived = relevant.join(sent_chunks(run, k), on=["qid", "chunk_id"], how="semi")
    counts = (
        gold.questions.select("qid")
        .join(relevant.group_by("qid").len("relevant"), on="qid", how="left")
        .join(arrived.group_by("qid").len("sent"), on="qid", how="left")
        .with_columns(pl.col("relevant", "sent").fill_null(0).cast(pl.Int64))
    )
    share = (
        pl.when(pl.col("relevant") == 0)
        .then(pl.lit(None, pl.String))
        .when(pl.col("sent") == pl.col("relevant"))
        .then(pl.lit("all"))
        .when(pl.col("sent") > 0)
        .then(pl.lit("some"))
        .otherwise(pl.lit("none"))
    )
    traced = pl.lit(False) if run.sent is None else pl.col("qid").is_in(run.sent["qid"].implode())
    return counts.with_columns(coverage=share, traced=traced)


def retrieved(rule: RetrievedRule) -> pl.Expr:
    """Whether a question counts as retrieved in the four cells (columns of :func:`coverage`)."""
    if rule == "all":
        return (pl.col("relevant") > 0) & (pl.col("sent") == pl.col("relevant"))
    return pl.col("sent") > 0


def by_coverage(questions: pl.DataFrame) -> dict[str, dict[str, int | float | None]]:
    """Questions, right answers and pass rate per coverage, over the rows with a cell.

    ``questions`` has cell (null outside the four cells), coverage and correct.
    """
    counted = (
        questions.filter(pl.col("cell").is_not_null())
        .group_by("coverage")
        .agg(questions=pl.len(), correct=pl.col("correct").sum())
    )
    found = {row["coverage"]: row for row in counted.iter_rows(named=True)}
    split: dict[str, dict[str, int | float | None]] = {}
    for name in COVERAGES:
        n = int(found[name]["questions"]) if name in found else 0
        right = int(found[name]["correct"]) if name in found else 0
        split[name] = {"questions": n, "correct": right, "pass_rate": right / n if n else None}
    return split
