"""Frames a notebook builds piece by piece (``pl.concat`` keeps every piece as a chunk
of its own) give the numbers and the report of the same frames made contiguous.

Polars 2.1's streaming engine panics on ``rle()`` over a column of several chunks
(``assertion failed: chunks.len() == 1``), so a lazy plan that numbers positions in
blocks must not meet such a frame: this holds every entry point to that.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import polars as pl
import pytest

import reportgen

QUESTIONS = 30
DEPTH = 12


def pieces() -> tuple[pl.DataFrame, pl.DataFrame]:
    """A gold frame and a run frame (in ranking order, with ties), one chunk per question."""
    rng = random.Random(7)
    gold, run = [], []
    for q in range(QUESTIONS):
        qid = f"q{q:02d}"
        chunks = [f"c{q}-{i}" for i in range(DEPTH + 4)]
        gold.append(
            pl.DataFrame(
                {"qid": qid, "chunk_id": rng.sample(chunks, 3), "grade": [1, 2, 3]},
                schema={"qid": pl.String, "chunk_id": pl.String, "grade": pl.Int64},
            )
        )
        scores = sorted((round(rng.random(), 1) for _ in range(DEPTH)), reverse=True)
        run.append(
            pl.DataFrame(
                {"qid": qid, "chunk_id": rng.sample(chunks, DEPTH), "score": scores},
                schema={"qid": pl.String, "chunk_id": pl.String, "score": pl.Float64},
            )
        )
    return pl.concat(gold, rechunk=False), pl.concat(run, rechunk=False)


def test_pieces_are_chunks_of_their_own() -> None:
    gold, run = pieces()
    assert gold.n_chunks() == run.n_chunks() == QUESTIONS


def test_chunked_frames_give_the_numbers_and_report_of_contiguous_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the pages say when
    gold, run = pieces()
    found = {}
    for name, (g, r) in {"chunked": (gold, run), "whole": (gold.rechunk(), run.rechunk())}.items():
        verdicts = {f"q{q:02d}": q % 3 != 0 for q in range(0, QUESTIONS, 2)}
        results = reportgen.evaluate(
            g, {"run": r, "again": r}, k=(1, 3, 5), trec_eval=True, verdicts=verdicts
        )
        results.report(tmp_path / name, formats=("json", "md"), version="v1")
        report = json.loads((tmp_path / name / "report.json").read_text())
        found[name] = (results.means, results.per_question, report)
    (means, per_question, report), (whole_means, whole_per_question, whole_report) = (
        found["chunked"],
        found["whole"],
    )
    assert means.equals(whole_means) and per_question.equals(whole_per_question)
    for key in ("runs", "top_k", "cutoff", "hygiene", "gold", "attribution", "comparisons"):
        assert report[key] == whole_report[key], key
    assert (tmp_path / "chunked" / "report.md").read_text() == (
        tmp_path / "whole" / "report.md"
    ).read_text()
