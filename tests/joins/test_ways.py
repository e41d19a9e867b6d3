"""One answer per data set, whichever way in (issue 25, "Trust at the joins").

One random data set (tests/joins/dataset.py) is spelt through every way in (TREC,
JSON Lines, CSV and Parquet runs; qrels and CSV gold sets; trace files; OTLP JSON and
Phoenix span exports; ``reportgen.evaluate`` on dicts, Polars and pandas frames) and
measured under every option that changes numbers; each way must give the plain report's
means, four cells, pass rate by coverage, cutoff and comparisons (gold.jsonl and TREC
runs through `reportgen report`), or refuse clearly where it cannot carry the option.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import reportgen
from reportgen.errors import InputError
from tests.joins import writers as w
from tests.joins.compare import SECTIONS, difference
from tests.joins.conftest import DEFAULT_SETS, OPTION_SETS, SEED, SLOW_SEEDS, data_set
from tests.joins.paths import WAYS, Options, evaluate_pandas_float_grades, plain, traces
from tests.report_schema import report_problems

PlainReport = Callable[[int, str], dict[str, Any]]
CHUNK_WAYS = ("parquet", "traces", "otlp", "phoenix-jsonl")
"""The ways the default run measures through a chunk map (every one under -m slow)."""


def _cases() -> list[Any]:
    cases = []
    for seed in (SEED, *SLOW_SEEDS):
        for option_set in OPTION_SETS:
            for way, spec in WAYS.items():
                if OPTION_SETS[option_set].chunks and not spec.evidence:
                    continue  # no evidence to judge through a map (test_the_api_has_no_chunks)
                slow = seed != SEED or option_set not in DEFAULT_SETS
                slow = slow or (option_set == "chunks" and way not in CHUNK_WAYS)
                marks = [pytest.mark.slow] if slow else []
                cases.append(
                    pytest.param(
                        seed, option_set, way, marks=marks, id=f"{seed}-{option_set}-{way}"
                    )
                )
    return cases


@pytest.mark.parametrize(("seed", "option_set", "way"), _cases())
def test_every_way_in_gives_the_plain_report(
    tmp_path: Path, plain_report: PlainReport, seed: int, option_set: str, way: str
) -> None:
    expected = plain_report(seed, option_set)
    spec = WAYS[way]
    got = spec.run(data_set(seed), tmp_path, OPTION_SETS[option_set])
    assert got.report is not None, f"{way} refused: {got.output}"
    sections = [name for name in SECTIONS if name not in spec.lacks]
    assert difference(expected, got.report, sections, spec.kinds) is None


def test_the_data_set_exercises_what_is_compared(plain_report: PlainReport) -> None:
    """A comparison of empty sections would pass whatever the paths did."""
    data, report = data_set(SEED), plain_report(SEED, "defaults")
    assert report["gold"]["unanswerable"] > 0 and len(report["gold"]["by_kind"]) == 3
    assert any(0 in q.gold.values() for q in data.questions)  # grade 0: judged, not relevant
    counts = [run["counts"] for run in report["runs"].values()]
    assert all(c["questions_missing"] > 0 and c["extra_questions"] > 0 for c in counts)
    assert all(c["repeated_chunks"] > 0 for c in counts)
    assert any(any(r["ties_at_cutoff"].values()) for r in report["runs"].values())
    cells = report["attribution"]["dense"]
    assert min(cells["cells"].values()) > 0 and cells["unanswerable"]["declined"] > 0
    assert all(report["cutoff"][run]["cutoff"] is not None for run in report["runs"])
    assert len(report["comparisons"]["pairs"]) == 3
    chunked = plain_report(SEED, "chunks")["chunkings"]["runs"]
    assert all(run["derived_judgments"] > 0 for run in chunked.values())


MOVES = {
    "verdicts-run-first": "cells",
    "retrieved-when-all": "cells",
    "context-k-3": "cells",
    "k-1-2-7": "means",
    "threshold-2": "means",
    "chunks": "means",
    "trec-eval": "means",
    "combined": "by_coverage",
    "chunks-combined": "cells",
}


@pytest.mark.parametrize("option_set", list(MOVES))
def test_each_option_moves_the_numbers(plain_report: PlainReport, option_set: str) -> None:
    """Else a way that ignored the option would pass."""
    moved = difference(
        plain_report(SEED, "defaults"), plain_report(SEED, option_set), [MOVES[option_set]]
    )
    assert moved is not None


def test_trace_files_take_verdicts_run_naming_their_run(
    tmp_path: Path, plain_report: PlainReport
) -> None:
    got = traces(data_set(SEED), tmp_path, OPTION_SETS["defaults"], named=True)
    assert got.report is not None, got.output
    assert difference(plain_report(SEED, "defaults"), got.report, ["cells", "by_coverage"]) is None


def test_pandas_float_grades_are_read(tmp_path: Path, plain_report: PlainReport) -> None:
    got = evaluate_pandas_float_grades(data_set(SEED), tmp_path, OPTION_SETS["defaults"])
    assert difference(plain_report(SEED, "defaults"), got.report or {}, ["means"]) is None


def test_a_dict_gold_set_says_unanswerable_with_a_keyword() -> None:
    """``{qid: {}}`` is refused, naming the question and the keyword a dict needs
    (``unanswerable=[...]``, a dict has no place for ``"unanswerable": true``); with it,
    those questions are unanswerable, as in the files."""
    data = data_set(SEED)
    empty = [q.qid for q in data.questions if q.unanswerable]  # the dict's order
    run = {"bm25": w.run_dict(data, "bm25")}
    with pytest.raises(InputError) as refused:
        reportgen.evaluate(w.gold_dict(data), run)
    message = str(refused.value)
    assert message.startswith(f"gold['{empty[0]}']: has no gold chunks")
    assert f"unanswerable=['{empty[0]}']" in message and "\n" not in message
    results = reportgen.evaluate(w.gold_dict(data), run, unanswerable=empty)
    marked = results.per_question.filter(pl.col("status") == "unanswerable")["qid"]
    assert sorted(marked.to_list()) == sorted(empty)


def test_the_api_has_no_chunks() -> None:
    """``reportgen.evaluate`` cannot carry --chunks: Python refuses the keyword."""
    data = data_set(SEED)
    with pytest.raises(TypeError, match="chunks"):
        reportgen.evaluate(
            w.gold_frame(data), {"bm25": w.run_frame(data, "bm25")}, chunks="chunks.csv"
        )  # type: ignore[call-arg]


def test_a_chunk_map_without_evidence_writes_a_valid_report(tmp_path: Path) -> None:
    data = data_set(SEED)
    questions = tuple(dataclasses.replace(q, evidence=()) for q in data.questions)
    got = plain(dataclasses.replace(data, questions=questions), tmp_path, Options(chunks=True))
    assert got.report is not None, got.output
    assert report_problems(got.report) == []
