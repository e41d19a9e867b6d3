"""The unanswerable cutoff (SPEC.md): the worked gap, an overlap worked by hand, runs
that cannot have one, the text histogram, the chart, and the report's numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import vl_convert

from reportgen.analyse.cutoff import CutoffAnalysis
from reportgen.analyse.run import run_analyses
from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    demo_request,
    make_report,
)
from reportgen.load import load_gold, load_run
from reportgen.measure.scoring import Settings, evaluate
from reportgen.render.charts import cutoff_chart_spec
from reportgen.render.views.cutoff import histogram


def write(
    folder: Path,
    answerable: dict[str, float | None],
    unanswerable: dict[str, float | None],
) -> tuple[Path, Path]:
    """Each question's top-1 score (None: a run without scores); gold at rank 1."""
    gold = [{"id": q, "gold": [f"{q}-g"]} for q in answerable]
    gold += [{"id": q, "unanswerable": True} for q in unanswerable]
    run = []
    for qid, score in {**answerable, **unanswerable}.items():
        chunks = [f"{qid}-g", f"{qid}-x"]
        record: dict[str, object] = {"id": qid, "chunks": chunks}
        if score is not None:
            record["scores"] = [score, score / 2]
        run.append(record)
    paths = folder / "gold.jsonl", folder / "run.jsonl"
    for path, lines in zip(paths, (gold, run), strict=True):
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return paths


def analysed(
    folder: Path, answerable: dict[str, float | None], unanswerable: dict[str, float | None]
) -> CutoffAnalysis:
    gold, run = write(folder, answerable, unanswerable)
    evaluation = evaluate(
        load_gold(gold), [load_run(run, "rerank")], Settings(ks=(1,), context_k=1)
    )
    return run_analyses(evaluation, version="t").cutoffs[0]


SPEC_ANSWERABLE: dict[str, float | None] = {"a1": 0.91, "a2": 0.85, "a3": 0.78, "a4": 0.66}
SPEC_UNANSWERABLE: dict[str, float | None] = {"u1": 0.31, "u2": 0.42, "u3": 0.55}


def test_spec_example_gap_and_midpoint(tmp_path: Path) -> None:
    analysis = analysed(tmp_path, SPEC_ANSWERABLE, SPEC_UNANSWERABLE)
    assert analysis.reason is None
    assert analysis.gap == (pytest.approx(0.55), pytest.approx(0.66))
    assert analysis.cutoff == pytest.approx(0.605)  # (0.55 + 0.66) / 2
    assert analysis.overlap is None
    assert analysis.answered_unanswerable == () and analysis.declined_answerable == ()


def test_overlap_gives_the_cutoff_with_fewest_errors(tmp_path: Path) -> None:
    # Sorted: u2 0.3, a2 0.5, u1 0.6, a3 0.8, a1 0.9. Answer at or above the cutoff:
    #   0.3 (all): 2 answered unanswerable         -> 2 errors
    #   0.4:       u1 answered                     -> 1 error
    #   0.55:      a2 declined, u1 answered        -> 2 errors
    #   0.7:       a2 declined                     -> 1 error, none answered wrongly: chosen
    #   0.85:      a2, a3 declined                 -> 2 errors
    analysis = analysed(tmp_path, {"a1": 0.9, "a2": 0.5, "a3": 0.8}, {"u1": 0.6, "u2": 0.3})
    assert analysis.gap is None
    assert analysis.overlap == (pytest.approx(0.5), pytest.approx(0.6))
    assert analysis.cutoff == pytest.approx(0.7)
    assert analysis.declined_answerable == ("a2",)
    assert analysis.answered_unanswerable == ()
    assert analysis.in_overlap("answerable") == ["a2"]
    assert analysis.in_overlap("unanswerable") == ["u1"]


def test_scores_that_separate_nothing_mean_answering_everything(tmp_path: Path) -> None:
    # Every unanswerable score sits above every answerable one: any cutoff that declines
    # an unanswerable question declines all three answerable ones first.
    analysis = analysed(tmp_path, {"a1": 0.1, "a2": 0.2, "a3": 0.3}, {"u1": 0.8})
    assert analysis.cutoff == pytest.approx(0.1)
    assert analysis.answered_unanswerable == ("u1",)
    assert analysis.declined_answerable == ()


def test_equal_scores_fall_on_the_same_side(tmp_path: Path) -> None:
    analysis = analysed(tmp_path, {"a1": 0.5, "a2": 0.9}, {"u1": 0.5, "u2": 0.1})
    # 0.5 is shared: cutoff 0.3 answers both (u1 wrong), 0.7 declines both (a1 wrong).
    assert analysis.overlap == (pytest.approx(0.5), pytest.approx(0.5))
    assert analysis.cutoff == pytest.approx(0.7)
    assert analysis.declined_answerable == ("a1",)


def test_run_without_scores_says_why(tmp_path: Path) -> None:
    analysis = analysed(tmp_path, {"a1": None}, {"u1": None})
    assert analysis.cutoff is None
    assert analysis.reason is not None and "has no scores" in analysis.reason


def test_gold_set_without_unanswerable_questions_says_why(tmp_path: Path) -> None:
    analysis = analysed(tmp_path, {"a1": 0.9, "a2": 0.4}, {})
    assert analysis.cutoff is None
    assert analysis.reason is not None and "no unanswerable question" in analysis.reason


def test_histogram_counts_each_group(tmp_path: Path) -> None:
    analysis = analysed(tmp_path, SPEC_ANSWERABLE, SPEC_UNANSWERABLE)
    bins = histogram(analysis.top_scores, bins=3)
    # 0.31 to 0.91 in thirds of 0.2: [0.31, 0.51) u1 u2; [0.51, 0.71) u3 a4; [0.71, 0.91] a3 a2 a1
    assert bins["answerable"].to_list() == [0, 1, 3]
    assert bins["unanswerable"].to_list() == [2, 1, 0]
    assert bins["low"].to_list() == pytest.approx([0.31, 0.51, 0.71])


def test_chart_spec_renders_marks_and_the_cutoff(tmp_path: Path) -> None:
    analysis = analysed(tmp_path, SPEC_ANSWERABLE, SPEC_UNANSWERABLE)
    points = analysis.top_scores.select("qid", "group", "score").to_dicts()
    spec = cutoff_chart_spec("rerank", points, 0.605, (0.55, 0.66), "gap")
    assert [layer["mark"]["type"] for layer in spec["layer"]] == ["rect", "tick", "rule", "text"]
    svg = vl_convert.vegalite_to_svg(spec)
    # Ticks render as one path each in the layer_1 group: 7 questions, 7 marks.
    assert len(marks(svg, "mark-rect role-mark layer_1_marks")) == 7
    assert len(marks(svg, "mark-rect role-mark layer_0_marks")) == 1  # the gap band
    assert len(marks(svg, "mark-rule role-mark layer_2_marks")) == 1  # the cutoff
    assert "cutoff 0.605" in svg
    assert ">answerable<" in svg and ">unanswerable<" in svg


def marks(svg: str, group: str) -> list[str]:
    """The drawn items (paths or lines) of one mark group of a Vega SVG."""
    found = re.search(rf'class="{group}"[^>]*>(.*?)</g>', svg)
    assert found, f"no {group} in the chart"
    return re.findall(r"<(?:path|line)\b", found.group(1))


def test_report_html_and_markdown_agree(tmp_path: Path) -> None:
    gold, run = write(tmp_path, SPEC_ANSWERABLE, SPEC_UNANSWERABLE)
    out = tmp_path / "out"
    settings = ReportSettings(Settings(ks=(1,), context_k=1))
    make_report(ReportRequest(ReportInputs(gold, [("rerank", run)]), ReportOutputs(out), settings))
    section = json.loads((out / "report.json").read_text())["cutoff"]["rerank"]
    assert section["gap"] == [0.55, 0.66]
    assert section["cutoff"] == 0.605
    assert section["errors"] == {"answered_unanswerable": 0, "declined_answerable": 0}
    assert section["answerable"] == {"n": 4, "min": 0.66, "max": 0.91}
    assert section["reason"] is None
    sentence = "A cutoff of 0.605 (the middle of the gap)"
    html = (out / "index.html").read_text()
    markdown = (out / "report.md").read_text()
    assert sentence in html and sentence in markdown.replace("\\", "")
    assert "reach at most 0.55; those of answerable ones start at 0.66" in html
    assert "<svg" in html and "cutoff 0.605" in html
    # Ten bins of 0.06 from 0.31; the cutoff falls in the fifth, with u3 (0.55).
    assert "| 0.55 to 0.61 ◀ cutoff 0.605 | 0 | █ 1 |" in markdown
    assert "| 0.85 to 0.91 | ██ 2 | 0 |" in markdown


def test_report_of_a_run_without_scores(tmp_path: Path) -> None:
    gold, run = write(tmp_path, {"a1": None}, {"u1": None})
    out = tmp_path / "out"
    settings = ReportSettings(Settings(ks=(1,), context_k=1))
    inputs = ReportInputs(gold, [("plain", run)])
    result = make_report(ReportRequest(inputs, ReportOutputs(out), settings))
    section = result.report["cutoff"]["plain"]
    assert section["cutoff"] is None and section["errors"] is None and section["gap"] is None
    assert (
        "No cutoff analysis for plain: run plain has no scores" in (out / "report.md").read_text()
    )


def test_demo_rerank_overlaps_a_little(tmp_path: Path) -> None:
    """The example's generator: rerank's top-1 scores overlap (0.5296 to 0.5603), no gap."""
    result = make_report(demo_request(ReportOutputs(tmp_path, formats=("json",))))
    section = result.report["cutoff"]["rerank"]
    assert section["gap"] is None
    assert section["overlap"] == [0.5296, 0.5603]
    assert section["questions"]["in_overlap"] == {"answerable": ["q057"], "unanswerable": ["q046"]}
    # Midway between 0.5603 (q046) and the next answerable score: only q057 is declined.
    assert section["errors"] == {"answered_unanswerable": 0, "declined_answerable": 1}
    assert section["questions"]["declined_answerable"] == ["q057"]


def test_runs_without_an_analysis_for_the_same_reason_share_one_sentence(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq2 0 d2 1\n")  # no unanswerable question
    runs = []
    for name in ("bm25", "dense", "splade"):
        path = tmp_path / f"{name}.trec"
        path.write_text("q1 Q0 d1 1 2.0 r\nq2 Q0 d9 1 1.0 r\n")
        runs.append((name, path))
    settings = ReportSettings(Settings(ks=(1,), context_k=1))
    make_report(ReportRequest(ReportInputs(qrels, runs), ReportOutputs(tmp_path / "out"), settings))
    markdown = (tmp_path / "out" / "report.md").read_text()
    assert markdown.count("No cutoff analysis") == 1
    assert "No cutoff analysis for bm25, dense and splade: the gold set has no" in markdown
    assert "### bm25, dense and splade" in markdown
