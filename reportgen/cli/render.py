"""``reportgen render DIR``: rebuild a report folder's pages from its report.json."""

from __future__ import annotations

from pathlib import Path

import click

from reportgen.api import RENDER_FORMATS, render_report
from reportgen.cli.command import command
from reportgen.cli.echo import say
from reportgen.cli.options import takes
from reportgen.cli.options.outputs import CHART_PNG, FORMAT, PER_QUESTION_FORMAT, QUIET, REPORT_URL


def _formats(_ctx: click.Context, _param: click.Parameter, value: str | None) -> list[str] | None:
    return None if value is None else [part.strip() for part in value.split(",") if part.strip()]


@command
@takes(
    click.argument("report_dir", type=click.Path(path_type=Path)),
    FORMAT.but(
        default=None,
        show_default=False,
        callback=_formats,
        help=f"Pages to rebuild, comma-separated ({', '.join(RENDER_FORMATS)}). "
        "Default: those the folder holds (both when it holds none).",
    ),
    PER_QUESTION_FORMAT.but(
        default=None,
        show_default=False,
        help="The per-question file the pages link. Default: the one the folder holds.",
    ),
    REPORT_URL.but(
        default="index.html",
        show_default=True,
        help="Where readers of summary.md find the full report, as given to `reportgen "
        "report` (report.json does not record it).",
    ),
    CHART_PNG.but(
        default=None,
        help="Also a PNG of each chart. Default: when the folder's charts/ has PNGs.",
    ),
    QUIET,
)
def render(
    report_dir: Path,
    formats: list[str] | None,
    per_question_format: str | None,
    report_url: str,
    chart_png: bool | None,
    quiet: bool,
) -> None:
    """Rebuild the pages in REPORT_DIR (index.html, report.md, summary.md, charts/) from
    its report.json, byte for byte as `reportgen report` wrote them.

    \b
    Example:
      reportgen demo --out /tmp/demo
      reportgen render /tmp/demo

    For a new template or a fixed page without measuring again. report.json and the
    per-question file are read, never written; each page is replaced whole or not at all.
    """
    written = render_report(
        report_dir,
        formats=formats,
        per_question_format=per_question_format,
        report_url=report_url,
        chart_png=chart_png,
    )
    if not quiet:
        pages = sum(1 for path in written if path.parent.name != "charts")
        charts = len(written) - pages
        say(f"Rebuilt {pages} pages and {charts} charts in {report_dir}")
