"""The sections of report.json that say what was measured: settings, gold set, runs,
warnings, hygiene, verdicts, the four cells and the cutoff (see the package's docstring)."""

from typing import Literal, NotRequired, TypedDict

from reportgen.schema.predictors import (
    AssociationSection,
    ByFirstGoldRank,
    FirstGoldRank,
    HeadroomSection,
)

Means = dict[str, float | None]
"""Measure key (``hit@5``, ``mrr``) -> mean, null when no question counts."""
CountedMeans = dict[str, float | None]
"""The means of one kind of question, with ``n`` (how many count) among the keys."""


def counted(means: CountedMeans) -> int:
    """The ``n`` of :data:`CountedMeans`: always an integer, which the type cannot say."""
    return int(means["n"] or 0)


Cell = Literal["retrieved_correct", "retrieved_wrong", "missed_correct", "missed_wrong"]
Focus = Literal["generation", "retrieval", "tie", "none"]
StaleBasis = Literal["manifest", "no_run_returns"]
Label = Literal["better", "worse", "within noise", "too few questions"]
"""``too few questions``: not significant, and no change within the measure's range
would have been (its ``mde`` is null); ``within noise``: not significant, though a
change of ``mde`` would have been."""
Outcome = Literal["declined", "answered", "unknown"]
"""What became of an unanswerable question with a verdict."""
RetrievedRule = Literal["any", "all"]
"""When a question counts as retrieved in the four cells: any or all of its gold sent."""
ContextSource = Literal["top_k", "trace"]
"""What reached the model: the top k_ctx, or the chunks a trace says were sent."""


class SettingsSection(TypedDict):
    k: list[int]
    context_k: int
    relevance_threshold: int
    trec_eval: bool
    retrieved_when: RetrievedRule
    context_k_assumed: bool
    """--context-k was not given: context_k is the default."""


class KindCounts(TypedDict):
    questions: int
    answerable: int
    unanswerable: int


class GoldSection(TypedDict):
    source: str
    version: str | None
    index_version: str | None
    fingerprint: str
    questions: int
    answerable: int
    unanswerable: int
    no_relevant: int
    judgments: int
    by_kind: dict[str, KindCounts]
    question_digests: dict[str, str]
    """Question id -> a short hash of its text, kind and graded chunks."""


class RunCounts(TypedDict):
    questions_scored: int
    questions_missing: int
    extra_questions: int
    repeated_chunks: int
    repeated_across_hops: int
    """Chunks a later hop of a trace found again: dropped, taking no rank."""
    unanswerable_left_out: int
    no_relevant: int
    results: int


class LeakCounts(TypedDict):
    total: int
    questions: int
    by_reason: dict[str, int]


class LeakedChunk(TypedDict):
    qid: str
    chunk_id: str
    rank: int
    reason: str


class Leaks(TypedDict):
    at: dict[str, LeakCounts]
    """CutoffSection (as text) -> the forbidden chunks in the top k."""
    chunks: list[LeakedChunk]


class RunContext(TypedDict):
    """What reached the model: the top k_ctx, or what the run's trace says was sent."""

    source: ContextSource
    traced_questions: int
    """Questions whose trace says which chunks were sent."""
    longest_list: int
    shorter_than_context_k: bool
    """Every ranked list is shorter than k_ctx: the measures at k_ctx read ranks never filled."""
    sent_not_retrieved: list[str]
    """Questions whose trace context holds a chunk the retrieved list does not."""


class UnmatchedTraceEntry(TypedDict):
    trace_id: str
    reason: str
    line: int


class RunTraces(TypedDict):
    """For a run read from spans: its traces, and those no gold question could be given."""

    traces: int
    tied_hops: int
    """Matched traces with retriever spans that start at the same time (order guessed)."""
    unmatched: list[UnmatchedTraceEntry]


class PairedDifference(TypedDict):
    """This run minus another (a run, or the baseline's run of that name), paired by
    question over the questions both have a value for."""

    against: str
    """The other run's name, or the baseline's version."""
    questions: int
    difference: float | None
    ci_low: float | None
    """The 95% bootstrap interval of the mean difference; null under 2 questions."""
    ci_high: float | None
    level: float


class QuantitySummary(TypedDict):
    """Latency, cost or context size per question, summed up over the gold questions."""

    unit: str
    """``ms``, ``characters``, or ``as given`` (a cost in the input's own currency)."""
    questions: int
    count: int
    """Questions with a value."""
    missing: int
    """Questions without one: left out of every number below, never read as 0."""
    mean: float | None
    p50: float | None
    p90: float | None
    p95: float | None
    p99: float | None
    percentile_method: str
    """Linear interpolation between the closest ranks: numpy's default."""
    versus_run: PairedDifference | None
    """Against the reference run (--reference-run, else the first); null for that run."""
    versus_baseline: PairedDifference | None
    """Against the baseline's run of that name; null without one that has values."""


class LatencySummary(QuantitySummary):
    hops: str | None
    """For runs read from spans: how a trace's retriever spans make one latency."""
    overlapping_hops: int | None
    """For runs read from spans: traces whose retriever spans overlap in time (parallel
    hops), whose summed durations exceed the wall time."""
    baseline_note: NotRequired[str]
    """Why the baseline gives nothing to compare with (a report from before latency)."""


class SliceNumbers(TypedDict):
    """One slice of one run: what a report on the gold set filtered to it would say."""

    questions: int
    """Every question of the slice, whatever its status."""
    n: int
    """The questions its means count."""
    means: Means
    intervals: dict[str, list[float] | None]


class Listed(TypedDict):
    count: int
    ids: list[str]


class RunReplicates(TypedDict):
    count: int
    files: list[str]


class RunSection(TypedDict):
    source: str
    order: str
    has_scores: bool
    index_version: str | None
    n: int
    means: Means
    intervals: dict[str, list[float] | None]
    """Measure key -> [low, high], the 95% interval of the mean; null, never [null, null],
    below 2 questions with a value (span_*@k: with evidence), as the mean is null at 0."""
    by_kind: dict[str, CountedMeans]
    by_slice: NotRequired[dict[str, dict[str, SliceNumbers]]]
    """Slice field -> value -> its numbers (``--slice-by``; {} without)."""
    counts: RunCounts
    ties_at_cutoff: dict[str, int]
    ties_within_top_k: dict[str, int]
    """Rank-sensitive measure at k -> questions whose value a tie inside the top k decides."""
    context: RunContext
    traces: RunTraces | None
    """Null unless the run was read from an OpenTelemetry or Phoenix export."""
    leaks: Leaks
    latency: NotRequired[LatencySummary]
    """Present when an input of the report gives a latency (spans, latency_ms)."""
    cost: NotRequired[QuantitySummary]
    """Present when an input gives a cost, or --cost-per-1k-chars sets one."""
    context_size: NotRequired[QuantitySummary]
    """Characters sent per question (context_chars at k_ctx), with chunk maps, when the
    report has latency or cost."""
    context_words: NotRequired[QuantitySummary]
    """Words sent per question (runs of non-space characters in the top k_ctx chunks'
    text), with chunk maps that hold text, when the report has latency or cost."""
    replicates: NotRequired[RunReplicates]
    """Present when the run was given several times (replicates of one system): the
    means are then the mean over replicates of each question's value."""
    flaky: NotRequired[Listed]
    """With replicates: questions whose hit@k_ctx differs between them."""
    noise_floor: NotRequired[dict[str, float | None]]
    """With replicates: measure -> max - min of the replicates' means."""


class WarningEntry(TypedDict):
    code: str
    message: str
    count: int
    examples: list[str]
    shard: NotRequired[str]
    """In a merged report: the shard the warning was carried over from."""


class ManifestSummary(TypedDict):
    source: str
    index_version: str | None
    chunks: int


class Provenance(TypedDict):
    gold: str | None
    manifest: str | None
    runs: dict[str, str | None]
    gold_questions: dict[str, int]
    consistent: bool


class Stale(TypedDict):
    basis: StaleBasis
    chunks: int
    gold_chunks: int
    questions: dict[str, list[str]]
    """At most ``questions_kept`` questions, in gold-set order: qid -> its stale gold ids."""
    question_count: int
    questions_kept: int
    means_without_stale: dict[str, CountedMeans] | None


class Forbidden(TypedDict):
    audience: str | None
    as_of: str | None
    from_gold: int
    from_manifest: int
    reasons: dict[str, str]


class HygieneSection(TypedDict):
    manifest: ManifestSummary | None
    provenance: Provenance
    stale: Stale
    forbidden: Forbidden


class CellRange(TypedDict):
    min: int
    max: int


class JudgeAgreement(TypedDict):
    questions: int
    """Questions every trial judged (correct or wrong): the kappa's subjects."""
    fleiss_kappa: float | None
    """None when every vote is alike (chance agreement 1) or no question qualifies."""
    unanimous: float | None
    """The share of those questions whose trials all agree."""


class VerdictsSection(TypedDict):
    source: str
    format: str
    run: str
    k: int
    joined_on: Literal["id", "question"]
    metric: str | None
    threshold: float | None
    rows: int
    questions_with_verdict: int
    gold_without_verdict: Listed
    unknown_questions: Listed
    unknown_verdicts: Listed
    other_runs: list[str]
    trials: int
    """How many times the same answers were judged (``--verdicts`` given that often)."""
    flaky: Listed
    """Questions whose trials' known verdicts disagree."""
    tied: Listed
    """Questions with as many trials saying correct as wrong: out of the cells."""
    cell_ranges: dict[str, CellRange] | None
    """Cell -> its min..max count over the trials (the cells are the majority's); None
    for one trial."""
    agreement: JudgeAgreement | None
    """The judge's agreement with itself; None for one trial."""


class CellCounts(TypedDict):
    retrieved_correct: int
    retrieved_wrong: int
    missed_correct: int
    missed_wrong: int


class CellShares(TypedDict):
    retrieved_correct: float | None
    retrieved_wrong: float | None
    missed_correct: float | None
    missed_wrong: float | None


class CellQuestions(TypedDict):
    retrieved_correct: list[str]
    retrieved_wrong: list[str]
    missed_correct: list[str]
    missed_wrong: list[str]


class Cells(TypedDict):
    """The four cells of a set of questions (a run, or one kind of question)."""

    n: int
    cells: CellCounts
    shares: CellShares
    focus: Focus
    pass_rate: float | None


class SliceOutcomes(TypedDict):
    declined: int
    answered: int
    unknown: int


class SliceCells(Cells):
    unanswerable: SliceOutcomes


class UnansweredQuestions(TypedDict):
    declined: list[str]
    answered: list[str]
    unknown: list[str]


class Unanswerable(TypedDict):
    declined: int
    answered: int
    unknown: int
    questions: UnansweredQuestions


class CoverageSplit(TypedDict):
    questions: int
    correct: int
    pass_rate: float | None


class ByCoverage(TypedDict):
    """The judged answerable questions by how much of their gold reached the model."""

    all: CoverageSplit
    some: CoverageSplit
    none: CoverageSplit


class AttributionSection(Cells):
    k: int
    rule: RetrievedRule
    context_source: ContextSource
    """``trace`` when a trace said, for at least one question in the cells, what was sent."""
    traced_questions: int
    """Questions in the cells whose chunks sent come from the trace, not the top k."""
    by_coverage: ByCoverage
    questions: CellQuestions
    stale: CellQuestions
    """Cell -> its questions whose gold ids the index manifest does not hold."""
    stale_count: int
    by_kind: dict[str, Cells]
    by_slice: NotRequired[dict[str, dict[str, SliceCells]]]
    """Slice field -> value -> its four cells and unanswerable outcomes."""
    unanswerable: Unanswerable
    by_first_gold_rank: NotRequired[ByFirstGoldRank]
    first_gold_rank: NotRequired[FirstGoldRank]
    association: NotRequired[AssociationSection]
    headroom: NotRequired[HeadroomSection]


class CutoffErrors(TypedDict):
    answered_unanswerable: int
    declined_answerable: int


class ScoreRange(TypedDict):
    n: int
    min: float | None
    max: float | None


class InOverlap(TypedDict):
    answerable: list[str]
    unanswerable: list[str]


class CutoffQuestions(TypedDict):
    answered_unanswerable: list[str]
    declined_answerable: list[str]
    in_overlap: InOverlap


class CutoffSection(TypedDict):
    gap: list[float] | None
    cutoff: float | None
    errors: CutoffErrors | None
    rule: str
    overlap: list[float] | None
    reason: str | None
    answerable: ScoreRange
    unanswerable: ScoreRange
    unscored: int
    questions: CutoffQuestions


class EvidenceSummary(TypedDict):
    items: int
    questions: int
    located_ranges: int
    stale_items: int


class ChunkMapSummary(TypedDict):
    """What one run's chunk map gave: its file, size, and the judgments derived on it."""

    chunk_map: str
    index_version: str | None
    chunks: int
    documents: int
    has_text: bool
    derived_judgments: int
    not_in_map: int


class ChunkingsSection(TypedDict):
    min_coverage: float
    evidence: EvidenceSummary
    runs: dict[str, ChunkMapSummary]


class DrilldownSection(TypedDict):
    """The run and questions whose chunks sent the pages show as text."""

    mode: str
    run: str
    context_k: int
    count: int
    questions: list[str]
