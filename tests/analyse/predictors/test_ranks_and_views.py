"""The first gold rank in what the model received (a trace's context, hops concatenated),
and the views: the section and its chart, the headroom line beside the four cells, run
names escaped, and the chart specs known early equal to the report's."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reportgen.analyse.run import AnalysisOptions, run_analyses
from reportgen.cli import cli
from reportgen.load import load_gold, load_run, load_verdicts
from reportgen.load.inputs.traces import load_trace
from reportgen.measure.scoring import Settings, evaluate
from reportgen.render.charts import FIRST_GOLD_RANK, page_chart_specs
from reportgen.render.pages import render_html
from reportgen.render.views import view_model
from reportgen.report.assemble import assemble, chart_sections
from tests.analyse.attribution.test_four_cells import write_case


def trace_report(folder: Path, lines: list[dict[str, object]], k: int = 3) -> dict:
    trace = folder / "trace.jsonl"
    trace.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = folder / "out"
    args = ["report", str(trace), "--context-k", str(k), "--out", str(out), "--format", "json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return json.loads((out / "report.json").read_text())["attribution"]["t"]


def test_the_rank_is_the_position_in_the_context_sent(tmp_path: Path) -> None:
    # the gold is first in the ranked list, second in the context the model received
    section = trace_report(
        tmp_path,
        [
            {"_meta": {"run": "t"}},
            {"id": "q1", "gold": ["g"], "retrieved": ["g", "x1"], "context": ["x1", "g"],
             "correct": True},
            {"id": "q2", "gold": ["h"], "retrieved": ["h", "x2"], "correct": False},
        ],
    )  # fmt: skip
    ranks = {r: row["n"] for r, row in section["by_first_gold_rank"].items() if row["n"]}
    assert ranks == {"1": 1, "2": 1}
    first = section["first_gold_rank"]
    assert first["basis"] == "trace" and first["multi_hop"]
    assert "combined context" in first["note"]


def test_hops_are_ranked_in_the_combined_context(tmp_path: Path) -> None:
    # hops [x9, x10] then [x10, c41]: c41 is third (a repeat takes no rank), inside k = 3
    section = trace_report(
        tmp_path,
        [
            {"_meta": {"run": "t"}},
            {"id": "q1", "gold": ["c41"], "retrieved": ["x9", "x10", "x10", "c41"],
             "correct": True},
            {"id": "q2", "gold": ["c9"], "retrieved": ["c9"], "correct": False},
        ],
    )  # fmt: skip
    assert section["by_first_gold_rank"]["3"]["n"] == 1
    assert section["by_first_gold_rank"]["1"]["n"] == 1


def test_the_pages_show_the_section_the_chart_and_the_headroom(tmp_path: Path) -> None:
    gold, run, verdicts = write_case(tmp_path)
    out = tmp_path / "out"
    name = "<b>rag</b>"
    result = CliRunner().invoke(
        cli,
        [*("report", str(gold), f"{name}={run}", "--verdicts", str(verdicts)),
         *("--out", str(out), "--k", "1,5", "--context-k", "5")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    line = "Fixing retrieval: up to +4.7 answers (pass rate 0.700 → 0.793); fixing generation:"
    assert line in result.output
    html = (out / "index.html").read_text()
    assert 'id="predictors"' in html and "<b>rag</b>" not in html
    assert "What predicts the answers (&lt;b&gt;rag&lt;/b&gt;)" in html
    assert '<p class="headroom">Fixing retrieval: up to +4.7 answers' in html
    assert "Answers pass less often the lower the first gold chunk sits" in html
    svg = (out / "charts" / f"{FIRST_GOLD_RANK}.svg").read_text()
    assert svg.count("<path") > 6 and "n=31" in svg  # bars, interval rules, counts
    assert f'id="chart-{FIRST_GOLD_RANK}"' in html
    markdown = (out / "report.md").read_text()
    assert "## What predicts the answers (\\<b\\>rag\\</b\\>)" in markdown
    assert f"charts/{FIRST_GOLD_RANK}.svg" in markdown
    summary = (out / "summary.md").read_text()
    assert "Fixing retrieval: up to \\+4.7 answers" in summary


def test_the_charts_sent_early_are_the_report_s(tmp_path: Path) -> None:
    """The chart worker draws from the sections known before the comparisons; its
    drawings are used only if the report's specs are the same."""
    gold, run, verdicts = write_case(tmp_path)
    evaluation = evaluate(load_gold(gold), [load_run(run, "rag")], Settings(ks=(1, 5)))
    early = {}

    def known(means, cutoffs, chunkings, predictors) -> None:  # type: ignore[no-untyped-def]
        early.update(page_chart_specs(chart_sections(evaluation, means, cutoffs, chunkings,
                                                     predictors)))  # fmt: skip

    findings = run_analyses(
        evaluation, AnalysisOptions(verdicts=load_verdicts(verdicts)), charts_known=known
    )
    assert FIRST_GOLD_RANK in early
    assert early == page_chart_specs(assemble(findings))


def test_every_verdict_right_leaves_the_auc_and_trend_undefined_and_the_pages_whole(
    tmp_path: Path,
) -> None:
    lines: list[dict[str, object]] = [{"_meta": {"run": "t"}}]
    lines += [
        {"id": f"q{i}", "gold": [f"g{i}"], "retrieved": [f"g{i}", "x"][:: 1 if i % 2 else -1],
         "correct": True}
        for i in range(6)
    ]  # fmt: skip
    trace = tmp_path / "trace.jsonl"
    trace.write_text("".join(json.dumps(line) + "\n" for line in lines))
    loaded = load_trace(trace)
    findings = run_analyses(
        evaluate(loaded.gold, [loaded.run], Settings(ks=(1, 2), context_k=2)),
        AnalysisOptions(verdicts=loaded.verdicts),
    )
    report = assemble(findings)
    section = report["attribution"]["t"]
    association = section["association"]
    assert association["best"] is None and association["reason"] is not None
    assert all(entry["auc"] is None for entry in association["measures"].values())
    trend = section["first_gold_rank"]["trend"]
    assert trend["p"] is None and trend["reason"] == "every answer with gold sent was right"
    assert section["headroom"]["generation"]["added"] == 0
    html = render_html(view_model(report))  # the page, without drawing its charts
    assert "No trend test: every answer with gold sent was right." in html
    assert "Only 6 questions with a verdict" in html  # few questions: the caution


def test_one_rank_holding_most_questions_is_said(tmp_path: Path) -> None:
    from reportgen.render.views.predictors import predictors_view

    gold, run, verdicts = write_case(tmp_path)
    # gold at rank 1 for 31 of 50 questions: 62%, under the 80% that triggers the caution
    findings = run_analyses(
        evaluate(load_gold(gold), [load_run(run, "rag")], Settings(ks=(1, 5))),
        AnalysisOptions(verdicts=load_verdicts(verdicts)),
    )
    report = assemble(findings)
    view = predictors_view(report, {})
    assert view is not None and view.cautions == []
    section = report["attribution"]["rag"]
    section["by_first_gold_rank"]["1"]["n"] = 45  # what a strong reranker does
    view = predictors_view(report, {})
    assert view is not None
    assert view.cautions == [
        "45 of the 50 questions sit at first gold rank 1: the other ranks hold too few "
        "to show a trend."
    ]
