"""report.json's shape as types: every section a TypedDict, the format version, rounding.

The bottom of the house: it imports nothing of reportgen, so that every stage (the
analyses that build sections, the renderers that read them, the loaders of old
reports) can name the same shapes without importing each other. Import every name
from here; sections.py holds what was measured, compared.py the comparisons, the
baseline and the gate. reportgen/schema/schema.json is generated from these types
(scripts/make_report_schema.py), and the tests check every report.json they write
against it: a key added to a section without adding it here fails the tests.

Keys that a name varies (run names, measure keys, question ids, kinds, cutoffs) are
``dict[str, ...]``; every other object is closed. See docs/report-json.md for what
each key means and when ``format_version`` changes.
"""

from typing import NotRequired, TypedDict

from reportgen.schema.compared import (
    BaselineComparison,
    BaselineGold,
    BaselineSection,
    CellsThenNow,
    ChangedQuestion,
    ClusterMethod,
    Comparison,
    ComparisonsSection,
    FamiliesMethod,
    FamilyMethod,
    FlakyMoved,
    GateSection,
    GoldChange,
    IntervalMethod,
    JudgedGap,
    LeftOut,
    LeftOutQuestions,
    MdeMethod,
    MeasureChange,
    Method,
    RandomizationMethod,
    RuleResult,
    Selection,
    SideBySide,
    SideBySideQuestion,
    StaleThenNow,
    ThenNow,
    TopKSection,
    TransitionMove,
    TransitionPair,
    TransitionsEntry,
    TransitionState,
    TransitionTest,
)
from reportgen.schema.pages import (
    CHUNK_TEXT_KEPT,
    GOLD_IDS_KEPT,
    PANELS_KEPT,
    QUESTION_ROWS_KEPT,
    MeasureDefinition,
    PagesSection,
    Panel,
    PanelChunk,
    PanelPassage,
    QuestionRow,
    RunRow,
    TopScores,
)
from reportgen.schema.predictors import (
    AssociationSection,
    ByFirstGoldRank,
    FirstGoldRank,
    FixHeadroom,
    HeadroomPair,
    HeadroomSection,
    KindRanks,
    MeasureAssociation,
    RankRow,
    RankTrend,
    ResampleMethod,
)
from reportgen.schema.secondary import (
    Agreement,
    AuditFacts,
    AuditSample,
    Guard,
    PPIComparisons,
    PPIDifference,
    PPIMean,
    PPIPair,
    SecondaryJudgments,
    SecondaryMeans,
)
from reportgen.schema.sections import (
    AttributionSection,
    ByCoverage,
    Cell,
    CellCounts,
    CellQuestions,
    CellRange,
    Cells,
    CellShares,
    ChunkingsSection,
    ChunkMapSummary,
    ContextSource,
    CountedMeans,
    CoverageSplit,
    CutoffErrors,
    CutoffQuestions,
    CutoffSection,
    DrilldownSection,
    EvidenceSummary,
    Focus,
    Forbidden,
    GoldSection,
    HygieneSection,
    InOverlap,
    JudgeAgreement,
    KindCounts,
    Label,
    LatencySummary,
    LeakCounts,
    LeakedChunk,
    Leaks,
    Listed,
    ManifestSummary,
    Means,
    Outcome,
    PairedDifference,
    Provenance,
    QuantitySummary,
    RetrievedRule,
    RunContext,
    RunCounts,
    RunReplicates,
    RunSection,
    RunTraces,
    ScoreRange,
    SettingsSection,
    SliceCells,
    SliceNumbers,
    SliceOutcomes,
    Stale,
    StaleBasis,
    Unanswerable,
    UnansweredQuestions,
    UnmatchedTraceEntry,
    VerdictsSection,
    WarningEntry,
    counted,
)
from reportgen.schema.slices import (
    GateSlices,
    NotGated,
    RuleSlice,
    SliceComparison,
    SliceFieldComparisons,
    SliceMeasureChange,
    SlicesSection,
)

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


class MergedShard(TypedDict):
    source: str
    questions: int
    fingerprint: str | None
    shard: NotRequired[int]
    """Its number in the `reportgen shard` cut it came from (shards cut by hand: none)."""


class MergeCoverage(TypedDict):
    """How much of the cut a merge holds: a partial merge (--allow-partial) says it."""

    questions: int
    of: int
    """The questions of the whole gold set that was cut."""
    shards: int
    missing_shards: list[int]


class Report(TypedDict):
    """report.json as ``reportgen report`` (and ``demo``) writes it."""

    format_version: int
    tool_version: str
    version: str
    commit: NotRequired[str | None]
    """The commit measured (``--commit``; default GITHUB_SHA or the work tree's HEAD);
    null when unknown, missing from reports written before it."""
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
    chunkings: ChunkingsSection | None
    drilldown: DrilldownSection | None
    pages: NotRequired[PagesSection]
    """What the pages show beyond the sections above (``reportgen render`` reads it);
    missing from reports written before it."""
    transitions: NotRequired[dict[str, TransitionsEntry] | None]
    """Per run, how its questions moved since the baseline; null without one."""
    top_k: NotRequired[TopKSection]
    """Every run's top k_ctx per question, for the reports that take this one as baseline."""
    merged_from: NotRequired[list[MergedShard]]
    """Written by ``reportgen merge`` from shards measured with --merge-data: the
    shards, and what each held; every other key is as one report over them all."""
    merge_coverage: NotRequired[MergeCoverage]
    """Written by ``reportgen merge`` when the shards come from `reportgen shard`: the
    questions merged, of how many, and the shards missing (with --allow-partial)."""
    slices: NotRequired[SlicesSection | None]
    """With --slice-by: the fields, each slice's size and comparisons; null without."""
    secondary_judgments: NotRequired[SecondaryJudgments]
    """With --judgments: each run's numbers with the secondary judgments beside the gold
    set's, and their agreement; never read by the gate or the comparisons."""


class MergedSettings(TypedDict):
    k: list[int]
    context_k: int | None
    """Null when no shard had a report.json (``trec_eval -q`` output)."""
    relevance_threshold: int | None
    trec_eval: bool
    retrieved_when: RetrievedRule | None
    """Null when no shard's report.json says (no report.json, or one written before)."""
    context_k_assumed: bool | None


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
    repeated_across_hops: int | None
    results: int | None


class MergedRun(TypedDict):
    n: int
    means: Means
    by_kind: dict[str, CountedMeans]
    counts: MergedCounts
    latency: NotRequired[LatencySummary]
    """Rebuilt from the shards' per-question values (percentiles are never merged)."""
    cost: NotRequired[QuantitySummary]
    context_size: NotRequired[QuantitySummary]
    context_words: NotRequired[QuantitySummary]


class MergedReport(TypedDict):
    """report.json as ``reportgen merge`` writes it from shards holding per-question
    values only (no merge/): the means recomputed from them, and what each shard held."""

    format_version: int
    tool_version: str
    version: str
    commit: NotRequired[str | None]
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


__all__ = [
    "CHUNK_TEXT_KEPT",
    "DIGITS",
    "FORMAT_VERSION",
    "GOLD_IDS_KEPT",
    "PANELS_KEPT",
    "QUESTION_ROWS_KEPT",
    "READABLE_FORMAT_VERSIONS",
    "Agreement",
    "AssociationSection",
    "AttributionSection",
    "AuditFacts",
    "AuditSample",
    "BaselineComparison",
    "BaselineGold",
    "BaselineSection",
    "ByCoverage",
    "ByFirstGoldRank",
    "Cell",
    "CellCounts",
    "CellQuestions",
    "CellRange",
    "CellShares",
    "Cells",
    "CellsThenNow",
    "ChangedQuestion",
    "ChunkMapSummary",
    "ChunkingsSection",
    "ClusterMethod",
    "Comparison",
    "ComparisonsSection",
    "ContextSource",
    "CountedMeans",
    "CoverageSplit",
    "CutoffErrors",
    "CutoffQuestions",
    "CutoffSection",
    "DrilldownSection",
    "EvidenceSummary",
    "FamiliesMethod",
    "FamilyMethod",
    "FirstGoldRank",
    "FixHeadroom",
    "FlakyMoved",
    "Focus",
    "Forbidden",
    "GateSection",
    "GateSlices",
    "GoldChange",
    "GoldSection",
    "Guard",
    "HeadroomPair",
    "HeadroomSection",
    "HygieneSection",
    "InOverlap",
    "IntervalMethod",
    "JudgeAgreement",
    "JudgedGap",
    "KindCounts",
    "KindRanks",
    "Label",
    "LatencySummary",
    "LeakCounts",
    "LeakedChunk",
    "Leaks",
    "LeftOut",
    "LeftOutQuestions",
    "Listed",
    "ManifestSummary",
    "MdeMethod",
    "Means",
    "MeasureAssociation",
    "MeasureChange",
    "MeasureDefinition",
    "MergeCoverage",
    "MergedCounts",
    "MergedGold",
    "MergedReport",
    "MergedRun",
    "MergedSettings",
    "MergedShard",
    "Method",
    "NotGated",
    "Outcome",
    "PPIComparisons",
    "PPIDifference",
    "PPIMean",
    "PPIPair",
    "PagesSection",
    "PairedDifference",
    "Panel",
    "PanelChunk",
    "PanelPassage",
    "Provenance",
    "QuantitySummary",
    "QuestionRow",
    "RandomizationMethod",
    "RankRow",
    "RankTrend",
    "Report",
    "ResampleMethod",
    "RetrievedRule",
    "RuleResult",
    "RuleSlice",
    "RunContext",
    "RunCounts",
    "RunReplicates",
    "RunRow",
    "RunSection",
    "RunTraces",
    "ScoreRange",
    "SecondaryJudgments",
    "SecondaryMeans",
    "Selection",
    "SettingsSection",
    "SideBySide",
    "SideBySideQuestion",
    "SliceCells",
    "SliceComparison",
    "SliceFieldComparisons",
    "SliceMeasureChange",
    "SliceNumbers",
    "SliceOutcomes",
    "SlicesSection",
    "Stale",
    "StaleBasis",
    "StaleThenNow",
    "ThenNow",
    "TopKSection",
    "TopScores",
    "TransitionMove",
    "TransitionPair",
    "TransitionState",
    "TransitionTest",
    "TransitionsEntry",
    "Unanswerable",
    "UnansweredQuestions",
    "UnmatchedTraceEntry",
    "VerdictsSection",
    "WarningEntry",
    "counted",
    "rounded",
]
