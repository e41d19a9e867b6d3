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

from reportgen.api import (
    ReportRequest,
    ReportResult,
    demo_request,
    make_report,
    publish_report,
)
from reportgen.cli.errors import guarded_invoke, one_line_parse, reader_may_leave, run_standalone
from reportgen.cli.options import measure_options, publish_options, report_options
from reportgen.cli.render import render
from reportgen.cli.request import (
    merge_request,
    report_outputs,
    report_request,
    report_settings,
)
from reportgen.cli.shard_options import merge_options, shard_options
from reportgen.core import progress
from reportgen.core.ci import (
    append_step_summary,
)
from reportgen.errors import UsageError, closest, printable
from reportgen.load.formats.vocabulary import is_trace_file
from reportgen.version import __version__


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
@click.argument("runs", nargs=-1)
@measure_options
@report_options
def report(gold: Path, runs: tuple[str, ...], **options: Any) -> None:
    """Measure RUNS against the GOLD set and write the report.

    Each RUN is NAME=PATH or PATH (the name is then the file's stem): a ranked
    list, a trace file, or an OpenTelemetry or Phoenix span export. A trace file
    (JSON Lines whose lines carry retrieved) as GOLD is the gold set, a run and its
    verdicts at once: no RUN is then needed. With
    --verdicts, every judged question is sorted into retrieval failure, generation
    failure, answered from memory, or working, at --context-k. With quality
    rules, a failed rule exits 1 after the report is written.

    \b
    Examples:
      reportgen report gold.jsonl bm25=runs/bm25.trec rerank=runs/rerank.jsonl --out report/
      reportgen report gold.jsonl rerank=run.jsonl --baseline site/ --max-drop recall@5=0.02
      reportgen report gold.jsonl bm25=runs/bm25.trec rerank=runs/rerank.jsonl \\
        --verdicts verdicts.jsonl --verdicts-run rerank --context-k 5
      reportgen report traces.jsonl --retrieved-when all --out report/
      reportgen report gold.jsonl spans.jsonl --trace-question-key metadata.question_id
      reportgen report gold.jsonl rerank=runs/rerank.jsonl --verdicts ragas.csv \\
        --verdict-metric faithfulness --verdict-threshold 0.7
      reportgen report gold.jsonl rerank=runs/rerank.jsonl --manifest index/manifest.jsonl \\
        --run-index-version rerank=kb-2026-11-02 --audience public --strict
      reportgen report gold.jsonl small=runs/small.jsonl large=runs/large.jsonl \\
        --chunks small=maps/small.parquet --chunks large=maps/large.parquet --docs docs/
    """
    request = report_request(gold, runs, options)  # the config file's errors come first
    refuse_missing_runs(gold, runs, options["gold_format"])
    check_summary_wanted(options["github_summary"], options["formats"])
    run_request(request, options)


def refuse_missing_runs(gold: Path, runs: tuple[str, ...], gold_format: str | None) -> None:
    """Only a trace file as GOLD brings its own run (a missing GOLD file is said later)."""
    if runs or not gold.is_file() or (gold_format is None and is_trace_file(gold)):
        return
    raise UsageError(
        f"reportgen report: missing argument RUNS ({printable(gold)} is a gold set, not "
        "a trace file)",
        "the usage is reportgen report [OPTIONS] GOLD RUNS...; a trace file as GOLD "
        "needs no RUNS (see reportgen report --help)",
    )


def run_request(request: ReportRequest, options: dict[str, Any]) -> None:
    """Make the report, print what a person reads first; a failed check exits 1."""
    quiet = options["quiet"]
    progress.enable(False if quiet else None)
    result = make_report(request)
    with reader_may_leave():  # `| head`: the gate below still sets the exit code
        if not quiet:
            from reportgen.render.terminal import report_lines  # the views: only to print

            echo_lines(report_lines(result.report, result.files))
        if options["github_summary"]:
            write_step_summary(result, quiet)
    if result.failure is not None:
        raise result.failure


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
@merge_options
def merge(shards: tuple[Path, ...], **options: Any) -> None:
    """Merge the outputs of SHARDS (disjoint sets of questions) into the report of them all.

    Each SHARD is the --out folder of a `reportgen report --merge-data` run on some of
    the questions: the merge then writes what `reportgen report` over every question
    writes (pages, cells, cutoff, comparisons, baseline, gate), the same numbers.
    A shard may also be a per_question.csv / .parquet alone, or what `trec_eval -q`
    printed (pass --trec-eval to keep trec_eval's means): then only the means are
    merged, into report.json and the per-question file. Shards that share a question
    are refused.

    \b
    Examples:
      reportgen merge out-*/ --out report/ --min recall@5=0.70
      reportgen merge out-*/ --out report/ --baseline site/ --max-drop recall@5=0.02
      reportgen merge out-*.txt --out report/ --trec-eval --format json
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

                echo_lines(
                    [f"Merged {len(shards)} shards.", *report_lines(result.report, result.files)]
                )
            if options["github_summary"]:
                write_step_summary(result, quiet)
    else:
        from reportgen.render.terminal import merge_lines

        for note in result.notes:
            click.echo(f"note: {note}", err=True)
        if not quiet:
            echo_lines(merge_lines(result.report, len(shards), result.files))
    if result.failure is not None:
        raise result.failure


@cli.command()
@shard_options
def shard(
    gold: Path,
    runs: Sequence[str],
    count: int,
    out_dir: Path,
    verdicts: Path | None,
    gold_format: str | None,
    run_format: str | None,
    verdict_format: str | None,
    verdict_metric: str | None,
    verdict_threshold: float | None,
    quiet: bool,
) -> None:
    """Cut GOLD, the RUNS and the verdicts into shards by question, to measure apart.

    A question goes to shard sha256(its id) mod N, the same on every machine; each
    shard folder holds the same file names in the inputs' own formats, so one
    `reportgen report` line measures any shard, and `reportgen merge` joins the
    shards' outputs into the report of all the questions.

    \b
    Examples:
      reportgen shard gold.jsonl bm25=runs/bm25.trec --shards 8 --out shards/
      cd shards/shard-3 && reportgen report gold.jsonl bm25=runs/bm25.trec --out ../out-3
      reportgen merge shards/out-*/ --out report/
    """
    from reportgen.api import make_shards
    from reportgen.render.terminal import shard_lines

    plan = make_shards(
        gold,
        runs,
        out_dir,
        count,
        verdicts=verdicts,
        gold_format=gold_format,
        run_format=run_format,
        verdict_format=verdict_format,
        verdict_metric=verdict_metric,
        verdict_threshold=verdict_threshold,
    )
    if not quiet:
        echo_lines(shard_lines(plan.questions, out_dir, plan.command(["--out", "../out-N"])))


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
@publish_options
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


cli.command()(render)


def echo_lines(lines: Sequence[str]) -> None:
    for line in lines:
        click.echo(line)


def main() -> None:
    """The `reportgen` console script (and `python -m reportgen`)."""
    cli(prog_name="reportgen")
