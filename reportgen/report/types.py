"""report.json's shape as types: every section a TypedDict, the format version, rounding.

The bottom of the house: it imports nothing of reportgen, so that every stage (the
analyses that build sections, the renderers that read them, the loaders of old
reports) can name the same shapes without importing each other. schema.json beside
this module is generated from these types (scripts/make_report_schema.py), and the
tests check every report.json they write against it: a key added to a section
without adding it here fails the tests.

Keys that a name varies (run names, measure keys, question ids, kinds, cutoffs) are
``dict[str, ...]``; every other object is closed. See docs/report-json.md for what
each key means and when ``format_version`` changes.
"""

from typing import Literal, NotRequired, TypedDict

FORMAT_VERSION = 2
"""Bumped when a key changes meaning or a complete list becomes partial; adding a key
does not bump it (docs/report-json.md, "Format history")."""

READABLE_FORMAT_VERSIONS = (1, 2)
"""Versions that baselines, shards and published sites may have been written in: a
report.json of version 1 differs only in listing every question with stale gold ids."""

DIGITS = 10
"""Means are rounded so that last-bit float noise cannot change the bytes written."""


def rounded(value: float | None) -> float | None:
    """A value as report.json writes it: :data:`DIGITS` decimals, None kept."""
    return None if value is None else round(float(value), DIGITS)


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
Label = Literal["better", "worse", "within noise"]
Outcome = Literal["declined", "answered", "unknown"]
"""What became of an unanswerable question with a verdict."""


class SettingsSection(TypedDict):
    k: list[int]
    context_k: int
    relevance_threshold: int
    trec_eval: bool


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


class RunSection(TypedDict):
    source: str
    order: str
    has_scores: bool
    index_version: str | None
    n: int
    means: Means
    intervals: dict[str, list[float] | None]
    """Measure key -> [low, high], the 95% interval of the mean (null below 2 questions)."""
    by_kind: dict[str, CountedMeans]
    counts: RunCounts
    ties_at_cutoff: dict[str, int]
    leaks: Leaks


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


class Listed(TypedDict):
    count: int
    ids: list[str]


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


class UnansweredQuestions(TypedDict):
    declined: list[str]
    answered: list[str]
    unknown: list[str]


class Unanswerable(TypedDict):
    declined: int
    answered: int
    unknown: int
    questions: UnansweredQuestions


class AttributionSection(Cells):
    k: int
    questions: CellQuestions
    stale: CellQuestions
    """Cell -> its questions whose gold ids the index manifest does not hold."""
    stale_count: int
    by_kind: dict[str, Cells]
    unanswerable: Unanswerable


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


class IntervalMethod(TypedDict):
    name: str
    level: float
    resamples: int
    seed: int


class RandomizationMethod(TypedDict):
    name: str
    resamples: int
    seed: int
    exact_when: str


class Method(TypedDict):
    """How every comparison of a list was computed."""

    difference: str
    interval: IntervalMethod
    test: RandomizationMethod
    binary_test: str
    correction: str
    changed_questions_kept: int
    alpha: float
    label: str
    family_size: int


class MeasureChange(TypedDict):
    """One measure of one comparison: the means, the difference and its tests."""

    before: float
    after: float
    difference: float
    ci_low: float
    ci_high: float
    p_randomization: float
    randomization_exact: bool
    p_mcnemar: float | None
    test: Literal["mcnemar", "randomization"]
    p: float
    wins: int
    ties: int
    losses: int
    p_holm: float
    label: Label


class ChangedQuestion(TypedDict):
    qid: str
    kind: str
    before: float
    after: float


class Comparison(TypedDict):
    """Two runs (or a run then and now) paired by question."""

    before: str
    after: str
    n: int
    one_question: float | None
    measures: dict[str, MeasureChange]
    changed_questions: dict[str, list[ChangedQuestion]]
    """Measure key -> at most ``method.changed_questions_kept`` questions in all."""
    changed_counts: dict[str, int]
    changed_total: int


class ComparisonsSection(TypedDict):
    method: Method
    measures: list[str]
    reference_run: str | None
    pairs: list[Comparison]


class ThenNow(TypedDict):
    then: float | None
    now: float | None


class StaleThenNow(TypedDict):
    then: dict[str, int] | None
    """Cell -> how many of its questions had stale gold ids; null before the report
    recorded ``attribution.<run>.stale``."""
    now: dict[str, int] | None


class CellsThenNow(TypedDict):
    then: CellCounts
    now: CellCounts
    pass_rate: ThenNow
    stale: StaleThenNow


class BaselineComparison(Comparison):
    run: str
    cells: CellsThenNow | None


class Selection(TypedDict):
    site: str
    rule: Literal["requested", "same_gold", "newest"]
    versions: int
    newer: list[str]


class BaselineGold(TypedDict):
    version: str | None
    fingerprint: str


class LeftOut(TypedDict):
    count: int
    why: str
    examples: list[str]


class LeftOutQuestions(TypedDict):
    only_in_baseline: LeftOut
    only_in_this_report: LeftOut
    changed: LeftOut


class GoldChange(TypedDict):
    policy: Literal["intersect"]
    baseline_fingerprint: str
    fingerprint: str
    shared_questions: int
    left_out: LeftOutQuestions
    changes_detected: bool
    note: str | None


class BaselineSection(TypedDict):
    source: str
    selection: Selection | None
    version: str
    created: str
    gold: BaselineGold
    gold_change: GoldChange | None
    method: Method
    measures: list[str]
    runs_not_in_baseline: list[str]
    baseline_runs_not_here: list[str]
    comparisons: list[BaselineComparison]


class RuleResult(TypedDict):
    """One gate rule on one run; a max-drop rule also says how far and how sure."""

    rule: str
    type: Literal["min", "max-drop"]
    run: str
    measure: str
    kind: str | None
    threshold: float
    value: float | None
    baseline_value: float | None
    drop: NotRequired[float]
    p_holm: NotRequired[float]
    label: NotRequired[Label]
    significant: NotRequired[bool]
    passed: bool
    message: str


class GateSection(TypedDict):
    passed: bool
    significant_only: bool
    config: list[str]
    rules: list[RuleResult]
    skipped: list[str]
    notice: str | None


class Report(TypedDict):
    """report.json as ``reportgen report`` (and ``demo``) writes it."""

    format_version: int
    tool_version: str
    version: str
    created: str
    settings: SettingsSection
    k: list[int]
    context_k: int
    gold: GoldSection
    runs: dict[str, RunSection]
    hygiene: HygieneSection
    warnings: list[WarningEntry]
    verdicts: VerdictsSection | None
    attribution: dict[str, AttributionSection]
    cutoff: dict[str, CutoffSection]
    comparisons: ComparisonsSection
    baseline: BaselineSection | None
    gate: GateSection | None


class MergedSettings(TypedDict):
    k: list[int]
    context_k: int | None
    """Null when no shard had a report.json (``trec_eval -q`` output)."""
    relevance_threshold: int | None
    trec_eval: bool


class MergedGold(TypedDict):
    source: str
    version: str | None
    index_version: str | None
    fingerprint: str | None
    """The unsharded gold set's, from the shards' question digests; null when a shard
    has none (trec_eval output, or a report.json written before them)."""
    questions: int
    answerable: int
    unanswerable: int
    no_relevant: int
    question_digests: dict[str, str] | None


class MergedCounts(TypedDict):
    questions_scored: int
    questions_missing: int
    unanswerable_left_out: int
    no_relevant: int
    extra_questions: int | None
    """Summed from the shards' report.json; null when a shard has none."""
    repeated_chunks: int | None
    results: int | None


class MergedRun(TypedDict):
    n: int
    means: Means
    by_kind: dict[str, CountedMeans]
    counts: MergedCounts


class MergedShard(TypedDict):
    source: str
    questions: int
    fingerprint: str | None


class MergedReport(TypedDict):
    """report.json as ``reportgen merge`` writes it: the means recomputed from the
    shards' per-question values, and what each shard held."""

    format_version: int
    tool_version: str
    version: str
    created: str
    settings: MergedSettings
    k: list[int]
    context_k: int | None
    gold: MergedGold
    runs: dict[str, MergedRun]
    warnings: list[WarningEntry]
    gate: GateSection | None
    """The --min rules on the merged means; null without any."""
    merged_from: list[MergedShard]
