"""The demo compares two chunkings on one gold set and shows what failed questions were sent."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from reportgen.api import ReportOutputs, demo_request, make_report, render_report
from reportgen.render.charts import chunkings_spec
from tests.joins.conftest import SEED, data_set
from tests.joins.dataset import RUNS
from tests.joins.paths import Options, plain, run_cli
from tests.report_schema import report_problems


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    make_report(demo_request(ReportOutputs(out)))
    return out


@pytest.fixture(scope="module")
def report(demo: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((demo / "report.json").read_text())
    return loaded


def test_both_chunkings_are_judged_on_the_same_evidence(report: dict[str, Any]) -> None:
    runs = report["chunkings"]["runs"]
    assert runs["rerank"]["chunk_map"] == "helpcentre/chunks/paragraphs.jsonl"
    assert runs["rerank-sections"]["chunk_map"] == "helpcentre/chunks/sections.jsonl"
    assert runs["rerank-sections"]["chunks"] < runs["rerank"]["chunks"]
    means = {name: report["runs"][name]["means"] for name in ("rerank", "rerank-sections")}
    # sections are two paragraphs: more of the evidence and more text per chunk sent
    assert means["rerank-sections"]["span_recall@5"] >= means["rerank"]["span_recall@5"]
    assert means["rerank-sections"]["context_chars@5"] > means["rerank"]["context_chars@5"]
    # the paragraph chunking is the index: the evidence derives the gold ids themselves
    assert report["runs"]["rerank"]["means"]["recall@5"] == pytest.approx(0.849, abs=5e-4)


def test_the_chunkings_section_has_a_table_and_a_chart(demo: Path, report: dict[str, Any]) -> None:
    html = (demo / "index.html").read_text()
    section = html.split('<section id="chunkings"')[1].split("</section>")[0]
    assert section.count("<tr>") == 1 + len(report["chunkings"]["runs"])
    assert "<svg" in section and ">rerank-sections</text>" in section
    md = (demo / "report.md").read_text()
    assert "## Chunkings" in md and "(charts/chunkings.svg)" in md
    assert (demo / "charts" / "chunkings.svg").is_file()


def test_the_chart_places_every_chunked_run(report: dict[str, Any]) -> None:
    spec = chunkings_spec(report)
    assert spec is not None
    points = {v["run"]: (v["chars"], v["recall"]) for v in spec["data"]["values"]}
    assert set(points) == set(report["chunkings"]["runs"])
    means = report["runs"]["rerank"]["means"]
    assert points["rerank"] == (means["context_chars@5"], means["span_recall@5"])
    assert chunkings_spec({**report, "chunkings": None}) is None


def test_the_demo_drills_into_its_failure_cells(demo: Path, report: dict[str, Any]) -> None:
    cells = report["attribution"]["rerank"]["cells"]
    failures = cells["retrieved_wrong"] + cells["missed_wrong"]
    assert report["drilldown"]["count"] == failures
    html = (demo / "index.html").read_text()
    assert html.count('<details class="panel">') == failures
    assert "<mark>Answer (" in html
    summary = (demo / "summary.md").read_text()
    assert (
        f"for {failures} failed questions of rerank, evidence highlighted: in the full" in summary
    )


def test_a_chunk_map_without_evidence_renders_n_a(tmp_path: Path) -> None:
    """No question with evidence: span means and their intervals are null, the pages say n/a."""
    data = data_set(SEED)
    questions = tuple(dataclasses.replace(q, evidence=()) for q in data.questions)
    options = Options(chunks=True)
    got = plain(dataclasses.replace(data, questions=questions), tmp_path, options)
    assert got.report is not None, got.output
    assert report_problems(got.report) == []
    for run in got.report["runs"].values():
        assert run["means"]["span_recall@5"] is None and run["intervals"]["span_recall@5"] is None
    # the same inputs with pages (a --format json report keeps no page data)
    out = tmp_path / "pages"
    runs = [f"{name}={tmp_path / 'runs' / f'{name}.trec'}" for name in RUNS]
    line = ["report", str(tmp_path / "gold.jsonl"), *runs, *options.cli(tmp_path, True)]
    line += ["--verdicts", str(tmp_path / "verdicts.jsonl")]
    with_pages = run_cli([*line, "--format", "html,md", "--out", str(out)])
    assert with_pages.report is not None, with_pages.output
    assert with_pages.report["runs"] == got.report["runs"]
    render_report(out, formats=["html", "md"])
    md = (out / "report.md").read_text()
    rows = md.split("## Chunkings")[1].split("\n| bm25 |")[1].split("\n")[0]
    assert rows.count("n/a") == 3  # span recall, precision and IoU; characters sent has one
    html = (out / "index.html").read_text()
    assert "n/a" in html.split('<section id="chunkings"')[1].split("</section>")[0]
    assert (out / "summary.md").read_text()
