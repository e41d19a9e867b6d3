"""Write a report from what the analyses found: the steps `report` and `merge` share.

``make_report`` measures, ``merge`` rebuilds the measured evaluation from shards; both
then run the analyses and hand the findings here, so a merged report is laid out,
rendered and written by the same code as one report over every question.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import field
from datetime import date, datetime
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.analyse.baseline import GoldChangePolicy
from reportgen.analyse.chunkings import ChunkingFacts
from reportgen.analyse.cutoff import CutoffAnalysis
from reportgen.analyse.drilldown import ExplainMode
from reportgen.analyse.gate import failures
from reportgen.analyse.ppi import (
    PPIFindings,
    gate_means,
    label_gate,
    ppi_comparisons,
    ppi_findings,
    ppi_keys,
    ppi_section,
    refuse_gate_rules,
    refuse_unguarded,
)
from reportgen.analyse.predictors import Predictors
from reportgen.analyse.replicates import refuse_graded_replicates
from reportgen.analyse.run import AnalysisOptions, ChartsKnown, Findings, run_analyses
from reportgen.analyse.secondary import secondary_section
from reportgen.analyse.slices import Slicing, slicing_of
from reportgen.core.display import Glanceable, names
from reportgen.core.model import Manifest, ReportWarning, VerdictSet
from reportgen.core.records import dataclass
from reportgen.errors import GateFailed, ParameterError, rules_failed
from reportgen.load.previous.baseline import Baseline
from reportgen.measure.measures import measure_keys
from reportgen.measure.scoring import COST_COLUMNS, Evaluation, RunMeans, with_judged_questions
from reportgen.render.chart_engine import ChartWorker
from reportgen.render.charts import page_chart_specs, warm_up_specs
from reportgen.render.manifest import stale_files
from reportgen.render.output import (
    FORMATS,
    atomic_write,
    per_question_bytes,
    refuse_overwriting_inputs,
    report_json,
    write_files,
)
from reportgen.report.assemble import assemble, chart_sections, per_question_rows
from reportgen.request import (
    MergeRequest,
    ReportChecks,
    ReportOutputs,
    ReportRequest,
    check_formats,
)
from reportgen.schema import MergeCoverage, MergedReport, MergedShard, Report


def report_glance(report: Report | MergedReport, files: Sequence[Path]) -> list[tuple[str, str]]:
    """A written report at a glance: its label, runs, questions, gate, warnings, folder."""
    gate = report.get("gate")
    outcome = "not set" if not gate else ("passed" if gate["passed"] else "FAILED")
    folder = next((path.parent for path in files if path.name == "report.json"), None)
    return [
        ("version", str(report["version"])),
        ("runs", names(list(report["runs"]))),
        ("questions", str(report["gold"]["questions"])),
        ("gate", outcome),
        ("warnings", str(len(report.get("warnings", [])))),
        ("folder", f"{folder}/ ({len(files)} files)" if folder else f"{len(files)} files"),
    ]


@dataclass(frozen=True, repr=False)
class ReportResult(Glanceable):
    report: Report
    findings: Findings
    """What every analysis found, with the per-question scores they read."""
    files: list[Path]
    strict: bool = False
    """Whether any warning fails (``ReportChecks.strict``)."""

    @property
    def evaluation(self) -> Evaluation:
        """The per-question frames of every run."""
        return self.findings.evaluation

    def glance(self) -> list[tuple[str, str]]:
        return report_glance(self.report, self.files)

    @property
    def gate_failures(self) -> list[str]:
        """One message per failed quality rule; empty when the gate passed or was unset."""
        return failures(self.report.get("gate"))

    @property
    def failure(self) -> GateFailed | None:
        """What fails a CI job: the failed quality rules, else (strict) any warning."""
        failed = self.gate_failures
        if failed:
            return rules_failed(failed)
        return strict_failure(self.report) if self.strict else None


def strict_failure(report: Report) -> GateFailed | None:
    """--strict: any warning fails the gate (after the report is written)."""
    warnings = report["warnings"]
    if not warnings:
        return None
    codes = ", ".join(sorted({w["code"] for w in warnings}))
    return GateFailed(f"--strict: {len(warnings)} warning(s) ({codes}); see report.json 'warnings'")


def draws_charts(formats: Sequence[str]) -> bool:
    """Whether these outputs need charts (and so Jinja2 and vl-convert)."""
    return "html" in formats or "md" in formats


def planned_files(formats: Sequence[str], per_question_format: str) -> list[str]:
    """The files :func:`render_files` makes for these formats, charts aside."""
    names = ["report.json", f"per_question.{per_question_format}"]
    names += ["summary.md", "report.md"] if "md" in formats else []
    return names + (["index.html"] if "html" in formats else [])


def render_files(
    report: Report,
    findings: Findings,
    formats: Sequence[str] = FORMATS,
    per_question_format: str = "csv",
    report_url: str = "index.html",
    chart_png: bool = False,
    chart_worker: ChartWorker | None = None,
) -> dict[str, bytes]:
    """Every output file's bytes, rendered in memory before anything is written: report.json,
    the per-question file, and the pages built from report.json alone
    (:func:`reportgen.render.page_files.page_files`, which ``reportgen render`` reuses)."""
    check_formats(formats, per_question_format)
    if chart_worker is not None and not chart_worker.sent and draws_charts(formats):
        # drawn while report.json is written and read back (unless the analyses sent
        # them already); the worker checks that the specs from the written report are
        # these before its charts are used
        chart_worker.send(page_chart_specs(report))
    per_question_file = f"per_question.{per_question_format}"
    # Polars writes the per-question file without the GIL while Python lays out
    # report.json: the two take ~25 ms each on 10,000 questions
    with ThreadPoolExecutor(max_workers=1) as pool:
        per_question = pool.submit(
            per_question_bytes, per_question_rows(findings.evaluation), per_question_format
        )
        files = {"report.json": report_json(report).encode()}
        files[per_question_file] = per_question.result()
    if not draws_charts(formats):
        return files
    # Jinja2 and vl-convert only when HTML or Markdown is asked for
    from reportgen.render.page_files import page_files

    # the pages read report.json as written, as `reportgen render` reads it: same bytes
    written = json.loads(files["report.json"])
    return files | page_files(
        written, formats, per_question_file, report_url, chart_png, chart_worker
    )


@contextmanager
def chart_worker(formats: Sequence[str]) -> Iterator[ChartWorker | None]:
    """vl-convert's engine starting (~0.5 s) in a child while inputs load; None without charts."""
    worker = ChartWorker(warm_up_specs()) if draws_charts(formats) else None
    try:
        yield worker
    finally:
        if worker is not None:
            worker.close()


def refuse_planned(
    outputs: ReportOutputs, files_read: list[tuple[str, Path]], command: str
) -> None:
    """Fail before the measuring on the files known now; charts are checked once drawn."""
    planned = planned_files(outputs.formats, outputs.per_question_format)
    refuse_overwriting_inputs(Path(outputs.out_dir), planned, files_read, command)


@dataclass(frozen=True)
class Ending:
    """What ``report`` and ``merge`` ask of the analyses and the writing once the
    evaluation is measured (or merged): the options the two commands share."""

    outputs: ReportOutputs
    checks: ReportChecks
    version: str | None
    commit: str | None
    reference_run: str | None
    compare_measures: Sequence[str] | None
    on_gold_change: GoldChangePolicy
    explain: ExplainMode
    command: str
    cluster_by: str | None = None
    estimate: str = "human"
    """What the gate reads: the gold set, or (``ppi``, which also compares the runs by them) the
    prediction-powered means of the judge corrected by the gold set's audit."""
    slicing: Slicing = field(default_factory=Slicing)

    @classmethod
    def of(cls, request: ReportRequest | MergeRequest) -> Ending:
        if isinstance(request, MergeRequest):
            return cls(
                request.outputs,
                request.checks,
                request.version,
                request.commit,
                request.reference_run,
                request.compare_measures,
                request.on_gold_change,
                request.explain,
                "merge",
                request.cluster_by,
                request.estimate,
                slicing=slicing_of(request.slice_by, request.slice_gate, request.min_slice_n),
            )
        settings = request.settings
        return cls(
            request.outputs,
            request.checks,
            settings.version,
            settings.commit,
            settings.reference_run,
            settings.compare_measures,
            settings.on_gold_change,
            request.outputs.explain,
            "report",
            settings.cluster_by,
            settings.estimate,
            slicing=slicing_of(settings.slice_by, settings.slice_gate, settings.min_slice_n),
        )


@dataclass(frozen=True)
class Evidence:
    """What the analyses read besides the scores, loaded by the command (its own way)."""

    verdicts: VerdictSet | None
    verdicts_run: str | None
    manifest: Manifest | None
    baseline: Baseline | None
    as_of: date | None
    """None: the report's date."""
    judgments: pl.DataFrame | None = None
    """Secondary judgments (reportgen.load.inputs.labels.JUDGMENTS_SCHEMA), kept apart."""
    judgments_source: str = ""
    judged_values: pl.DataFrame | None = None
    """A merge's: the runs' values on the judge's grades, from the shards (run, qid, every
    measure key), since a shard keeps only the rows of its gold questions."""


def analyse_and_write(
    evaluation: Evaluation,
    evidence: Evidence,
    ending: Ending,
    created: datetime,
    files_read: list[tuple[str, Path]],
    worker: ChartWorker | None = None,
    merged_from: list[MergedShard] | None = None,
    cut: Mapping[str, Any] | None = None,
    coverage: MergeCoverage | None = None,
    warnings: Sequence[ReportWarning] = (),
) -> ReportResult:
    """The one ending of ``report`` and ``merge``: analyse, assemble, render, write;
    ``cut``: the shard's place in its `reportgen shard` cut, for merge/; ``coverage``:
    how much of its cut a merge holds; ``warnings``: the command's own, said first."""
    checks = ending.checks
    if evidence.judgments is not None:  # the runs' questions the judge grades are measured
        refuse_graded_replicates(evaluation)
        judge_qids = evidence.judgments.get_column("qid").unique().to_list()
        evaluation = with_judged_questions(evaluation, judge_qids)
    ppi = _ppi(evaluation, evidence, ending)
    options = AnalysisOptions(
        verdicts=evidence.verdicts,
        verdicts_run=evidence.verdicts_run,
        manifest=evidence.manifest,
        audience=checks.audience,
        as_of=evidence.as_of or created.date(),
        reference_run=ending.reference_run,
        compare_measures=ending.compare_measures,
        baseline=evidence.baseline,
        on_gold_change=ending.on_gold_change,
        gate=checks.gate,
        explain=ending.explain,
        cluster_by=ending.cluster_by,
        gate_means=gate_means(ppi) if ppi is not None and ending.estimate == "ppi" else None,
        slicing=ending.slicing,
    )
    findings = run_analyses(
        evaluation,
        options,
        version=ending.version,
        created=created,
        charts_known=_early_charts(evaluation, worker, ending.outputs.formats),
    )
    if ppi is not None:
        warnings = (*warnings, *ppi.warnings)
        if ending.estimate == "ppi":
            label_gate(findings.gate, ppi)
    if warnings:
        findings = dataclasses.replace(findings, warnings=(*warnings, *findings.warnings))
    report = assemble(findings, ending.commit, pages=draws_charts(ending.outputs.formats))
    if merged_from is not None:
        report["merged_from"] = merged_from
    if coverage is not None:
        report["merge_coverage"] = coverage
    if evidence.judgments is not None:
        report["secondary_judgments"] = secondary_section(  # type: ignore[typeddict-item]
            evaluation, evidence.judgments, evidence.judgments_source
        )
    if ppi is not None:
        section: dict[str, Any] = report["secondary_judgments"]  # type: ignore[assignment]
        section["estimate"] = ending.estimate
        section["audit"] = ppi.audit.as_dict()
        section["ppi"] = ppi_section(ppi)
        if ending.estimate == "ppi":
            names = [result.name for result in evaluation.runs]
            section["ppi_comparisons"] = ppi_comparisons(ppi, names, ending.reference_run)
    outputs = ending.outputs
    files = render_files(
        report,
        findings,
        outputs.formats,
        outputs.per_question_format,
        outputs.report_url,
        chart_png=outputs.chart_png,
        chart_worker=worker,
    )
    if outputs.merge_data:
        from reportgen.report.merge_data import judge_merge_files, merge_data_files

        judged = evidence.judgments
        files |= merge_data_files(
            findings, cut, None if judged is None else evidence.judgments_source
        )
        if judged is not None:
            files |= judge_merge_files(evaluation, judged)
    out_dir = Path(outputs.out_dir)
    removed = stale_files(out_dir, files)  # the earlier report's: never an input either
    refuse_overwriting_inputs(out_dir, [*files, *removed], files_read, ending.command)
    if outputs.junit is not None:
        refuse_junit_clash(Path(outputs.junit), out_dir, files, files_read, ending.command)
    written = write_files(out_dir, files, record="replace")
    if outputs.junit is not None:
        written.append(write_junit(Path(outputs.junit), report, checks.strict))
    return ReportResult(report, findings, written, strict=checks.strict)


def _ppi(evaluation: Evaluation, evidence: Evidence, ending: Ending) -> PPIFindings | None:
    """The prediction-powered means when the report has the judge's grades; with
    --estimate ppi, refused (exit 2) without them or while a guard rail fails."""
    gate = ending.checks.gate
    if evidence.judgments is None:
        if ending.estimate == "ppi":
            raise ParameterError(
                "estimate",
                "ppi",
                "the prediction-powered means need the judge's grades",
                "measure every shard with the judge's grades (--judgments FILE) before a merge",
                "--estimate",
            )
        return None
    named = [rule.measure for rule in gate.rules] if gate else []
    measured = measure_keys(evaluation.settings.ks)
    keys = ppi_keys(evaluation.settings.context_k, [m for m in named if m in measured])
    found = ppi_findings(evaluation, evidence.judgments, keys, evidence.judged_values)
    if ending.estimate == "ppi":
        refuse_unguarded(found)
        refuse_gate_rules(gate, measured)
    return found


def _early_charts(
    evaluation: Evaluation, worker: ChartWorker | None, formats: Sequence[str]
) -> ChartsKnown | None:
    """Hands the chart worker its specs as soon as the analyses know them, so that it
    draws while the comparisons run (0.3 s of the demo). Without latency or cost only:
    the trade-off chart reads them, and they come later. The worker uses its drawings
    only if the finished report's specs are these (else this process draws)."""
    if worker is None or not draws_charts(formats):
        return None
    if any(name in result.scores.columns for result in evaluation.runs for name in COST_COLUMNS):
        return None

    def send(
        means: Mapping[str, RunMeans],
        cutoffs: tuple[CutoffAnalysis, ...],
        chunkings: ChunkingFacts | None,
        predictors: Mapping[str, Predictors],
    ) -> None:
        sections = chart_sections(evaluation, means, cutoffs, chunkings, predictors)
        worker.send(page_chart_specs(sections))

    return send


def refuse_junit_clash(
    junit: Path,
    out_dir: Path,
    files: Iterable[str],
    files_read: Sequence[tuple[str, Path]],
    command: str,
) -> None:
    """--junit may land neither on an input nor on another file the report writes."""
    written = [(f"the report's {name}", out_dir / name) for name in files]
    refuse_overwriting_inputs(junit.parent, [junit.name], [*files_read, *written], command)


def write_junit(path: Path, report: Report | MergedReport, strict: bool) -> Path:
    """The JUnit XML file ``--junit`` asks for, written whole or not at all."""
    from reportgen.render.junit import junit_xml

    atomic_write(path, junit_xml(report, strict), "--junit")
    return path
