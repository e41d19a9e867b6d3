"""Every analysis, run once: the stage between measuring and report.json.

:func:`reportgen.measure.scoring.evaluate` measures (a per-question frame per run);
:func:`run_analyses` reads those frames and runs, in this order, the four-cell
attribution, the unanswerable cutoff, the input checks (hygiene), the comparisons of
runs, the baseline comparison and the quality gate, and returns what they found.
:func:`reportgen.report.assemble.assemble` lays the findings out as report.json and
computes nothing of its own:

    evaluation = evaluate(gold, runs, settings)                  # measure
    findings = run_analyses(evaluation, options, version="v1")   # analyse
    report = assemble(findings)                                  # report.json
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from datetime import date, datetime
from typing import Any

import polars as pl

from reportgen.analyse.attribution import (
    Attribution,
    VerdictJoin,
    assumed_run_warning,
    attribute,
    choose_run,
    join_verdicts,
    stale_by_cell,
    verdict_warnings,
)
from reportgen.analyse.baseline import (
    BaselineComparison,
    GoldChangePolicy,
    baseline_gate_warnings,
    compare_with_baseline,
    current_sides,
    gold_change_warnings,
)
from reportgen.analyse.chunkings import ChunkingFacts, chunking_facts, span_compare_keys
from reportgen.analyse.clusters import question_clusters
from reportgen.analyse.compare import Side, compare_runs, headline_keys
from reportgen.analyse.coverage import coverage
from reportgen.analyse.cutoff import CutoffAnalysis, analyse
from reportgen.analyse.drilldown import Drilldown, ExplainMode, choose
from reportgen.analyse.gate import audit, evaluate_gate
from reportgen.analyse.hygiene import Hygiene, LeakCounts, check, leak_counts
from reportgen.analyse.intervals import mean_intervals
from reportgen.analyse.judged import judged_gap
from reportgen.analyse.latency import CostFindings, cost_findings
from reportgen.analyse.predictors import Predictors, predictors_of
from reportgen.analyse.replicates import (
    Replicates,
    refuse_judged_replicates,
    replicate_findings,
    replicate_warnings,
)
from reportgen.analyse.slice_gate import slice_gate
from reportgen.analyse.slices import (
    SliceFindings,
    Slicing,
    measure_slices,
    slice_cells,
    slice_comparisons,
    slice_warnings,
)
from reportgen.analyse.transitions import transitions
from reportgen.analyse.trials import TrialFindings, flaky_warning, judge_trials
from reportgen.core.labels import created_at, default_version_label
from reportgen.core.model import Manifest, ReportWarning, VerdictSet
from reportgen.core.records import dataclass
from reportgen.errors import ParameterError, UsageError, closest
from reportgen.load.inputs.config import GateRules
from reportgen.load.inputs.spans import HOPS_RULE
from reportgen.load.previous.baseline import Baseline
from reportgen.measure.measures import CUTOFF_MEASURES, WHOLE_LIST_MEASURES
from reportgen.measure.names import suggest_measure
from reportgen.measure.scoring import Evaluation, Means, RunMeans, run_means
from reportgen.schema import rounded


@dataclass(frozen=True)
class AnalysisOptions:
    """What the analyses read besides the scores, and the choices they make."""

    verdicts: VerdictSet | None = None
    """End-to-end verdicts: the four cells of the run they judge."""
    verdicts_run: str | None = None
    """That run (default: the one the file names, else the first)."""
    manifest: Manifest | None = None
    """The current index's chunks: gold ids it lacks are stale."""
    audience: str | None = None
    as_of: date | None = None
    """The date that decides which manifest chunks are out of date."""
    reference_run: str | None = None
    """Compare every run with this one instead of every pair."""
    compare_measures: Sequence[str] | None = None
    """The measures tested (default: those at k_ctx and the whole-list ones; ``all``)."""
    baseline: Baseline | None = None
    on_gold_change: GoldChangePolicy = "refuse"
    gate: GateRules | None = None
    explain: ExplainMode = "failures"
    """Which questions the drill-down shows the text of: the failure cells, all, none."""
    cluster_by: str | None = None
    """A gold field (or ``document``): its questions are resampled together."""
    slicing: Slicing = field(default_factory=Slicing)
    """The gold fields whose slices get every number, and the one the gate holds."""
    gate_means: Mapping[str, RunMeans] | None = None
    """The means the gate reads instead of the gold set's (--estimate ppi): no baseline."""


@dataclass(frozen=True)
class Findings:
    """Everything the analyses found, with the scores they read: report.json's content."""

    evaluation: Evaluation
    version: str
    """This report's label: the baseline comparison names this side with it."""
    created: datetime
    warnings: tuple[ReportWarning, ...]
    """The checks' warnings first, then measuring's, then the verdicts' join's."""
    means: dict[str, RunMeans]
    """Run -> its means, overall and per kind (unrounded)."""
    intervals: dict[str, dict[str, tuple[float, float] | None]]
    """Run -> measure -> the 95% interval of its mean (None with under two questions)."""
    hygiene: Hygiene
    leaks_at: dict[str, dict[int, LeakCounts]]
    """Run -> k -> the forbidden chunks in its top k."""
    means_without_stale: dict[str, Means] | None
    """Run -> its means over the questions whose gold ids are all current; None when no
    gold id is stale."""
    cutoffs: tuple[CutoffAnalysis, ...]
    """The unanswerable cutoff of every run, in run order."""
    comparisons: dict[str, Any]
    """The ``comparisons`` section (entries built by compare.py, Holm applied)."""
    verdicts: VerdictSet | None = None
    attributions: tuple[Attribution, ...] = ()
    """The four cells of every run with verdicts, the run the verdicts judge first."""
    trials: TrialFindings | None = None
    """What the judge's trials found for the run the verdicts judge; None for one trial."""
    replicates: dict[str, Replicates] = field(default_factory=dict)
    """Run -> its replicates' flaky questions and noise floor, for runs given several times."""
    stale_cells: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    """Run -> cell -> its questions whose gold ids the manifest does not hold."""
    baseline: BaselineComparison | None = None
    gate: dict[str, Any] | None = None
    """The ``gate`` section; None without rules."""
    chunkings: ChunkingFacts | None = None
    """The evidence and each run's chunk map; None without chunk maps."""
    drilldown: Drilldown | None = None
    """The run and questions whose retrieved text the pages show; None when none."""
    costs: CostFindings | None = None
    """Latency, cost and context size per run; None when no input gives any."""
    transitions: dict[str, dict[str, Any]] | None = None
    """The ``transitions`` section: per run, how its questions moved since the
    baseline; None without a baseline."""
    predictors: dict[str, Predictors] = field(default_factory=dict)
    """Judged run -> what predicts its answers: first gold rank, AUCs, headroom."""
    slices: SliceFindings | None = None
    """Every number per slice of the questions (``--slice-by``); None without slices."""

    @property
    def attribution(self) -> Attribution | None:
        """The four cells of the run the verdicts judge; None without verdicts."""
        return self.attributions[0] if self.attributions else None


def change_keys(context_k: int) -> list[str]:
    """The measures whose changed questions a comparison lists."""
    return [f"hit@{context_k}", f"recall@{context_k}", f"mrr@{context_k}"]


def primary_keys(context_k: int, tested: Sequence[str], gate: GateRules | None) -> list[str]:
    """The measures of the primary family: the headline ones at k_ctx and every measure
    a gate rule names (a drop the gate reads is always primary), among those tested."""
    named = {rule.measure for rule in gate.rules} if gate else set()
    wanted = {*headline_keys(context_k), *named}
    return [key for key in tested if key in wanted]


def primary_run(options: AnalysisOptions, attribution: Attribution | None) -> str | None:
    """The run whose comparisons with the others are primary in the runs table: the
    reference run, else (with no baseline to be the reference) the run the verdicts
    judge; None leaves the all-pairs table exploratory."""
    if options.reference_run is not None:
        return options.reference_run
    if options.baseline is None and attribution is not None:
        return attribution.run
    return None


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
        chosen += span_compare_keys(evaluation)
    elif list(chosen) == ["all"]:
        chosen = every
    unknown = [key for key in chosen if key not in every]
    if unknown:
        guess = closest(unknown[0], every) or suggest_measure(unknown[0])
        hint = f"did you mean {guess}? Or choose" if guess else "choose"
        raise UsageError(
            f"cannot compare {unknown[0]!r}: it is not measured in this report",
            f"{hint} among {', '.join(every)}, or 'all'",
        )
    wanted = (
        {*chosen, *(rule.measure for rule in gate.rules if rule.measure in every)}
        if gate
        else set(chosen)
    )
    return [key for key in every if key in wanted]


def known_stale(hygiene: Hygiene) -> pl.DataFrame:
    """The stale gold ids a manifest vouches for; "returned by no run" is too weak a
    signal to mark questions in the cells."""
    return hygiene.stale if hygiene.stale_basis == "manifest" else hygiene.stale.clear()


def _without_stale(evaluation: Evaluation, hygiene: Hygiene) -> dict[str, Means] | None:
    """Each run's means over the questions whose gold ids are all current.

    The same numbers with and without the stale questions tell a stale gold set (the
    gap) from a real regression (both low).
    """
    if not hygiene.stale.height or hygiene.stale_basis != "manifest":
        return None  # only a manifest confirms ids as stale: the weak signal gives none
    stale_qids = hygiene.stale.get_column("qid").unique().implode()
    keys = evaluation.settings.measure_keys
    keep = evaluation.settings.trec_eval
    return {
        result.name: run_means(
            result.scores.filter(~pl.col("qid").is_in(stale_qids)), keys, keep
        ).overall
        for result in evaluation.runs
    }


def attribute_verdicts(
    evaluation: Evaluation, verdicts: VerdictSet | None, verdicts_run: str | None = None
) -> tuple[tuple[Attribution, ...], list[ReportWarning], TrialFindings | None]:
    """The four cells of every run with verdicts (the one they judge first), what their
    joins left out, and what the judge's trials found (None for one trial).

    The run judged is the one asked for, else the one the file names, else the first;
    every other run the verdicts name (several trace files, or a verdicts file with a
    run column) gets its cells too, under the same rule.
    """
    if verdicts is None:
        return (), [], None
    settings = evaluation.settings
    names = [result.name for result in evaluation.runs]
    judged = choose_run(verdicts, names, verdicts_run)
    also = [name for name in verdicts.runs if name in names and name != judged]
    found: list[Attribution] = []
    warnings = assumed_run_warning(verdicts, names, verdicts_run, judged)
    trials = None
    for name in (judged, *also):
        result = next(result for result in evaluation.runs if result.name == name)
        refuse_judged_replicates(result)
        # a run judged through its chunk map has its own gold: the judgments derived there
        gold = evaluation.gold if result.chunked is None else result.chunked.gold
        covered = coverage(gold, result.run, settings.context_k, settings.threshold)

        def cells_of(
            join: VerdictJoin, scores: pl.DataFrame = result.scores, sent: pl.DataFrame = covered
        ) -> Attribution:
            return attribute(scores, join, settings.context_k, sent, settings.retrieved_when)

        join = join_verdicts(evaluation.gold, verdicts, name)
        if verdicts.trials and name == judged:
            join, trials = judge_trials(evaluation.gold, verdicts, join, cells_of)
        found.append(cells_of(join))
        warnings.extend(verdict_warnings(found[-1]))
        if trials is not None and name == judged:
            warnings.extend(flaky_warning(trials, name))
    return tuple(found), warnings, trials


def flaky_by_run(
    replicates: Mapping[str, Replicates],
    trials: TrialFindings | None,
    attributions: Sequence[Attribution],
) -> dict[str, set[str]]:
    """Run -> its flaky questions: its replicates disagree on hit@k_ctx, or (the run the
    verdicts judge) the judge's trials disagree."""
    found = {name: set(found.flaky) for name, found in replicates.items()}
    if trials is not None:
        found.setdefault(attributions[0].run, set()).update(trials.flaky)
    return found


def _check_reference(evaluation: Evaluation, reference: str | None) -> None:
    names = [result.name for result in evaluation.runs]
    if reference is not None and reference not in names:
        raise ParameterError(
            "reference_run",
            reference,
            "not one of the runs",
            f"use one of {', '.join(names)}",
            option="--reference-run",
        )


ChartsKnown = Callable[
    [
        Mapping[str, RunMeans],
        tuple[CutoffAnalysis, ...],
        ChunkingFacts | None,
        Mapping[str, Predictors],
    ],
    None,
]
"""Told the means, cutoff analyses, chunking facts and predictors, all a report's charts
draw, as soon as they are known: before the comparisons, the slowest analysis of several
runs."""


def run_analyses(
    evaluation: Evaluation,
    options: AnalysisOptions | None = None,
    *,
    version: str | None = None,
    created: datetime | None = None,
    charts_known: ChartsKnown | None = None,
) -> Findings:
    """Every analysis of the measured runs, each once; the first that fails raises.

    ``version`` labels this report (default: ``created``'s date and time, now by
    default or SOURCE_DATE_EPOCH). ``charts_known`` lets a caller start drawing the
    charts while the comparisons run.
    """
    options = options or AnalysisOptions()
    created = created or created_at()
    version = version or default_version_label(created)
    settings = evaluation.settings
    attributions, join_warnings, trials = attribute_verdicts(
        evaluation, options.verdicts, options.verdicts_run
    )
    replicates = replicate_findings(evaluation)
    cutoffs = tuple(analyse(result.run, result.scores) for result in evaluation.runs)
    hygiene = check(evaluation, options.manifest, audience=options.audience, as_of=options.as_of)
    keys, keep = settings.measure_keys, settings.trec_eval
    means = {result.name: run_means(result.scores, keys, keep) for result in evaluation.runs}
    chunkings = chunking_facts(evaluation)
    gated = [rule.measure for rule in options.gate.rules] if options.gate else []
    predictors = predictors_of(evaluation, attributions, gated)
    if charts_known is not None:
        charts_known(means, cutoffs, chunkings, predictors)
    stale_cells = {
        attribution.run: stale_by_cell(attribution.questions, known_stale(hygiene))
        for attribution in attributions
    }
    attribution = attributions[0] if attributions else None
    _check_reference(evaluation, options.reference_run)
    listed = change_keys(settings.context_k)
    tested = compared_keys(evaluation, options.compare_measures, options.gate)
    primary = primary_keys(settings.context_k, tested, options.gate)
    clusters = question_clusters(evaluation, options.cluster_by)
    sides = current_sides(evaluation)
    comparisons = compare_runs(
        sides,
        tested,
        listed,
        options.reference_run,
        clusters=clusters,
        cluster_by=options.cluster_by,
        primary_keys=primary,
        primary_run=primary_run(options, attribution),
    )
    for pair in comparisons["pairs"]:
        pair["judged"] = judged_gap(sides[pair["before"]], sides[pair["after"]], settings.context_k)
    versus = None
    if options.baseline is not None:
        cells = (
            {}
            if attribution is None
            else {
                attribution.run: {
                    "cells": dict(attribution.overall.counts),
                    "pass_rate": rounded(attribution.overall.pass_rate),
                    "stale": stale_cells[attribution.run],
                }
            }
        )
        versus = compare_with_baseline(
            options.baseline,
            evaluation,
            options.on_gold_change,
            tested,
            listed,
            version=version,
            digests=evaluation.gold.question_digests,
            cells=cells,
            clusters=clusters,
            cluster_by=options.cluster_by,
            primary_keys=primary,
        )
    kinds = sorted(set(evaluation.runs[0].scores.get_column("kind").to_list()))
    costs = cost_findings(
        evaluation,
        options.reference_run,
        None if options.baseline is None else options.baseline.per_question,
        None if options.baseline is None else str(options.baseline.report["version"]),
        HOPS_RULE,
    )
    # --estimate ppi: the gate reads the PPI means, which have no baseline to drop from
    read, against = (means, versus) if options.gate_means is None else (options.gate_means, None)
    gate = evaluate_gate(options.gate, read, kinds, against, costs) if options.gate else None
    audited = audit(gate)  # the whole runs' rules: a small slice is below detectable by design
    slices = _slices(evaluation, options, sides, comparisons, versus, tested, attributions)
    if slices is not None and options.gate_means is None:  # slices gate the gold set's means
        version_then = None if versus is None else str(versus.section["version"])
        gate = slice_gate(gate, options.gate, slices, version_then, list(keys))
    return Findings(
        evaluation=evaluation,
        version=version,
        created=created,
        warnings=(
            *baseline_gate_warnings(options.baseline),
            *gold_change_warnings(versus),
            *hygiene.warnings,
            *evaluation.warnings,
            *join_warnings,
            *replicate_warnings(replicates),
            *slice_warnings(evaluation.gold),
            *audited,
        ),
        means=means,
        intervals={
            result.name: mean_intervals(result.scores, keys, keep_no_relevant=keep)
            for result in evaluation.runs
        },
        hygiene=hygiene,
        leaks_at={
            name: {k: leak_counts(rows, k, list(hygiene.reasons)) for k in settings.ks}
            for name, rows in hygiene.leaks.items()
        },
        means_without_stale=_without_stale(evaluation, hygiene),
        cutoffs=cutoffs,
        comparisons=comparisons,
        verdicts=options.verdicts,
        attributions=attributions,
        trials=trials,
        replicates=replicates,
        stale_cells=stale_cells,
        baseline=versus,
        gate=gate,
        chunkings=chunkings,
        drilldown=choose(evaluation, attribution, options.explain),
        costs=costs,
        transitions=None
        if versus is None or options.baseline is None
        else transitions(
            evaluation,
            options.baseline,
            attributions,
            versus.shared,
            flaky=flaky_by_run(replicates, trials, attributions),
            tied={} if trials is None else {attributions[0].run: trials.tied},
        ),
        predictors=predictors,
        slices=slices,
    )


def _slices(
    evaluation: Evaluation,
    options: AnalysisOptions,
    sides: Mapping[str, pl.DataFrame],
    comparisons: dict[str, Any],
    versus: BaselineComparison | None,
    tested: Sequence[str],
    attributions: Sequence[Attribution],
) -> SliceFindings | None:
    """Every slice's numbers, its cells and its comparisons: against the baseline when
    there is one, else as the whole runs are compared; None without ``--slice-by``."""
    slicing = options.slicing
    if not slicing.all_fields:
        return None
    settings = evaluation.settings
    found = measure_slices(
        {result.name: result.scores for result in evaluation.runs},
        evaluation.gold,
        slicing,
        settings.measure_keys,
        settings.trec_eval,
    )
    cells = {
        attribution.run: {
            name: slice_cells(attribution, members) for name, members in found.members.items()
        }
        for attribution in attributions
    }
    if versus is not None:
        version = str(versus.section["version"])
        pairs = [
            (run, "baseline", Side(version, then), Side(run, now))
            for run, (then, now) in versus.sides.items()
        ]
    else:
        pairs = [
            (
                entry["after"],
                entry["before"],
                *(Side(n, sides[n]) for n in (entry["before"], entry["after"])),
            )
            for entry in comparisons["pairs"]
        ]
    rules = [] if options.gate is None else [rule.measure for rule in options.gate.rules]
    compared = {}
    for name in slicing.compared_fields:
        # recall at k_ctx (what the pages and the first screen read), and the gated rules'
        keys = [
            key
            for key in tested
            if key == f"recall@{settings.context_k}" or (name == slicing.gate and key in rules)
        ]
        compared[name] = {
            "against": "baseline" if versus is not None else "runs",
            "measures": keys,
            "correction": f"Holm across every slice of {name}, every run and every measure "
            "listed: a family of its own, exploratory beside the whole runs' comparisons"
            + (" (the gate reads it for --slice-gate)" if name == slicing.gate else ""),
            "slices": slice_comparisons(found.members[name], pairs, keys) if pairs else [],
        }
    return dataclasses.replace(found, cells=cells, comparisons=compared)
