"""Stale gold ids in the four cells: counted as before, marked beside their ids, and a
sentence when a retrieval failure rests on them, in report.json, HTML, Markdown and
summary.md alike."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from reportgen.analyse.attribution import stale_by_cell
from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    demo_request,
    make_report,
)
from reportgen.measure.scoring import Settings
from tests.analyse.attribution.test_four_cells import MISSED_WRONG, RETRIEVED_CORRECT, K, write_case

NOTE = "stale gold ids: fix the gold set before blaming search."


def test_stale_by_cell_keeps_only_questions_in_cells() -> None:
    questions = pl.DataFrame(
        {
            "qid": ["a", "b", "c", "d", "u"],
            "cell": ["missed_wrong", "missed_wrong", "retrieved_correct", None, None],
        }
    )
    stale = pl.DataFrame({"qid": ["b", "b", "c", "d", "u"], "chunk_id": ["1", "2", "3", "4", "5"]})
    assert stale_by_cell(questions, stale) == {
        "retrieved_correct": ["c"],
        "retrieved_wrong": [],
        "missed_correct": [],
        "missed_wrong": ["b"],
    }
    assert stale_by_cell(questions, stale.clear()) == {
        "retrieved_correct": [],
        "retrieved_wrong": [],
        "missed_correct": [],
        "missed_wrong": [],
    }


def write_manifest(folder: Path, missing: set[str]) -> Path:
    """Every gold chunk of the 31/9/4/6 case except ``missing``."""
    ids = [f"q{i:02d}-gold" for i in range(1, 51)]
    path = folder / "manifest.jsonl"
    path.write_text("".join(json.dumps({"chunk_id": c}) + "\n" for c in ids if c not in missing))
    return path


def test_hand_built_case_marks_stale_ids_without_changing_counts(tmp_path: Path) -> None:
    """q45 and q46 (retrieval failures) and q01 (working) lose their gold chunk."""
    gold, run, verdicts = write_case(tmp_path)
    manifest = write_manifest(tmp_path, {"q45-gold", "q46-gold", "q01-gold"})
    out = tmp_path / "out"
    inputs = ReportInputs(gold, [("rag", run)], verdicts=verdicts, manifest=manifest)
    outputs = ReportOutputs(out, formats=("json", "html", "md"))
    settings = ReportSettings(Settings(ks=(1, K), context_k=K))
    result = make_report(ReportRequest(inputs, outputs, settings))
    section = json.loads((out / "report.json").read_text())["attribution"]["rag"]
    assert section["cells"] == {
        "retrieved_correct": 31,
        "retrieved_wrong": 9,
        "missed_correct": 4,
        "missed_wrong": 6,
    }
    assert section["questions"]["missed_wrong"] == MISSED_WRONG
    assert section["questions"]["retrieved_correct"] == RETRIEVED_CORRECT
    assert section["stale"] == {
        "retrieved_correct": ["q01"],
        "retrieved_wrong": [],
        "missed_correct": [],
        "missed_wrong": ["q45", "q46"],
    }
    assert section["stale_count"] == 3
    assert result.report["attribution"]["rag"]["stale"] == section["stale"]

    html = (out / "index.html").read_text()
    markdown = (out / "report.md").read_text()
    summary = (out / "summary.md").read_text()
    marked = "q45 (stale gold), q46 (stale gold), q47, q48, q49, q50"
    assert marked in html and "q01 (stale gold), q02" in html
    assert f"- retrieval failure (6): {marked}" in markdown
    assert f"- retrieval failure: {marked}" in summary
    for text in (html, markdown, summary):
        assert f"2 of the 6 retrieval failures have {NOTE}" in text
        assert text.count("(stale gold)") == (2 if text is summary else 3)


def test_possibly_stale_ids_are_not_marked(tmp_path: Path) -> None:
    """Without a manifest, the retrieval failures' gold ids are returned by no run: a
    weaker signal, so the cells carry no mark and no sentence."""
    gold, run, verdicts = write_case(tmp_path)
    out = tmp_path / "out"
    inputs = ReportInputs(gold, [("rag", run)], verdicts=verdicts)
    settings = ReportSettings(Settings(ks=(1, K), context_k=K))
    result = make_report(
        ReportRequest(inputs, ReportOutputs(out, formats=("json", "md")), settings)
    )
    report = result.report
    assert report["hygiene"]["stale"]["basis"] == "no_run_returns"
    assert sorted(report["hygiene"]["stale"]["questions"]) == MISSED_WRONG
    section = report["attribution"]["rag"]
    assert section["stale_count"] == 0
    assert all(ids == [] for ids in section["stale"].values())
    markdown = (out / "report.md").read_text()
    assert "stale gold)" not in markdown and NOTE not in markdown


def test_demo_marks_q047_as_a_stale_retrieval_failure(tmp_path: Path) -> None:
    result = make_report(demo_request(ReportOutputs(tmp_path, formats=("json", "html", "md"))))
    section = json.loads((tmp_path / "report.json").read_text())["attribution"]["rerank"]
    assert section["stale"] == {
        "retrieved_correct": ["q057"],
        "retrieved_wrong": [],
        "missed_correct": [],
        "missed_wrong": ["q047"],
    }
    assert section["stale_count"] == 2
    assert "q047" in section["questions"]["missed_wrong"]
    assert section["stale"] == result.report["attribution"]["rerank"]["stale"]
    for name in ("index.html", "report.md", "summary.md"):
        text = (tmp_path / name).read_text()
        assert "q047 (stale gold)" in text, name
        assert f"1 of the 4 retrieval failures has {NOTE}" in text, name
    for name in ("index.html", "report.md"):
        assert "q057 (stale gold)" in (tmp_path / name).read_text(), name
