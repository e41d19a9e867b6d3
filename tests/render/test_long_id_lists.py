"""Questions with hundreds of judged chunks (TREC-style qrels) keep the pages readable."""

from __future__ import annotations

from pathlib import Path

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    make_report,
)
from reportgen.measure.scoring import Settings
from reportgen.render.views.common import listed_ids


def test_listed_ids_cut_at_ten_and_say_how_many_more() -> None:
    ids = [f"d{i}" for i in range(12)]
    assert listed_ids(ids[:3]) == "d0, d1, d2"
    assert listed_ids(ids[:10]) == ", ".join(ids[:10])
    assert listed_ids(ids) == ", ".join(ids[:10]) + ", … and 2 more"
    assert listed_ids(ids[:3], total=40) == "d0, d1, d2, … and 37 more"


def test_gold_and_stale_ids_are_cut_in_both_pages(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q1 0 d{i:03d} 1\n" for i in range(300)))
    run = tmp_path / "run.trec"
    run.write_text("".join(f"q1 Q0 d{i:03d} {i + 1} {10 - i} r\n" for i in range(5)))
    settings = ReportSettings(Settings(ks=(5,), context_k=5))
    inputs = ReportInputs(qrels, [("r", run)])
    result = make_report(ReportRequest(inputs, ReportOutputs(tmp_path / "out"), settings))
    # 295 gold ids no run returns: all in report.json, ten of them on each page
    assert len(result.report["hygiene"]["stale"]["questions"]["q1"]) == 295
    markdown = (tmp_path / "out" / "report.md").read_text()
    html = (tmp_path / "out" / "index.html").read_text()
    for page in (markdown, html):
        assert "d000, d001, d002, d003, d004, d005, d006, d007, d008, d009, … and 290 more" in page
        assert "d005, d006, d007, d008, d009, d010, d011, d012, d013, d014, … and 285 more" in page
        assert "d299" not in page


def test_numeric_question_ids_are_listed_by_value(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qids = ["10", "2", "b", "1", "a"]
    qrels.write_text("".join(f"{q} 0 d{q} 1\n" for q in qids))
    run = tmp_path / "run.trec"
    run.write_text("".join(f"{q} Q0 d{q} 1 1.0 r\n" for q in qids))
    outputs = ReportOutputs(tmp_path / "out", formats=("md",))
    make_report(ReportRequest(ReportInputs(qrels, [("r", run)]), outputs))
    markdown = (tmp_path / "out" / "report.md").read_text()
    table = markdown.split("## Questions")[1]
    rows = [line.split(" | ")[0].removeprefix("| ").split(" (")[0] for line in table.splitlines()]
    assert [row for row in rows if row in qids] == ["1", "2", "10", "a", "b"]
