"""Comparisons as a reader sees them in the Markdown and the HTML."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from reportgen.api import ReportOutputs, demo_request, make_report
from reportgen.render.pages import comparisons_view


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    make_report(demo_request(ReportOutputs(out)))
    return out


def test_markdown_says_noise_and_one_question(demo: Path) -> None:
    text = (demo / "report.md").read_text()
    assert "## Runs compared" in text
    assert text.index("## Runs compared") < text.index("## Questions")
    # 52 questions with relevant passages: 1/52 = 0.019.
    assert "52 paired questions; one question moves a mean by 0.019 (1/n)." in text
    assert "| better |" in text and "| within noise |" in text
    # 10 pairs of 5 runs x 12 measures: the 9 chunk-id ones on the 52 questions, span
    # recall, precision and IoU at 5 on the 50 with evidence (two have chunk ids only).
    # The verdicts judge rerank: its 4 pairs x hit@5, recall@5 are the primary family (8
    # tests), the other 112 exploratory, each family Holm-corrected on its own
    assert (
        "Primary labels (hit@5, recall@5 of each run against rerank) are Holm-corrected "
        "across those 8 tests only; exploratory labels (every other measure, and every other "
        "pair of runs) are Holm-corrected among their own 112 tests"
    ) in text.replace("\\_", "_")
    assert "| p / Holm p (family) |" in text and "(primary) |" in text
    assert (
        "span_recall@5, span_precision@5, span_iou@5: the 50 questions with a value on both "
        "sides (for span measures, those with evidence spans)."
    ) in text.replace("\\_", "_")
    assert "&#39;" not in text and "&amp;lt;" not in text


def test_html_has_the_comparison_section(demo: Path) -> None:
    html = (demo / "index.html").read_text()
    assert '<section id="comparisons" ' in html
    assert 'class="verdict verdict-within-noise"' in html
    assert "keyword → rerank" in html


def test_four_cells_then_and_now_when_both_reports_have_them(demo: Path) -> None:
    import json

    report = json.loads((demo / "report.json").read_text())
    entry = copy.deepcopy(report["comparisons"]["pairs"][0]) | {"run": "keyword"}
    cells = ("retrieved_correct", "retrieved_wrong", "missed_correct", "missed_wrong")
    entry["cells"] = {
        "then": dict(zip(cells, (31, 9, 4, 6), strict=True)),
        "now": dict(zip(cells, (33, 7, 4, 6), strict=True)),
        "pass_rate": {"then": 0.7, "now": 0.74},
        "stale": {"then": None, "now": None},
    }
    report["baseline"] = {
        "version": "v1",
        "created": "2025-01-01T00:00:00Z",
        "source": "base/report.json",
        "selection": None,
        "gold": {"version": "g1", "fingerprint": "abc"},
        "gold_change": None,
        "runs_not_in_baseline": [],
        "baseline_runs_not_here": [],
        "method": report["comparisons"]["method"],
        "comparisons": [entry],
    }
    view = comparisons_view(report)
    cells = view.baseline[0].cells
    assert cells is not None
    assert [[c.text for c in row] for row in cells.rows] == [
        ["working as designed", "31", "33"],
        ["generation failure", "9", "7"],
        ["answered from memory", "4", "4"],
        ["retrieval failure", "6", "6"],
        ["pass rate", "0.700", "0.740"],
    ]
    assert view.baseline_facts[0].startswith("Baseline v1 (2025-01-01T00:00:00Z)")


def test_baseline_with_verdicts_on_both_sides_shows_the_cells(demo: Path, tmp_path: Path) -> None:
    from reportgen.api import ReportInputs, ReportRequest, example_dir

    example = example_dir()
    inputs = ReportInputs(
        example / "gold.jsonl",
        [("rerank", example / "runs" / "rerank.jsonl")],
        baseline=demo,
        verdicts=example / "verdicts.jsonl",
        verdicts_run="rerank",
    )
    result = make_report(ReportRequest(inputs, ReportOutputs(tmp_path / "out")))
    entry = result.report["baseline"]["comparisons"][0]
    then = result.report["attribution"]["rerank"]["cells"]
    assert entry["cells"]["then"] == then and entry["cells"]["now"] == then
    not_here = ["keyword", "dense", "hybrid", "rerank-sections"]
    assert result.report["baseline"]["baseline_runs_not_here"] == not_here
    text = (tmp_path / "out" / "report.md").read_text()
    assert "**The four cells, then and now**" in text


def test_the_count_of_changed_questions_is_the_total_not_the_listed(demo: Path) -> None:
    # report.json lists at most 100 changed questions; the pages count all of them.
    import json

    report = json.loads((demo / "report.json").read_text())
    pair = report["comparisons"]["pairs"][0]
    listed = len({row["qid"] for rows in pair["changed_questions"].values() for row in rows})
    assert pair["changed_total"] == listed  # the demo's 52 questions: nothing left out
    pair["changed_total"] = 2166
    block = comparisons_view(report).pairs[0]
    assert block.changed_total == 2166
    assert len(block.changed.rows) == min(listed, 50)


def _entry(run: str, labels: dict[str, str]) -> dict[str, object]:
    measures = {
        key: {"before": 0.5, "after": 0.25 if label == "worse" else 0.5, "label": label}
        for key, label in labels.items()
    }
    return {"run": run, "measures": measures}


def test_glance_shows_headline_measures_and_what_moved_beyond_noise() -> None:
    from reportgen.render.views.comparisons import glance_table, measure_titles
    from reportgen.report.pages import measure_definitions

    entries = [
        _entry("a", {"hit@5": "worse", "recall@5": "within noise", "ap": "worse"}),
        _entry("b", {"hit@5": "within noise", "recall@5": "within noise", "ap": "better"}),
        _entry("c", {"hit@5": "within noise", "recall@5": "within noise"}),
    ]
    titles = measure_titles({"pages": {"measures": measure_definitions()}})  # type: ignore[typeddict-item]
    labelled = [(str(entry["run"]), entry) for entry in entries]
    table = glance_table(labelled, 5, titles, "At a glance")  # type: ignore[arg-type]
    # only the headline measures at k_ctx that some comparison has; AP is not one
    assert table.header == ["run", "hit@5", "recall@5", "beyond noise (any measure)"]
    rows = [[cell.text for cell in row] for row in table.rows]
    assert rows[0] == ["a", "0.500 → 0.250 (worse)", "0.500 → 0.500", "worse: hit@5, AP"]
    assert rows[1][-1] == "better: AP"
    assert rows[2][-1] == "nothing beyond noise"
