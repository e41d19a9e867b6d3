"""The results object: one plain dict, written as report.json, read by every renderer.

Rendering reads only this (plus the per-question frames), so the numbers in the
JSON, the HTML and the Markdown are the same numbers.

Format history (``format_version``):
  1 - first release: gold, settings, runs (means, by_kind, counts), warnings.
      Added since, without a bump: ``verdicts`` (how the verdicts joined the gold set,
      null without verdicts), ``attribution`` (run -> the four cells at k_ctx, their
      question ids, focus, pass rate, by kind, and the unanswerable table; empty
      without verdicts), ``cutoff`` (run -> the top-1 score gap or overlap, the
      cutoff and the errors it makes; ``reason`` says why a run has none).
      Also added: ``hygiene`` (manifest, provenance, stale gold ids
      per question, forbidden chunks, means without the stale questions) and
      ``runs.<name>.leaks`` (forbidden chunks in the top k, per k and reason);
      ``runs.<name>.intervals`` (measure -> [low, high], the 95% interval of the
      mean, or null with fewer than two questions).
      Also: ``gold.question_digests`` (qid -> content hash, so
      that a later report can tell which questions changed); ``comparisons`` (every
      pair of runs, or each against a reference run: paired differences, intervals,
      tests, Holm, labels, the questions that changed; see compare.py); ``baseline``
      (null, or this report's runs against a previous report's); ``gate`` (null, or
      the quality rules and whether each passed).
      Also: each comparison's ``changed_counts`` (measure -> questions that moved) and
      ``changed_total`` (questions that moved on any listed measure); since then
      ``changed_questions`` lists at most ``method.changed_questions_kept`` (100)
      questions per comparison, the first the pages show (at 10,000 questions x 6
      runs the full lists made report.json 15 MB; per_question.csv holds every value).
      A report written by ``reportgen merge`` has the same keys, means recomputed
      from the shards' per-question values, plus ``merged_from`` (source, questions,
      fingerprint per shard) and ``shard`` on each warning carried over; counts that
      per-question rows cannot rebuild (results, repeated_chunks, extra_questions)
      are summed from the shards' report.json, or null without one. Its
      ``gold.fingerprint`` and ``gold.question_digests`` are those of the union of
      the shards' digests (the fingerprint is built from the digests, so it equals
      the unsharded report's), null when a shard has no report.json. Shards without a
      report.json (``trec_eval -q`` output) leave ``context_k`` and
      ``relevance_threshold`` null; ``k`` is then read off the measure keys.
      Also: ``attribution.<run>.stale`` (cell -> the question ids in it whose gold ids
      the index manifest does not hold; empty lists without a manifest) and
      ``attribution.<run>.stale_count`` (how many such questions are in the cells).
      Also: ``hygiene.stale.question_count`` (questions with stale gold ids) and
      ``hygiene.stale.questions_kept`` (100): ``hygiene.stale.questions`` lists at most
      that many, in gold-set order.
      Also: ``baseline.comparisons[].cells.stale`` (``then`` and ``now``: cell -> how
      many of its questions had stale gold ids in that report; ``then`` is null when
      the baseline's report.json predates ``attribution.<run>.stale``).
  2 - ``hygiene.stale.questions`` is capped at ``questions_kept``: a list that was
      complete became partial (docs/report-json.md says which changes bump it).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import polars as pl

from reportgen import __version__
from reportgen.analyse.attribution import CELLS, Attribution, CellSummary, stale_by_cell
from reportgen.analyse.baseline import (
    GoldChangePolicy,
    compare_with_baseline,
    current_sides,
)
from reportgen.analyse.compare import compare_runs
from reportgen.analyse.cutoff import ANSWERABLE, UNANSWERABLE, CutoffAnalysis
from reportgen.analyse.gate import evaluate_gate
from reportgen.analyse.hygiene import Hygiene, check, leak_counts, with_hygiene
from reportgen.analyse.intervals import mean_intervals
from reportgen.errors import ParameterError, UsageError
from reportgen.load.baseline import Baseline
from reportgen.load.config import GateRules
from reportgen.measure.measures import CUTOFF_MEASURES, IN_MEANS, WHOLE_LIST_MEASURES, means
from reportgen.measure.scoring import Evaluation, RunScores
from reportgen.report.types import DIGITS, FORMAT_VERSION

Report = dict[str, Any]


def created_at() -> datetime:
    """Now, or SOURCE_DATE_EPOCH when set, so that builds can be reproduced."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        return datetime.fromtimestamp(int(epoch), tz=UTC)
    return datetime.now(tz=UTC).replace(microsecond=0)


def default_version_label(created: datetime) -> str:
    return created.strftime("%Y%m%d-%H%M%S")


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), DIGITS)


def _means_dict(row: dict[str, Any], keys: list[str]) -> dict[str, float | None]:
    return {key: _round(row[key]) for key in keys}


def _intervals_dict(result: RunScores, keys: list[str], keep: bool) -> dict[str, Any]:
    intervals = mean_intervals(result.scores, keys, keep_no_relevant=keep)
    return {
        key: None if bounds is None else [_round(bounds[0]), _round(bounds[1])]
        for key, bounds in intervals.items()
    }


def _leaks_section(name: str, evaluation: Evaluation, hygiene: Hygiene) -> dict[str, Any]:
    rows = hygiene.leaks[name]
    reasons = list(hygiene.reasons)
    return {
        "at": {str(k): leak_counts(rows, k, reasons).as_dict() for k in evaluation.settings.ks},
        "chunks": [
            {"qid": q, "chunk_id": c, "rank": r, "reason": why}
            for q, c, r, why in rows.sort("qid", "rank").iter_rows()
        ],
    }


STALE_QUESTIONS_KEPT = 100
"""Questions listed with their stale gold ids; the count covers them all.

Without a manifest, a 10,000-question TREC run can leave thousands of judged chunks
unreturned: listing them all made report.json 2.5x larger, for a signal that is weak
at that scale. The Python API (``Evaluation.hygiene.stale``) holds every id."""


def _without_stale(evaluation: Evaluation, hygiene: Hygiene) -> dict[str, Any]:
    """Each run's means over the questions whose gold ids are all current.

    The same numbers with and without the stale questions tell a stale gold set (the
    gap) from a real regression (both low).
    """
    stale_qids = hygiene.stale.get_column("qid").unique().implode()
    keys = evaluation.settings.measure_keys
    keep = evaluation.settings.trec_eval
    section = {}
    for result in evaluation.runs:
        current = result.scores.filter(~pl.col("qid").is_in(stale_qids))
        row = means(current, keys, keep_no_relevant=keep).row(0, named=True)
        section[result.name] = {"n": row["n"], **_means_dict(row, keys)}
    return section


def _hygiene_section(evaluation: Evaluation, hygiene: Hygiene) -> dict[str, Any]:
    manifest = hygiene.manifest
    stale = hygiene.stale.group_by("qid", maintain_order=True).agg(pl.col("chunk_id"))
    forbidden = hygiene.forbidden
    return {
        "manifest": None
        if manifest is None
        else {
            "source": manifest.source,
            "index_version": manifest.index_version,
            "chunks": manifest.chunks.height,
        },
        "provenance": hygiene.provenance,
        "stale": {
            "basis": hygiene.stale_basis,
            "chunks": hygiene.stale.height,
            "gold_chunks": hygiene.gold_chunks,
            "questions": dict(stale.head(STALE_QUESTIONS_KEPT).iter_rows()),
            "question_count": stale.height,
            "questions_kept": STALE_QUESTIONS_KEPT,
            "means_without_stale": _without_stale(evaluation, hygiene)
            if hygiene.stale.height
            else None,
        },
        "forbidden": {
            "audience": hygiene.audience,
            "as_of": None if hygiene.as_of is None else hygiene.as_of.isoformat(),
            "from_gold": forbidden.filter(pl.col("qid").is_not_null()).height,
            "from_manifest": forbidden.filter(pl.col("qid").is_null()).height,
            "reasons": hygiene.reasons,
        },
    }


def _run_section(result: RunScores, evaluation: Evaluation) -> dict[str, Any]:
    settings = evaluation.settings
    keys = settings.measure_keys
    keep = settings.trec_eval
    overall = means(result.scores, keys, keep_no_relevant=keep).row(0, named=True)
    by_kind = {
        row["kind"]: {"n": row["n"], **_means_dict(row, keys)}
        for row in means(result.scores, keys, keep_no_relevant=keep, by="kind").iter_rows(
            named=True
        )
    }
    run = result.run
    return {
        "source": run.source,
        "order": run.order,
        "has_scores": run.has_scores,
        "index_version": run.index_version,
        "n": overall["n"],
        "means": _means_dict(overall, keys),
        "intervals": _intervals_dict(result, keys, keep),
        "by_kind": by_kind,
        "counts": {
            "questions_scored": result.count("scored"),
            "questions_missing": result.count("missing"),
            "extra_questions": len(result.extra_questions),
            "repeated_chunks": run.repeated_chunks,
            "unanswerable_left_out": result.count("unanswerable"),
            "no_relevant": result.count("no_relevant"),
            "results": run.results.height,
        },
        "ties_at_cutoff": {str(k): len(qids) for k, qids in sorted(result.ties.items())},
    }


def _gold_section(evaluation: Evaluation) -> dict[str, Any]:
    gold = evaluation.gold
    status = evaluation.runs[0].scores.select("qid", "kind", "status")
    counted = pl.col("status").is_in(
        [*IN_MEANS, "no_relevant"] if evaluation.settings.trec_eval else list(IN_MEANS)
    )
    by_kind = (
        status.group_by("kind")
        .agg(
            questions=pl.len(),
            answerable=counted.sum(),
            unanswerable=(pl.col("status") == "unanswerable").sum(),
        )
        .sort("kind")
    )
    return {
        "source": gold.source,
        "version": gold.version,
        "index_version": gold.index_version,
        "fingerprint": gold.fingerprint,
        "questions": status.height,
        "answerable": status.filter(counted).height,
        "unanswerable": status.filter(pl.col("status") == "unanswerable").height,
        "no_relevant": status.filter(pl.col("status") == "no_relevant").height,
        "judgments": gold.judgments.height,
        "by_kind": {
            row["kind"]: {
                "questions": row["questions"],
                "answerable": row["answerable"],
                "unanswerable": row["unanswerable"],
            }
            for row in by_kind.iter_rows(named=True)
        },
        "question_digests": gold.question_digests,
    }


def change_keys(context_k: int) -> list[str]:
    """The measures whose changed questions a comparison lists."""
    return [f"hit@{context_k}", f"recall@{context_k}", f"mrr@{context_k}"]


def compared_keys(
    evaluation: Evaluation, chosen: Sequence[str] | None, gate: GateRules | None
) -> list[str]:
    """The measures tested (and Holm-corrected together): by default those at k_ctx and
    the whole-list ones, plus any measure a gate rule names. Every extra measure widens
    the correction, so testing all cutoffs is a choice (``all``), not the default."""
    every = evaluation.settings.measure_keys
    if chosen is None:
        k = evaluation.settings.context_k
        chosen = [m.key(k) for m in CUTOFF_MEASURES] + [m.key() for m in WHOLE_LIST_MEASURES]
    elif list(chosen) == ["all"]:
        chosen = every
    unknown = [key for key in chosen if key not in every]
    if unknown:
        raise UsageError(
            f"cannot compare {unknown[0]!r}: it is not measured in this report",
            f"choose among {', '.join(every)}, or 'all'",
        )
    wanted = (
        {*chosen, *(rule.measure for rule in gate.rules if rule.measure in every)}
        if gate
        else set(chosen)
    )
    return [key for key in every if key in wanted]


def build_report(
    evaluation: Evaluation,
    *,
    version: str | None = None,
    created: datetime | None = None,
    reference_run: str | None = None,
    baseline: Baseline | None = None,
    on_gold_change: GoldChangePolicy = "refuse",
    gate: GateRules | None = None,
    compare_measures: Sequence[str] | None = None,
) -> Report:
    """Everything a reader or another tool needs, in report.json's shape."""
    report = _measured(evaluation, version=version, created=created)
    names = list(report["runs"])
    if reference_run is not None and reference_run not in names:
        raise ParameterError(
            "reference_run",
            reference_run,
            "not one of the runs",
            f"use one of {', '.join(names)}",
            option="--reference-run",
        )
    keys = change_keys(evaluation.settings.context_k)
    tested = compared_keys(evaluation, compare_measures, gate)
    report["comparisons"] = compare_runs(current_sides(evaluation), tested, keys, reference_run)
    versus = (
        compare_with_baseline(baseline, evaluation, report, on_gold_change, tested, keys)
        if baseline is not None
        else None
    )
    report["baseline"] = versus.section if versus else None
    report["gate"] = evaluate_gate(gate, report, versus) if gate else None
    return report


def _measured(
    evaluation: Evaluation, *, version: str | None = None, created: datetime | None = None
) -> Report:
    created = created or created_at()
    hygiene = evaluation.hygiene
    if hygiene is None:  # an API caller skipped the checks: run them with defaults
        hygiene = check(evaluation)
        evaluation = with_hygiene(evaluation, hygiene)
    settings = evaluation.settings
    runs = {result.name: _run_section(result, evaluation) for result in evaluation.runs}
    for name, run in runs.items():
        run["leaks"] = _leaks_section(name, evaluation, hygiene)
    return {
        "format_version": FORMAT_VERSION,
        "tool_version": __version__,
        "version": version or default_version_label(created),
        "created": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "settings": {
            "k": list(settings.ks),
            "context_k": settings.context_k,
            "relevance_threshold": settings.threshold,
            "trec_eval": settings.trec_eval,
        },
        "k": list(settings.ks),
        "context_k": settings.context_k,
        "gold": _gold_section(evaluation),
        "runs": runs,
        "hygiene": _hygiene_section(evaluation, hygiene),
        "warnings": [warning.as_dict() for warning in evaluation.warnings],
        "verdicts": _verdicts_section(evaluation),
        "attribution": (
            {}
            if evaluation.attribution is None
            else {
                evaluation.attribution.run: _attribution_section(
                    evaluation.attribution, _known_stale(hygiene)
                )
            }
        ),
        "cutoff": {analysis.run: _cutoff_section(analysis) for analysis in evaluation.cutoffs},
    }


def _listed(ids: Sequence[str]) -> dict[str, Any]:
    return {"count": len(ids), "ids": list(ids)}


def _verdicts_section(evaluation: Evaluation) -> dict[str, Any] | None:
    verdicts, attribution = evaluation.verdicts, evaluation.attribution
    if verdicts is None or attribution is None:
        return None
    join = attribution.join
    return {
        "source": verdicts.source,
        "format": verdicts.format,
        "run": join.run,
        "k": attribution.k,
        "joined_on": verdicts.join_on,
        "metric": verdicts.metric,
        "threshold": verdicts.threshold,
        "rows": verdicts.rows.height,
        "questions_with_verdict": join.rows.height,
        "gold_without_verdict": _listed(join.gold_without),
        "unknown_questions": _listed(join.unknown_questions),
        "unknown_verdicts": _listed(join.unknown_verdicts),
        "other_runs": list(join.other_runs),
    }


def _cells(summary: CellSummary) -> dict[str, Any]:
    return {
        "n": summary.n,
        "cells": dict(summary.counts),
        "shares": {cell: _round(summary.share(cell)) for cell in CELLS},
        "focus": summary.focus,
        "pass_rate": _round(summary.pass_rate),
    }


def _known_stale(hygiene: Hygiene) -> pl.DataFrame:
    """The stale gold ids a manifest vouches for; "returned by no run" is too weak a
    signal to mark questions in the cells."""
    return hygiene.stale if hygiene.stale_basis == "manifest" else hygiene.stale.clear()


def _attribution_section(attribution: Attribution, stale: pl.DataFrame) -> dict[str, Any]:
    stale_cells = stale_by_cell(attribution.questions, stale)
    outcomes = {
        outcome: attribution.unanswerable(outcome)
        for outcome in ("declined", "answered", "unknown")
    }
    return {
        "k": attribution.k,
        **_cells(attribution.overall),
        "questions": {cell: list(ids) for cell, ids in attribution.overall.questions.items()},
        "stale": stale_cells,
        "stale_count": sum(len(ids) for ids in stale_cells.values()),
        "by_kind": {kind: _cells(summary) for kind, summary in attribution.by_kind.items()},
        "unanswerable": {
            **{outcome: len(ids) for outcome, ids in outcomes.items()},
            "questions": outcomes,
        },
    }


def _range(values: pl.Series) -> dict[str, Any]:
    empty = values.len() == 0
    return {
        "n": values.len(),
        "min": None if empty else _round(values.min()),  # type: ignore[arg-type]
        "max": None if empty else _round(values.max()),  # type: ignore[arg-type]
    }


def _cutoff_section(analysis: CutoffAnalysis) -> dict[str, Any]:
    found = analysis.cutoff is not None
    return {
        "gap": None if analysis.gap is None else [_round(v) for v in analysis.gap],
        "cutoff": _round(analysis.cutoff),
        "errors": {
            "answered_unanswerable": len(analysis.answered_unanswerable),
            "declined_answerable": len(analysis.declined_answerable),
        }
        if found
        else None,
        "rule": "answer when the top-1 score is at least the cutoff, else decline",
        "overlap": None if analysis.overlap is None else [_round(v) for v in analysis.overlap],
        "reason": analysis.reason,
        "answerable": _range(analysis.group(ANSWERABLE)),
        "unanswerable": _range(analysis.group(UNANSWERABLE)),
        "unscored": analysis.unscored,
        "questions": {
            "answered_unanswerable": list(analysis.answered_unanswerable),
            "declined_answerable": list(analysis.declined_answerable),
            "in_overlap": {
                ANSWERABLE: analysis.in_overlap(ANSWERABLE),
                UNANSWERABLE: analysis.in_overlap(UNANSWERABLE),
            },
        },
    }


def per_question_rows(evaluation: Evaluation) -> pl.DataFrame:
    """One row per run and question, a column per measure: the data behind every mean."""
    keys = evaluation.settings.measure_keys
    return pl.concat(
        result.scores.select(pl.lit(result.name).alias("run"), "qid", "kind", "status", *keys)
        for result in evaluation.runs
    )
