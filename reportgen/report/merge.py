"""Merge the per-question outputs of shards into one report.json.

A run too large for one machine is split by question; each shard is measured on its
own (`reportgen report`, or any engine that writes the same rows, wide or long), and the
shards are merged here. Every mean is a sum over questions divided by how many
count, so the means are recomputed from the per-question values, never averaged
from the shards' means: the result equals the unsharded report. Shards must not
share a question, and must have been measured with the same settings.

The sections are laid out by report/assemble.py's builders (header, settings, means,
question counts) over the same :func:`~reportgen.measure.scoring.run_means` a report
uses. The seam for a full merged report: turn the merged rows into an ``Evaluation``,
then :func:`~reportgen.analyse.run.run_analyses` and
:func:`~reportgen.report.assemble.assemble`, as ``reportgen report`` does.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, cast

import polars as pl

from reportgen.analyse.gate import evaluate_gate
from reportgen.analyse.latency import findings_of
from reportgen.core.labels import default_version_label
from reportgen.core.model import fingerprint_of
from reportgen.errors import InputError, UsageError
from reportgen.load.inputs.config import GateRules
from reportgen.load.previous.per_question import measure_columns
from reportgen.load.previous.shards import Shard
from reportgen.measure.measures import cutoffs
from reportgen.measure.scoring import COST_COLUMNS, RunMeans, run_means
from reportgen.report.assemble import (
    Report,
    costs_sections,
    header,
    means_sections,
    question_counts,
    settings_sections,
)
from reportgen.schema import MergeCoverage, MergedReport
from reportgen.schema import Report as WholeReport

SETTING_KEYS = ("k", "context_k", "relevance_threshold", "trec_eval", "retrieved_when")
"""The settings shards must agree on; context_k_assumed moves no number (merged: all)."""
SUMMED_COUNTS = ("extra_questions", "repeated_chunks", "repeated_across_hops", "results")
"""Counts per-question rows cannot rebuild: added up from the shards' report.json."""


def _settings(shards: Sequence[Shard], trec_eval: bool | None) -> dict[str, Any]:
    """The settings every shard was measured with; two that differ cannot be merged."""
    found: dict[str, Any] | None = None
    first = ""
    for shard in shards:
        if shard.report is None:
            continue
        mine = {key: shard.report["settings"].get(key) for key in SETTING_KEYS}
        if found is None:
            found, first = mine, shard.source
        elif mine != found:
            key = next(k for k in SETTING_KEYS if mine[k] != found[k])
            raise UsageError(
                f"shards were measured differently: {key} is {found[key]!r} in {first} "
                f"and {mine[key]!r} in {shard.source}",
                "measure every shard with the same options, then merge",
            )
    settings = found or {key: None for key in SETTING_KEYS}
    settings["context_k_assumed"] = None
    if found is not None:  # --context-k 5 given or left to the default 5: the same numbers
        assumed = [s.report["settings"].get("context_k_assumed") for s in shards if s.report]
        settings["context_k_assumed"] = all(assumed) if None not in assumed else None
    if trec_eval is not None:
        if found is not None and found["trec_eval"] != trec_eval:
            raise UsageError(
                f"--trec-eval is {trec_eval} but the shards were measured with "
                f"{found['trec_eval']}",
                "leave the option out: the shards' report.json decides",
            )
        settings["trec_eval"] = trec_eval
    settings["trec_eval"] = bool(settings["trec_eval"])
    return settings


def _combined(shards: Sequence[Shard]) -> pl.DataFrame:
    """Every shard's rows, refusing a question that two shards both hold."""
    if not shards:
        raise UsageError("no shard to merge", "pass the per-question outputs of every shard")
    runs = [set(shard.rows["run"].unique()) for shard in shards]
    measures = [set(measure_columns(shard.rows)) for shard in shards]
    for shard, its_runs, its_measures in zip(shards[1:], runs[1:], measures[1:], strict=True):
        if its_runs != runs[0]:
            odd = sorted(its_runs ^ runs[0])[0]
            raise UsageError(
                f"run {odd!r} is in only some of the shards ({shards[0].source}, {shard.source})",
                "measure every run on every shard",
            )
        if its_measures != measures[0]:
            odd = sorted(its_measures ^ measures[0])[0]
            raise UsageError(
                f"measure {odd!r} is in only some of the shards ({shards[0].source}, "
                f"{shard.source})",
                "measure every shard with the same --k and --context-k",
            )
    columns = shards[0].rows.columns
    rows = pl.concat(
        [
            shard.rows.select(*columns, pl.lit(i, pl.Int64).alias("_shard"))
            for i, shard in enumerate(shards)
        ]
    )
    owners = (
        rows.group_by("qid")
        .agg(pl.col("_shard").unique().sort().head(2))
        .filter(pl.col("_shard").list.len() > 1)
        .sort("qid")
    )
    if owners.height:
        qid = owners["qid"][0]
        first, second = owners["_shard"][0].to_list()
        raise UsageError(
            f"shards overlap: question {qid!r} is in {shards[first].source} and "
            f"{shards[second].source} ({owners.height} shared question(s))",
            "split the questions so that each is in exactly one shard",
        )
    return rows.drop("_shard")


def _common(shards: Sequence[Shard], *path: str) -> Any:
    """A value every shard's report.json agrees on, else None."""
    values = set()
    for shard in shards:
        value: Any = shard.report
        for key in path:
            value = value.get(key) if isinstance(value, dict) else None
        values.add(value)
    return values.pop() if len(values) == 1 else None


def _summed(shards: Sequence[Shard], run: str, key: str) -> int | None:
    total = 0
    for shard in shards:
        counts = (shard.report or {}).get("runs", {}).get(run, {}).get("counts", {})
        if not isinstance(counts.get(key), int):
            return None
        total += counts[key]
    return total


def _question_digests(shards: Sequence[Shard]) -> dict[str, str] | None:
    """The union of the shards' question digests: the whole gold set's, when every
    shard has a report.json; None when one has none (``trec_eval -q`` output)."""
    if any(shard.report is None for shard in shards):
        return None
    union: dict[str, str] = {}
    for shard in shards:
        digests = (shard.report or {}).get("gold", {}).get("question_digests")
        if not isinstance(digests, dict):
            raise InputError(
                Path(shard.source).parent / "report.json",
                "has no gold.question_digests (written by an older reportgen): "
                "the merged report's gold fingerprint cannot be computed from it",
                "measure this shard again with this reportgen, then merge",
            )
        union |= digests
    return union


def merge_shards(
    shards: Sequence[Shard],
    *,
    trec_eval: bool | None = None,
    version: str | None = None,
    commit: str | None = None,
    created: datetime,
    gate: GateRules | None = None,
) -> tuple[MergedReport, pl.DataFrame]:
    """The merged report.json dict, and the merged per-question rows."""
    settings = _settings(shards, trec_eval)
    rows = _combined(shards)
    keys = [key for key in measure_columns(shards[0].rows) if key not in COST_COLUMNS]
    if settings["k"] is None:  # no report.json: the measures name their cutoffs
        settings["k"] = cutoffs(keys)
    keep = settings["trec_eval"]
    runs: dict[str, Any] = {}
    means: dict[str, RunMeans] = {}
    for run in shards[0].rows["run"].unique(maintain_order=True).to_list():
        scores = rows.filter(pl.col("run") == run)
        status = scores["status"]
        counts: dict[str, int | None] = {
            "questions_scored": int((status == "scored").sum()),
            "questions_missing": int((status == "missing").sum()),
            "unanswerable_left_out": int((status == "unanswerable").sum()),
            "no_relevant": int((status == "no_relevant").sum()),
        }
        counts |= {key: _summed(shards, run, key) for key in SUMMED_COUNTS}
        means[run] = run_means(scores, keys, keep)
        runs[run] = {**means_sections(means[run]), "counts": counts}
    costs = findings_of(
        {str(run): rows.filter(pl.col("run") == run) for run in runs}, settings["context_k"]
    )
    for run in runs:
        runs[run] |= costs_sections(run, costs)
    first_run = rows.filter(pl.col("run") == rows["run"][0])
    fingerprints = [_common([shard], "gold", "fingerprint") for shard in shards]
    digests = _question_digests(shards)
    report: Report = {
        **header(version or default_version_label(created), created, commit),
        **settings_sections(
            settings["k"],
            settings["context_k"],
            settings["relevance_threshold"],
            keep,
            settings["retrieved_when"],
            settings["context_k_assumed"],
        ),
        "gold": {
            "source": f"merged from {len(shards)} shards",
            "version": _common(shards, "gold", "version"),
            "index_version": _common(shards, "gold", "index_version"),
            "fingerprint": None if digests is None else fingerprint_of(digests),
            **question_counts(first_run.get_column("status"), keep),
            "question_digests": digests,
        },
        "runs": runs,
        "warnings": [
            {**warning, "shard": shard.source}
            for shard in shards
            for warning in (shard.report or {}).get("warnings", [])
        ],
        # the rules on the merged means; max-drop rules need a baseline, merge reads none
        "gate": None
        if gate is None
        else evaluate_gate(
            gate, means, sorted(set(rows.get_column("kind").to_list())), None, costs
        ),
        "merged_from": [
            {
                "source": shard.source,
                "questions": shard.rows["qid"].n_unique(),
                "fingerprint": fingerprint,
            }
            for shard, fingerprint in zip(shards, fingerprints, strict=True)
        ],
    }
    # built from the same plain-dict builders as assemble: checked like it (see there)
    return cast(MergedReport, report), rows.sort("run", "qid", maintain_order=True)


def numbered(shards: Sequence[int]) -> str:
    """``shard 2``, ``shards 1, 2``: shard numbers as a message names them."""
    return ("shard " if len(shards) == 1 else "shards ") + ", ".join(map(str, shards))


def coverage_said(coverage: MergeCoverage) -> str:
    """``41 of 60 questions (shard 2 missing)``: what a partial merge holds, in every
    output (report.json's warning, the pages, summary.md, the terminal)."""
    held = f"{coverage['questions']} of {coverage['of']} questions"
    missing = coverage["missing_shards"]
    return f"{held} ({numbered(missing)} missing)" if missing else held


def merged_line(report: WholeReport) -> str:
    """The terminal's first line of a whole merge: the shards, and what of the cut."""
    merged = report.get("merged_from", [])
    coverage = report.get("merge_coverage")
    if coverage is None:
        return f"Merged {len(merged)} shards."
    return f"Merged {len(merged)} of {coverage['shards']} shards: {coverage_said(coverage)}."
