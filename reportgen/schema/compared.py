"""The sections of report.json that compare: runs paired by question, this report
against a baseline, and the quality gate's rules (see the package's docstring)."""

from typing import Literal, NotRequired, TypedDict

from reportgen.schema.sections import CellCounts, Label
from reportgen.schema.slices import GateSlices, RuleSlice


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


class MdeMethod(TypedDict):
    """How each measure's minimum detectable effect was computed."""

    power: float
    alpha: float
    holm: str
    binary: str
    other: str
    null_when: str
    n_needed: str
    n_needed_for: float
    """The change each measure's ``n_needed`` is for (0.10)."""


class ClusterMethod(TypedDict):
    """How clustered questions (``--cluster-by``) were resampled."""

    field: str
    interval: str
    test: str
    design_effect: str


Family = Literal["primary", "exploratory"]
"""Which correction a label belongs to (docs/verdicts.md, "Families")."""


class FamilyMethod(TypedDict):
    """One family of tests: what it holds and how it was corrected."""

    tests: int
    measures: list[str]
    holds: str
    """In words: which measures of which comparisons."""
    correction: str | None
    """Null when the family holds no test."""
    mde_alpha: float | None
    """alpha / tests: the per-test alpha each of its mdes is computed at."""


class FamiliesMethod(TypedDict):
    primary: FamilyMethod
    exploratory: FamilyMethod


class Method(TypedDict):
    """How every comparison of a list was computed."""

    difference: str
    interval: IntervalMethod
    test: RandomizationMethod
    binary_test: str
    correction: str
    families: NotRequired[FamiliesMethod]
    """Absent from reports written before the labels had families."""
    families_text: NotRequired[str]
    """The sentence every output gives: which family a label belongs to and what it
    was corrected across."""
    changed_questions_kept: int
    alpha: float
    label: str
    mde: MdeMethod
    cluster: ClusterMethod | None
    """Null unless ``--cluster-by`` grouped some questions together."""
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
    mde: float | None
    """The smallest true difference this measure's label detects with 80% power, its
    family's correction included (at ``mde_alpha``); null when none within the
    measure's range is detectable."""
    n_needed: int
    """About how many questions would make a change of ``method.mde.n_needed_for``
    detectable, at this comparison's spread of differences."""
    design_effect: float
    """Variance of the mean difference with clusters over that of independent questions."""
    family: NotRequired[Family]
    """The family whose Holm correction ``p_holm`` and ``label`` are within (absent
    before families)."""
    mde_alpha: NotRequired[float]
    """alpha / the tests of its family: the per-test alpha ``mde`` is computed at."""
    p_holm: float
    label: Label
    n: NotRequired[int]
    """Questions paired on this measure, when fewer than the comparison's: a span
    measure is paired on the questions with evidence only."""


class ChangedQuestion(TypedDict):
    qid: str
    kind: str
    before: float
    after: float


class JudgedGap(TypedDict):
    """judged@k_ctx on both sides of a comparison, over the questions both count."""

    key: str
    before: float
    after: float
    difference: float
    unjudged: bool
    """The sides differ by more than 0.10: the comparison may reflect unjudged chunks,
    and every output says so next to its label."""


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
    clusters: int
    """Clusters among the paired questions: ``n`` when every question stands alone."""
    design_effect: float
    """The largest of its measures' design effects (1 without clusters)."""
    effective_n: float
    """``n`` / ``design_effect``: as many independent questions as the clusters are worth."""
    judged: NotRequired[JudgedGap | None]
    """Null when a side has no judged@k_ctx (a baseline made before reportgen had it)."""


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
    rule: Literal["requested", "same_gold", "newest", "commit", "ancestor"]
    versions: int
    newer: list[str]
    for_commit: NotRequired[str]
    """With --baseline-commit: the commit asked for."""
    commit: NotRequired[str | None]
    """With --baseline-commit: the chosen version's commit."""
    note: NotRequired[str | None]
    """With --baseline-fallback newest: why no version was found by commit."""


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
    type: Literal["min", "max-drop", "max", "max-rise"]
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
    mde: NotRequired[float | None]
    """The measure's smallest detectable change in this comparison (null: none is)."""
    n_needed: NotRequired[int]
    """About how many questions would make a drop of ``threshold`` detectable."""
    rise: NotRequired[float | None]
    """max-rise: (value - baseline_value) / baseline_value; null when the baseline was 0."""
    passed: bool
    message: str
    slice: NotRequired[RuleSlice]
    """The slice a --slice-gate rule held (field, value, questions in its means)."""


class GateSection(TypedDict):
    passed: bool
    significant_only: bool
    config: list[str]
    rules: list[RuleResult]
    skipped: list[str]
    notice: str | None
    slices: NotRequired[GateSlices]
    """With --slice-gate: the field, the smallest slice gated, the slices gated and not."""


TransitionState = Literal[
    "retrieved_correct",
    "retrieved_wrong",
    "missed_correct",
    "missed_wrong",
    "unanswerable",
    "no_verdict",
    "tied",
    "retrieved",
    "missed",
]


# "from" is a keyword: these two are declared in TypedDict's functional form.
TransitionMove = TypedDict(
    "TransitionMove",
    {
        "from": TransitionState,
        "to": TransitionState,
        "count": int,
        "questions": list[str],
        "flaky": list[str],
    },
)
"""Questions that went from one state to another, largest moves first; ``flaky``: those
of them whose judge trials or run replicates disagree (in this report or the baseline):
no regression."""


class FlakyMoved(TypedDict):
    count: int
    ids: list[str]


class TransitionTest(TypedDict):
    """Exact McNemar test of a pair of opposite moves (a -> b against b -> a)."""

    a: TransitionState
    b: TransitionState
    a_to_b: int
    b_to_a: int
    p: float


class TransitionPair(TypedDict):
    then: int
    now: int


SideBySideQuestion = TypedDict(
    "SideBySideQuestion",
    {
        "qid": str,
        "from": TransitionState,
        "to": TransitionState,
        "then": list[str] | None,
        "now": list[str],
        "relevant": list[str],
    },
)
"""One moved question: both runs' top k_ctx (``then`` None when the baseline's
report.json does not hold its list) and its relevant chunk ids."""


class SideBySide(TypedDict):
    available: bool
    """False when the baseline's report.json holds no top-k lists (older reports)."""
    count: int
    """Questions that moved (the list keeps the first, largest moves first)."""
    questions: list[SideBySideQuestion]


class TransitionsEntry(TypedDict):
    """One run's questions, baseline state (rows) -> this report's state (columns)."""

    mode: Literal["cells", "retrieval"]
    k: TransitionPair
    states: list[TransitionState]
    questions: int
    matrix: dict[str, dict[str, int]]
    then: dict[str, int]
    """Row sums: the baseline's counts per state over the questions both measured."""
    now: dict[str, int]
    """Column sums: this report's counts per state."""
    unchanged: int
    moved: int
    moves: list[TransitionMove]
    flaky: FlakyMoved
    """The moved questions that are flaky: marked so, never read as regressions."""
    tests: list[TransitionTest]
    only_in_baseline: int
    only_in_this_report: int
    notes: list[str]
    side_by_side: SideBySide


class TopKSection(TypedDict):
    """Every run's first k_ctx chunk ids per question: what a later report shows beside
    its own when it takes this one as its baseline."""

    k: int
    runs: dict[str, dict[str, list[str]]]
