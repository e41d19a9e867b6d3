"""What the commands that write a report print once it is written, and the summary
they append to a CI job's page."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reportgen.api import ReportRequest, ReportResult, make_report
from reportgen.cli.echo import annotate, say, say_lines
from reportgen.cli.errors import reader_may_leave
from reportgen.core import progress
from reportgen.core.ci import append_step_summary
from reportgen.errors import UsageError


def run_request(request: ReportRequest, options: dict[str, Any]) -> None:
    """Make the report, print what a person reads first; a failed check exits 1."""
    quiet = options["quiet"]
    progress.enable(False if quiet else None)
    result = make_report(request)
    with reader_may_leave():  # `| head`: the gate below still sets the exit code
        if not quiet:
            from reportgen.render.terminal import report_lines  # the views: only to print

            say_lines(report_lines(result.report, result.files, options["verbose"]))
        if os.environ.get("GITHUB_ACTIONS") == "true":
            annotate(workflow_annotations(result.report, request.inputs.gold))
        if options["github_summary"]:
            write_step_summary(result, quiet)
    if result.failure is not None:
        raise result.failure


def workflow_annotations(report: Mapping[str, Any], gold: object) -> list[str]:
    """GitHub Actions' annotations of the report: the gate's failures, and stale gold
    ids at their line of the gold file (named relative to the workspace when inside)."""
    from reportgen.load.inputs.gold_lines import question_lines
    from reportgen.render.annotations import stale_questions, workflow_commands

    if not isinstance(gold, str | Path):
        return workflow_commands(report, None, {})
    path = Path(gold)
    lines = question_lines(path, stale_questions(report))
    workspace = os.environ.get("GITHUB_WORKSPACE")
    shown = path
    if workspace and path.resolve().is_relative_to(Path(workspace).resolve()):
        shown = path.resolve().relative_to(Path(workspace).resolve())
    return workflow_commands(report, shown.as_posix(), lines)


def check_summary_wanted(github_summary: bool, formats: Sequence[str]) -> None:
    """Refuse --github-summary before any work when no Markdown will be written."""
    if github_summary and "md" not in formats:
        raise UsageError(
            "--github-summary needs the Markdown output, and --format leaves it out",
            "add md to --format, or drop --github-summary",
        )


def write_step_summary(result: ReportResult, quiet: bool) -> None:
    """Append the report's summary to the job summary; outside GitHub Actions, only warn.

    The report is written by then, so a missing GITHUB_STEP_SUMMARY (a CI command
    tried on a laptop) is worth a warning, not a failed run.
    """
    written = {path.name: path for path in result.files}
    summary = written.get("summary.md") or written["report.md"]
    try:
        target = append_step_summary(summary)
    except UsageError as error:
        say(f"warning: --github-summary: {error}", err=True)
        return
    if not quiet:
        say(f"Appended {summary.name} to the job summary ({target})")
