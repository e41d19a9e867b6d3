"""Score every run against the gold set: the one place measures are computed.

Pure: frames in, frames and plain values out. Loading happens before; every analysis
of the scores (attribution, cutoff, checks, comparisons, gate) after, in
:mod:`reportgen.analyse.run`.
"""

from __future__ import annotations

import dataclasses
import math
import weakref
from collections.abc import Collection, Sequence
from dataclasses import field
from functools import cached_property

import polars as pl

from reportgen.core.model import (
    COSTS_SCHEMA,
    EXAMPLES_SHOWN,
    RETRIEVED_RULES,
    GoldSet,
    ReportWarning,
    RetrievedRule,
    Run,
    examples,
)
from reportgen.core.progress import track
from reportgen.core.records import dataclass
from reportgen.errors import InputError, ParameterError, UsageError, case_hint
from reportgen.measure.chunked import (
    ChunkedRun,
    Chunkings,
    chunk_run,
    chunk_warnings,
    refuse_unmapped_evidence,
)
from reportgen.measure.judged import judged_keys
from reportgen.measure.measures import (
    Judged,
    judge,
    mean_plan,
    measure_keys,
    per_question,
    read_run,
)
from reportgen.measure.replicates import mean_scores
from reportgen.measure.spans import DEFAULT_MIN_COVERAGE, span_keys
from reportgen.measure.ties import ties_at_cutoffs, ties_within_top_k

DEFAULT_KS = (1, 3, 5, 10)
DEFAULT_CONTEXT_K = 5
MAX_CUTOFF = 1_000_000
"""Longer than any ranked list; keeps k a number every output (JSON, charts) can hold."""
MAX_GRADE = 1_000_000
"""The highest --relevance-threshold: far above any grading scale, within Int64."""


def _bound_problem(value: int, highest: int) -> str:
    return "must be at least 1" if value < 1 else f"must be at most {highest:,}"


@dataclass(frozen=True)
class Settings:
    """How to measure. ``context_k`` is always one of the cutoffs."""

    ks: tuple[int, ...] = DEFAULT_KS
    context_k: int = DEFAULT_CONTEXT_K
    threshold: int = 1
    trec_eval: bool = False
    """trec_eval's conventions: questions with nothing relevant stay in the means at 0."""
    retrieved_when: RetrievedRule = "any"
    """When a question counts as retrieved in the four cells: any or all of its gold sent."""
    min_coverage: float = DEFAULT_MIN_COVERAGE
    """A chunk is relevant when it holds this share of an evidence range, or this share
    of it is evidence (SPEC.md, "Evidence spans and chunk maps")."""
    span_measures: bool = False
    """Whether the span measures are keys too: set by :func:`evaluate` for chunk maps."""
    context_k_assumed: bool = False
    """The caller did not say how many chunks were sent; ``context_k`` is the default."""
    cost_per_1k_chars: float | None = None
    """A question's cost is this per 1,000 characters sent (context_chars at k_ctx), for
    runs whose input gives no cost of its own."""

    def __post_init__(self) -> None:
        if self.retrieved_when not in RETRIEVED_RULES:
            raise ParameterError(
                "retrieved_when",
                self.retrieved_when,
                "not one of the rules",
                "pass any (a gold chunk was sent) or all (every gold chunk was sent)",
                option="--retrieved-when",
            )
        if not self.ks or any(not 1 <= k <= MAX_CUTOFF for k in self.ks):
            raise ParameterError(
                "ks",
                self.ks,
                f"every cutoff must be a whole number from 1 to {MAX_CUTOFF:,}",
                "pass cutoffs such as 1, 3, 5, 10",
                option="--k",
            )
        if not 1 <= self.context_k <= MAX_CUTOFF:
            raise ParameterError(
                "context_k",
                self.context_k,
                _bound_problem(self.context_k, MAX_CUTOFF),
                "pass the number of chunks sent to the model, e.g. 5",
                option="--context-k",
            )
        if not 1 <= self.threshold <= MAX_GRADE:
            raise ParameterError(
                "threshold",
                self.threshold,
                _bound_problem(self.threshold, MAX_GRADE),
                "grades below 1 mean not relevant; pass 1 (the default) or 2 (TREC DL)",
                option="--relevance-threshold",
            )
        if not 0 < self.min_coverage <= 1:
            raise ParameterError(
                "min_coverage",
                self.min_coverage,
                "must be above 0 and at most 1",
                "pass a share of characters, e.g. 0.5 (the default)",
                option="--min-coverage",
            )
        if self.cost_per_1k_chars is not None and not (
            math.isfinite(self.cost_per_1k_chars) and self.cost_per_1k_chars >= 0
        ):
            raise ParameterError(
                "cost_per_1k_chars",
                self.cost_per_1k_chars,
                "must be a number of 0 or more",
                "pass the price of 1,000 characters sent to the model, e.g. 0.002",
                option="--cost-per-1k-chars",
            )
        object.__setattr__(self, "ks", tuple(sorted({*self.ks, self.context_k})))

    @property
    def measure_keys(self) -> list[str]:
        spans = span_keys(self.ks) if self.span_measures else []
        return measure_keys(self.ks) + judged_keys(self.ks) + spans


@dataclass(frozen=True)
class RunScores:
    """One run's per-question measures and the facts about its input."""

    run: Run
    scores: pl.DataFrame
    extra_questions: tuple[str, ...]
    gold_rows: pl.DataFrame
    """(qid, chunk_id, rank) of the rows whose chunk is a positive gold chunk of any
    question (:func:`reportgen.measure.measures.read_run`): what the stale-gold check reads."""
    ties: dict[int, list[str]] = field(default_factory=dict)
    ties_within: dict[str, list[str]] = field(default_factory=dict)
    """Measure key -> questions whose value a tie inside the top k decides."""
    chunked: ChunkedRun | None = None
    """What the run's chunk map added: derived judgments, span measures; None without one."""
    replicates: tuple[RunScores, ...] = ()
    """The same system run again under one name, each measured alone, in the order given;
    ``scores`` is then their per-question mean (measure/replicates.py). Empty for one."""

    @property
    def name(self) -> str:
        return self.run.name

    def count(self, status: str) -> int:
        return self._status_counts.get(status, 0)

    @cached_property
    def _status_counts(self) -> dict[str, int]:
        """Questions per status, from one pass (the report asks for each status)."""
        return dict(self.scores.group_by("status").len().iter_rows())


@dataclass(frozen=True)
class Evaluation:
    """Every run measured against the gold set: what the analyses read."""

    gold: GoldSet
    settings: Settings
    runs: tuple[RunScores, ...]
    warnings: tuple[ReportWarning, ...]
    """What measuring found: misspelt gold keys, missing or extra questions, ties."""
    chunkings: Chunkings | None = None
    """The located evidence and the runs' chunk maps, when the report has them."""


@dataclass(frozen=True)
class Means:
    """Means over ``n`` questions, measure key -> mean (None when no question counts)."""

    n: int
    values: dict[str, float | None]


@dataclass(frozen=True)
class RunMeans:
    """One run's means, overall and per question kind (kinds sorted)."""

    overall: Means
    by_kind: dict[str, Means]


def _means_of(row: dict[str, object], keys: Sequence[str]) -> Means:
    return Means(row["n"], {key: row[key] for key in keys})  # type: ignore[arg-type,misc]


def run_means(scores: pl.DataFrame, keys: Sequence[str], keep_no_relevant: bool) -> RunMeans:
    """The means report.json writes for a run, and the gate holds to."""
    overall, by_kind = pl.collect_all(
        [
            mean_plan(scores, keys, keep_no_relevant=keep_no_relevant),
            mean_plan(scores, keys, keep_no_relevant=keep_no_relevant, by="kind"),
        ]
    )
    return RunMeans(
        _means_of(overall.row(0, named=True), keys),
        {row["kind"]: _means_of(row, keys) for row in by_kind.iter_rows(named=True)},
    )


def score_run(
    gold: GoldSet,
    run: Run,
    settings: Settings,
    judged: Judged | None = None,
    chunkings: Chunkings | None = None,
) -> RunScores:
    """Measures for one run, and the ids it returned that the gold set lacks.

    ``judged`` (from :func:`judge`) is what every run shares; pass it when scoring several.
    With a chunk map for the run in ``chunkings``, the run is measured on the judgments
    derived from the evidence on that chunking, and gets the span measures.
    """
    chunked = (
        None
        if chunkings is None
        else chunk_run(gold, run, chunkings, settings.ks, settings.min_coverage)
    )
    if chunked is not None:
        gold, judged = chunked.gold, chunked.shared.judge(settings.ks, settings.threshold)
    if judged is None:
        judged = judge(gold, settings.ks, settings.threshold)
    returned = read_run(run, judged)
    gold_ids = gold.questions.get_column("qid")
    extra = (
        returned.retrieved.filter(~pl.col("qid").is_in(gold_ids.implode()))
        .get_column("qid")
        .sort()
        .to_list()
    )
    scores = per_question(
        gold,
        run,
        settings.ks,
        settings.threshold,
        judged=judged,
        returned=returned,
        with_judged=True,
    )
    if settings.span_measures:
        spans = (
            chunked.span_scores
            if chunked is not None
            else pl.DataFrame(
                schema={"qid": pl.String} | dict.fromkeys(span_keys(settings.ks), pl.Float64)
            )
        )
        scores = scores.join(spans, on="qid", how="left")
    return RunScores(
        run=run,
        scores=scores,
        extra_questions=tuple(extra),
        ties=ties_at_cutoffs(run, settings.ks),
        # the gold the run is judged on: a chunk map's derived judgments when it has one
        ties_within=ties_within_top_k(run, gold, settings.ks, settings.threshold),
        gold_rows=returned.gold_rows,
        chunked=chunked,
    )


def misspelt_key_warnings(gold: GoldSet) -> list[ReportWarning]:
    """Keys of the gold set reportgen does not read but that look like one it does."""
    if not gold.misspelt_keys:
        return []
    parts = [
        f'"{m.key}" (line {m.line}, {m.count} record(s)): did you mean "{m.closest}"?'
        for m in gold.misspelt_keys
    ]
    return [
        ReportWarning(
            "misspelt_gold_keys",
            f"{gold.source}: keys reportgen does not read, and ignored: " + "; ".join(parts),
            sum(m.count for m in gold.misspelt_keys),
            tuple(m.key for m in gold.misspelt_keys[:EXAMPLES_SHOWN]),
        )
    ]


def _run_warnings(
    scored: RunScores, settings: Settings, judged: Collection[str] = ()
) -> list[ReportWarning]:
    name = scored.name
    missing = scored.scores.filter(pl.col("status") == "missing").get_column("qid").to_list()
    found: list[ReportWarning] = []
    if missing:
        found.append(
            ReportWarning(
                "missing_questions",
                f"run {name!r} has no results for {len(missing)} gold question(s); "
                "they count as 0 on every measure",
                len(missing),
                examples(missing),
            )
        )
    if scored.extra_questions:
        found.append(_extra_questions_warning(name, scored.extra_questions, missing, judged))
    if scored.run.repeated_chunks:
        found.append(
            ReportWarning(
                "repeated_chunks",
                f"run {name!r} lists {scored.run.repeated_chunks} chunk(s) more than once in "
                "one ranked list; each counts once, at its first rank",
                scored.run.repeated_chunks,
            )
        )
    if scored.ties:
        found.append(_ties_warning(name, scored.ties))
    if scored.ties_within:
        found.append(_ties_within_warning(name, scored.ties_within))
    return found + _trace_warnings(scored.run)


def _ties_within_warning(name: str, ties: dict[str, list[str]]) -> ReportWarning:
    """Ties inside the top k that a rank-sensitive measure reads, one warning per run."""
    tied = sorted({qid for qids in ties.values() for qid in qids})
    titles = {"mrr": "MRR", "ndcg": "nDCG", "ap": "AP"}
    listed = ", ".join(
        f"{titles[key.split('@')[0]]}@{key.split('@')[1]} ({len(qids)})"
        for key, qids in ties.items()
    )
    return ReportWarning(
        "ties_within_top_k",
        f"run {name!r}: tied scores inside the top k decide {listed} question(s); those "
        "values depend on the tie-break (chunk id descending)",
        len(tied),
        examples(tied),
    )


def _trace_warnings(run: Run) -> list[ReportWarning]:
    """What a trace or span export left out or said oddly: read, not guessed past."""
    found = []
    if run.unmatched_traces:
        unmatched = run.unmatched_traces
        found.append(
            ReportWarning(
                "unmatched_traces",
                f"run {run.name!r}: {len(unmatched)} of its {run.traces} traces match no gold "
                f"question, or more than one, and are left out (first: trace "
                f"{unmatched[0].trace_id}, {unmatched[0].reason}); report.json lists them all",
                len(unmatched),
                examples([u.trace_id for u in unmatched]),
            )
        )
    if run.tied_hops:
        found.append(
            ReportWarning(
                "hop_order_ambiguous",
                f"run {run.name!r}: in {len(run.tied_hops)} trace(s) retriever spans start at "
                "the same time, so their hop order was taken from end times, parent spans "
                "and file order; export finer times (nanosecond OTLP, Phoenix parquet)",
                len(run.tied_hops),
                examples(list(run.tied_hops)),
            )
        )
    if run.sent_unretrieved:
        found.append(
            ReportWarning(
                "context_not_retrieved",
                f"run {run.name!r}: for {len(run.sent_unretrieved)} question(s) the trace's "
                "context holds a chunk its retrieved list does not; it counts as sent",
                len(run.sent_unretrieved),
                examples(run.sent_unretrieved),
            )
        )
    return found


def _ties_warning(name: str, ties: dict[int, list[str]]) -> ReportWarning:
    """One warning per run, however many cutoffs have ties (TREC runs often tie at all)."""
    tied = sorted({qid for qids in ties.values() for qid in qids})
    if len(ties) == 1:
        ((k, qids),) = ties.items()
        where = f"{len(qids)} question(s) have tied scores across rank {k}"
        which = f"k={k}"
    else:
        at = ", ".join(f"k={k} ({len(qids)})" for k, qids in sorted(ties.items()))
        where = f"{len(tied)} question(s) have tied scores across a cutoff: {at}"
        which = "those k"
    return ReportWarning(
        "ties_at_cutoff",
        f"run {name!r}: {where}; measures at {which} depend on the tie-break (chunk id descending)",
        len(tied),
        examples(tied),
    )


_LAST_JUDGED: list[tuple[weakref.ref[GoldSet], tuple[int, ...], int, Judged]] = []


def _judged(gold: GoldSet, ks: Sequence[int], threshold: int) -> Judged:
    """:func:`judge`, once per gold set and cutoffs: a notebook's calls pass the same gold
    set object again (load/inputs/remembered.py), and its ideal DCGs do not change."""
    for known, known_ks, known_threshold, found in _LAST_JUDGED:
        if known() is gold and known_ks == tuple(ks) and known_threshold == threshold:
            return found
    found = judge(gold, ks, threshold)
    _LAST_JUDGED[:] = [*_LAST_JUDGED[-1:], (weakref.ref(gold), tuple(ks), threshold, found)]
    return found


def evaluate(
    gold: GoldSet,
    runs: Sequence[Run],
    settings: Settings | None = None,
    *,
    part: bool = False,
    chunkings: Chunkings | None = None,
) -> Evaluation:
    """Measure every run against the gold set; refuse runs that cannot be compared.

    ``part``: the gold set is one block of a larger one, where a run may have nothing.
    With chunk maps (``chunkings``), runs are judged through them and get the span measures.
    """
    settings = settings or Settings()
    if chunkings is not None and chunkings.maps:
        settings = dataclasses.replace(settings, span_measures=True)
    if not runs:
        raise UsageError(
            "no run to evaluate",
            "pass at least one run file after the gold set, or a trace file as the gold set",
        )
    measuring = track(runs, "Measuring", lambda run: run.name)
    gold_side = _judged(gold, settings.ks, settings.threshold)
    refuse_unmapped_evidence(gold, [run.name for run in runs], chunkings)
    scored = tuple(score_run(gold, run, settings, gold_side, chunkings) for run in measuring)
    for result in scored:
        if not part and result.scores.get_column("n_retrieved").sum() == 0:
            raise InputError(
                result.run.source,
                f"run {result.name!r} shares no question with the gold set ({gold.source})"
                + case_hint(result.extra_questions, gold.questions.get_column("qid").to_list()),
                "check that both use the same question ids (e.g. q001 vs 1)",
                1,
            )
    scored = with_costs(scored, settings)
    # replicates of a run find the same problems: each said once
    warnings = tuple(dict.fromkeys(measuring_warnings(gold, scored, settings, chunkings)))
    scored = _replicates_folded(scored)
    return Evaluation(gold, settings, scored, warnings, chunkings=chunkings)


def _replicates_folded(scored: tuple[RunScores, ...]) -> tuple[RunScores, ...]:
    """Runs given under one name are replicates of one system: one run each, in the
    order their names first came (measure/replicates.py)."""
    names = list(dict.fromkeys(result.name for result in scored))
    if len(names) == len(scored):
        return scored
    return tuple(
        fold_replicates([result for result in scored if result.name == name]) for name in names
    )


def fold_replicates(replicates: Sequence[RunScores]) -> RunScores:
    """One run's replicates as one run: the mean scores, every replicate kept, the first
    replicate's run (its ranked lists) and chunk map, the ties of any replicate."""
    if len(replicates) == 1:
        return replicates[0]
    ties: dict[int, set[str]] = {}
    within: dict[str, set[str]] = {}
    for replicate in replicates:
        for k, qids in replicate.ties.items():
            ties.setdefault(k, set()).update(qids)
        for key, qids in replicate.ties_within.items():
            within.setdefault(key, set()).update(qids)
    return dataclasses.replace(
        replicates[0],
        scores=mean_scores([replicate.scores for replicate in replicates]),
        extra_questions=tuple(sorted({q for r in replicates for q in r.extra_questions})),
        ties={k: sorted(qids) for k, qids in sorted(ties.items())},
        ties_within={key: sorted(qids) for key, qids in within.items()},
        replicates=tuple(replicates),
    )


COST_COLUMNS = ("latency_ms", "cost", "context_words")
"""Per-question columns beside the measures when an input gives latency or cost: the
words sent at k_ctx come with them (from a chunk map's text; null without text)."""


def with_costs(scored: tuple[RunScores, ...], settings: Settings) -> tuple[RunScores, ...]:
    """Every run's scores with ``latency_ms`` and ``cost`` columns (null where not given)
    when any run has either, or a price per 1,000 characters is set; else unchanged.

    A run that gives its own costs keeps them: a price as well would make two sources of
    truth, so that is refused. The price needs the characters sent, which only chunk
    maps (--chunks, --docs) give.
    """
    rate = settings.cost_per_1k_chars
    if rate is None and all(result.run.costs is None for result in scored):
        return scored
    chars = f"context_chars@{settings.context_k}"
    if rate is not None and not settings.span_measures:
        raise UsageError(
            "--cost-per-1k-chars needs the characters sent to the model, and no chunk map "
            "gives them",
            "pass --chunks (with text or ranges) or --docs, or give each question's cost "
            "in the run (a cost field or column)",
        )
    found = []
    for result in scored:
        run = result.run
        given = run.costs
        if rate is not None and given is not None and given["cost"].null_count() < given.height:
            raise InputError(
                run.source,
                f"run {run.name!r} gives a cost per question, and --cost-per-1k-chars sets one too",
                "keep one source of cost: drop --cost-per-1k-chars or the run's cost values",
            )
        costs = given if given is not None else pl.DataFrame(schema=COSTS_SCHEMA)
        scores = result.scores.drop(COST_COLUMNS, strict=False).join(costs, on="qid", how="left")
        if rate is not None:
            scores = scores.with_columns((pl.col(chars) * (rate / 1000)).alias("cost"))
        scores = scores.join(_words_sent(result, settings.context_k), on="qid", how="left")
        found.append(dataclasses.replace(result, scores=scores))
    return tuple(found)


WORDS = r"\S+"
"""A word is a run of non-space characters (what ``wc -w`` counts)."""


def _words_sent(result: RunScores, context_k: int) -> pl.DataFrame:
    """(qid, context_words): words of the top k_ctx chunks' text, per question; empty
    without a chunk map that has text (those questions' words are then missing)."""
    chunked = result.chunked
    empty = pl.DataFrame(schema={"qid": pl.String, "context_words": pl.Float64})
    if chunked is None or not chunked.chunk_map.has_text:
        return empty
    texts = chunked.chunk_map.chunks.select("chunk_id", "text")
    sent = result.run.results.filter(pl.col("rank") <= context_k).join(
        texts, on="chunk_id", how="left"
    )
    return sent.group_by("qid").agg(
        pl.when(pl.col("text").is_null().any())
        .then(None)
        .otherwise(pl.col("text").str.count_matches(WORDS).sum())
        .cast(pl.Float64)
        .alias("context_words")
    )


def _extra_questions_warning(
    name: str, extra: Sequence[str], missing: Sequence[str], judged: Collection[str]
) -> ReportWarning:
    """A run's questions the gold set lacks: ignored, but for those an LLM judge grades,
    which the prediction-powered means measure (and count in their n_all)."""
    graded = len(set(extra).intersection(judged))
    if graded == 0:
        fate = "they are ignored"
    else:
        which = "them" if graded == len(extra) else f"the {graded} the judge grades"
        fate = (
            f"the prediction-powered means use {which} (counted in their n_all); every "
            "other number ignores them"
        )
    return ReportWarning(
        "extra_questions",
        f"run {name!r} answers {len(extra)} question(s) that are not in the gold set; {fate}"
        + case_hint(extra, missing),
        len(extra),
        examples(extra),
    )


def with_judged_questions(evaluation: Evaluation, judged: Collection[str]) -> Evaluation:
    """The evaluation with its warnings saying which of the runs' extra questions the
    judge grades (``judged``: --judgments' question ids): those are not ignored."""
    warnings = measuring_warnings(
        evaluation.gold, evaluation.runs, evaluation.settings, evaluation.chunkings, judged
    )
    return dataclasses.replace(evaluation, warnings=warnings)


def measuring_warnings(
    gold: GoldSet,
    scored: Sequence[RunScores],
    settings: Settings,
    chunkings: Chunkings | None = None,
    judged: Collection[str] = (),
) -> tuple[ReportWarning, ...]:
    """What measuring found, from the scores alone: ``reportgen merge`` rebuilds them so;
    ``judged``: the LLM judge's question ids, when the report has its grades."""
    warnings = misspelt_key_warnings(gold)
    no_relevant = scored[0].scores.filter(pl.col("status") == "no_relevant")
    if no_relevant.height:
        ids = no_relevant.get_column("qid").to_list()
        fate = "kept at 0 (trec_eval)" if settings.trec_eval else "left out of the means"
        warnings.append(
            ReportWarning(
                "no_relevant",
                f"{len(ids)} question(s) have no chunk graded {settings.threshold} or more; {fate}",
                len(ids),
                examples(ids),
            )
        )
    for result in scored:
        warnings.extend(_run_warnings(result, settings, judged))
    chunked = [result.chunked for result in scored if result.chunked is not None]
    warnings.extend(chunk_warnings(chunked, chunkings))
    return tuple(warnings)
