"""summary.md: a PR comment or job summary that GitHub accepts and renders."""

from __future__ import annotations

import copy
import re

import cmarkgfm

from reportgen.api import ReportResult
from reportgen.render.summary import MARKER, SUMMARY_BUDGET, render_summary


def with_cells(report: dict, n: int) -> dict:
    """The report with made-up four cells for run 'mine': n questions per failure cell."""
    report = copy.deepcopy(report)
    questions = {
        "retrieved_correct": [f"ok{i:05d}" for i in range(n)],
        "retrieved_wrong": [f"gen{i:05d}" for i in range(n + 1)],
        "missed_correct": [f"mem{i:05d}" for i in range(3)],
        "missed_wrong": [f"ret{i:05d}" for i in range(n)],
    }
    report["attribution"] = {
        "mine": {
            "k": 3,
            "rule": "any",
            "context_source": "top_k",
            "traced_questions": 0,
            # every retrieved question had all its gold sent, every missed one none
            "by_coverage": {
                "all": {"questions": 2 * n + 1, "correct": n, "pass_rate": n / (2 * n + 1)},
                "some": {"questions": 0, "correct": 0, "pass_rate": None},
                "none": {"questions": n + 3, "correct": 3, "pass_rate": 3 / (n + 3)},
            },
            "n": sum(len(ids) for ids in questions.values()),
            "cells": {cell: len(ids) for cell, ids in questions.items()},
            "questions": questions,
            "stale": {cell: [] for cell in questions},
            "focus": "generation",
            "pass_rate": 0.5,
            "by_kind": {},
        }
    }
    return report


def test_starts_with_the_marker_and_holds_the_headline(spec_example: ReportResult) -> None:
    text = render_summary(spec_example.report, "https://example.org/r/v1/")
    assert text.startswith(MARKER + "\n")
    # the first screen: the best run at k_ctx (no verdicts), its hit and recall
    assert "#### mine: hit@3 0.750 and recall@3 0.625" in text
    assert "| recall@3 | **0.625** |" in text
    assert "[full report](https://example.org/r/v1/)" in text


def test_one_recall_chart_a_line_per_run_under_the_table(spec_example: ReportResult) -> None:
    """The table gives every number; the one chart adds the curves' shapes side by side,
    and only when there are at least three cutoffs to draw a shape from."""
    text = render_summary(spec_example.report)
    assert "```mermaid" not in text  # SPEC.md's example has two cutoffs, 1 and 3
    report = {**spec_example.report, "k": [1, 2, 3]}
    report["runs"] = {
        name: {**run, "means": {**run["means"], "recall@2": 0.5}}
        for name, run in spec_example.report["runs"].items()
    }
    charts = re.findall(r"```mermaid\n(.*?)```", render_summary(report), re.DOTALL)
    assert len(charts) == 1
    assert charts[0].count("\n    line [") == len(report["runs"])
    # recall@1 and recall@3 of SPEC.md's example (mine: 1/4 + 0 + 1/2 ... = 0.375, 0.625)
    assert 'x-axis "k" [1, 2, 3]' in charts[0] and "line [0.375, 0.500, 0.625]" in charts[0]
    names = ", ".join(report["runs"])
    assert f'title "recall@k, one line per run in table order ({names})"' in charts[0]
    rendered = cmarkgfm.github_flavored_markdown_to_html(text)
    assert "<td>mine</td>" in rendered and '<td align="right">0.625</td>' in rendered


def test_a_glossary_line_for_the_measures_named(spec_example: ReportResult) -> None:
    text = render_summary(spec_example.report, "https://example.org/r/v1/")
    glossary = text.rsplit("<sub>Glossary: ", 1)[1]
    assert "hit@k: any gold chunk in the top k" in glossary
    assert "recall@k: share of the gold chunks in the top k" in glossary
    assert "span_recall" not in glossary  # named nowhere in this summary
    assert "[Every definition](https://example.org/r/v1/#glossary)" in glossary


def test_four_cells_and_where_the_effort_goes(spec_example: ReportResult) -> None:
    text = render_summary(with_cells(spec_example.report, 4))
    rendered = cmarkgfm.github_flavored_markdown_to_html(text)
    # 4 + 5 + 3 + 4 = 16 questions; generation failure 5 = 31%
    assert '<td align="right">5 (31%)</td>' in rendered
    assert "generation failures outnumber retrieval failures" in text
    assert "gen00000, gen00001" in text
    # the coverage split beside the cells: all 4 of 9 right, none 3 of 7
    assert "all 0.444 (4 of 9), some n/a (0 of 0), none 0.429 (3 of 7)" in text
    assert "(--retrieved-when any; all asks for every one)" in text


def test_huge_lists_are_cut_with_a_count_and_a_link(spec_example: ReportResult) -> None:
    text = render_summary(with_cells(spec_example.report, 20_000), "https://example.org/full")
    assert len(text) <= SUMMARY_BUDGET
    assert "… and 19960 more ([full report](https://example.org/full))" in text
    assert text.startswith(MARKER)


def test_endless_warnings_still_fit(spec_example: ReportResult) -> None:
    report = copy.deepcopy(spec_example.report)
    warning = {"code": "missing_questions", "message": "x" * 500, "count": 1, "examples": []}
    report["warnings"] = [warning] * 1000
    text = render_summary(report, "https://example.org/full")
    assert len(text) <= SUMMARY_BUDGET
    assert "more in the [full report](https://example.org/full)" in text


def test_a_relative_report_url_is_named_not_linked(spec_example: ReportResult) -> None:
    """`index.html` is right beside summary.md but dead in a PR comment: say where it is."""
    report = copy.deepcopy(with_cells(spec_example.report, 60))
    report["warnings"] = [
        {"code": "missing_questions", "message": f"warning {i}", "count": 1, "examples": []}
        for i in range(50)
    ]
    for url, place in [
        (
            "index.html",
            "full report: index.html in the report folder (in CI, this run's artifacts)",
        ),
        ("../v1/index.html", "full report: ../v1/index.html"),
    ]:
        text = render_summary(report, url)
        assert place in text.split("\n")[3]
        assert "](" not in text and "more in the full report" in text
        assert "… and 21 more (full report)" in text
    linked = render_summary(report, "HTTPS://ci.example.org/runs/7")
    assert "· [full report](HTTPS://ci.example.org/runs/7)\n" in linked


def test_baseline_deltas_and_gate(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The demo against itself with rerank swapped for keyword: rerank's recall@5 falls
    from 0.849 to 0.542 (worse), the others stay (within noise), and the gate fails."""
    from click.testing import CliRunner

    from reportgen.api import example_dir
    from reportgen.cli import cli

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")
    example = example_dir()
    runs = [
        f"keyword={example / 'runs' / 'keyword.trec'}",
        f"rerank={example / 'runs' / 'rerank.jsonl'}",
    ]
    base = tmp_path / "base"
    first = CliRunner().invoke(
        cli, ["report", str(example / "gold.jsonl"), *runs, "--out", str(base), "-q"]
    )
    assert first.exit_code == 0, first.output
    runs[1] = f"rerank={example / 'runs' / 'keyword.trec'}"
    out = tmp_path / "new"
    args = ["--baseline", str(base), "--max-drop", "recall@5=0.02", "--out", str(out), "-q"]
    second = CliRunner().invoke(cli, ["report", str(example / "gold.jsonl"), *runs, *args])
    assert second.exit_code == 1  # the gate failed; the report is still written
    text = (out / "summary.md").read_text()
    gate = text.index("#### Quality gate FAILED: 1 of 2 rules failed")
    # no verdicts: the best run now (keyword, tied with rerank) leads, and the title
    # says that rerank fell
    title = "#### keyword is within noise of baseline 20251124-160000; rerank is worse"
    headline = text.index(title)
    folds = text.index("<summary>Against the baseline: ")
    assert gate < headline < folds < text.index("<summary>recall@k")
    unchanged = "| recall@5 | **0.542** | 0.41\u20130.67 | no change from 0.542: **within noise** |"
    assert unchanged in text
    assert "| rerank | 52 | 0.596 <sub>0.46\u20130.72</sub> |" in text  # the other runs
    # rerank's top 5 now holds fewer judged chunks than then: the note says so, next
    # to every label of that comparison
    note = " (may reflect unjudged chunks: judged@5 0.250 → 0.146)"
    assert f"| a drop of 0.308, worse{note} |" in text
    assert "| recall@5 | 0.849 | 0.542 | -0.308" in text
    # at a glance: one row per run, what moved beyond noise (the unjudged note beside
    # it, not in the name column), the rest one click away
    assert "| rerank | 0.904 → 0.596 (worse) | 0.849 → 0.542 (worse) |" in text
    moved = text.split("| rerank | 0.904 →")[1].split("\n")[0].rsplit("|", 2)[1].strip()
    # hit@5 and recall@5 primary (4 tests); the other 14 exploratory, among which MRR
    # (no cutoff) is now worse too: the 18 tests are no longer one family
    assert moved == f"worse: hit@5, recall@5, precision@5, MRR@5, nDCG@5, AP@5, MRR, AP{note}"
    assert "| keyword | 0.596 → 0.596 | 0.542 → 0.542 |" in text
    assert "nothing beyond noise |" in text.split("| keyword | 0.596 →")[1].split("\n")[0]
    rerank = text.split("**rerank (")[1]
    assert rerank.split("| recall@5 |")[1].split("\n")[0].endswith(f"| worse{note} |")
    keyword = text.split("**keyword (")[1]
    assert keyword.split("| recall@5 |")[1].split("\n")[0].endswith("| within noise |")
    # GitHub keeps <details>; cmark drops raw HTML unless told otherwise
    unsafe = cmarkgfm.cmark.Options.CMARK_OPT_UNSAFE
    rendered = cmarkgfm.github_flavored_markdown_to_html(text, options=unsafe)
    assert "questions that changed (" in text and rendered.count("<table>") >= 4
    assert rendered.count("<details>") == text.count("<details>")
