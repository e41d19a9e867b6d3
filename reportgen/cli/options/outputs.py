"""The options that say what to write and label, and where the inputs came from."""

from __future__ import annotations

import math
from datetime import date, datetime
from pathlib import Path

import click

from reportgen.analyse.drilldown import EXPLAIN_MODES
from reportgen.cli.errors import OptionValueError
from reportgen.cli.options import OUTPUTS, PROVENANCE, SCALE_OUT, declare
from reportgen.errors import closest
from reportgen.load import MANIFEST_FORMATS
from reportgen.render.output import FORMATS, PER_QUESTION_FORMATS


def _formats(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
    chosen = tuple(part.strip() for part in value.split(",") if part.strip())
    unknown = [f for f in chosen if f not in FORMATS]
    if unknown:
        guess = closest(unknown[0], FORMATS)
        hint = f"did you mean {guess}? Choose" if guess else "choose"
        raise OptionValueError(
            value, f"unknown format {unknown[0]!r}", f"{hint} from {', '.join(FORMATS)}"
        )
    return chosen


def _name_values(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for item in value:
        name, sep, version = item.partition("=")
        if not sep or not name.strip() or not version.strip():
            raise OptionValueError(
                item, "not NAME=VERSION", "e.g. --run-index-version dense=kb-2026-11-02"
            )
        pairs[name.strip()] = version.strip()
    return pairs


def _seconds(ctx: click.Context, param: click.Parameter, value: str) -> float:
    """Seconds as typed: finite and 0 or more (``nan`` would wait forever)."""
    try:
        seconds = float(value)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds) or seconds < 0:
        raise OptionValueError(
            value, "not a finite number of seconds, 0 or more", "give seconds, e.g. 60"
        )
    return seconds


def _day(ctx: click.Context, param: click.Parameter, value: datetime | None) -> date | None:
    return None if value is None else value.date()


OUT = declare(
    OUTPUTS,
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("report"),
    show_default=True,
    everyday=True,
    help="Folder to write the report into (created if missing; other files kept).",
)
QUIET = declare(
    OUTPUTS, "--quiet/--no-quiet", "-q", everyday=True, help="Print nothing but errors."
)
VERBOSE = declare(
    OUTPUTS,
    "--verbose/--no-verbose",
    "-v",
    everyday=True,
    help="Print everything summary.md folds: each run's table by kind, every comparison, "
    "what the four cells count as retrieved, every warning.",
)
FORMAT = declare(
    OUTPUTS,
    "--format",
    "formats",
    default=",".join(FORMATS),
    show_default=True,
    callback=_formats,
    help="Outputs to write, comma-separated; report.json is always written.",
)
PER_QUESTION_FORMAT = declare(
    OUTPUTS,
    "--per-question-format",
    type=click.Choice(PER_QUESTION_FORMATS),
    default="csv",
    show_default=True,
    help="File format of the per-question values (a row per run and question, a "
    "column per measure).",
)
CHART_PNG = declare(
    OUTPUTS,
    "--chart-png/--no-chart-png",
    help="Also write each chart as PNG (charts/*.png, 2x) beside its SVG, for places "
    "that show no SVG.",
)
REPORT_URL = declare(
    OUTPUTS,
    "--report-url",
    help="Where readers of summary.md find the full report: an http(s) URL (e.g. its "
    "published page) or a path relative to summary.md. Default: this run's page in "
    "GitHub Actions (its artifacts) or GitLab CI; elsewhere index.html, which "
    "summary.md names rather than links, since a relative link is dead in a PR comment.",
)
WRITTEN = (
    declare(
        PROVENANCE,
        "--version",
        "version",
        default=None,
        everyday=True,
        help="Label of this report. Default: the commit measured (the pull request's "
        "head, GITHUB_SHA, CI_COMMIT_SHORT_SHA or `git rev-parse --short HEAD`), else the "
        "creation time YYYYMMDD-HHMMSS (SOURCE_DATE_EPOCH makes it fixed).",
    ),
    declare(
        PROVENANCE,
        "--commit",
        default=None,
        metavar="SHA",
        help="The commit measured, recorded in report.json: `publish` orders a site's "
        "versions by commit ancestry, and --baseline-commit finds them by it. Default: "
        "GITHUB_SHA, else `git rev-parse HEAD` inside a git work tree, else none.",
    ),
    FORMAT,
    PER_QUESTION_FORMAT,
    CHART_PNG,
    REPORT_URL,
    declare(
        OUTPUTS,
        "--junit",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        metavar="PATH",
        help="Also write the gate's rules (one test case each, per run) and the warnings "
        "(one per kind; failures under --strict) as JUnit XML, which GitLab, Jenkins and "
        "Azure Pipelines show as test results.",
    ),
    declare(
        OUTPUTS,
        "--github-summary/--no-github-summary",
        help="Append summary.md to GitHub's job summary ($GITHUB_STEP_SUMMARY).",
    ),
    QUIET,
    VERBOSE,
)
"""What to write and how to label it: `report`, `demo` and `merge`."""

EXPLAIN = declare(
    OUTPUTS,
    "--explain",
    type=click.Choice(EXPLAIN_MODES),
    default="failures",
    show_default=True,
    help="Which questions get a folded panel with the text of the chunks sent (needs "
    "chunk text: a text column or --docs): the generation and retrieval failures, all, "
    "or none.",
)

INDEX_VERSIONS = (
    declare(
        PROVENANCE,
        "--gold-version",
        default=None,
        help="Version of the gold set (overrides the file).",
    ),
    declare(
        PROVENANCE,
        "--index-version",
        default=None,
        help="Index version the gold ids were read from (overrides the file).",
    ),
    declare(
        PROVENANCE,
        "--run-index-version",
        "run_index_versions",
        multiple=True,
        metavar="NAME=VERSION",
        callback=_name_values,
        help="Index version a run was made on (overrides its file); repeat for each run.",
    ),
)
"""Which versions of the gold set and the index were measured: `report`."""

MANIFEST = (
    declare(
        PROVENANCE,
        "--manifest",
        type=click.Path(path_type=Path),
        default=None,
        everyday=True,
        help="Chunk ids of the current index: one per line ('# index_version: X' comment), "
        "JSON Lines or CSV, optionally with audience, doc_version, valid_from, valid_to. "
        "Gold ids missing from it are flagged as stale.",
    ),
    declare(
        PROVENANCE,
        "--manifest-format",
        type=click.Choice(MANIFEST_FORMATS),
        default=None,
        help="Force the manifest's format instead of detecting it.",
    ),
    declare(
        PROVENANCE,
        "--audience",
        default=None,
        help="Who reads the answers, e.g. public: manifest chunks labelled for another "
        "audience (e.g. staff) count as leaks when retrieved.",
    ),
    declare(
        PROVENANCE,
        "--as-of",
        type=click.DateTime(formats=["%Y-%m-%d"]),
        default=None,
        callback=_day,
        help="Date that decides which manifest chunks are out of date (valid_from/valid_to; "
        "default: the report's date).",
    ),
)
"""The current index, who reads the answers and as of when: `report` and `merge`."""

MERGE_DATA = declare(
    SCALE_OUT,
    "--merge-data/--no-merge-data",
    help="Also write merge/: what `reportgen merge` needs to rebuild the whole report "
    "(pages, cells, cutoff, comparisons, gate) when these questions are one shard.",
)

ALLOW_PARTIAL = declare(
    SCALE_OUT,
    "--allow-partial",
    is_flag=True,
    help="Merge the shards given even when some shards of their cut are missing; "
    "every output then says how many questions it holds, of how many.",
)

PUBLISHING = (
    declare(
        OUTPUTS,
        "--site",
        type=click.Path(file_okay=False, path_type=Path),
        required=True,
        everyday=True,
        help="The site folder: the report goes to SITE/<version>/, the index to SITE/index.html.",
    ),
    declare(
        OUTPUTS,
        "--keep",
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help="Keep the newest N version folders (by commit ancestry, read with git in the "
        "current directory; by creation time for versions without a commit) and prune the "
        "others; their lines stay in history.jsonl, marked, so the trends keep their points, "
        "for the newest N pruned versions: older lines move to history-archive.jsonl, so "
        "that the history and the index stay bounded. The version published is never "
        "pruned by its own publish.",
    ),
    declare(
        OUTPUTS,
        "--public",
        is_flag=True,
        help="The site is public (GitHub Pages is, even for most private repositories): "
        "leave out every question text and chunk text; the pages are rebuilt without "
        "them and the per-question file keeps ids and numbers only.",
    ),
    declare(
        OUTPUTS,
        "--max-site-mb",
        type=click.FloatRange(min=0, min_open=True),
        default=500,
        show_default=True,
        metavar="MB",
        help="Warn when the site grows past this many MB (what Pages serves, not .git; "
        "GitHub Pages refuses 1 GB) and name the versions to prune; a ::warning:: "
        "annotation under GitHub Actions.",
    ),
    declare(
        OUTPUTS,
        "--site-limit-mb",
        type=click.FloatRange(min=0, min_open=True),
        default=1000,
        show_default=True,
        metavar="MB",
        help="Refuse (exit 2, the site unchanged) a publish that would leave the site "
        "past this many MB: GitHub Pages refuses sites over 1 GB.",
    ),
    declare(
        OUTPUTS,
        "--lock-timeout",
        type=click.STRING,
        callback=_seconds,
        default=60,
        show_default=True,
        metavar="SECONDS",
        help="How long to wait (seconds, 0 or more) while another publish holds the site's "
        "lock, then exit 2.",
    ),
)
"""Where `publish` puts a report, and what it keeps."""

SHARD_COUNT = declare(
    SCALE_OUT, "--shards", "count", type=int, required=True, help="How many shards to cut."
)
