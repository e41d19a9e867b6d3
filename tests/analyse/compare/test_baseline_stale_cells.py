"""Stale gold in the four cells then and now: report.json's baseline.comparisons[].cells
.stale, the HTML and Markdown under the cells table, and the terminal lines.

A reviewer reading "retrieval failures went from 6 to 8" must see when some of those
questions have gold ids the index no longer holds: the miss is then the gold set's.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reportgen.analyse.baseline import _cells
from reportgen.cli import cli
from reportgen.render.pages import cells_line, comparisons_view
from reportgen.report.pages import measure_definitions
from tests.analyse.attribution.test_four_cells import K, write_case
from tests.analyse.attribution.test_stale_cells import write_manifest

NO_STALE = {
    "retrieved_correct": [],
    "retrieved_wrong": [],
    "missed_correct": [],
    "missed_wrong": [],
}


def attribution(counts: tuple[int, int, int, int], stale: dict[str, list[str]] | None) -> Any:
    cells = dict(zip(NO_STALE, counts, strict=True))
    section: dict[str, Any] = {"cells": cells, "pass_rate": 0.5}
    if stale is not None:
        section["stale"] = {**NO_STALE, **stale}
    return {"attribution": {"rag": section}}


def test_stale_counts_per_cell_then_and_now() -> None:
    then = attribution((31, 9, 4, 9), {"missed_wrong": ["q45"]})
    now = attribution(
        (30, 8, 4, 12), {"missed_wrong": ["q45", "q46"], "retrieved_correct": ["q01"]}
    )
    cells = _cells(then, now["attribution"], "rag")
    assert cells is not None
    assert cells["stale"] == {
        "then": {
            "retrieved_correct": 0,
            "retrieved_wrong": 0,
            "missed_correct": 0,
            "missed_wrong": 1,
        },
        "now": {
            "retrieved_correct": 1,
            "retrieved_wrong": 0,
            "missed_correct": 0,
            "missed_wrong": 2,
        },
    }
    # the existing keys keep their shape
    assert cells["then"]["missed_wrong"] == 9 and cells["now"]["missed_wrong"] == 12


def test_a_baseline_older_than_the_mark_cannot_say() -> None:
    then = attribution((31, 9, 4, 9), None)  # report.json written before attribution.stale
    now = attribution((30, 8, 4, 12), {"missed_wrong": ["q45", "q46"]})
    cells = _cells(then, now["attribution"], "rag")
    assert cells is not None
    assert cells["stale"]["then"] is None
    assert cells["stale"]["now"]["missed_wrong"] == 2


def report_with(cells: dict[str, Any]) -> dict[str, Any]:
    entry = {
        "run": "rag",
        "before": "rag (v1)",
        "after": "rag (v2)",
        "n": 50,
        "one_question": 0.02,
        "measures": {},
        "changed_questions": {},
        "changed_counts": {},
        "changed_total": 0,
        "cells": cells,
    }
    method = {
        "interval": {"resamples": 1, "seed": 0},
        "test": {"resamples": 1},
        "family_size": 0,
        "alpha": 0.05,
    }
    return {
        "context_k": 5,
        "pages": {"measures": measure_definitions()},  # the measure titles the pages print
        "comparisons": {"method": method, "pairs": []},
        "gold": {"version": None, "fingerprint": "f"},
        "baseline": {
            "version": "v1",
            "created": "2026-01-01T00:00:00Z",
            "source": "base/report.json",
            "selection": None,
            "gold": {"version": None, "fingerprint": "f"},
            "gold_change": None,
            "runs_not_in_baseline": [],
            "baseline_runs_not_here": [],
            "method": method,
            "comparisons": [entry],
        },
        "gate": None,
    }


def test_the_cells_table_marks_stale_gold_and_says_why() -> None:
    then = attribution((31, 9, 4, 9), {"missed_wrong": ["q45"]})
    now = attribution((30, 8, 4, 12), {"missed_wrong": ["q45", "q46"]})
    block = comparisons_view(report_with(_cells(then, now["attribution"], "rag") or {})).baseline[0]
    assert block.cells is not None
    assert [[cell.text for cell in row] for row in block.cells.rows] == [
        ["working as designed", "31", "30"],
        ["generation failure", "9", "8"],
        ["answered from memory", "4", "4"],
        ["retrieval failure", "9 (1 with stale gold)", "12 (2 with stale gold)"],
        ["pass rate", "0.500", "0.500"],
    ]
    assert block.cells_note is not None
    assert "the gold set's fault, not search's" in block.cells_note
    assert "predates" not in block.cells_note


def test_an_unknown_baseline_side_is_said_and_no_stale_says_nothing() -> None:
    now = attribution((30, 8, 4, 12), {"missed_wrong": ["q45", "q46"]})
    cells = _cells(attribution((31, 9, 4, 9), None), now["attribution"], "rag")
    block = comparisons_view(report_with(cells or {})).baseline[0]
    assert block.cells is not None and block.cells.rows[3][1].text == "9"
    assert block.cells_note is not None
    assert "which of its questions had stale gold ids is not known" in block.cells_note
    clean = _cells(
        attribution((31, 9, 4, 9), {}), attribution((31, 9, 4, 9), {})["attribution"], "rag"
    )
    assert comparisons_view(report_with(clean or {})).baseline[0].cells_note is None
    assert cells_line(clean) == (
        "four cells then -> now: working as designed 31 -> 31, generation failure 9 -> 9, "
        "answered from memory 4 -> 4, retrieval failure 9 -> 9, pass rate 0.500 -> 0.500"
    )


@pytest.fixture
def case(tmp_path: Path) -> tuple[list[str], Path]:
    """The 31/9/4/6 case twice: the baseline's manifest holds every gold id, today's has
    lost q45's and q46's (retrieval failures) and q01's (working as designed)."""
    gold, run, verdicts = write_case(tmp_path)
    common = [str(gold), f"rag={run}", "--verdicts", str(verdicts), "--k", f"1,{K}"]
    common += ["--context-k", str(K), "--format", "json,html,md"]
    base = tmp_path / "base"
    for folder in ("then", "now"):
        (tmp_path / folder).mkdir()
    full = write_manifest(tmp_path / "then", set())
    first = CliRunner().invoke(
        cli, ["report", *common, "--manifest", str(full), "--out", str(base), "--version", "v1"]
    )
    assert first.exit_code == 0, first.output
    manifest = write_manifest(tmp_path / "now", {"q45-gold", "q46-gold", "q01-gold"})
    args = [*common, "--manifest", str(manifest), "--baseline", str(base), "--version", "v2"]
    return args, tmp_path / "out"


def test_report_json_html_markdown_and_terminal(case: tuple[list[str], Path]) -> None:
    args, out = case
    result = CliRunner().invoke(cli, ["report", *args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    stale = report["baseline"]["comparisons"][0]["cells"]["stale"]
    assert stale == {
        "then": {
            "retrieved_correct": 0,
            "retrieved_wrong": 0,
            "missed_correct": 0,
            "missed_wrong": 0,
        },
        "now": {
            "retrieved_correct": 1,
            "retrieved_wrong": 0,
            "missed_correct": 0,
            "missed_wrong": 2,
        },
    }
    # the terminal: the cells of this report, then against the baseline
    assert (
        "rag, four cells at top 5: working as designed 31 (1 with stale gold), generation "
        "failure 9, answered from memory 4, retrieval failure 6 (2 with stale gold)."
    ) in result.output
    assert "2 of the 6 retrieval failures have stale gold ids" in result.output
    assert (
        "    four cells then -> now: working as designed 31 -> 31 (1 with stale gold), "
        "generation failure 9 -> 9, answered from memory 4 -> 4, "
        "retrieval failure 6 -> 6 (2 with stale gold), pass rate 0.700 -> 0.700"
    ) in result.output
    markdown = (out / "report.md").read_text()
    html = (out / "index.html").read_text()
    assert "| retrieval failure | 6 | 6 (2 with stale gold) |" in markdown
    assert "<td>6 (2 with stale gold)</td>" in html
    for text in (markdown, html):
        assert "is the gold set&#39;s fault" in text or "is the gold set's fault" in text
