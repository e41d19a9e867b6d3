"""A large gold set stays usable: 10,000 questions x 6 runs give HTML under 5 MB."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    make_report,
)
from reportgen.measure.scoring import Settings
from reportgen.render.pages import PER_QUESTION_ROWS_SHOWN

QUESTIONS = 10_000
RUNS = 6
DEPTH = 10


def write_large_inputs(folder: Path) -> tuple[Path, list[tuple[str, Path]]]:
    """Gold: question i answered by chunk doc-i-0; run r puts it at rank (i + r) % 12 + 1."""
    folder.mkdir(parents=True, exist_ok=True)
    qids = pl.int_range(QUESTIONS, eager=True).alias("i")
    gold = pl.DataFrame(qids).select(
        id=pl.format("q{}", pl.col("i").cast(pl.String).str.zfill(5)),
        question=pl.format("How do I configure feature number {} of the product?", "i"),
        kind=pl.format("kind-{}", pl.col("i") % 7),
        gold=pl.concat_list(pl.format("doc-{}-0", "i")),
    )
    gold_path = folder / "gold.jsonl"
    gold.write_ndjson(gold_path)
    runs = []
    for r in range(RUNS):
        ranks = pl.DataFrame(qids).join(pl.DataFrame({"rank": range(1, DEPTH + 1)}), how="cross")
        gold_rank = (pl.col("i") + r) % 12 + 1
        run = ranks.select(
            id=pl.format("q{}", pl.col("i").cast(pl.String).str.zfill(5)),
            chunk_id=pl.when(pl.col("rank") == gold_rank)
            .then(pl.format("doc-{}-0", "i"))
            .otherwise(pl.format("doc-{}-{}", "i", pl.col("rank") + 100)),
            rank="rank",
            score=1.0 / pl.col("rank"),
        )
        path = folder / f"run{r}.csv"
        run.write_csv(path)
        runs.append((f"method-{r}", path))
    return gold_path, runs


@pytest.mark.slow
def test_ten_thousand_questions_six_runs_under_five_megabytes(tmp_path: Path) -> None:
    gold, runs = write_large_inputs(tmp_path / "in")
    inputs, outputs = ReportInputs(gold, runs), ReportOutputs(tmp_path / "out")
    result = make_report(ReportRequest(inputs, outputs, ReportSettings(Settings())))
    out = tmp_path / "out"
    html = (out / "index.html").read_bytes()
    assert len(html) < 5_000_000, len(html)
    text = html.decode()
    assert f"Showing the first {PER_QUESTION_ROWS_SHOWN} of {QUESTIONS} questions" in text
    assert text.count('>\n        <th scope="row">q') == PER_QUESTION_ROWS_SHOWN
    # run 0 puts the gold chunk at rank i % 12 + 1: within the top 5 for 5 of every 12
    hit5 = result.report["runs"]["method-0"]["means"]["hit@5"]
    assert hit5 == pytest.approx(sum(1 for i in range(QUESTIONS) if i % 12 < 5) / QUESTIONS)
    assert len((out / "summary.md").read_text()) < 60_000
