"""report.json's ``pages`` section: what the pages show beyond the other sections, laid
out from the findings so that the pages can be rebuilt from report.json alone.

The question rows are built with Polars joins over the gold set, each run's top k and
its first relevant rank; the drill-down's panels are the analyses' explanation with the
chunk text cut as the pages cut it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import polars as pl

from reportgen.analyse.cutoff import CutoffAnalysis
from reportgen.analyse.drilldown import Explained, explain
from reportgen.analyse.hygiene import shallow_runs
from reportgen.analyse.run import Findings
from reportgen.measure.measures import MEASURES
from reportgen.measure.scoring import Evaluation
from reportgen.schema import (
    CHUNK_TEXT_KEPT,
    GOLD_IDS_KEPT,
    PANELS_KEPT,
    QUESTION_ROWS_KEPT,
    MeasureDefinition,
    PagesSection,
    Panel,
    QuestionRow,
    TopScores,
)
from reportgen.schema.pages import UNANSWERABLE

BY_ID = [pl.col("qid").cast(pl.Int64, strict=False), pl.col("qid")]
"""Question ids in reading order (sorted with ``nulls_last``): numeric ids, as TREC's,
by value (2 before 10), then the others as text."""


def _cells(findings: Findings, index: int, name: str) -> pl.DataFrame:
    """(qid, cell) of the questions the verdicts put in a cell of this run."""
    judged = {attribution.run: attribution for attribution in findings.attributions}
    frame = pl.DataFrame(schema={"qid": pl.String, f"_cell{index}": pl.String})
    if name not in judged:
        return frame
    parts = [
        pl.DataFrame({"qid": list(ids), f"_cell{index}": [cell] * len(ids)}, schema=frame.schema)
        for cell, ids in judged[name].overall.questions.items()
    ]
    return pl.concat([frame, *parts])


def question_rows(findings: Findings, limit: int = QUESTION_ROWS_KEPT) -> list[QuestionRow]:
    """The first ``limit`` questions by id: gold ids, and per run the first relevant
    rank, the top k (each marked relevant or not) and the question's cell."""
    evaluation: Evaluation = findings.evaluation
    gold = evaluation.gold
    k = evaluation.settings.context_k
    threshold = evaluation.settings.threshold
    gold_ids = (
        gold.judgments.lazy()
        .filter(pl.col("grade") >= threshold)
        .sort("qid", "grade", "chunk_id", descending=[False, True, False])
        .group_by("qid", maintain_order=True)
        .agg(pl.col("chunk_id").head(GOLD_IDS_KEPT).alias("gold"), pl.len().alias("gold_count"))
    )
    spans_only = gold.evidence.lazy().select("qid").unique().select("qid", _spans=pl.lit(True))
    # the rows kept, collected first: each run's results are joined to these only
    shown = (
        gold.questions.lazy()
        .select("qid", "kind", "question")
        .join(gold_ids, on="qid", how="left")
        .join(spans_only, on="qid", how="left")
        .with_columns(
            pl.col("gold").fill_null(pl.lit([], dtype=pl.List(pl.String))),
            pl.col("gold_count").fill_null(0).cast(pl.Int64),
            evidence_only=pl.col("gold_count").is_null() & pl.col("_spans").fill_null(False),
        )
        .drop("_spans")
        .join(evaluation.runs[0].scores.lazy().select("qid", "status"), on="qid", how="left")
        .sort(BY_ID, nulls_last=True)
        .head(limit)
        .collect()
    )
    shown_ids = shown.lazy().select("qid")
    table = shown.lazy()
    for index, result in enumerate(evaluation.runs):
        # A run judged through a chunk map marks the chunks its evidence made relevant.
        judged = gold if result.chunked is None else result.chunked.gold
        relevant = (
            judged.judgments.lazy()
            .filter(pl.col("grade") >= threshold)
            .select("qid", "chunk_id", pl.lit(True).alias("_relevant"))
        )
        first = result.scores.lazy().select("qid", first_rank="first_relevant_rank")
        top = (
            result.run.results.lazy()
            .join(shown_ids, on="qid", how="semi")
            .filter(pl.col("rank") <= k)
            .join(relevant, on=["qid", "chunk_id"], how="left")
            .sort("qid", "rank")
            .group_by("qid", maintain_order=True)
            .agg(
                pl.col("chunk_id").alias("top"),
                pl.col("_relevant").fill_null(False).alias("relevant"),
            )
        )
        run = (
            shown_ids.join(first, on="qid", how="left")
            .join(top, on="qid", how="left")
            .join(_cells(findings, index, result.name).lazy(), on="qid", how="left")
            .select(
                "qid",
                pl.struct(
                    "first_rank",
                    pl.col("top").fill_null(pl.lit([], dtype=pl.List(pl.String))),
                    pl.col("relevant").fill_null(pl.lit([], dtype=pl.List(pl.Boolean))),
                    pl.col(f"_cell{index}").alias("cell"),
                ).alias(f"_run{index}"),  # a run may be named like a column
            )
        )
        table = table.join(run, on="qid", how="left")
    names = [result.name for result in evaluation.runs]
    rows = (
        table.sort(BY_ID, nulls_last=True)
        .select(
            "qid",
            "kind",
            "question",
            "gold",
            "gold_count",
            "evidence_only",
            "status",
            pl.struct(pl.col(f"_run{i}").alias(name) for i, name in enumerate(names)).alias("runs"),
        )
        .collect()
    )
    found = cast(list[QuestionRow], rows.to_dicts())
    if findings.slices is not None and findings.slices.slicing.compared_fields:
        # the compared field's values per question: the question table filters by them
        name = findings.slices.slicing.compared_fields[0]
        members = findings.slices.members[name].sort("value").group_by("qid").agg("value")
        values: dict[str, list[str]] = dict(members.iter_rows())
        for row in found:
            row["slice"] = values.get(row["qid"], [])
    return found


def _panel(item: Explained) -> Panel:
    return {
        "qid": item.qid,
        "question": item.question,
        "cell": item.cell,
        "evidence": [
            {
                "doc": p.doc,
                "start": p.start,
                "end": p.end,
                "before": p.before,
                "text": p.text,
                "after": p.after,
                "cut_before": p.cut_before,
                "cut_after": p.cut_after,
            }
            for p in item.evidence
        ],
        "gold_chunks": list(item.gold_chunks),
        "sent": [
            {
                "rank": sent.rank,
                "chunk_id": sent.chunk_id,
                "score": sent.score,
                "text": None if sent.text is None else sent.text[:CHUNK_TEXT_KEPT],
                "chars": len(sent.text or ""),
                "relevant": sent.relevant,
                "marks": [[start, end] for start, end in sent.marks],
            }
            for sent in item.sent
        ],
        "first_relevant_rank": item.first_relevant_rank,
        "first_relevant_chunk": item.first_relevant_chunk,
        "retrieved": item.retrieved,
    }


def measure_definitions() -> list[MeasureDefinition]:
    """Every measure reportgen knows, as the pages name and explain it."""
    return [
        {
            "name": m.name,
            "title": m.title,
            "formula": m.formula,
            "description": m.description,
            "cutoff": m.cutoff,
        }
        for m in MEASURES
    ]


def top_scores_section(cutoffs: Sequence[CutoffAnalysis]) -> dict[str, TopScores]:
    """Each run's top score per question, unanswerable ones named: the cutoff charts."""
    return {
        analysis.run: _top_scores(analysis.top_scores)
        for analysis in cutoffs
        if analysis.reason is None
    }


def _top_scores(top: pl.DataFrame) -> TopScores:
    """One run's top scores from its columns (a select or filter would be a collect a run)."""
    qids = top.get_column("qid")
    return {
        "scores": dict(zip(qids.to_list(), top.get_column("score").to_list(), strict=True)),
        "unanswerable": qids.filter(top.get_column("group") == UNANSWERABLE).to_list(),
    }


def pages_section(findings: Findings) -> PagesSection:
    """What the pages show beyond the other sections of report.json."""
    chosen = findings.drilldown
    explained = (
        []
        if chosen is None
        else explain(findings.evaluation, findings.attribution, chosen, PANELS_KEPT)
    )
    hygiene = findings.hygiene
    gold_chunks = hygiene.gold_chunks
    return {
        "questions": question_rows(findings),
        "question_count": findings.evaluation.gold.questions.height,
        "top_scores": top_scores_section(findings.cutoffs),
        "panels": [_panel(item) for item in explained],
        "measures": measure_definitions(),
        "stale_shallow": bool(gold_chunks) and shallow_runs(hygiene.stale.height, gold_chunks),
    }
