"""Builders of gold sets and runs as validated frames, for the measure tests.

They are handed out as session fixtures (plain functions, safe inside Hypothesis
tests) so that no test module imports another and the tests need no loader.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

import polars as pl
import pytest

from reportgen.core.model import (
    JUDGMENTS_SCHEMA,
    QUESTIONS_SCHEMA,
    RESULTS_SCHEMA,
    UNLABELLED_KIND,
    GoldSet,
    Run,
)

Judged = Mapping[str, Mapping[str, int] | Sequence[str]]
"""qid -> {chunk id: grade}, or qid -> [chunk ids] when every grade is 1."""


def gold_set(
    judged: Judged,
    *,
    unanswerable: Iterable[str] = (),
    kinds: Mapping[str, str] | None = None,
) -> GoldSet:
    """A gold set with one question per key of ``judged`` plus the unanswerable ones."""
    unanswerable = list(unanswerable)
    kinds = kinds or {}
    qids = list(judged) + [qid for qid in unanswerable if qid not in judged]
    questions = pl.DataFrame(
        {
            "qid": qids,
            "question": [None] * len(qids),
            "kind": [kinds.get(qid, UNLABELLED_KIND) for qid in qids],
            "unanswerable": [qid in unanswerable for qid in qids],
            "index_version": [None] * len(qids),
        },
        schema=QUESTIONS_SCHEMA,
    )
    rows = [
        (qid, chunk, grade)
        for qid, chunks in judged.items()
        for chunk, grade in (
            chunks.items() if isinstance(chunks, Mapping) else ((c, 1) for c in chunks)
        )
    ]
    judgments = pl.DataFrame(rows, schema=JUDGMENTS_SCHEMA, orient="row")
    return GoldSet(questions=questions, judgments=judgments, source="<test>")


def ranked_run(lists: Mapping[str, Sequence[str]], name: str = "run") -> Run:
    """A run in list order: a chunk's rank is its 1-based position, repeats included."""
    rows = [
        (qid, chunk, rank, None)
        for qid, chunks in lists.items()
        for rank, chunk in enumerate(chunks, start=1)
    ]
    results = pl.DataFrame(rows, schema=RESULTS_SCHEMA, orient="row")
    return Run(name=name, results=results, source="<test>", order="list")


def scored_run(scores: Mapping[str, Mapping[str, float]], name: str = "run") -> Run:
    """A run ranked as trec_eval ranks: score descending, ties by chunk id descending."""
    rows = [
        (qid, chunk, score) for qid, by_chunk in scores.items() for chunk, score in by_chunk.items()
    ]
    results = (
        pl.DataFrame(
            rows,
            schema={"qid": pl.String, "chunk_id": pl.String, "score": pl.Float64},
            orient="row",
        )
        .sort(["qid", "score", "chunk_id"], descending=[False, True, True])
        .with_columns(rank=pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("qid"))
        .select(RESULTS_SCHEMA.names())
    )
    return Run(name=name, results=results, source="<test>", order="score")


@pytest.fixture(scope="session")
def make_gold() -> Callable[..., GoldSet]:
    return gold_set


@pytest.fixture(scope="session")
def make_run() -> Callable[..., Run]:
    return ranked_run


@pytest.fixture(scope="session")
def make_scored_run() -> Callable[..., Run]:
    return scored_run
