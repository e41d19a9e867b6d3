"""The Python API: everything the CLI does, callable without it.

>>> from reportgen.api import ReportInputs, ReportOutputs, ReportRequest, make_report
>>> inputs = ReportInputs("gold.jsonl", ["bm25=runs/bm25.trec"])
>>> result = make_report(ReportRequest(inputs, ReportOutputs("report/")))  # doctest: +SKIP
>>> result.report["runs"]["bm25"]["means"]["recall@5"]  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from reportgen.analyse.gate import failures
from reportgen.analyse.run import AnalysisOptions, Findings, run_analyses
from reportgen.demo import demo_request as demo_request
from reportgen.demo import example_dir as example_dir
from reportgen.errors import GateFailed, ParameterError, UsageError
from reportgen.filesystem import refuse_undecodable, writing
from reportgen.labels import check_version_label, created_at
from reportgen.load import load_manifest, load_run
from reportgen.load.baseline import Baseline, load_baseline, per_question_path
from reportgen.load.chunkings import chunk_manifest, load_chunkings
from reportgen.load.chunks import parse_chunks_spec
from reportgen.load.config import GateRules, load_gate_rules, rules_from_options
from reportgen.load.evidence import Documents
from reportgen.measure.scoring import Evaluation, Settings, evaluate
from reportgen.model import ChunkMap, GoldSet, Manifest, Run, VerdictSet
from reportgen.progress import track
from reportgen.render.chart_engine import ChartWorker
from reportgen.render.output import (
    FORMATS,
    per_question_bytes,
    refuse_overwriting_inputs,
    report_json,
    write_files,
)
from reportgen.report.assemble import assemble, per_question_rows
from reportgen.report.types import MergedReport, Report
from reportgen.request import (
    ReportChecks,
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    RunSpec,
    check_formats,
    check_request,
    read_from,
    requested_gold,
    requested_verdicts,
    run_named,
)
from reportgen.shard import make_shards as make_shards

if TYPE_CHECKING:
    from reportgen.load.shards import Shard
    from reportgen.site import Published

__all__ = [
    "GateRules",
    "MergeResult",
    "ReportChecks",
    "ReportInputs",
    "ReportOutputs",
    "ReportRequest",
    "ReportResult",
    "ReportSettings",
    "RunSpec",
    "Settings",
    "demo_request",
    "example_dir",
    "load_gate_rules",
    "load_runs",
    "make_report",
    "merge_reports",
    "publish_report",
    "render_files",
    "rules_from_options",
    "strict_failure",
]


@dataclass(frozen=True)
class ReportResult:
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

    @property
    def gate_failures(self) -> list[str]:
        """One message per failed quality rule; empty when the gate passed or was unset."""
        return failures(self.report.get("gate"))

    @property
    def failure(self) -> GateFailed | None:
        """What fails a CI job: the failed quality rules, else (strict) any warning."""
        failed = self.gate_failures
        if failed:
            return GateFailed(
                (f"{len(failed)} quality rules" if len(failed) > 1 else "1 quality rule")
                + " failed (the report was written):\n"
                + "\n".join(failed)
            )
        return strict_failure(self.report) if self.strict else None


def _spec_label(spec: RunSpec | Run) -> str:
    """The run's name, or its file name, for the progress bar."""
    if isinstance(spec, Run):
        return spec.name
    name, path = (
        (spec.partition("=")[::2] if "=" in spec else ("", spec)) if isinstance(spec, str) else spec
    )
    return name or Path(path).name


def load_runs(specs: Sequence[RunSpec | Run], fmt: str | None = None) -> list[Run]:
    """The runs, each loaded from its file, or taken as it is when loaded already."""
    runs = []
    for spec in track(specs, "Loading runs", _spec_label):
        name, path = run_named(spec)
        runs.append(spec if isinstance(spec, Run) else load_run(path, name=name, fmt=fmt))
    return runs


def set_index_versions(runs: Sequence[Run], versions: Mapping[str, str]) -> list[Run]:
    """Runs with the index version the caller states (over what their files say)."""
    unknown = sorted(set(versions) - {run.name for run in runs})
    if unknown:
        raise ParameterError(
            "run_index_versions",
            unknown[0],
            f"names no run; the runs are {', '.join(run.name for run in runs)}",
            "use a run's name as given before '=' (or its file name without extension)",
            option="--run-index-version",
        )
    return [
        dataclasses.replace(run, index_version=versions[run.name]) if run.name in versions else run
        for run in runs
    ]


def report_inputs(
    inputs: ReportInputs, baseline: Baseline | None, gate: GateRules | None
) -> list[tuple[str, Path]]:
    """Every file a report reads, named for a message: none may be overwritten."""
    files = [("the gold set", read_from(inputs.gold))]
    for spec in inputs.runs:
        name, run_file = run_named(spec)
        files.append((f"run {name or run_file.stem!r}", run_file))
    if inputs.verdicts is not None:
        files.append(("the verdicts", read_from(inputs.verdicts)))
    if inputs.manifest is not None:
        files.append(("the manifest", Path(inputs.manifest)))
    if baseline is not None:
        files.append(("the baseline", baseline.path))
        files.append(("the baseline's per-question file", per_question_path(baseline.path)))
    files += [("the config file", Path(source)) for source in (gate.sources if gate else ())]
    for spec in inputs.chunks:
        _, path = parse_chunks_spec(spec) if isinstance(spec, str) else spec
        files.append(("the chunk map", Path(path)))
    return files


Sourced = TypeVar("Sourced", GoldSet, Run, VerdictSet, Manifest, ChunkMap)


def relabel(loaded: Sourced, root: Path) -> Sourced:
    """The same input, its ``source`` shown relative to ``root`` when it lies inside."""
    path = Path(loaded.source)
    if not path.is_relative_to(root):
        return loaded
    return dataclasses.replace(loaded, source=path.relative_to(root).as_posix())


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
    """Every output file's bytes, rendered in memory before anything is written.

    ``report_url`` is where readers of summary.md find the full report (e.g. the
    published site's page of this version); relative by default. Charts are SVG files
    (report.md shows them, GitHub included); ``chart_png`` adds a PNG of each, for
    places that take no SVG (slides, some wikis and chat tools). ``chart_worker``
    draws them when given (started early, its engine is ready by now).
    """
    check_formats(formats, per_question_format)
    per_question_file = f"per_question.{per_question_format}"
    specs = {}
    if draws_charts(formats):
        from reportgen.render.charts import report_chart_specs
        from reportgen.render.views.cutoff import cutoff_chart_specs

        specs = report_chart_specs(report) | cutoff_chart_specs(report, findings.cutoffs)
        if chart_worker is not None:
            chart_worker.send(specs)  # drawn in the child while the other files render
    files = {
        "report.json": report_json(report).encode(),
        per_question_file: per_question_bytes(
            per_question_rows(findings.evaluation), per_question_format
        ),
    }
    if not draws_charts(formats):
        return files
    # Jinja2 and vl-convert only when HTML or Markdown is asked for
    from reportgen.render.chart_engine import render_charts
    from reportgen.render.pages import render_html, render_markdown
    from reportgen.render.summary import render_summary

    if "md" in formats:
        files["summary.md"] = render_summary(report, report_url).encode()
    charts = render_charts(specs, png=chart_png, worker=chart_worker)
    files.update({f"charts/{name}": data for name, data in charts.items()})
    if "html" in formats:
        files["index.html"] = render_html(report, findings, charts, per_question_file).encode()
    if "md" in formats:
        files["report.md"] = render_markdown(report, findings, charts, per_question_file).encode()
    return files


def make_report(request: ReportRequest) -> ReportResult:
    """Load, measure, check, render and write a report; nothing is written if a step fails.

    A failed quality gate does not stop the report: it is written, and
    ``result.gate_failures`` says which rules failed (``result.failure`` is what the
    CLI raises then, to exit 1).
    """
    check_request(request)
    inputs, settings, checks, outputs = (
        request.inputs,
        request.settings,
        request.checks,
        request.outputs,
    )
    out_dir = Path(outputs.out_dir)
    # vl-convert's engine starts (~0.5 s) in a child process while the inputs load
    worker = ChartWorker() if draws_charts(outputs.formats) else None
    try:
        created = created_at()
        gold_set = requested_gold(inputs)
        previous = (
            load_baseline(
                inputs.baseline,
                gold_fingerprint=gold_set.fingerprint,
                version=inputs.baseline_version,
            )
            if inputs.baseline is not None
            else None
        )
        verdict_set = requested_verdicts(inputs)
        loaded = set_index_versions(
            load_runs(inputs.runs, inputs.run_format), inputs.run_index_versions
        )
        documents = None if inputs.docs is None else Documents(Path(inputs.docs))
        chunkings = load_chunkings(
            gold_set,
            inputs.chunks,
            [run.name for run in loaded],
            documents,
            inputs.chunks_format,
        )
        index = (
            chunk_manifest(chunkings)
            if inputs.manifest is None
            else load_manifest(inputs.manifest, inputs.manifest_format)
        )
        files_read = report_inputs(inputs, previous, checks.gate)
        # fail before the measuring on the files known now; charts are checked once drawn
        planned = planned_files(outputs.formats, outputs.per_question_format)
        refuse_overwriting_inputs(out_dir, planned, files_read, "report")
        if inputs.sources_relative_to is not None:
            root = Path(inputs.sources_relative_to)
            gold_set = relabel(gold_set, root)
            loaded = [relabel(run, root) for run in loaded]
            verdict_set = None if verdict_set is None else relabel(verdict_set, root)
            index = None if index is None else relabel(index, root)
            if chunkings is not None:
                maps = {name: relabel(m, root) for name, m in chunkings.maps.items()}
                chunkings = dataclasses.replace(chunkings, maps=maps)
        evaluation = evaluate(gold_set, loaded, settings.scoring, chunkings=chunkings)
        options = AnalysisOptions(
            verdicts=verdict_set,
            verdicts_run=inputs.verdicts_run,
            manifest=index,
            audience=checks.audience,
            as_of=checks.as_of or created.date(),
            reference_run=settings.reference_run,
            compare_measures=settings.compare_measures,
            baseline=previous,
            on_gold_change=settings.on_gold_change,
            gate=checks.gate,
            explain=outputs.explain,
        )
        findings = run_analyses(evaluation, options, version=settings.version, created=created)
        report = assemble(findings)
        files = render_files(
            report,
            findings,
            outputs.formats,
            outputs.per_question_format,
            outputs.report_url,
            chart_png=outputs.chart_png,
            chart_worker=worker,
        )
        refuse_overwriting_inputs(out_dir, files, files_read, "report")
        written = write_files(out_dir, files)
    finally:
        if worker is not None:
            worker.close()
    return ReportResult(report, findings, written, strict=checks.strict)


def shard_inputs(shards: Sequence[Shard]) -> list[tuple[str, Path]]:
    """Every file a merge reads (per-question files, the report.json beside them)."""
    inputs = []
    for shard in shards:
        inputs.append(("the shard", Path(shard.source)))
        if shard.report is not None:
            inputs.append(("the shard's report.json", Path(shard.source).parent / "report.json"))
    return inputs


@dataclass(frozen=True)
class MergeResult:
    report: MergedReport
    files: list[Path]

    @property
    def failure(self) -> GateFailed | None:
        """The failed quality rules (``--min``), as ``reportgen report`` fails them."""
        failed = failures(self.report.get("gate"))
        if not failed:
            return None
        count = f"{len(failed)} quality rules" if len(failed) > 1 else "1 quality rule"
        return GateFailed(f"{count} failed (the report was written):\n" + "\n".join(failed))


def merge_reports(
    shards: Sequence[str | Path],
    out_dir: str | Path,
    *,
    trec_eval: bool | None = None,
    version: str | None = None,
    per_question_format: str = "csv",
    gate: GateRules | None = None,
) -> MergeResult:
    """Merge shards' per-question outputs (disjoint questions) into one report.json.

    Means are recomputed from the per-question values, so they equal the means of
    one report over all the questions. ``gate``'s minimums are checked on them
    (``result.failure``); max-drop rules need a baseline, which merge does not read.
    """
    from reportgen.load.shards import load_shard
    from reportgen.report.merge import merge_shards

    check_formats((), per_question_format)
    if gate is not None and any(rule.type == "max-drop" for rule in gate.rules):
        raise UsageError(
            "merge checks --min rules only: a max-drop rule needs a baseline",
            "gate the drop with `reportgen report --baseline` on the unsharded inputs, "
            "or keep to --min rules",
        )
    refuse_undecodable({"version (--version)": version})
    if version is not None:
        check_version_label(version)
    loaded = [load_shard(shard) for shard in shards]
    report, rows = merge_shards(
        loaded, trec_eval=trec_eval, version=version, created=created_at(), gate=gate
    )
    files = {
        "report.json": report_json(report).encode(),
        f"per_question.{per_question_format}": per_question_bytes(rows, per_question_format),
    }
    refuse_overwriting_inputs(Path(out_dir), files, shard_inputs(loaded), "merge")
    return MergeResult(report=report, files=write_files(Path(out_dir), files))


def publish_report(
    report_dir: str | Path,
    site: str | Path,
    *,
    keep: int | None = None,
    lock_timeout: float = 60.0,
) -> Published:
    """Add a written report folder to a versioned site (``reportgen publish``).

    ``keep``: keep the newest ``keep`` version folders, prune the others (their
    history lines stay, marked). ``lock_timeout``: seconds to wait while another
    publisher holds the site.
    """
    from reportgen.site import publish  # Jinja2 and vl-convert: only for this command

    with writing(Path(site), "--site"):
        return publish(report_dir, site, keep=keep, lock_timeout=lock_timeout)
