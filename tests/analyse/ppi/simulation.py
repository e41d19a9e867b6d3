"""Simulated judge + human audit, for the PPI coverage tests and docs/gold.md's table.

Each question has 10 retrieved chunks, 1 to 4 of them truly relevant (and one more
relevant chunk the run never returned, for a third of the questions, so recall is not
always 1 or 0). The judge grades every retrieved chunk and the unreturned relevant one,
wrong on a share of the relevant pairs (graded 0) and of the others (graded 1). The
humans grade the audited questions' pairs truthfully. The truth is the mean over every
question measured on the true grades.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import polars as pl

from reportgen.analyse.ppi import audit_marker, draw_audit, ppi_findings
from reportgen.core.model import QUESTIONS_SCHEMA, GoldSet, Run
from reportgen.measure.scoring import Settings, evaluate

RETRIEVED = 10


@dataclass(frozen=True)
class Draw:
    truth: float
    estimate: float
    ci_low: float
    ci_high: float
    human_low: float
    human_high: float

    @property
    def covers(self) -> bool:
        return self.ci_low <= self.truth <= self.ci_high

    @property
    def narrower(self) -> bool:
        return self.ci_high - self.ci_low < self.human_high - self.human_low


def world(questions: int, rng: np.random.Generator) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(true grades: qid, chunk_id, grade) and the run (qid, chunk_id, rank)."""
    qids = [f"q{i:04d}" for i in range(questions)]
    graded, ranked = [], []
    for qid in qids:
        relevant = set(rng.choice(RETRIEVED, size=rng.integers(1, 5), replace=False).tolist())
        for rank in range(1, RETRIEVED + 1):
            chunk = f"{qid}-c{rank}"
            graded.append((qid, chunk, int(rank - 1 in relevant)))
            ranked.append((qid, chunk, rank))
        if rng.random() < 1 / 3:
            graded.append((qid, f"{qid}-unreturned", 1))
    truth = pl.DataFrame(
        graded, schema={"qid": pl.String, "chunk_id": pl.String, "grade": pl.Int64}, orient="row"
    )
    run = pl.DataFrame(
        ranked, schema={"qid": pl.String, "chunk_id": pl.String, "rank": pl.Int64}, orient="row"
    )
    return truth, run.with_columns(score=pl.lit(None, pl.Float64))


def judged(
    truth: pl.DataFrame, miss: float, false_alarm: float, rng: np.random.Generator
) -> pl.DataFrame:
    """The judge's grades: a relevant pair graded 0 with probability ``miss``, another
    graded 1 with probability ``false_alarm``."""
    flip = rng.random(truth.height)
    wrong = np.where(truth["grade"].to_numpy() == 1, flip < miss, flip < false_alarm)
    return truth.with_columns(
        grade=pl.when(pl.Series(wrong)).then(1 - pl.col("grade")).otherwise(pl.col("grade")),
        source=pl.lit("llm"),
        model=pl.lit(None, pl.String),
        prompt_hash=pl.lit(None, pl.String),
        line=pl.int_range(1, truth.height + 1, dtype=pl.Int64),
    )


def gold_of(truth: pl.DataFrame, audited: list[str], marker: str) -> GoldSet:
    """The human audit as a gold set: the true grades of the audited questions, each
    question marked with the sample it belongs to."""
    ids = pl.Series(audited, dtype=pl.String)
    questions = (
        pl.DataFrame({"qid": ids})
        .with_columns(
            question=pl.lit(None, pl.String),
            kind=pl.lit("unlabelled"),
            unanswerable=pl.lit(False),
            index_version=pl.lit(None, pl.String),
        )
        .cast(QUESTIONS_SCHEMA)
    )  # type: ignore[arg-type]
    attributes = pl.DataFrame({"qid": ids}).with_columns(key=pl.lit("audit"), value=pl.lit(marker))
    return GoldSet(
        questions,
        truth.filter(pl.col("qid").is_in(ids.implode())),
        "audit",
        attributes=attributes,
    )


def one_draw(
    questions: int, audit: int, miss: float, false_alarm: float, seed: int, key: str = "recall@5"
) -> Draw:
    """One world, one judge, one audit: the PPI interval of ``key`` and the human one."""
    rng = np.random.default_rng(seed)
    truth, ranked = world(questions, rng)
    judge = judged(truth, miss, false_alarm, rng)
    audited = draw_audit(judge["qid"].unique().to_list(), audit, seed)
    gold = gold_of(truth, audited, audit_marker(audit, questions, seed))
    run = Run("run", ranked, "simulated", "rank")
    settings = Settings(ks=(5,), context_k=5)
    everything = GoldSet(
        truth.select("qid")
        .unique()
        .with_columns(
            question=pl.lit(None, pl.String),
            kind=pl.lit("unlabelled"),
            unanswerable=pl.lit(False),
            index_version=pl.lit(None, pl.String),
        )
        .cast(QUESTIONS_SCHEMA),  # type: ignore[arg-type]
        truth,
        "truth",
    )
    true_mean = float(evaluate(everything, [run], settings).runs[0].scores[key].mean())  # type: ignore[arg-type]
    found = ppi_findings(evaluate(gold, [run], settings), judge, [key])
    estimate = found.estimates["run"][key]
    human = found.human_values["run"][key]
    half = 1.96 * float(human.std(ddof=1)) / math.sqrt(human.len())  # type: ignore[arg-type]
    centre = float(human.mean())  # type: ignore[arg-type]
    assert estimate.estimate is not None and estimate.ci_low is not None
    assert estimate.ci_high is not None
    return Draw(
        true_mean,
        estimate.estimate,
        estimate.ci_low,
        estimate.ci_high,
        centre - half,
        centre + half,
    )
