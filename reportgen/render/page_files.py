"""The pages of a report, from report.json alone: summary.md, the charts, index.html and
report.md. ``reportgen report`` and ``merge`` write them beside report.json, and
``reportgen render`` rebuilds them from it, with this one function: the same bytes."""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.render.chart_engine import ChartWorker, render_charts
from reportgen.render.charts import report_chart_specs
from reportgen.render.pages import render_html, render_markdown
from reportgen.render.summary import render_summary
from reportgen.render.views import view_model
from reportgen.render.views.cutoff import cutoff_chart_specs
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
    """
    if "html" not in formats and "md" not in formats:
        return {}
    specs = report_chart_specs(report) | cutoff_chart_specs(report)
    if chart_worker is not None:
        chart_worker.send(specs)  # drawn in the child while summary.md renders
    files: dict[str, bytes] = {}
    if "md" in formats:
        files["summary.md"] = render_summary(report, report_url).encode()
    charts = render_charts(specs, png=chart_png, worker=chart_worker)
    files.update({f"charts/{name}": data for name, data in charts.items()})
    view = view_model(report, charts, per_question_file)
    if "html" in formats:
        files["index.html"] = render_html(view).encode()
    if "md" in formats:
        files["report.md"] = render_markdown(view).encode()
    return files
