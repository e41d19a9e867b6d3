"""The sections of report.json that compare: runs paired by question, this report
against a baseline, and the quality gate's rules (see the package's docstring)."""

from typing import Literal, NotRequired, TypedDict

from reportgen.schema.sections import CellCounts, Label


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
