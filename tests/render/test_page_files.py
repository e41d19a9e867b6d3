"""The pages render while the chart worker draws, around a stand-in per chart that the
drawn chart then replaces: the bytes must be those of pages rendered with the charts."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import closing

from reportgen.api import ReportResult
from reportgen.render.chart_engine import ChartWorker, render_charts
from reportgen.render.charts import cutoff_chart_specs, report_chart_specs, warm_up_specs
from reportgen.render.page_files import chart_stand_ins, page_files, with_charts
from reportgen.render.pages import render_html, render_markdown, view_model
from reportgen.render.summary import render_summary
from reportgen.schema import Report


def _rendered_with_the_charts(report: Report, chart_png: bool) -> dict[str, bytes]:
    """What page_files made before the stand-ins: charts drawn first, pages after."""
    specs = report_chart_specs(report) | cutoff_chart_specs(report)
    charts = render_charts(specs, png=chart_png)
    view = view_model(report, charts, "per_question.csv")
    return {
        "summary.md": render_summary(report, "index.html").encode(),
        **{f"charts/{name}": data for name, data in charts.items()},
        "index.html": render_html(view).encode(),
        "report.md": render_markdown(view).encode(),
    }


def _written(result: ReportResult) -> Report:
    report: Report = json.loads((result.files[-1].parent / "report.json").read_text())
    return report


def test_pages_with_stand_ins_are_the_pages_rendered_with_the_charts(
    spec_example: ReportResult,
) -> None:
    report = _written(spec_example)
    expected = _rendered_with_the_charts(report, chart_png=True)
    assert page_files(report, ("html", "md"), "per_question.csv", chart_png=True) == expected
    svg = expected["charts/recall_at_k.svg"].decode()
    assert svg in expected["index.html"].decode()  # inlined, so the check above sees it


def test_the_worker_warmed_up_draws_the_same_pages(spec_example: ReportResult) -> None:
    report = _written(spec_example)
    with closing(ChartWorker(warm_up_specs())) as worker:
        drawn = page_files(report, ("html", "md"), "per_question.csv", chart_worker=worker)
    assert drawn == _rendered_with_the_charts(report, chart_png=False)


def test_hostile_text_cannot_pose_as_a_stand_in(hostile: Callable[[str], ReportResult]) -> None:
    report = _written(hostile("v1"))
    expected = _rendered_with_the_charts(report, chart_png=False)
    assert page_files(report, ("html", "md"), "per_question.csv") == expected


def test_each_chart_replaces_its_own_stand_in_and_only_that() -> None:
    stand_ins = chart_stand_ins(["a.svg", "a.png", "b.svg"])
    assert len(set(stand_ins.values())) == 3
    assert chart_stand_ins(["a.svg"]) != {"a.svg": stand_ins["a.svg"]}  # a fresh token each time
    page = f"<p>{stand_ins['b.svg']}</p><p>{stand_ins['a.svg']}</p><!--chart a.svg-->"
    charts = {"a.svg": b"<svg>A</svg>", "a.png": b"\x89PNG\xff", "b.svg": b"<svg>B</svg>"}
    assert with_charts(page, stand_ins, charts) == (
        "<p><svg>B</svg></p><p><svg>A</svg></p><!--chart a.svg-->"
    )


def test_md_alone_and_html_alone(spec_example: ReportResult) -> None:
    report = _written(spec_example)
    expected = _rendered_with_the_charts(report, chart_png=False)
    md = page_files(report, ("md",), "per_question.csv")
    assert md == {name: data for name, data in expected.items() if name != "index.html"}
    html = page_files(report, ("html",), "per_question.csv")
    assert html == {
        name: data for name, data in expected.items() if name not in ("summary.md", "report.md")
    }
    assert page_files(report, ("json",), "per_question.csv") == {}
