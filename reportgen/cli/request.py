"""From the command line's options to a request: each part of the request takes the
options named as its fields (an option's Python name is its field's), so a new option
needs no line here; what is written here are the few real transformations."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from reportgen.api import (
    MergeInputs,
    MergeRequest,
    ReportChecks,
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
)
from reportgen.core.ci import (
    DEFAULT_REPORT_URL,
    default_commit,
    default_report_url,
    default_version,
)
from reportgen.load.inputs.config import GateRules, load_gate_rules, rules_from_options
from reportgen.measure.scoring import DEFAULT_CONTEXT_K, Settings

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

Part = TypeVar("Part", bound="DataclassInstance")


def filled(part: type[Part], options: Mapping[str, Any], **given: Any) -> Part:
    """``part`` from the options named as its fields, and ``given`` (what is transformed);
    a field no option of the command sets keeps its default."""
    named = {
        field.name: options[field.name]
        for field in fields(part)
        if field.name in options and field.name not in given
    }
    return part(**named, **given)


def report_request(gold: Path, runs: tuple[str, ...], options: dict[str, Any]) -> ReportRequest:
    """The request `reportgen report` makes of its arguments and options."""
    checks = report_checks(options)
    inputs = filled(
        ReportInputs,
        options,
        gold=gold,
        runs=list(runs),
        chunks=list(options["chunks"]),
        verdicts=one_or_trials(options["verdicts"]),
    )
    return ReportRequest(inputs, report_outputs(options), report_settings(options), checks)


def one_or_trials(given: tuple[Path, ...]) -> Path | list[Path] | None:
    """--verdicts as given: none, one file, or the judge trials' files."""
    return None if not given else given[0] if len(given) == 1 else list(given)


def report_checks(options: dict[str, Any]) -> ReportChecks:
    """What `report` and `merge` hold the runs to, the config file's gate rules first."""
    gate = gate_rules(
        options.get("config_path"),
        options["minimums"],
        options["max_drops"],
        options["significant_only"],
        options["maximums"],
        options["max_rises"],
    )
    return filled(ReportChecks, options, gate=gate)


def merge_request(shards: tuple[Path, ...], options: dict[str, Any]) -> MergeRequest:
    """The request `reportgen merge` makes: the options it shares with `report`."""
    inputs = filled(MergeInputs, options, shards=list(shards), chunks=list(options["chunks"]))
    return filled(
        MergeRequest,
        options,
        inputs=inputs,
        outputs=report_outputs(options),
        checks=report_checks(options),
        **labelled(options),
    )


def report_settings(options: dict[str, Any]) -> ReportSettings:
    """How to measure, compare and label (`demo` has no comparison options)."""
    assumed = options["context_k"] is None
    scoring = filled(
        Settings,
        options,
        context_k=DEFAULT_CONTEXT_K if assumed else options["context_k"],
        threshold=options["relevance_threshold"],
        context_k_assumed=assumed,
    )
    return filled(ReportSettings, options, scoring=scoring, **labelled(options))


def labelled(options: dict[str, Any]) -> dict[str, Any]:
    """The label (default: the commit measured) and the measures to compare, as a list."""
    measures = options.get("compare_measures")
    commit = options.get("commit")
    return {
        "version": options["version"] or default_version(),
        "commit": commit.strip().lower() if commit else default_commit(),
        "compare_measures": measures.split(",") if measures else None,
    }


def report_outputs(options: dict[str, Any]) -> ReportOutputs:
    """What `report`, `demo` and `merge` write, where (the link: CI's page by default)."""
    url = options["report_url"] or default_report_url() or DEFAULT_REPORT_URL
    return filled(ReportOutputs, options, report_url=url)


def gate_rules(
    config_path: Path | None,
    minimums: tuple[str, ...],
    max_drops: tuple[str, ...],
    significant_only: bool,
    maximums: tuple[str, ...] = (),
    max_rises: tuple[str, ...] = (),
) -> GateRules:
    """The config file's rules, overridden by the command line's.

    ``significant_only`` already holds the file's setting (as the option's default),
    so --no-significant-only can switch it off.
    """
    from_file = load_gate_rules(config_path) if config_path else GateRules()
    merged = from_file.merged(
        rules_from_options(minimums, max_drops, significant_only, maximums, max_rises)
    )
    return GateRules(merged.rules, significant_only, merged.sources)
