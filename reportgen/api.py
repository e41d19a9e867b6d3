"""The Python API: everything the CLI does, callable without it.

>>> from reportgen.api import make_report
>>> result = make_report("gold.jsonl", ["bm25=runs/bm25.trec"], "report/")  # doctest: +SKIP
>>> result.report["runs"]["bm25"]["means"]["recall@5"]  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from reportgen.analyse.baseline import GOLD_CHANGE_POLICIES, GoldChangePolicy
from reportgen.analyse.gate import GateRules, failures
from reportgen.analyse.hygiene import check, with_hygiene
from reportgen.errors import GateFailed, ParameterError, printable
from reportgen.filesystem import refuse_undecodable, writing
from reportgen.labels import check_version_label
from reportgen.load import (
    GOLD_FORMATS,
    MANIFEST_FORMATS,
    RUN_FORMATS,
    VERDICT_FORMATS,
    load_gold,
    load_manifest,
    load_run,
    load_verdicts,
    parse_run_spec,
)
from reportgen.load.baseline import Baseline, load_baseline, per_question_path
from reportgen.measure.scoring import Evaluation, Settings, evaluate
from reportgen.model import GoldSet, Manifest, Run, VerdictSet
from reportgen.progress import track
from reportgen.render.charts import ChartWorker
from reportgen.render.links import check_report_url
from reportgen.render.output import (
    FORMATS,
    PER_QUESTION_FORMATS,
    per_question_bytes,
    refuse_overwriting_inputs,
    report_json,
    write_files,
)
from reportgen.report.assemble import Report, build_report, created_at, per_question_rows

if TYPE_CHECKING:
    from reportgen.load.shards import Shard
    from reportgen.site import Published

RunSpec = str | tuple[str | None, str | Path]


@dataclass(frozen=True)
class ReportResult:
    report: Report
    evaluation: Evaluation
    files: list[Path]

    @property
    def gate_failures(self) -> list[str]:
        """One message per failed quality rule; empty when the gate passed or was unset."""
        return failures(self.report.get("gate"))


def example_dir() -> Path:
    """The bundled, synthetic help-centre example that `reportgen demo` uses."""
    return Path(str(resources.files("reportgen"))) / "examples" / "helpcentre"


def _spec_label(spec: RunSpec) -> str:
    """The run's name, or its file name, for the progress bar."""
    name, path = (
        (spec.partition("=")[::2] if "=" in spec else ("", spec)) if isinstance(spec, str) else spec
    )
    return name or Path(path).name


def load_runs(specs: Sequence[RunSpec], fmt: str | None = None) -> list[Run]:
    runs = []
    for spec in track(specs, "Loading runs", _spec_label):
        name, path = parse_run_spec(spec) if isinstance(spec, str) else spec
        runs.append(load_run(path, name=name, fmt=fmt))
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
    gold: str | Path,
    runs: Sequence[RunSpec],
    verdicts: str | Path | None,
    manifest: str | Path | None,
    baseline: Baseline | None,
    gate: GateRules | None,
) -> list[tuple[str, Path]]:
    """Every file a report reads, named for a message: none may be overwritten."""
    inputs = [("the gold set", Path(gold))]
    for spec in runs:
        name, path = parse_run_spec(spec) if isinstance(spec, str) else spec
        inputs.append((f"run {name or Path(path).stem!r}", Path(path)))
    if verdicts is not None:
        inputs.append(("the verdicts", Path(verdicts)))
    if manifest is not None:
        inputs.append(("the manifest", Path(manifest)))
    if baseline is not None:
        inputs.append(("the baseline", baseline.path))
        inputs.append(("the baseline's per-question file", per_question_path(baseline.path)))
    inputs += [("the config file", Path(source)) for source in (gate.sources if gate else ())]
    return inputs


Sourced = TypeVar("Sourced", GoldSet, Run, VerdictSet, Manifest)


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


def check_formats(formats: Sequence[str], per_question_format: str) -> None:
    """Refuse an unknown output format before any input is read."""
    if isinstance(formats, str):
        raise ParameterError(
            "formats",
            formats,
            "must be a list of format names, not one string",
            f"pass e.g. {list(FORMATS)!r}",
            option="--format",
        )
    unknown = sorted(set(formats) - set(FORMATS))
    if unknown:
        raise ParameterError(
            "formats",
            unknown[0],
            "unknown output format",
            f"choose from {', '.join(FORMATS)} (report.json is always written)",
            option="--format",
        )
    if per_question_format not in PER_QUESTION_FORMATS:
        raise ParameterError(
            "per_question_format",
            per_question_format,
            "unknown per-question format",
            f"choose from {', '.join(PER_QUESTION_FORMATS)}",
            option="--per-question-format",
        )


def check_choice(parameter: str, value: str | None, choices: Sequence[str]) -> None:
    """A named choice (a format, a policy) must be one of those there are."""
    if value is not None and value not in choices:
        raise ParameterError(
            parameter,
            value,
            "not one of the choices",
            f"choose one of {', '.join(choices)}",
            option=f"--{parameter.replace('_', '-')}",
        )


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
    evaluation: Evaluation,
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

        specs = report_chart_specs(report) | cutoff_chart_specs(report, evaluation)
        if chart_worker is not None:
            chart_worker.send(specs)  # drawn in the child while the other files render
    files = {
        "report.json": report_json(report).encode(),
        per_question_file: per_question_bytes(per_question_rows(evaluation), per_question_format),
    }
    if not draws_charts(formats):
        return files
    # Jinja2 and vl-convert only when HTML or Markdown is asked for
    from reportgen.render.charts import render_charts
    from reportgen.render.pages import render_html, render_markdown
    from reportgen.render.summary import render_summary

    if "md" in formats:
        files["summary.md"] = render_summary(report, report_url).encode()
    charts = render_charts(specs, png=chart_png, worker=chart_worker)
    files.update({f"charts/{name}": data for name, data in charts.items()})
    if "html" in formats:
        files["index.html"] = render_html(report, evaluation, charts, per_question_file).encode()
    if "md" in formats:
        files["report.md"] = render_markdown(report, evaluation, charts, per_question_file).encode()
    return files


def make_report(
    gold: str | Path,
    runs: Sequence[RunSpec],
    out_dir: str | Path,
    *,
    settings: Settings | None = None,
    version: str | None = None,
    formats: Sequence[str] = FORMATS,
    per_question_format: str = "csv",
    gold_format: str | None = None,
    run_format: str | None = None,
    gold_version: str | None = None,
    index_version: str | None = None,
    report_url: str = "index.html",
    reference_run: str | None = None,
    baseline: str | Path | None = None,
    baseline_version: str | None = None,
    on_gold_change: GoldChangePolicy = "refuse",
    gate: GateRules | None = None,
    compare_measures: Sequence[str] | None = None,
    verdicts: str | Path | None = None,
    verdicts_run: str | None = None,
    verdict_format: str | None = None,
    verdict_metric: str | None = None,
    verdict_threshold: float | None = None,
    manifest: str | Path | None = None,
    manifest_format: str | None = None,
    run_index_versions: Mapping[str, str] | None = None,
    audience: str | None = None,
    as_of: date | None = None,
    sources_relative_to: str | Path | None = None,
    chart_png: bool = False,
) -> ReportResult:
    """Load, measure, check, render and write a report; nothing is written if a step fails.

    ``baseline`` is a previous report, or a published site: then its newest version
    on the same gold set (else its newest), or the one ``baseline_version`` names.

    ``sources_relative_to`` names input files relative to that folder in the report,
    so that the same inputs give the same report on any machine.

    ``verdicts`` (end-to-end correct/wrong per question) adds the four cells for
    ``verdicts_run`` (default: the run the file names, else the first run).
    ``manifest`` (the current index's chunk ids) flags stale gold ids; ``as_of``
    (default: the report's date) decides which manifest chunks are out of date.

    A failed quality gate does not stop the report: it is written, and
    ``result.gate_failures`` says which rules failed (the CLI then exits 1).
    """
    refuse_undecodable(
        {
            "version (--version)": version,
            "gold_version (--gold-version)": gold_version,
            "index_version (--index-version)": index_version,
            "audience (--audience)": audience,
            "reference_run (--reference-run)": reference_run,
            "verdicts_run (--verdicts-run)": verdicts_run,
            "verdict_metric (--verdict-metric)": verdict_metric,
            "report_url (--report-url)": report_url,
            "compare_measures (--compare-measures)": ",".join(compare_measures or []),
            **{
                f"run_index_versions (--run-index-version {printable(name)})": f"{name}={value}"
                for name, value in (run_index_versions or {}).items()
            },
        }
    )
    if version is not None:
        check_version_label(version)  # a label publish would refuse fails before any work
    check_report_url(report_url)
    check_formats(formats, per_question_format)
    for parameter, value, choices in (
        ("gold_format", gold_format, GOLD_FORMATS),
        ("run_format", run_format, RUN_FORMATS),
        ("verdict_format", verdict_format, VERDICT_FORMATS),
        ("manifest_format", manifest_format, MANIFEST_FORMATS),
        ("on_gold_change", on_gold_change, GOLD_CHANGE_POLICIES),
    ):
        check_choice(parameter, value, choices)
    if verdicts is None and verdicts_run is not None:
        raise ParameterError(
            "verdicts_run",
            verdicts_run,
            "names the run the verdicts judge, but no verdicts are given",
            "pass the verdicts file too (--verdicts), or leave the run out",
            option="--verdicts-run",
        )
    if baseline_version is not None and baseline is None:
        raise ParameterError(
            "baseline_version",
            baseline_version,
            "picks a version of the baseline, but no baseline is given",
            "pass the site to pick the version from (--baseline)",
            option="--baseline-version",
        )
    # vl-convert's engine starts (~0.5 s) in a child process while the inputs load
    worker = ChartWorker() if draws_charts(formats) else None
    try:
        created = created_at()
        gold_set = load_gold(gold, gold_format, version=gold_version, index_version=index_version)
        previous = (
            load_baseline(baseline, gold_fingerprint=gold_set.fingerprint, version=baseline_version)
            if baseline is not None
            else None
        )
        verdict_set = None
        if verdicts is not None:
            verdict_set = load_verdicts(
                verdicts, verdict_format, metric=verdict_metric, threshold=verdict_threshold
            )
        loaded = set_index_versions(load_runs(runs, run_format), run_index_versions or {})
        index = None if manifest is None else load_manifest(manifest, manifest_format)
        inputs = report_inputs(gold, runs, verdicts, manifest, previous, gate)
        # fail before the measuring on the files known now; charts are checked once drawn
        refuse_overwriting_inputs(
            Path(out_dir), planned_files(formats, per_question_format), inputs, "report"
        )
        if sources_relative_to is not None:
            root = Path(sources_relative_to)
            gold_set = relabel(gold_set, root)
            loaded = [relabel(run, root) for run in loaded]
            verdict_set = None if verdict_set is None else relabel(verdict_set, root)
            index = None if index is None else relabel(index, root)
        evaluation = evaluate(
            gold_set,
            loaded,
            settings or Settings(),
            verdicts=verdict_set,
            verdicts_run=verdicts_run,
        )
        hygiene = check(evaluation, index, audience=audience, as_of=as_of or created.date())
        evaluation = with_hygiene(evaluation, hygiene)
        report = build_report(
            evaluation,
            version=version,
            created=created,
            reference_run=reference_run,
            baseline=previous,
            on_gold_change=on_gold_change,
            gate=gate,
            compare_measures=compare_measures,
        )
        files = render_files(
            report,
            evaluation,
            formats,
            per_question_format,
            report_url,
            chart_png=chart_png,
            chart_worker=worker,
        )
        refuse_overwriting_inputs(Path(out_dir), files, inputs, "report")
        written = write_files(Path(out_dir), files)
    finally:
        if worker is not None:
            worker.close()
    return ReportResult(report=report, evaluation=evaluation, files=written)


def make_demo(
    out_dir: str | Path,
    *,
    settings: Settings | None = None,
    version: str | None = None,
    formats: Sequence[str] = FORMATS,
    per_question_format: str = "csv",
    report_url: str = "index.html",
    chart_png: bool = False,
) -> ReportResult:
    """The bundled example's report, the same as `reportgen demo`."""
    example = example_dir()
    runs = [
        ("keyword", example / "runs" / "keyword.trec"),
        ("dense", example / "runs" / "dense.jsonl"),
        ("hybrid", example / "runs" / "hybrid.csv"),
        ("rerank", example / "runs" / "rerank.jsonl"),
    ]
    return make_report(
        example / "gold.jsonl",
        runs,
        out_dir,
        settings=settings,
        version=version,
        formats=formats,
        per_question_format=per_question_format,
        report_url=report_url,
        verdicts=example / "verdicts.jsonl",
        verdicts_run="rerank",
        manifest=example / "manifest.txt",
        sources_relative_to=example.parent,
        chart_png=chart_png,
    )


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
    report: Report
    files: list[Path]


def merge_reports(
    shards: Sequence[str | Path],
    out_dir: str | Path,
    *,
    trec_eval: bool | None = None,
    version: str | None = None,
    per_question_format: str = "csv",
) -> MergeResult:
    """Merge shards' per-question outputs (disjoint questions) into one report.json.

    Means are recomputed from the per-question values, so they equal the means of
    one report over all the questions.
    """
    from reportgen.load.shards import load_shard
    from reportgen.report.merge import merge_shards

    check_formats((), per_question_format)
    refuse_undecodable({"version (--version)": version})
    if version is not None:
        check_version_label(version)
    loaded = [load_shard(shard) for shard in shards]
    report, rows = merge_shards(loaded, trec_eval=trec_eval, version=version, created=created_at())
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
