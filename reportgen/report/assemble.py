"""The results object: one plain dict, written as report.json, read by every renderer.

Assembling only lays out what the analyses found (:class:`~reportgen.analyse.run.Findings`):
every number is computed before, by measuring and by the analysis stage. ``reportgen
merge`` builds its report with the same section builders. Rendering reads only this
(plus the per-question frames), so the numbers in the JSON, the HTML and the Markdown
are the same numbers.

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
      Also: a report merged from shards measured with ``--merge-data`` is a whole
      report (this module lays it out) with ``merged_from``.
  2 - ``hygiene.stale.questions`` is capped at ``questions_kept``: a list that was
      complete became partial (docs/report-json.md says which changes bump it).
      Added since: ``settings.retrieved_when`` and ``attribution.<run>.rule``,
      ``context_source``, ``traced_questions``, ``by_coverage`` (the pass rate when all,
      some or none of the gold was sent); ``attribution`` has every run the verdicts judge.
      Also: ``chunkings`` (null without chunk maps; see analyse/chunkings.py) and, with
      chunk maps, ``span_recall@k``, ``span_precision@k``, ``span_iou@k`` and
      ``context_chars@k`` among each run's means and intervals; ``drilldown`` (the
      run and questions whose retrieved text the pages show; null when none).
      Also: ``settings.context_k_assumed``, ``runs.<name>.context`` (what reached the
      model: the top k_ctx or a trace's context) and ``runs.<name>.traces`` (span exports:
      their traces, and those matching no question). Also ``runs.<name>.ties_within_top_k``
      (rank-sensitive measure at k -> questions whose value a tie inside the top k decides).
      Also: ``pages`` (report/pages.py: the question rows, top-1 scores, drill-down
      panels and measure definitions the pages show), so ``reportgen render`` rebuilds
      the pages from report.json alone; only in reports that write pages (HTML or
      Markdown): a ``--format json`` report has none, since building and writing it took
      a third of a 1M-row JSON report's time.
      Also: ``attribution.<run>.by_first_gold_rank``, ``first_gold_rank``,
      ``association`` and ``headroom`` (what predicts the answer; report/predictors.py).
      Also: ``slices`` (null without --slice-by), ``runs.<name>.by_slice`` and
      ``attribution.<run>.by_slice`` (field -> value -> the slice's numbers), and with
      --slice-gate ``gate.slices`` and ``slice`` on each per-slice rule (report/slices.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import Any, cast

import polars as pl

from reportgen import schema as types
from reportgen.analyse.chunkings import ChunkingFacts
from reportgen.analyse.cutoff import CutoffAnalysis
from reportgen.analyse.drilldown import Drilldown
from reportgen.analyse.latency import PERCENTILE_METHOD, CostFindings
from reportgen.analyse.predictors import Predictors
from reportgen.analyse.replicates import Replicates
from reportgen.analyse.run import Findings
from reportgen.analyse.transitions import top_k_section
from reportgen.measure.measures import IN_MEANS
from reportgen.measure.scoring import (
    COST_COLUMNS,
    Evaluation,
    Means,
    RunMeans,
    RunScores,
    Settings,
)
from reportgen.report.answers import attribution_section, cutoff_section, verdicts_section
from reportgen.report.pages import pages_section, top_scores_section
from reportgen.report.predictors import predictors_section, rank_section
from reportgen.report.slices import attribution_by_slice, run_by_slice, slices_section
from reportgen.report.traces import context_section, traces_section
from reportgen.schema import FORMAT_VERSION, rounded
from reportgen.version import __version__

Report = dict[str, Any]


def header(version: str, created: datetime, commit: str | None = None) -> Report:
    """The keys every report.json starts with: its format, the tool, its label, the
    commit measured (a site orders its versions by it) and the time."""
    return {
        "format_version": FORMAT_VERSION,
        "tool_version": __version__,
        "version": version,
        "commit": commit,
        "created": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def settings_sections(
    ks: list[int] | None,
    context_k: int | None,
    threshold: int | None,
    trec_eval: bool,
    retrieved_when: str | None,
    context_k_assumed: bool | None,
) -> Report:
    """``settings``, and the cutoffs again at the top level, as renderers read them."""
    return {
        "settings": {
            "k": ks,
            "context_k": context_k,
            "relevance_threshold": threshold,
            "trec_eval": trec_eval,
            "retrieved_when": retrieved_when,
            "context_k_assumed": context_k_assumed,
        },
        "k": ks,
        "context_k": context_k,
    }


def _means_dict(means: Means) -> dict[str, float | None]:
    return {key: rounded(value) for key, value in means.values.items()}


def means_sections(means: RunMeans) -> Report:
    """A run's ``n``, ``means`` and ``by_kind``."""
    return {
        "n": means.overall.n,
        "means": _means_dict(means.overall),
        "by_kind": {
            kind: {"n": summary.n, **_means_dict(summary)}
            for kind, summary in means.by_kind.items()
        },
    }


def question_counts(statuses: pl.Series, trec_eval: bool) -> dict[str, int]:
    """The gold set's questions: all, those in the means, unanswerable, nothing relevant."""
    counted = statuses.is_in([*IN_MEANS, "no_relevant"] if trec_eval else list(IN_MEANS))
    return {
        "questions": statuses.len(),
        "answerable": int(counted.sum()),
        "unanswerable": int((statuses == "unanswerable").sum()),
        "no_relevant": int((statuses == "no_relevant").sum()),
    }


def _intervals_dict(intervals: dict[str, tuple[float, float] | None]) -> dict[str, Any]:
    return {
        key: None if bounds is None else [rounded(bounds[0]), rounded(bounds[1])]
        for key, bounds in intervals.items()
    }


def _leaks_section(name: str, findings: Findings) -> dict[str, Any]:
    rows = findings.hygiene.leaks[name]
    return {
        "at": {str(k): counts.as_dict() for k, counts in findings.leaks_at[name].items()},
        "chunks": [
            {"qid": q, "chunk_id": c, "rank": r, "reason": why}
            for q, c, r, why in rows.sort("qid", "rank").iter_rows()
        ],
    }


STALE_QUESTIONS_KEPT = 100
"""Questions listed with their stale gold ids; the count covers them all.

Without a manifest, a 10,000-question TREC run can leave thousands of judged chunks
unreturned: listing them all made report.json 2.5x larger, for a signal that is weak
at that scale. The Python API (``Findings.hygiene.stale``) holds every id."""


def _hygiene_section(findings: Findings) -> dict[str, Any]:
    hygiene = findings.hygiene
    manifest = hygiene.manifest
    stale = hygiene.stale.group_by("qid", maintain_order=True).agg(pl.col("chunk_id"))
    forbidden = hygiene.forbidden
    without = findings.means_without_stale
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
            "means_without_stale": None
            if without is None
            else {run: {"n": means.n, **_means_dict(means)} for run, means in without.items()},
        },
        "forbidden": {
            "audience": hygiene.audience,
            "as_of": None if hygiene.as_of is None else hygiene.as_of.isoformat(),
            "from_gold": forbidden.filter(pl.col("qid").is_not_null()).height,
            "from_manifest": forbidden.filter(pl.col("qid").is_null()).height,
            "reasons": hygiene.reasons,
        },
    }


def _run_section(result: RunScores, findings: Findings) -> dict[str, Any]:
    run = result.run
    means = means_sections(findings.means[result.name])
    return {
        "source": run.source,
        "order": run.order,
        "has_scores": run.has_scores,
        "index_version": run.index_version,
        "n": means["n"],
        "means": means["means"],
        "intervals": _intervals_dict(findings.intervals[result.name]),
        "by_kind": means["by_kind"],
        "by_slice": run_by_slice(findings, result.name),
        "counts": {
            "questions_scored": result.count("scored"),
            "questions_missing": result.count("missing"),
            "extra_questions": len(result.extra_questions),
            "repeated_chunks": run.repeated_chunks,
            "repeated_across_hops": run.repeated_across_hops,
            "unanswerable_left_out": result.count("unanswerable"),
            "no_relevant": result.count("no_relevant"),
            "results": run.row_count,
        },
        "ties_at_cutoff": {str(k): len(qids) for k, qids in sorted(result.ties.items())},
        "ties_within_top_k": {key: len(qids) for key, qids in result.ties_within.items()},
        "context": context_section(run, findings.evaluation.settings.context_k),
        "traces": traces_section(run),
        "leaks": _leaks_section(result.name, findings),
        **costs_sections(result.name, findings.costs),
        **replicates_sections(findings.replicates.get(result.name)),
    }


def replicates_sections(found: Replicates | None) -> dict[str, Any]:
    """``replicates``, ``flaky`` and ``noise_floor`` of a run given several times."""
    if found is None:
        return {}
    return {
        "replicates": {"count": len(found.files), "files": list(found.files)},
        "flaky": {"count": len(found.flaky), "ids": list(found.flaky)},
        "noise_floor": {key: rounded(value) for key, value in found.noise_floor.items()},
    }


def costs_sections(name: str, costs: CostFindings | None) -> dict[str, Any]:
    """``latency``, ``cost`` and ``context_size`` of a run, for those the report has."""
    if costs is None:
        return {}
    found: dict[str, Any] = {}
    for quantity in costs.quantities:
        run = costs.runs[name][quantity.name]
        section: dict[str, Any] = {
            "unit": quantity.unit,
            "questions": int(run.summary["count"] or 0) + int(run.summary["missing"] or 0),
            **{key: _rounded_any(value) for key, value in run.summary.items()},
            "percentile_method": PERCENTILE_METHOD,
            "versus_run": _difference(run.versus_run),
            "versus_baseline": _difference(run.versus_baseline),
        }
        if quantity.name == "latency":
            section["hops"] = costs.hops.get(name)
            section["overlapping_hops"] = costs.overlapping_hops.get(name)
            if costs.baseline_note is not None:
                section["baseline_note"] = costs.baseline_note
        found[quantity.name] = section
    return found


def _rounded_any(value: float | int | str | None) -> float | int | str | None:
    return rounded(value) if isinstance(value, float) else value


def _difference(entry: dict[str, float | int | str | None] | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {key: _rounded_any(value) for key, value in entry.items()}


def _gold_section(findings: Findings) -> dict[str, Any]:
    evaluation = findings.evaluation
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
        **question_counts(status.get_column("status"), evaluation.settings.trec_eval),
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


def chart_sections(
    evaluation: Evaluation,
    means: Mapping[str, RunMeans],
    cutoffs: tuple[CutoffAnalysis, ...],
    chunkings: ChunkingFacts | None,
    predictors: Mapping[str, Predictors] | None = None,
) -> types.Report:
    """The part of report.json every chart reads when no run has latency or cost (the
    trade-off chart's), built as :func:`assemble` builds it, before the comparisons: a
    chart worker can draw while they run. Partial: for the charts only."""
    settings = evaluation.settings
    report = {
        "attribution": {
            run: {"by_first_gold_rank": rank_section(found)}
            for run, found in (predictors or {}).items()
        },
        **_settings(settings),
        "runs": {name: {"means": means_sections(run)["means"]} for name, run in means.items()},
        "cutoff": {analysis.run: cutoff_section(analysis) for analysis in cutoffs},
        "chunkings": _chunkings_section(chunkings),
        "pages": {"top_scores": top_scores_section(cutoffs)},
    }
    return cast(types.Report, report)


def _settings(settings: Settings) -> Report:
    return settings_sections(
        list(settings.ks),
        settings.context_k,
        settings.threshold,
        settings.trec_eval,
        settings.retrieved_when,
        settings.context_k_assumed,
    )


def assemble(findings: Findings, commit: str | None = None, *, pages: bool = True) -> types.Report:
    """Everything a reader or another tool needs, in report.json's shape; ``commit``:
    the commit measured, when known; ``pages``: whether to add what the pages show (only
    when pages are written)."""
    settings = findings.evaluation.settings
    # The section builders still build plain dicts: one cast, checked at run time by
    # the tests, which validate every report.json they write against schema.json.
    report: Report = {
        **header(findings.version, findings.created, commit),
        **_settings(settings),
        "gold": _gold_section(findings),
        "runs": {
            result.name: _run_section(result, findings) for result in findings.evaluation.runs
        },
        "hygiene": _hygiene_section(findings),
        "warnings": [warning.as_dict() for warning in findings.warnings],
        "verdicts": verdicts_section(findings),
        "attribution": {
            attribution.run: {
                **attribution_section(attribution, findings.stale_cells[attribution.run]),
                **predictors_section(findings.predictors[attribution.run]),
                "by_slice": attribution_by_slice(findings, attribution.run),
            }
            for attribution in findings.attributions
        },
        "cutoff": {analysis.run: cutoff_section(analysis) for analysis in findings.cutoffs},
        "comparisons": findings.comparisons,
        "baseline": None if findings.baseline is None else findings.baseline.section,
        "gate": findings.gate,
        "chunkings": _chunkings_section(findings.chunkings),
        "drilldown": _drilldown_section(findings.drilldown),
        "transitions": findings.transitions,
        "top_k": top_k_section(findings.evaluation),
        "slices": slices_section(findings),
    }
    if pages:
        report["pages"] = pages_section(findings)
    return cast(types.Report, report)


def _chunkings_section(facts: ChunkingFacts | None) -> dict[str, Any] | None:
    if facts is None:
        return None
    return {
        "min_coverage": facts.min_coverage,
        "evidence": {
            "items": facts.evidence_items,
            "questions": facts.evidence_questions,
            "located_ranges": facts.located_ranges,
            "stale_items": facts.stale_items,
        },
        "runs": {name: dataclasses.asdict(run) for name, run in facts.runs.items()},
    }


DRILLDOWN_QUESTIONS_LISTED = 200
"""Question ids the ``drilldown`` section lists: as many as the HTML report shows panels."""


def _drilldown_section(drilldown: Drilldown | None) -> dict[str, Any] | None:
    if drilldown is None:
        return None
    return {
        "mode": drilldown.mode,
        "run": drilldown.run,
        "context_k": drilldown.context_k,
        "count": len(drilldown.questions),
        "questions": list(drilldown.questions[:DRILLDOWN_QUESTIONS_LISTED]),
    }


def per_question_rows(evaluation: Evaluation) -> pl.DataFrame:
    """One row per run and question, a column per measure: the data behind every mean."""
    keys = evaluation.settings.measure_keys
    keys += [name for name in COST_COLUMNS if name in evaluation.runs[0].scores.columns]
    return pl.concat(
        result.scores.select(pl.lit(result.name).alias("run"), "qid", "kind", "status", *keys)
        for result in evaluation.runs
    )
