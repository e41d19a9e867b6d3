"""`reportgen publish`: add a report to a versioned site."""

from __future__ import annotations

import os
from pathlib import Path

import click

from reportgen.api import publish_report
from reportgen.cli.command import command
from reportgen.cli.echo import annotate, say
from reportgen.cli.options import takes
from reportgen.cli.options.outputs import PUBLISHING, QUIET
from reportgen.render.annotations import command as workflow_command


@command
@takes(
    click.argument("report_dir", type=click.Path(exists=True, file_okay=False, path_type=Path)),
    *PUBLISHING,
    QUIET,
)
def publish(
    report_dir: Path,
    site: Path,
    keep: int | None,
    lock_timeout: float,
    public: bool,
    max_site_mb: float,
    site_limit_mb: float,
    quiet: bool,
) -> None:
    """Add the report in REPORT_DIR to a versioned SITE and rebuild its index.

    Publishing again under the same version replaces that version only. A failure,
    a kill or a second publisher at the same time never loses a version: publishes
    of one site take turns (a lock file inside it), and the next publish finishes or
    undoes one that was killed.

    \b
    Example:
      reportgen demo --out /tmp/demo --version 2026.11.1
      reportgen publish /tmp/demo --site site --keep 50
    """
    published = publish_report(
        report_dir,
        site,
        keep=keep,
        lock_timeout=lock_timeout,
        public=public,
        max_site_mb=max_site_mb,
        site_limit_mb=site_limit_mb,
    )
    for note in [*published.recovered, *published.notes]:
        say(f"note: {note}", err=True)
    for warning in published.warnings:
        say(f"warning: {warning}", err=True)
        if os.environ.get("GITHUB_ACTIONS") == "true":  # an annotation on the run's page
            annotate([workflow_command("warning", warning, title="reportgen publish")])
    if not quiet:
        say(f"Published {published.version} to {published.folder}; index {published.index}")
        if published.pruned:
            say(f"Pruned (--keep {keep}): {', '.join(published.pruned)}")
