"""The command line: parse options, call the API, print what a person reads first.

Exit codes: 0 done, 1 a failed quality gate, 2 bad input or usage (one line,
``where: problem. Fix: ...``), 3 an internal error, 130 interrupted; never a
traceback unless --debug (cli_errors.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from reportgen import __version__, progress
from reportgen.analyse.baseline import GOLD_CHANGE_POLICIES
from reportgen.analyse.gate import GateRules, load_config, rules_from_options
from reportgen.api import (
    ReportChecks,
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportResult,
    ReportSettings,
    demo_request,
    make_report,
    publish_report,
)
from reportgen.ci import (
    DEFAULT_REPORT_URL,
    append_step_summary,
    default_report_url,
    default_version,
)
from reportgen.cli_errors import (
    CONFIG_META,
    OptionValueError,
    config_key,
    guarded_invoke,
    one_line_parse,
    reader_may_leave,
    run_standalone,
)
from reportgen.config import Config, check_keys, find_config, read_config
from reportgen.errors import UsageError, closest, printable
from reportgen.load import GOLD_FORMATS, MANIFEST_FORMATS, RUN_FORMATS, VERDICT_FORMATS
from reportgen.measure.scoring import DEFAULT_CONTEXT_K, DEFAULT_KS, MAX_CUTOFF, MAX_GRADE, Settings
from reportgen.render.output import FORMATS, PER_QUESTION_FORMATS


class ReportgenCommand(click.Command):
    """A command whose usage errors are one line in the house form."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return one_line_parse(super().parse_args, ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        return guarded_invoke(super().invoke, ctx)


class ReportgenGroup(click.Group):
    """The `reportgen` group: every failure becomes its exit code and one line."""

    command_class = ReportgenCommand

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return one_line_parse(super().parse_args, ctx, args)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.UsageError:
            name = args[0] if args else ""
            guess = closest(name, self.list_commands(ctx))
            fix = f"did you mean {guess}?" if guess else f"see {ctx.command_path} --help"
            raise UsageError(
                f"{name}: no such command of {ctx.command_path}",
                f"{fix} (the commands: {', '.join(self.list_commands(ctx))})",
            ) from None

    def invoke(self, ctx: click.Context) -> Any:
        return guarded_invoke(super().invoke, ctx)

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:  # the caller handles the errors
            return super().main(args, prog_name, complete_var, False, **extra)
        main = super().main
        run_standalone(lambda a, **kw: main(a, prog_name, complete_var, **kw), args, **extra)


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


def measure_options(command: Any) -> Any:
    """Options shared by `report` and `demo`: how to measure and what to write."""
    options = [
        click.option(
            "--out",
            "out_dir",
            type=click.Path(file_okay=False, path_type=Path),
            default=Path("report"),
            show_default=True,
            help="Folder to write the report into (created if missing; other files kept).",
        ),
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
            default=DEFAULT_CONTEXT_K,
            show_default=True,
            help="Chunks sent to the model: the k of the headline (added to --k).",
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
    ]
    for option in reversed(options):
        command = option(command)
    return command


@click.group(
    "reportgen", cls=ReportgenGroup, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, prog_name="reportgen")
@click.option(
    "--debug",
    is_flag=True,
    help="On an internal error (exit 3), print the traceback (also: REPORTGEN_DEBUG=1).",
)
def cli(debug: bool) -> None:
    """Tell retrieval failures from generation failures in a RAG system.

    \b
    Quick start, on the bundled synthetic example:
      reportgen demo --out demo-report
    """


@cli.command()
@click.argument("gold", type=click.Path(path_type=Path))
@click.argument("runs", nargs=-1, required=True)
@measure_options
@click.option(
    "--gold-format",
    type=click.Choice(GOLD_FORMATS),
    default=None,
    help="Force the gold set's format instead of detecting it.",
)
@click.option(
    "--run-format",
    type=click.Choice(RUN_FORMATS),
    default=None,
    help="Force every run's format instead of detecting it.",
)
@click.option("--gold-version", default=None, help="Version of the gold set (overrides the file).")
@click.option(
    "--verdicts",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="End-to-end verdicts (was each answer correct?): adds the four cells. JSONL or "
    "CSV with id, correct[, run, abstained], promptfoo's results.json, a DeepEval test "
    "run, or a ragas results CSV.",
)
@click.option(
    "--verdicts-run",
    default=None,
    help="Run whose top --context-k chunks were sent to the model "
    "(default: the run the verdicts name, else the first run).",
)
@click.option(
    "--verdict-format",
    type=click.Choice(VERDICT_FORMATS),
    default=None,
    help="Force the verdicts' format instead of detecting it.",
)
@click.option(
    "--verdict-metric",
    default=None,
    help="DeepEval: the metric whose success is the verdict (default: the test case's). "
    "ragas: the score column to threshold.",
)
@click.option(
    "--verdict-threshold",
    type=float,
    default=None,
    help="ragas: a score at or above this is a correct answer (e.g. 0.7).",
)
@click.option(
    "--index-version",
    default=None,
    help="Index version the gold ids were read from (overrides the file).",
)
@click.option(
    "--reference-run",
    default=None,
    help="Compare every run with this one instead of every pair.",
)
@click.option(
    "--compare-measures",
    default=None,
    help="Measures to test, comma-separated, or 'all' (default: those at --context-k and "
    "the whole-list ones). Each extra measure widens the Holm correction.",
)
@click.option(
    "--baseline",
    type=click.Path(path_type=Path),
    default=None,
    help="A previous report (its report.json or its folder), or a published site (its "
    "folder or history.jsonl: the newest version on the same gold set, else the newest), "
    "to compare each run with its namesake there.",
)
@click.option(
    "--baseline-version",
    default=None,
    metavar="LABEL",
    help="With a site as --baseline: compare with this version instead.",
)
@click.option(
    "--on-gold-change",
    type=click.Choice(GOLD_CHANGE_POLICIES),
    default="refuse",
    show_default=True,
    help="When the baseline's gold set differs: refuse, or compare on the shared questions.",
)
@click.option(
    "--min",
    "minimums",
    multiple=True,
    metavar="[RUN/]MEASURE[:KIND]=VALUE",
    help="Fail (exit 1) when a mean is below VALUE, e.g. --min recall@5=0.80. Repeatable.",
)
@click.option(
    "--max-drop",
    "max_drops",
    multiple=True,
    metavar="[RUN/]MEASURE[:KIND]=VALUE",
    help="Fail (exit 1) when a mean fell by more than VALUE since --baseline. Repeatable. "
    "Without --baseline (a first run) it is skipped with a notice.",
)
@click.option(
    "--significant-only/--no-significant-only",
    help="A drop fails only when it is significant (Holm-adjusted p < 0.05, interval below 0).",
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    is_eager=True,
    callback=lambda ctx, param, value: _read_config(ctx, value),
    help="Settings file: any option of this command, without the dashes, and the gate's "
    "rules (default: ./reportgen.toml, else [tool.reportgen] of ./pyproject.toml). "
    "The command line wins.",
)
@click.option(
    "--manifest",
    type=click.Path(path_type=Path),
    default=None,
    help="Chunk ids of the current index: one per line ('# index_version: X' comment), "
    "JSON Lines or CSV, optionally with audience, doc_version, valid_from, valid_to. "
    "Gold ids missing from it are flagged as stale.",
)
@click.option(
    "--manifest-format",
    type=click.Choice(MANIFEST_FORMATS),
    default=None,
    help="Force the manifest's format instead of detecting it.",
)
@click.option(
    "--run-index-version",
    "run_index_versions",
    multiple=True,
    metavar="NAME=VERSION",
    callback=_name_values,
    help="Index version a run was made on (overrides its file); repeat for each run.",
)
@click.option(
    "--audience",
    default=None,
    help="Who reads the answers, e.g. public: manifest chunks labelled for another "
    "audience (e.g. staff) count as leaks when retrieved.",
)
@click.option(
    "--as-of",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Date that decides which manifest chunks are out of date (valid_from/valid_to; "
    "default: the report's date).",
)
@click.option(
    "--strict/--no-strict",
    help="Fail (exit 1, after writing the report) when there is any warning.",
)
def report(gold: Path, runs: tuple[str, ...], **options: Any) -> None:
    """Measure RUNS against the GOLD set and write the report.

    Each RUN is NAME=PATH or PATH (the name is then the file's stem). With
    --verdicts, every judged question is sorted into retrieval failure, generation
    failure, answered from memory, or working, at --context-k. With quality
    rules, a failed rule exits 1 after the report is written.

    \b
    Examples:
      reportgen report gold.jsonl bm25=runs/bm25.trec rerank=runs/rerank.jsonl --out report/
      reportgen report gold.jsonl rerank=run.jsonl --baseline site/ --max-drop recall@5=0.02
      reportgen report gold.jsonl bm25=runs/bm25.trec rerank=runs/rerank.jsonl \\
        --verdicts verdicts.jsonl --verdicts-run rerank --context-k 5
      reportgen report gold.jsonl rerank=runs/rerank.jsonl --verdicts ragas.csv \\
        --verdict-metric faithfulness --verdict-threshold 0.7
      reportgen report gold.jsonl rerank=runs/rerank.jsonl --manifest index/manifest.jsonl \\
        --run-index-version rerank=kb-2026-11-02 --audience public --strict
    """
    checks = ReportChecks(
        gate=_gate_rules(
            options["config_path"],
            options["minimums"],
            options["max_drops"],
            options["significant_only"],
        ),
        strict=options["strict"],
        audience=options["audience"],
        as_of=None if options["as_of"] is None else options["as_of"].date(),
    )
    check_summary_wanted(options["github_summary"], options["formats"])
    inputs = ReportInputs(
        gold,
        list(runs),
        gold_format=options["gold_format"],
        run_format=options["run_format"],
        gold_version=options["gold_version"],
        index_version=options["index_version"],
        run_index_versions=options["run_index_versions"],
        verdicts=options["verdicts"],
        verdicts_run=options["verdicts_run"],
        verdict_format=options["verdict_format"],
        verdict_metric=options["verdict_metric"],
        verdict_threshold=options["verdict_threshold"],
        manifest=options["manifest"],
        manifest_format=options["manifest_format"],
        baseline=options["baseline"],
        baseline_version=options["baseline_version"],
    )
    request = ReportRequest(inputs, report_outputs(options), report_settings(options), checks)
    run_request(request, options)


def report_settings(options: dict[str, Any]) -> ReportSettings:
    """How to measure, compare and label (`demo` has no comparison options)."""
    scoring = Settings(
        options["ks"], options["context_k"], options["relevance_threshold"], options["trec_eval"]
    )
    compare_measures = options.get("compare_measures")
    return ReportSettings(
        scoring,
        version=options["version"] or default_version(),
        reference_run=options.get("reference_run"),
        compare_measures=compare_measures.split(",") if compare_measures else None,
        on_gold_change="intersect" if options.get("on_gold_change") == "intersect" else "refuse",
    )


def report_outputs(options: dict[str, Any]) -> ReportOutputs:
    """What `report` and `demo` write, where."""
    return ReportOutputs(
        options["out_dir"],
        formats=options["formats"],
        per_question_format=options["per_question_format"],
        report_url=options["report_url"] or default_report_url() or DEFAULT_REPORT_URL,
        chart_png=options["chart_png"],
    )


def run_request(request: ReportRequest, options: dict[str, Any]) -> None:
    """Make the report, print what a person reads first; a failed check exits 1."""
    quiet = options["quiet"]
    progress.enable(False if quiet else None)
    result = make_report(request)
    with reader_may_leave():  # `| head`: the gate below still sets the exit code
        if not quiet:
            print_summary(result)
        if options["github_summary"]:
            write_step_summary(result, quiet)
    if result.failure is not None:
        raise result.failure


def _gate_rules(
    config_path: Path | None,
    minimums: tuple[str, ...],
    max_drops: tuple[str, ...],
    significant_only: bool,
) -> GateRules:
    """The config file's rules, overridden by the command line's.

    ``significant_only`` already holds the file's setting (as the option's default),
    so --no-significant-only can switch it off.
    """
    from_file = load_config(config_path) if config_path else GateRules()
    merged = from_file.merged(rules_from_options(minimums, max_drops, significant_only))
    return GateRules(merged.rules, significant_only, merged.sources)


GATE_KEYS = ("min", "max-drop")
"""Config keys the gate reads itself: rule tables, merged rule by rule with the options'."""


def config_keys() -> list[str]:
    """The keys a config file may set: the options of `report` without the dashes."""
    return [
        config_key(param)
        for param in report.params
        if isinstance(param, click.Option) and param.expose_value and param.name != "config_path"
    ]


def _read_config(ctx: click.Context, given: Path | None) -> Path | None:
    """--config's callback (eager): the file's values become the options' defaults.

    Click then converts and checks them like typed values, and anything typed wins.
    """
    path = given or find_config(Path())
    if path is None:
        return None
    config = read_config(path)
    arguments = [p.name for p in ctx.command.params if isinstance(p, click.Argument) and p.name]
    check_keys(config, config_keys(), arguments)
    options = {
        config_key(param): param
        for param in ctx.command.params
        if isinstance(param, click.Option) and param.name
    }
    defaults = {
        options[key].name: _default_from(config, key, value, options[key])
        for key, value in config.options.items()
        if key not in GATE_KEYS
    }
    ctx.default_map = {**(ctx.default_map or {}), **defaults}
    ctx.meta[CONFIG_META] = config
    return path


def _default_from(config: Config, key: str, value: Any, param: click.Option) -> Any:
    """A TOML value as the option takes it (a list joined by commas, a path from the
    file's folder, a date as text); the option's type checks it afterwards."""
    written = config.spelled[key]
    if param.is_flag:
        if not isinstance(value, bool):
            raise config.error(key, f"{written} must be true or false", f"write {written} = true")
        return value
    if isinstance(value, bool) or (isinstance(value, dict) and not param.multiple):
        raise config.error(
            key, f"{written} takes a value, not {_toml_kind(value)}", f"see --{key} in --help"
        )
    if param.multiple:
        items = [f"{k}={v}" for k, v in value.items()] if isinstance(value, dict) else value
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise config.error(
                key, f"{written} must be a list of strings", f'write e.g. {written} = ["a=b"]'
            )
        return items
    if isinstance(value, list):
        if not all(isinstance(item, str | int | float) for item in value):
            raise config.error(key, f"{written} must be a list of plain values", "e.g. [1, 3, 5]")
        return ",".join(str(item) for item in value)
    if isinstance(param.type, click.Path) and isinstance(value, str):
        return config.path.parent / value
    if hasattr(value, "isoformat"):  # a TOML date
        return value.isoformat()
    return value


def _toml_kind(value: Any) -> str:
    return "true or false" if isinstance(value, bool) else "a table"


@cli.command()
@measure_options
def demo(**options: Any) -> None:
    """Write the report of the bundled, synthetic help-centre example (offline).

    \b
    Example:
      reportgen demo --out demo-report && open demo-report/index.html
    """
    check_summary_wanted(options["github_summary"], options["formats"])
    run_request(demo_request(report_outputs(options), report_settings(options)), options)


@cli.command()
@click.argument("shards", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("report"),
    show_default=True,
    help="Folder to write the merged report.json and per-question file into.",
)
@click.option(
    "--trec-eval/--no-trec-eval",
    default=None,
    help="Keep questions with no relevant chunk in the means (default: as the shards' "
    "report.json say; needed only when the shards have none).",
)
@click.option("--version", "version", default=None, help="Label of the merged report.")
@click.option(
    "--per-question-format",
    type=click.Choice(PER_QUESTION_FORMATS),
    default="csv",
    show_default=True,
    help="File format of the merged per-question values.",
)
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
def merge(
    shards: Sequence[Path],
    out_dir: Path,
    trec_eval: bool | None,
    version: str | None,
    per_question_format: str,
    quiet: bool,
) -> None:
    """Merge the per-question outputs of SHARDS (disjoint sets of questions) into one report.

    Each SHARD is the --out folder of a `reportgen report` run on some of the
    questions, its per_question.csv / .parquet, or what `trec_eval -q` printed for
    them (pass --trec-eval to keep trec_eval's means). Means are recomputed from the
    per-question values, so they equal those of one report over every question;
    shards that share a question are refused.

    \b
    Examples:
      reportgen merge shard-*/ --out report/
      reportgen merge out-*.txt --out report/ --trec-eval
    """
    from reportgen.api import merge_reports
    from reportgen.render.pages import fmt
    from reportgen.render.views.common import plural

    result = merge_reports(
        shards,
        out_dir,
        trec_eval=trec_eval,
        version=version,
        per_question_format=per_question_format,
    )
    if quiet:
        return
    report = result.report
    click.echo(f"Merged {len(shards)} shards: {plural(report['gold']['questions'], 'question')}.")
    k = report["context_k"]
    for name, run in report["runs"].items():
        shown = [key for key in (f"hit@{k}", f"recall@{k}", f"mrr@{k}") if key in run["means"]]
        shown = shown or list(run["means"])[:3]  # no context k (trec_eval's output)
        values = " | ".join(f"{key} {fmt(run['means'][key])}" for key in shown)
        click.echo(f"{name}: {plural(run['n'], 'question')} in the means. {values}")
    click.echo(written_line(result.files))


def written_line(files: Sequence[Path]) -> str:
    """Where the files went, one line: the folder, its files, chart files counted."""
    if not files:
        return "Wrote nothing."
    folder = min(files, key=lambda path: len(path.parts)).parent
    top = [path.name for path in files if path.parent == folder]
    nested: dict[str, int] = {}
    for path in files:
        if path.parent != folder:
            nested[path.parent.name] = nested.get(path.parent.name, 0) + 1
    parts = top + [f"{name}/ ({count} files)" for name, count in sorted(nested.items())]
    return printable(f"Wrote {folder}/: " + ", ".join(parts))


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
        click.echo(f"warning: --github-summary: {error}", err=True)
        return
    if not quiet:
        click.echo(f"Appended {summary.name} to the job summary ({target})")


@cli.command()
@click.argument("report_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--site",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="The site folder: the report goes to SITE/<version>/, the index to SITE/index.html.",
)
@click.option(
    "--keep",
    type=click.IntRange(min=1),
    default=None,
    metavar="N",
    help="Keep the newest N version folders (by creation time) and prune the others; "
    "their lines stay in history.jsonl, marked, so the trends keep their points.",
)
@click.option(
    "--lock-timeout",
    type=click.FloatRange(min=0),
    default=60,
    show_default=True,
    metavar="SECONDS",
    help="How long to wait while another publish holds the site's lock, then exit 2.",
)
@click.option("--quiet", "-q", is_flag=True, help="Print nothing but errors.")
def publish(
    report_dir: Path, site: Path, keep: int | None, lock_timeout: float, quiet: bool
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
    published = publish_report(report_dir, site, keep=keep, lock_timeout=lock_timeout)
    for note in published.recovered:
        click.echo(f"note: {note}", err=True)
    if not quiet:
        click.echo(
            printable(
                f"Published {published.version} to {published.folder}; index {published.index}"
            )
        )
        if published.pruned:
            click.echo(f"Pruned (--keep {keep}): {', '.join(published.pruned)}")


def print_summary(result: ReportResult) -> None:
    """Per run: the headline, a small table by kind (when there are several); then
    the comparisons, the cells, the warnings and where the files went."""
    from reportgen.render.pages import fmt, headline

    report = result.report
    k = report["context_k"]
    runs = report["runs"]
    for index, (name, run) in enumerate(runs.items()):
        click.echo(headline(name, run, k))
        if len(run["by_kind"]) < 2:  # one kind would repeat the headline
            if index == len(runs) - 1:
                click.echo()
            continue
        rows = [("kind", "n", f"hit@{k}", f"recall@{k}", f"MRR@{k}")]
        rows += [
            (
                kind,
                str(values["n"]),
                fmt(values[f"hit@{k}"]),
                fmt(values[f"recall@{k}"]),
                fmt(values[f"mrr@{k}"]),
            )
            for kind, values in run["by_kind"].items()
        ]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            cells = [row[0].ljust(widths[0])] + [
                cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)
            ]
            click.echo("  " + "  ".join(cells))
        click.echo()
    print_comparisons(report)
    from reportgen.render.pages import attribution_lines

    for line in attribution_lines(report):
        click.echo(line)
    for warning in report["warnings"]:
        click.echo(f"warning: {warning['message']}")
    if report["warnings"]:
        click.echo()
    click.echo(written_line(result.files))


def _comparison_line(entry: dict[str, Any], key: str) -> str:
    from reportgen.render.pages import fmt

    measure = entry["measures"].get(key)
    if measure is None:
        return f"  {entry['before']} -> {entry['after']}: no shared question"
    return (
        f"  {entry['before']} -> {entry['after']}: {key} {fmt(measure['before'])} -> "
        f"{fmt(measure['after'])} ({measure['difference']:+.3f}, 95% CI "
        f"{measure['ci_low']:+.3f} to {measure['ci_high']:+.3f}, Holm p {measure['p_holm']:.3g}): "
        f"{measure['label']}"
    )


def baseline_source_line(report: dict[str, Any], baseline: dict[str, Any]) -> str:
    """Which report the baseline is, and why that version when it came from a site."""
    from reportgen.render.views.comparisons import selection_sentence

    version, created, source = baseline["version"], baseline["created"], baseline["source"]
    line = f"Baseline: {version} ({created}), read from {source}."
    if selection := baseline.get("selection"):
        line += " " + selection_sentence(version, selection, report["gold"])
    return line


def print_comparisons(report: dict[str, Any]) -> None:
    """One line per comparison on recall at k_ctx (and a baseline's four cells, stale
    gold marked), then the gate's verdicts."""
    from reportgen.render.pages import cells_line, fmt
    from reportgen.render.views.comparisons import gold_change_lines

    key = f"recall@{report['context_k']}"
    sections: list[tuple[str, list[dict[str, Any]], list[str]]] = [
        ("Runs compared", report["comparisons"]["pairs"], [])
    ]
    if baseline := report.get("baseline"):
        click.echo(baseline_source_line(report, baseline))
        click.echo()
        sections.append(
            (
                f"Against baseline {baseline['version']}",
                baseline["comparisons"],
                gold_change_lines(baseline),
            )
        )
    for title, entries, notes in sections:
        if not entries:
            continue
        n = entries[0]["n"]
        moves = fmt(entries[0]["one_question"])
        click.echo(f"{title} ({n} paired questions; one question moves a mean by {moves}):")
        for line in notes:
            click.echo(f"  {line}")
        for entry in entries:
            click.echo(_comparison_line(entry, key))
            cells = cells_line(entry.get("cells"))
            if cells:
                click.echo(f"    {cells}")
        click.echo()
    gate = report.get("gate")
    if gate:
        click.echo("Quality gate: " + ("passed" if gate["passed"] else "FAILED"))
        for rule in gate["rules"]:
            click.echo(f"  {rule['message']}")
        if gate.get("notice"):
            click.echo(f"  notice: {gate['notice']}")
        click.echo()


def main() -> None:
    """The `reportgen` console script (and `python -m reportgen`)."""
    cli(prog_name="reportgen")
