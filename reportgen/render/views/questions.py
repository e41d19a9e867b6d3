"""The per-question table: gold ids, and per run the first gold rank, the top k, the cell.

Built with Polars joins, then cut to PER_QUESTION_ROWS_SHOWN rows so the pages stay small.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from reportgen.measure.scoring import Evaluation
from reportgen.render.cells import CELL_NAMES
from reportgen.render.views.common import IDS_SHOWN
from reportgen.schema import Report

EVIDENCE_ONLY = "(evidence spans)"
"""What the gold column says of a question whose gold is evidence spans only: its chunks
depend on each run's chunk map, and "(none)" read as a question with nothing to find."""

PER_QUESTION_ROWS_SHOWN = 500
"""Past this, the HTML and Markdown point to the per-question file instead of growing:
10,000 questions x 6 runs then stay well under 5 MB of HTML."""


@dataclass(frozen=True)
class RunEvidence:
    """What one run did for one question, as the per-question table shows it."""

    run: str
    found: str
    outcome: str
    """found (a gold chunk in the top k_ctx), missed (none there, even if one comes
    later) or neutral (nothing to find): a CSS class, shown with a symbol too."""
    first_rank: int | None
    top: list[tuple[str, bool]]
    """The top k chunk ids in rank order, each with whether it is gold."""
    cell: str

    @property
    def symbol(self) -> str:
        """The outcome as Markdown shows it (the HTML draws it from the class)."""
        return {"found": "✓", "missed": "✗"}.get(self.outcome, "\u2013")

    @property
    def sort_key(self) -> int:
        """Sorts by the first gold rank; no gold chunk at all sorts last."""
        return self.first_rank if self.first_rank is not None else 9999


def evidence_words(first_rank: int | None, status: str, k: int) -> tuple[str, str]:
    """What a run found for a question, and its outcome class. A gold chunk past k_ctx
    never reached the model: a miss, as the four cells count it, with its rank said."""
    if status in ("unanswerable", "no_relevant"):
        return "nothing to find", "neutral"
    if first_rank is None:
        return "no gold returned", "missed"
    if first_rank > k:
        return f"not in top {k} (gold at rank {first_rank})", "missed"
    return f"gold at rank {first_rank}", "found"


def runs_in_order(run_names: list[str], first: str) -> list[str]:
    """The run names with ``first`` (the run the first screen is about) in front."""
    return [first, *[name for name in run_names if name != first]]


@dataclass(frozen=True)
class QuestionRow:
    qid: str
    kind: str
    question: str
    gold: str
    status: str
    per_run: list[RunEvidence]

    @property
    def status_tag(self) -> str:
        """The status shown beside the gold ids: none for a question that was scored."""
        return "" if self.status == "scored" else self.status


def _cells_by_question(report: Report, run_names: list[str]) -> pl.DataFrame:
    """(qid, run index, cell name) for every run that has verdicts (report["attribution"])."""
    attribution = report["attribution"]
    frames = [
        pl.DataFrame(
            {"qid": ids, "_run": [index] * len(ids), "_cell": [label] * len(ids)},
            schema={"qid": pl.String, "_run": pl.Int64, "_cell": pl.String},
        )
        for index, name in enumerate(run_names)
        if name in attribution
        for cell, label in CELL_NAMES.items()
        for ids in [attribution[name]["questions"][cell]]
    ]
    empty = pl.DataFrame(schema={"qid": pl.String, "_run": pl.Int64, "_cell": pl.String})
    return pl.concat([empty, *frames])


BY_ID = [pl.col("qid").cast(pl.Int64, strict=False), pl.col("qid")]
"""Question ids in reading order (sorted with ``nulls_last``): numeric ids, as TREC's,
by value (2 before 10), then the others as text."""


def question_rows(
    report: Report, evaluation: Evaluation, limit: int, first_run: str | None = None
) -> tuple[list[QuestionRow], int]:
    """Per-question evidence, first ``limit`` questions by id: gold ids, and per run the
    first gold rank, the top k and the question's cell when the run has verdicts. Runs
    in report order, ``first_run`` in front (the run the verdicts are for)."""
    gold = evaluation.gold
    k = evaluation.settings.context_k
    threshold = evaluation.settings.threshold
    gold_ids = (
        gold.judgments.filter(pl.col("grade") >= threshold)
        .sort("qid", "grade", "chunk_id", descending=[False, True, False])
        .group_by("qid", maintain_order=True)
        .agg(pl.col("chunk_id").head(IDS_SHOWN).str.join(", ").alias("gold"), pl.len().alias("_n"))
        .select(
            "qid",
            pl.when(pl.col("_n") > IDS_SHOWN)
            .then(pl.format("{}, … and {} more", "gold", pl.col("_n") - IDS_SHOWN))
            .otherwise("gold")
            .alias("gold"),
        )
    )
    spans_only = gold.evidence.select("qid").unique().select("qid", _spans=pl.lit(True))
    table = (
        gold.questions.select("qid", "kind", "question")
        .join(gold_ids, on="qid", how="left")
        .join(spans_only, on="qid", how="left")
        .with_columns(
            pl.when(pl.col("gold").is_null() & pl.col("_spans"))
            .then(pl.lit(EVIDENCE_ONLY))
            .otherwise("gold")
            .alias("gold")
        )
        .drop("_spans")
        .join(evaluation.runs[0].scores.select("qid", "status"), on="qid", how="left")
        .sort(BY_ID, nulls_last=True)
        .head(limit)
    )
    names = [result.name for result in evaluation.runs]
    cells = _cells_by_question(report, names)
    for index, result in enumerate(evaluation.runs):
        # A run judged through a chunk map marks the chunks its evidence made relevant.
        judged = gold if result.chunked is None else result.chunked.gold
        relevant = judged.judgments.filter(pl.col("grade") >= threshold).select(
            "qid", "chunk_id", pl.lit(True).alias("_gold")
        )
        top = (
            result.run.results.filter(pl.col("rank") <= k)
            .join(relevant, on=["qid", "chunk_id"], how="left")
            .sort("qid", "rank")
            .group_by("qid", maintain_order=True)
            .agg(
                pl.col("chunk_id").alias(f"_top{index}"),
                pl.col("_gold").fill_null(False).alias(f"_isgold{index}"),
            )
        )
        first = result.scores.select("qid", pl.col("first_relevant_rank").alias(f"_first{index}"))
        cell = cells.filter(pl.col("_run") == index).select(
            "qid", pl.col("_cell").alias(f"_cell{index}")
        )
        table = (
            table.join(first, on="qid", how="left")
            .join(top, on="qid", how="left")
            .join(cell, on="qid", how="left")
        )
    order = [names.index(name) for name in runs_in_order(names, first_run or names[0])]
    rows = []
    for row in table.sort(BY_ID, nulls_last=True).iter_rows(named=True):
        per_run = []
        for index in order:
            first_rank = row[f"_first{index}"]
            found, outcome = evidence_words(first_rank, row["status"], k)
            per_run.append(
                RunEvidence(
                    run=names[index],
                    found=found,
                    outcome=outcome,
                    first_rank=first_rank,
                    top=list(
                        zip(row[f"_top{index}"] or [], row[f"_isgold{index}"] or [], strict=True)
                    ),
                    cell=row[f"_cell{index}"] or "",
                )
            )
        rows.append(
            QuestionRow(
                qid=row["qid"],
                kind=row["kind"],
                question=row["question"] or "",
                gold=row["gold"] or "(none)",
                status=row["status"],
                per_run=per_run,
            )
        )
    return rows, gold.questions.height
