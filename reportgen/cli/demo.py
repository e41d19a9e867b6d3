"""`reportgen demo`: the report of the bundled synthetic example."""

from __future__ import annotations

from typing import Any

from reportgen.api import demo_request
from reportgen.cli.command import command
from reportgen.cli.options import takes
from reportgen.cli.report import MEASURE
from reportgen.cli.request import report_outputs, report_settings
from reportgen.cli.results import check_summary_wanted, run_request


@command
@takes(*MEASURE)
def demo(**options: Any) -> None:
    """Write the report of the bundled, synthetic help-centre example (offline).

    \b
    Example:
      reportgen demo --out demo-report && open demo-report/index.html
    """
    check_summary_wanted(options["github_summary"], options["formats"])
    run_request(demo_request(report_outputs(options), report_settings(options)), options)
