"""Everything `reportgen report` does is callable from Python, as docs/python-api.md says:
each option of the command is one field of the request `make_report` takes."""

from __future__ import annotations

import dataclasses
import types
import typing
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import reportgen.cli.results
from reportgen.api import ReportRequest
from reportgen.cli import cli
from reportgen.core.model import GoldSet, Run, VerdictSet
from reportgen.load.inputs.config import Rule

RULES = (
    Rule("min", "recall@5", 0.8),
    Rule("max-drop", "mrr", 0.02),
    Rule("max", "latency_p95_ms", 250, run="r"),
    Rule("max-rise", "latency_p95_ms", 0.2),
)
"""Every gate option's rules: the options and the config file's become one GateRules."""


REQUEST_FIELDS: dict[str, tuple[str, list[str], Any]] = {
    # CLI parameter: (its request field, a command line setting it, the field's value then)
    "gold": ("inputs.gold", [], Path("gold.jsonl")),
    "runs": ("inputs.runs", [], ["r=run.jsonl"]),
    "out_dir": ("outputs.out_dir", ["--out", "elsewhere"], Path("elsewhere")),
    "ks": ("settings.scoring.ks", ["--k", "2,7"], (2, 7)),
    "context_k": ("settings.scoring.context_k", ["--context-k", "7"], 7),
    "relevance_threshold": ("settings.scoring.threshold", ["--relevance-threshold", "2"], 2),
    "retrieved_when": ("settings.scoring.retrieved_when", ["--retrieved-when", "all"], "all"),
    "trace_question_key": (
        "inputs.trace_question_key",
        ["--trace-question-key", "metadata.qid"],
        "metadata.qid",
    ),
    "span_doc_key": ("inputs.span_doc_key", ["--span-doc-key", "metadata.id"], "metadata.id"),
    "trec_eval": ("settings.scoring.trec_eval", ["--trec-eval"], True),
    "version": ("settings.version", ["--version", "v9"], "v9"),
    "commit": ("settings.commit", ["--commit", "ABCDEF1"], "abcdef1"),
    "formats": ("outputs.formats", ["--format", "json"], ("json",)),
    "per_question_format": (
        "outputs.per_question_format",
        ["--per-question-format", "parquet"],
        "parquet",
    ),
    "chart_png": ("outputs.chart_png", ["--chart-png"], True),
    "merge_data": ("outputs.merge_data", ["--merge-data"], True),
    "junit": ("outputs.junit", ["--junit", "j.xml"], Path("j.xml")),
    "report_url": ("outputs.report_url", ["--report-url", "https://x.test/r"], "https://x.test/r"),
    "gold_format": ("inputs.gold_format", ["--gold-format", "qrels"], "qrels"),
    "run_format": ("inputs.run_format", ["--run-format", "trec"], "trec"),
    "gold_version": ("inputs.gold_version", ["--gold-version", "g2"], "g2"),
    "index_version": ("inputs.index_version", ["--index-version", "i2"], "i2"),
    "verdicts": ("inputs.verdicts", ["--verdicts", "verdicts.jsonl"], Path("verdicts.jsonl")),
    "verdicts_run": ("inputs.verdicts_run", ["--verdicts-run", "r"], "r"),
    "verdict_format": ("inputs.verdict_format", ["--verdict-format", "ragas"], "ragas"),
    "verdict_metric": ("inputs.verdict_metric", ["--verdict-metric", "faith"], "faith"),
    "verdict_threshold": ("inputs.verdict_threshold", ["--verdict-threshold", "0.7"], 0.7),
    "reference_run": ("settings.reference_run", ["--reference-run", "r"], "r"),
    "compare_measures": (
        "settings.compare_measures",
        ["--compare-measures", "hit@1,mrr"],
        ["hit@1", "mrr"],
    ),
    "cluster_by": ("settings.cluster_by", ["--cluster-by", "group"], "group"),
    "estimate": ("settings.estimate", ["--estimate", "ppi"], "ppi"),
    "baseline": ("inputs.baseline", ["--baseline", "site"], Path("site")),
    "baseline_version": ("inputs.baseline_version", ["--baseline-version", "v1"], "v1"),
    "baseline_commit": ("inputs.baseline_commit", ["--baseline-commit", "abcdef1"], "abcdef1"),
    "baseline_fallback": (
        "inputs.baseline_fallback",
        ["--baseline-fallback", "newest"],
        "newest",
    ),
    "on_gold_change": (
        "settings.on_gold_change",
        ["--on-gold-change", "intersect"],
        "intersect",
    ),
    # the gate's options and the config file's rules become one GateRules
    "minimums": (
        "checks.gate.rules",
        ["--min", "recall@5=0.8"],
        RULES,
    ),
    "max_drops": (
        "checks.gate.rules",
        ["--max-drop", "mrr=0.02"],
        RULES,
    ),
    "maximums": ("checks.gate.rules", ["--max", "latency_p95_ms=r:250"], RULES),
    "max_rises": ("checks.gate.rules", ["--max-rise", "latency_p95_ms=0.2"], RULES),
    "cost_per_1k_chars": (
        "settings.scoring.cost_per_1k_chars",
        ["--cost-per-1k-chars", "0.002"],
        0.002,
    ),
    "significant_only": ("checks.gate.significant_only", ["--significant-only"], True),
    "config_path": ("checks.gate.sources", ["--config", "settings.toml"], ("settings.toml",)),
    "manifest": ("inputs.manifest", ["--manifest", "manifest.txt"], Path("manifest.txt")),
    "manifest_format": ("inputs.manifest_format", ["--manifest-format", "lines"], "lines"),
    "run_index_versions": (
        "inputs.run_index_versions",
        ["--run-index-version", "r=kb-2"],
        {"r": "kb-2"},
    ),
    "audience": ("checks.audience", ["--audience", "public"], "public"),
    "as_of": ("checks.as_of", ["--as-of", "2026-11-30"], date(2026, 11, 30)),
    "strict": ("checks.strict", ["--strict"], True),
    "chunks": ("inputs.chunks", ["--chunks", "a=map.csv"], ["a=map.csv"]),
    "chunks_format": ("inputs.chunks_format", ["--chunks-format", "csv"], "csv"),
    "docs": ("inputs.docs", ["--docs", "docs"], Path("docs")),
    "min_coverage": ("settings.scoring.min_coverage", ["--min-coverage", "0.7"], 0.7),
    "explain": ("outputs.explain", ["--explain", "all"], "all"),
    "judgments": ("inputs.judgments", ["--judgments", "judge.jsonl"], Path("judge.jsonl")),
    "slice_by": ("settings.slice_by", ["--slice-by", "lang"], ("lang",)),
    "slice_gate": ("settings.slice_gate", ["--slice-gate", "lang"], "lang"),
    "min_slice_n": ("settings.min_slice_n", ["--min-slice-n", "5"], 5),
    "question_meta": ("inputs.question_meta", ["--question-meta", "m.csv"], Path("m.csv")),
}

CLI_ONLY = {
    "quiet": "what the CLI prints (reportgen.render.terminal)",
    "verbose": "how much the CLI prints (reportgen.render.terminal)",
    "github_summary": "reportgen.core.ci.append_step_summary",
}

PYTHON_ONLY = {
    "settings.scoring.context_k_assumed": "true when --context-k is left out (the default)",
    "inputs.sources_relative_to": "the demo's paths, the same on every machine",
    "settings.scoring.span_measures": "set by evaluate() when runs have chunk maps",
}

REPORT = cli.commands["report"]
LOADED_INPUTS = (GoldSet, Run, VerdictSet)


def leaf_fields(cls: type, prefix: str = "") -> set[str]:
    """Every field of the request, dotted, nested dataclasses opened."""
    names = set()
    hints = typing.get_type_hints(cls)
    for field in dataclasses.fields(cls):
        kind = hints[field.name]
        kinds = typing.get_args(kind) if isinstance(kind, types.UnionType) else (kind,)
        # an input given loaded (a GoldSet for inputs.gold) is a value, not more fields
        parts = [k for k in kinds if dataclasses.is_dataclass(k) and k not in LOADED_INPUTS]
        if parts:  # e.g. settings.scoring, checks.gate (GateRules | None)
            names |= leaf_fields(parts[0], f"{prefix}{field.name}.")
        else:
            names.add(f"{prefix}{field.name}")
    return names


def value_at(request: object, path: str) -> object:
    value = request
    for name in path.split("."):
        value = getattr(value, name)
    return value


def test_every_report_option_is_a_request_field() -> None:
    params = {param.name for param in REPORT.params} - {"help"}
    unmapped = params - set(REQUEST_FIELDS) - set(CLI_ONLY)
    assert unmapped == set(), f"options of report with no request field: {sorted(unmapped)}"
    assert set(REQUEST_FIELDS) | set(CLI_ONLY) == params
    fields = leaf_fields(ReportRequest)
    mapped = {path for path, _, _ in REQUEST_FIELDS.values()}
    assert mapped - fields == set(), "paths that are no request field"
    assert fields - mapped == set(PYTHON_ONLY), "fields no option sets"


def test_the_command_line_fills_each_field(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("verdicts.jsonl", "manifest.txt", "settings.toml", "judge.jsonl"):
        (tmp_path / name).write_text("")
    seen: list[ReportRequest] = []

    def capture(request: ReportRequest) -> None:
        seen.append(request)
        raise SystemExit(0)

    monkeypatch.setattr(reportgen.cli.results, "make_report", capture)
    monkeypatch.chdir(tmp_path)
    args = ["report", "gold.jsonl", "r=run.jsonl"]
    for _, option_args, _ in REQUEST_FIELDS.values():
        args += option_args
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    (request,) = seen
    for name, (path, _, expected) in REQUEST_FIELDS.items():
        assert value_at(request, path) == expected, name
