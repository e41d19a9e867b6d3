"""`reportgen merge`: the report of all the questions, from the shards' outputs."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from reportgen.api import ReportResult
from reportgen.cli.command import command
from reportgen.cli.echo import annotate, say, say_lines
from reportgen.cli.errors import reader_may_leave
from reportgen.cli.options import takes
from reportgen.cli.options.inputs import CHUNK_MAPS, CONFIG, QUESTION_META, VERDICTS_RUN
from reportgen.cli.options.measuring import COMPARISONS, GATE, SLICES, TREC_EVAL
from reportgen.cli.options.outputs import ALLOW_PARTIAL, EXPLAIN, MANIFEST, OUT, WRITTEN
from reportgen.cli.request import merge_request
from reportgen.cli.results import (
    check_summary_wanted,
    workflow_annotations,
    write_step_summary,
)
from reportgen.core import progress


@command
@takes(
    click.argument("shards", nargs=-1, required=True, type=click.Path(path_type=Path)),
    OUT,
    TREC_EVAL.but(
        default=None,
        help="Keep questions with no relevant chunk in the means (default: as the shards "
        "say; needed only when the shards have no report.json).",
    ),
    *WRITTEN,
    VERDICTS_RUN,
    *COMPARISONS,
    *GATE,
    *SLICES,
    QUESTION_META,
    CONFIG,
    *MANIFEST,
    *CHUNK_MAPS,
    EXPLAIN,
    ALLOW_PARTIAL,
)
def merge(shards: tuple[Path, ...], **options: Any) -> None:
    """Merge the outputs of SHARDS (disjoint sets of questions) into the report of them all.

    \b
    Examples:
      reportgen merge out-*/ --out report/ --min recall@5=0.70
      reportgen merge out-*/ --out report/ --baseline site/ --max-drop recall@5=0.02
      reportgen merge out-*.txt --out report/ --trec-eval --format json

    Each SHARD is the --out folder of a `reportgen report --merge-data` run on some of
    the questions: the merge then writes what `reportgen report` over every question
    writes (pages, cells, cutoff, comparisons, baseline, gate), the same numbers.
    A shard may also be a per_question.csv / .parquet alone, or what `trec_eval -q`
    printed (pass --trec-eval to keep trec_eval's means): then only the means are
    merged, into report.json and the per-question file. Shards that share a question
    are refused.
    """
    from reportgen.api import merge_reports

    check_summary_wanted(options["github_summary"], options["formats"])
    quiet = options["quiet"]
    progress.enable(False if quiet else None)
    result = merge_reports(merge_request(shards, options))
    if isinstance(result, ReportResult):
        with reader_may_leave():
            if not quiet:
                from reportgen.render.terminal import report_lines
                from reportgen.report.merge import merged_line

                lines = report_lines(result.report, result.files, options["verbose"])
                say_lines([merged_line(result.report), *lines])
            if options["github_summary"]:
                write_step_summary(result, quiet)
    else:
        from reportgen.render.terminal import merge_lines

        for note in result.notes:
            say(f"note: {note}", err=True)
        if not quiet:
            say_lines(merge_lines(result.report, len(shards), result.files))
    if os.environ.get("GITHUB_ACTIONS") == "true":
        annotate(workflow_annotations(result.report, None))
    if result.failure is not None:
        raise result.failure
