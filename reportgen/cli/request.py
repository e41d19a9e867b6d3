"""From the command line's options to a request: the one place where each option of
`reportgen report` and `demo` becomes a field of the request (the parity test checks
that every option has one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportgen.api import (
    MergeInputs,
    MergeRequest,
    ReportChecks,
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
)
from reportgen.core.ci import DEFAULT_REPORT_URL, default_report_url, default_version
from reportgen.load.inputs.config import GateRules, load_gate_rules, rules_from_options
from reportgen.measure.scoring import DEFAULT_CONTEXT_K, Settings
from reportgen.measure.spans import DEFAULT_MIN_COVERAGE


def report_request(gold: Path, runs: tuple[str, ...], options: dict[str, Any]) -> ReportRequest:
    """The request `reportgen report` makes of its arguments and options."""
    checks = report_checks(options)
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
        trace_question_key=options["trace_question_key"],
        span_doc_key=options["span_doc_key"],
        manifest=options["manifest"],
        manifest_format=options["manifest_format"],
        chunks=list(options["chunks"]),
        chunks_format=options["chunks_format"],
        docs=options["docs"],
        baseline=options["baseline"],
        baseline_version=options["baseline_version"],
    )
    return ReportRequest(inputs, report_outputs(options), report_settings(options), checks)


def report_checks(options: dict[str, Any]) -> ReportChecks:
    """What `report` and `merge` hold the runs to (merge has no config file)."""
    return ReportChecks(
        gate=gate_rules(
            options.get("config_path"),
            options["minimums"],
            options["max_drops"],
            options["significant_only"],
        ),
        strict=options["strict"],
        audience=options["audience"],
        as_of=None if options["as_of"] is None else options["as_of"].date(),
    )


def merge_request(shards: tuple[Path, ...], options: dict[str, Any]) -> MergeRequest:
    """The request `reportgen merge` makes: the options it shares with `report`."""
    inputs = MergeInputs(
        list(shards),
        verdicts_run=options["verdicts_run"],
        manifest=options["manifest"],
        manifest_format=options["manifest_format"],
        baseline=options["baseline"],
        baseline_version=options["baseline_version"],
        trec_eval=options["trec_eval"],
        chunks=list(options["chunks"]),
        chunks_format=options["chunks_format"],
        docs=options["docs"],
    )
    compare_measures = options["compare_measures"]
    return MergeRequest(
        inputs,
        report_outputs(options),
        report_checks(options),
        version=options["version"] or default_version(),
        reference_run=options["reference_run"],
        compare_measures=compare_measures.split(",") if compare_measures else None,
        on_gold_change="intersect" if options["on_gold_change"] == "intersect" else "refuse",
        explain=options["explain"],
    )


def report_settings(options: dict[str, Any]) -> ReportSettings:
    """How to measure, compare and label (`demo` has no comparison options)."""
    assumed = options["context_k"] is None
    scoring = Settings(
        options["ks"],
        DEFAULT_CONTEXT_K if assumed else options["context_k"],
        options["relevance_threshold"],
        options["trec_eval"],
        retrieved_when=options["retrieved_when"],
        min_coverage=options.get("min_coverage", DEFAULT_MIN_COVERAGE),
        context_k_assumed=assumed,
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
        explain=options.get("explain", "failures"),
        merge_data=options.get("merge_data", False),
    )


def gate_rules(
    config_path: Path | None,
    minimums: tuple[str, ...],
    max_drops: tuple[str, ...],
    significant_only: bool,
) -> GateRules:
    """The config file's rules, overridden by the command line's.

    ``significant_only`` already holds the file's setting (as the option's default),
    so --no-significant-only can switch it off.
    """
    from_file = load_gate_rules(config_path) if config_path else GateRules()
    merged = from_file.merged(rules_from_options(minimums, max_drops, significant_only))
    return GateRules(merged.rules, significant_only, merged.sources)
