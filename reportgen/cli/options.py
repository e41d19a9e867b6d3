"""The options of each command, their callbacks, and the config file as their defaults.

Click only: values are parsed and checked here, so that a bad one is one line naming
the option (cli_errors.py); what they mean is the request's business (request.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from reportgen.analyse.baseline import GOLD_CHANGE_POLICIES
from reportgen.cli.config import read_config_defaults
from reportgen.cli.errors import OptionValueError
from reportgen.cli.span_options import SPAN_OPTIONS
from reportgen.core.model import RETRIEVED_RULES
from reportgen.errors import closest
from reportgen.load import GOLD_FORMATS, MANIFEST_FORMATS, RUN_FORMATS, VERDICT_FORMATS
from reportgen.measure.scoring import DEFAULT_CONTEXT_K, DEFAULT_KS, MAX_CUTOFF, MAX_GRADE
from reportgen.render.output import FORMATS, PER_QUESTION_FORMATS

Decorator = Callable[[Any], Any]


def options(*decorators: Decorator) -> Decorator:
    """One decorator applying ``decorators`` in the order written (as stacked above)."""

    def apply(command: Any) -> Any:
        for option in reversed(decorators):
            command = option(command)
        return command

    return apply


K_FIX = "e.g. --k 1,3,5,10"


def _int_list(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, ...]:
    try:
        ks = tuple(int(part) for part in value.split(",") if part.strip())
    except ValueError:
        problem = "not a comma-separated list of whole numbers"
        raise OptionValueError(value, problem, K_FIX) from None
    if not ks or min(ks) < 1 or max(ks) > MAX_CUTOFF:
        raise OptionValueError(value, f"every k must be from 1 to {MAX_CUTOFF:,}", K_FIX)
    return ks


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


out_option = click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("report"),
    show_default=True,
    help="Folder to write the report into (created if missing; other files kept).",
)

scoring_options = options(
    click.option(
        "--k",
        "ks",
        default=",".join(map(str, DEFAULT_KS)),
        show_default=True,
        callback=_int_list,
        help="Cutoffs k, comma-separated.",
    ),
    click.option(
        "--context-k",
        type=click.IntRange(min=1, max=MAX_CUTOFF),
        default=None,
        help=f"Chunks sent to the model: the k of the headline (added to --k). Default "
        f"{DEFAULT_CONTEXT_K}, and the report says it was assumed.",
    ),
    click.option(
        "--retrieved-when",
        type=click.Choice(RETRIEVED_RULES),
        default="any",
        show_default=True,
        help="In the four cells, a question counts as retrieved when any of its gold chunks "
        "reached the model, or only when all of them did (multi-hop questions).",
    ),
    click.option(
        "--relevance-threshold",
        type=click.IntRange(min=1, max=MAX_GRADE),
        default=1,
        show_default=True,
        help="Lowest grade that counts as relevant (TREC Deep Learning uses 2).",
    ),
    click.option(
        "--trec-eval/--no-trec-eval",
        help="trec_eval's conventions: questions with no relevant chunk count as 0.",
    ),
)
"""How to measure: `report` and `demo` (a merge takes the shards')."""

written_options = options(
    click.option(
        "--version",
        "version",
        default=None,
        help=(
            "Label of this report. Default: the commit measured (the pull request's "
            "head, GITHUB_SHA, CI_COMMIT_SHORT_SHA or `git rev-parse --short HEAD`), "
            "else the creation time YYYYMMDD-HHMMSS (SOURCE_DATE_EPOCH makes it fixed)."
        ),
    ),
    click.option(
        "--format",
        "formats",
        default=",".join(FORMATS),
        show_default=True,
        callback=_formats,
        help="Outputs to write, comma-separated; report.json is always written.",
    ),
    click.option(
        "--per-question-format",
        type=click.Choice(PER_QUESTION_FORMATS),
        default="csv",
        show_default=True,
        help="File format of the per-question values (a row per run and question, a "
        "column per measure).",
    ),
    click.option(
        "--chart-png/--no-chart-png",
        help="Also write each chart as PNG (charts/*.png, 2x) beside its SVG, for "
        "places that show no SVG.",
    ),
    click.option(
        "--report-url",
        help="Where readers of summary.md find the full report: an http(s) URL (e.g. its "
        "published page) or a path relative to summary.md. Default: this run's page in "
        "GitHub Actions (its artifacts) or GitLab CI; elsewhere index.html, which "
        "summary.md names rather than links, since a relative link is dead in a PR comment.",
    ),
    click.option(
        "--github-summary/--no-github-summary",
        help="Append summary.md to GitHub's job summary ($GITHUB_STEP_SUMMARY).",
    ),
    click.option("--quiet/--no-quiet", "-q", help="Print nothing but errors."),
)
"""What to write and how to label it: `report`, `demo` and `merge`."""

measure_options = options(out_option, scoring_options, written_options)
"""Options shared by `report` and `demo`: how to measure and what to write."""


verdicts_run_option = click.option(
    "--verdicts-run",
    default=None,
    help="Run whose top --context-k chunks were sent to the model "
    "(default: the run the verdicts name, else the first run).",
)

config_option = click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    is_eager=True,
    callback=lambda ctx, param, value: read_config_defaults(ctx, value),
    help="Settings file: any option of `reportgen report`, without the dashes, and the "
    "gate's rules (default: ./reportgen.toml, else [tool.reportgen] of ./pyproject.toml); "
    "a command takes the options it has. The command line wins.",
)

compare_options = options(
    click.option(
        "--reference-run",
        default=None,
        help="Compare every run with this one instead of every pair.",
    ),
    click.option(
        "--compare-measures",
        default=None,
        help="Measures to test, comma-separated, or 'all' (default: those at --context-k and "
        "the whole-list ones). Each extra measure widens the Holm correction.",
    ),
)
"""Which runs and measures the comparisons test: `report` and `merge`."""

baseline_options = options(
    click.option(
        "--baseline",
        type=click.Path(path_type=Path),
        default=None,
        help="A previous report (its report.json or its folder), or a published site (its "
        "folder or history.jsonl: the newest version on the same gold set, else the newest), "
        "to compare each run with its namesake there.",
    ),
    click.option(
        "--baseline-version",
        default=None,
        metavar="LABEL",
        help="With a site as --baseline: compare with this version instead.",
    ),
    click.option(
        "--on-gold-change",
        type=click.Choice(GOLD_CHANGE_POLICIES),
        default="refuse",
        show_default=True,
        help="When the baseline's gold set differs: refuse, or compare on the shared questions.",
    ),
)

gate_options = options(
    click.option(
        "--min",
        "minimums",
        multiple=True,
        metavar="[RUN/]MEASURE[:KIND]=VALUE",
        help="Fail (exit 1) when a mean is below VALUE, e.g. --min recall@5=0.80. Repeatable.",
    ),
    click.option(
        "--max-drop",
        "max_drops",
        multiple=True,
        metavar="[RUN/]MEASURE[:KIND]=VALUE",
        help="Fail (exit 1) when a mean fell by more than VALUE since --baseline. Repeatable. "
        "Without --baseline (a first run) it is skipped with a notice.",
    ),
    click.option(
        "--significant-only/--no-significant-only",
        help="A drop fails only when it is significant (Holm-adjusted p < 0.05, interval below 0).",
    ),
)

manifest_options = options(
    click.option(
        "--manifest",
        type=click.Path(path_type=Path),
        default=None,
        help="Chunk ids of the current index: one per line ('# index_version: X' comment), "
        "JSON Lines or CSV, optionally with audience, doc_version, valid_from, valid_to. "
        "Gold ids missing from it are flagged as stale.",
    ),
    click.option(
        "--manifest-format",
        type=click.Choice(MANIFEST_FORMATS),
        default=None,
        help="Force the manifest's format instead of detecting it.",
    ),
)

check_options = options(
    click.option(
        "--audience",
        default=None,
        help="Who reads the answers, e.g. public: manifest chunks labelled for another "
        "audience (e.g. staff) count as leaks when retrieved.",
    ),
    click.option(
        "--as-of",
        type=click.DateTime(formats=["%Y-%m-%d"]),
        default=None,
        help="Date that decides which manifest chunks are out of date (valid_from/valid_to; "
        "default: the report's date).",
    ),
    click.option(
        "--strict/--no-strict",
        help="Fail (exit 1, after writing the report) when there is any warning.",
    ),
)
"""Who reads the answers, as of when, and whether any warning fails."""


report_options = options(
    click.option(
        "--gold-format",
        type=click.Choice(GOLD_FORMATS),
        default=None,
        help="Force the gold set's format instead of detecting it.",
    ),
    click.option(
        "--run-format",
        type=click.Choice(RUN_FORMATS),
        default=None,
        help="Force every run's format instead of detecting it.",
    ),
    click.option(
        "--trace-question-key",
        default=None,
        metavar="ATTRIBUTE",
        help="For OpenTelemetry or Phoenix span exports given as runs: the span attribute "
        "holding the gold question id (e.g. metadata.question_id; looked up inside a JSON "
        "metadata attribute too). Traces without it are matched by exact question text.",
    ),
    click.option(
        "--gold-version", default=None, help="Version of the gold set (overrides the file)."
    ),
    click.option(
        "--verdicts",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        default=None,
        help="End-to-end verdicts (was each answer correct?): adds the four cells. JSONL or "
        "CSV with id, correct[, run, abstained], promptfoo's results.json, a DeepEval test "
        "run, or a ragas results CSV.",
    ),
    verdicts_run_option,
    click.option(
        "--verdict-format",
        type=click.Choice(VERDICT_FORMATS),
        default=None,
        help="Force the verdicts' format instead of detecting it.",
    ),
    click.option(
        "--verdict-metric",
        default=None,
        help="DeepEval: the metric whose success is the verdict (default: the test case's). "
        "ragas: the score column to threshold.",
    ),
    click.option(
        "--verdict-threshold",
        type=float,
        default=None,
        help="ragas: a score at or above this is a correct answer (e.g. 0.7).",
    ),
    click.option(
        "--index-version",
        default=None,
        help="Index version the gold ids were read from (overrides the file).",
    ),
    compare_options,
    baseline_options,
    gate_options,
    config_option,
    manifest_options,
    *SPAN_OPTIONS,
    click.option(
        "--run-index-version",
        "run_index_versions",
        multiple=True,
        metavar="NAME=VERSION",
        callback=_name_values,
        help="Index version a run was made on (overrides its file); repeat for each run.",
    ),
    check_options,
    click.option(
        "--merge-data/--no-merge-data",
        help="Also write merge/: what `reportgen merge` needs to rebuild the whole report "
        "(pages, cells, cutoff, comparisons, gate) when these questions are one shard.",
    ),
)
"""The options of `report` beyond those it shares with `demo`."""

publish_options = options(
    click.argument("report_dir", type=click.Path(exists=True, file_okay=False, path_type=Path)),
    click.option(
        "--site",
        type=click.Path(file_okay=False, path_type=Path),
        required=True,
        help="The site folder: the report goes to SITE/<version>/, the index to SITE/index.html.",
    ),
    click.option(
        "--keep",
        type=click.IntRange(min=1),
        default=None,
        metavar="N",
        help="Keep the newest N version folders (by creation time) and prune the others; "
        "their lines stay in history.jsonl, marked, so the trends keep their points.",
    ),
    click.option(
        "--lock-timeout",
        type=click.STRING,
        callback=_seconds,
        default=60,
        show_default=True,
        metavar="SECONDS",
        help="How long to wait (seconds, 0 or more) while another publish holds the site's lock, "
        "then exit 2.",
    ),
    click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors."),
)
