"""The pages of a report, from report.json alone: summary.md, the charts, index.html and
report.md. ``reportgen report`` and ``merge`` write them beside report.json, and
``reportgen render`` rebuilds them from it, with this one function: the same bytes."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

from reportgen.render.chart_engine import ChartWorker, render_charts
from reportgen.render.charts import page_chart_specs
from reportgen.schema import Report


def page_files(
    report: Report,
    formats: Sequence[str],
    per_question_file: str,
    report_url: str = "index.html",
    chart_png: bool = False,
    chart_worker: ChartWorker | None = None,
) -> dict[str, bytes]:
    """Every page file's bytes for these formats (``html``, ``md``); none without either.

    ``report_url`` is where readers of summary.md find the full report. Charts are SVG
    files (report.md shows them); ``chart_png`` adds a PNG of each. ``chart_worker``
    draws them when given (started early, its engine is ready by now).

    The specs go to the worker first; the pages' modules (Jinja2, the views) load and
    the pages render while it draws, around a stand-in for each chart that its drawing
    then replaces: the same bytes as pages rendered with the charts, ~0.15 s sooner.
    """
    if "html" not in formats and "md" not in formats:
        return {}
    specs = page_chart_specs(report)
    if chart_worker is not None:
        chart_worker.send(specs)
    from reportgen.render.pages import render_html, render_markdown
    from reportgen.render.summary import render_summary
    from reportgen.render.views import view_model

    files: dict[str, bytes] = {}
    if "md" in formats:
        files["summary.md"] = render_summary(report, report_url).encode()
    names = [
        f"{name}.{kind}" for name in specs for kind in ("svg", "png") if kind == "svg" or chart_png
    ]
    stand_ins = chart_stand_ins(names)
    view = view_model(
        report, {name: stand_in.encode() for name, stand_in in stand_ins.items()}, per_question_file
    )
    pages: dict[str, str] = {}
    if "html" in formats:
        pages["index.html"] = render_html(view)
    if "md" in formats:
        pages["report.md"] = render_markdown(view)
    charts = render_charts(specs, png=chart_png, worker=chart_worker)
    files.update({f"charts/{name}": data for name, data in charts.items()})
    files.update(
        {name: with_charts(text, stand_ins, charts).encode() for name, text in pages.items()}
    )
    return files


def chart_stand_ins(names: Sequence[str]) -> dict[str, str]:
    """A marker per chart file that no page can hold otherwise (a fresh random token)."""
    token = secrets.token_hex(16)
    return {name: f"<!--chart {token} {name}-->" for name in names}


def with_charts(page: str, stand_ins: Mapping[str, str], charts: Mapping[str, bytes]) -> str:
    """``page`` with each chart's stand-in replaced by the chart (SVG text; a PNG is
    never inlined, so its stand-in never appears)."""
    for name, stand_in in stand_ins.items():
        if stand_in in page:
            page = page.replace(stand_in, charts[name].decode())
    return page
