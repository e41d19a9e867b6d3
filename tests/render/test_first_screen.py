"""The first screen's values (reportgen.render.views.first_screen) and where the pages put them."""

from __future__ import annotations

import copy

import pytest

from reportgen.api import (
    ReportOutputs,
    ReportResult,
    ReportSettings,
    demo_request,
    make_report,
)
from reportgen.render.views import first_run_note
from reportgen.render.views.common import change_words, plural
from reportgen.render.views.first_screen import first_screen, overall_verdict
from reportgen.render.views.questions import evidence_words


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> ReportResult:
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", "1764000000")
    outputs = ReportOutputs(tmp_path_factory.mktemp("demo"), chart_png=True)
    result = make_report(demo_request(outputs, ReportSettings(version="demo")))
    mp.undo()
    return result


def test_words() -> None:
    assert plural(1, "question") == "1 question" and plural(2, "question") == "2 questions"
    assert plural(1, "verdict", "verdicts") == "1 verdict"
    assert change_words(0.2951) == "a rise of 0.295"
    assert change_words(-0.2951) == "a drop of 0.295"
    assert change_words(0.0002) == "no change"
    assert overall_verdict(["worse", "within noise"]) == "worse"
    assert overall_verdict(["worse", "better"]) == "mixed"
    assert overall_verdict(["within noise", "within noise"]) == "within noise"


def test_the_question_table_says_once_why_its_run_comes_first() -> None:
    # The reason is a noun phrase ("the run the verdicts are for"): the note once read
    # "rerank comes first, as the run the run the verdicts are for".
    note = first_run_note(["bm25", "rerank"], "rerank", "the run the verdicts are for")
    assert note == "rerank comes first: the run the verdicts are for"
    best = first_run_note(["a", "b"], "b", "the best run at top 5 (no verdicts given)")
    assert best == "b comes first: the best run at top 5 (no verdicts given)"
    assert first_run_note(["a"], "a", "the only run") == "a comes first"


def test_a_gold_chunk_past_k_ctx_is_a_miss_with_its_rank() -> None:
    assert evidence_words(2, "scored", 5) == ("gold at rank 2", "found")
    assert evidence_words(19, "scored", 5) == ("not in top 5 (gold at rank 19)", "missed")
    assert evidence_words(None, "scored", 5) == ("no gold returned", "missed")
    assert evidence_words(None, "unanswerable", 5) == ("nothing to find", "neutral")


def test_the_demo_leads_with_the_run_the_verdicts_are_for(demo: ReportResult) -> None:
    screen = first_screen(demo.report)
    assert screen.run == "rerank" and screen.why == "the run the verdicts are for"
    assert screen.title == "rerank: hit@5 0.904 and recall@5 0.849"
    assert [(f.label, f.value) for f in screen.figures] == [
        ("hit@5", "0.904"),
        ("recall@5", "0.849"),
    ]
    assert screen.figures[0].interval == "0.79\u20130.96"
    assert screen.gate is None and screen.verdict == ""
    # stale gold stays in view; the six other warnings (keyword ties inside its top 10
    # too: nDCG@10 and AP@10) fold into two lines
    assert len(screen.alerts) == 1 and "not in the index manifest" in screen.alerts[0]
    assert [g.summary.split(":")[0] for g in screen.warning_groups] == [
        "4 warnings about the numbers",
        "2 warnings about ignored input",
    ]
    assert screen.others is not None
    others = ["keyword", "dense", "hybrid", "rerank-sections"]
    assert [row[0].text for row in screen.others.rows] == others


def test_without_verdicts_the_best_run_at_k_ctx_leads(demo: ReportResult) -> None:
    report = copy.deepcopy(demo.report)
    report["attribution"] = {}
    report["verdicts"] = None
    screen = first_screen(report)
    assert screen.run == "rerank" and screen.why == "the best run at top 5 (no verdicts given)"
    assert screen.cells is None


def test_pages_keep_the_first_screen_order(demo: ReportResult) -> None:
    folder = next(path.parent for path in demo.files if path.name == "report.md")
    markdown = (folder / "report.md").read_text()
    order = [
        "## rerank: hit@5 0.904 and recall@5 0.849",
        "### The four cells (rerank, top 5)",
        "End-to-end pass rate 0.740 (37 of 50)",
        "> [!CAUTION]",
        "**The other runs**",
        "<details><summary>⚠ 4 warnings about the numbers",
        "## Measures per run",
        "## Curves over k",
        "## By kind, top 5",
        '## When to say "I could not find this"',
        "## Runs compared",
        "## Questions",
        "## Inputs and hygiene",
        "## Glossary",
    ]
    places = [markdown.index(heading) for heading in order]
    assert places == sorted(places)
    # with --chart-png, report.md links the PNGs that were drawn
    assert "(charts/recall_at_k.png)" in markdown and (folder / "charts/recall_at_k.png").is_file()
    # "questions that changed" fold in both pages
    html = (folder / "index.html").read_text()
    assert '<details class="changed"><summary>' in html
    assert "<details open" not in html.split('id="comparisons"')[1].split("</section>")[0]
    assert html.index('id="verdict"') < html.index('id="four-cells"') < html.index('id="methods"')
