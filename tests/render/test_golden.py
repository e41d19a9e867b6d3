"""report.json and the rendered HTML, Markdown and summary of SPEC.md's example, against
gold files.

Dates, the tool version and temporary paths are scrubbed first. When the output
changes on purpose, re-run with REPORTGEN_UPDATE_GOLDEN=1 and review the diff; on a
mismatch the actual output is saved beside the gold file as ``*.actual`` for review.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from reportgen import __version__
from reportgen.api import ReportResult

GOLDEN = Path(__file__).parent / "golden"

SCRUBS = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"), "DATETIME"),
    (re.compile(re.escape(f"reportgen {__version__}")), "reportgen VERSION"),
    (re.compile(r'"tool_version": "[^"]*"'), '"tool_version": "VERSION"'),
    (re.compile(r"[^\s\"<>]*/in/gold\.jsonl"), "GOLD_PATH"),
    (re.compile(r"[^\s\"<>]*/in/(run\d+\.jsonl)"), r"RUNS_PATH/\1"),
    (re.compile(r"sha256-[A-Za-z0-9+/=]+"), "sha256-HASH"),
    (re.compile(r"<svg .*?</svg>", re.DOTALL), "<svg>CHART</svg>"),
]
"""Charts are checked on their own (tests/render/charts); the script hash changes with report.js."""


def scrub(text: str) -> str:
    for pattern, replacement in SCRUBS:
        text = pattern.sub(replacement, text)
    return text


@pytest.mark.parametrize("name", ["report.json", "index.html", "report.md", "summary.md"])
def test_matches_gold_file(spec_example: ReportResult, name: str) -> None:
    out = spec_example.files[-1].parent  # report.json, written last
    actual = scrub((out / name).read_text())
    gold = GOLDEN / f"spec_example.{name}"
    if os.environ.get("REPORTGEN_UPDATE_GOLDEN"):
        gold.write_text(actual)
    review = gold.with_name(gold.name + ".actual")
    expected = gold.read_text()
    if actual != expected:
        review.write_text(actual)
    else:
        review.unlink(missing_ok=True)
    assert actual == expected, f"{name} differs from {gold}; see {review}"


def test_gold_files_hold_the_hand_worked_numbers() -> None:
    """SPEC.md's means for A to E at k = 3 (hit 0.75, recall 0.625, precision 0.25,
    MRR 0.5833) are what the gold files show, so a gold file cannot bless a wrong number."""
    line = (
        "mine, top 3: 4 questions with relevant passages. "
        "hit@3 0.750 | recall@3 0.625 | precision@3 0.250 | MRR@3 0.583"
    )
    for name in ("index.html", "report.md"):
        text = (GOLDEN / f"spec_example.{name}").read_text().replace("\\", "")
        assert line in text, name
    # summary.md, cut to size, keeps the first screen: mine's hit and recall at k_ctx
    summary = (GOLDEN / "spec_example.summary.md").read_text()
    assert "| hit@3 | **0.750** |" in summary and "| recall@3 | **0.625** |" in summary


def test_golden_report_json_holds_the_hand_worked_numbers() -> None:
    """SPEC.md's means for A to E at k = 3, in the golden report.json as written."""
    means = json.loads((GOLDEN / "spec_example.report.json").read_text())["runs"]["mine"]["means"]
    assert means["hit@3"] == 0.75 and means["recall@3"] == 0.625
    assert means["precision@3"] == 0.25 and means["mrr@3"] == pytest.approx(0.5833, abs=1e-4)
