"""The ``secondary_judgments`` section: numbers with judgments kept apart from the gold
set (an LLM judge's), and their agreement with it."""

from typing import Literal, NotRequired, TypedDict


class SecondaryMeans(TypedDict):
    n: int
    """Questions in the means (the same on both sides)."""
    human: dict[str, float | None]
    """Measure key -> mean on the gold set alone: the numbers ``runs`` holds."""
    with_secondary: dict[str, float | None]
    """Measure key -> mean with the secondary judgments added where the gold set has none."""


class Agreement(TypedDict):
    pairs: int
    """(question, chunk) pairs both the gold set and the secondary source graded."""
    kappa: float | None
    """Cohen's kappa over those pairs' grades (unweighted); null with no pair, or when
    chance agreement is total."""
    labels: list[int]
    matrix: list[list[int]]
    """Rows: the gold set's grade; columns: the secondary grade, in ``labels`` order."""


class PPIMean(TypedDict):
    """One prediction-powered mean (SPEC.md, "Prediction-powered measures")."""

    estimate: float | None
    """mean_N(judge) + mean_n(human - judge): the judge over all its questions, corrected
    by the audit; null without an audited question."""
    ci_low: float | None
    """95% interval, estimate -+ 1.96 standard errors, cut to the measure's range."""
    ci_high: float | None
    n_human: int
    """Audited questions (the gold set's, among the judge's)."""
    n_all: int
    """The judge's questions."""
    judge_only: float | None
    """The judge's mean over all its questions: biased by its errors."""
    human_only: float | None
    """The gold set's mean over the audited questions (a question with nothing relevant
    at 0)."""
    clipped: bool
    """The interval ran past the measure's range and was cut to it."""


class AuditSample(TypedDict):
    size: int
    population: int
    seed: int


class Guard(TypedDict):
    code: str
    message: str
    count: int
    examples: list[str]


class AuditFacts(TypedDict):
    """The gold set as the human audit of the judge."""

    questions: int
    judge_questions: int
    sample: AuditSample | None
    """The sample `reportgen label export --sample` drew, as its questions are marked."""
    outside_judge: int
    """Gold questions the judge did not grade: not in the audit."""
    pairs: int
    kappa: float | None
    """Cohen's kappa on the audited pairs both graded."""
    guards: list[Guard]
    """Why the audit may not lend the judge weight (also in ``warnings``); --estimate ppi
    is refused while any holds."""


class PPIDifference(TypedDict):
    estimate: float | None
    ci_low: float | None
    ci_high: float | None
    judge_only: float | None
    human_only: float | None
    clipped: bool
    p: float
    mde: float | None
    p_holm: float
    label: str


class PPIPair(TypedDict):
    before: str
    after: str
    n_all: int
    n_human: int
    measures: dict[str, PPIDifference]


class PPIComparisons(TypedDict):
    estimate: Literal["ppi"]
    method: str
    family_size: int
    pairs: list[PPIPair]


class SecondaryJudgments(TypedDict):
    source: str
    judgments: int
    outside_gold: int
    """Judgments of questions the gold set does not have: ignored."""
    added: int
    """Pairs the gold set does not grade, added for the ``with_secondary`` numbers."""
    sources: list[str]
    models: list[str]
    prompt_hashes: list[str]
    measures: list[str]
    runs: dict[str, SecondaryMeans]
    agreement: Agreement
    estimate: NotRequired[Literal["human", "ppi"]]
    """What the gate reads (--estimate); ``ppi`` also compares the runs by it."""
    audit: NotRequired[AuditFacts]
    ppi: NotRequired[dict[str, dict[str, PPIMean]]]
    """Run -> measure (at k_ctx, and those the gate names) -> its prediction-powered mean."""
    ppi_comparisons: NotRequired[PPIComparisons]
    """With --estimate ppi: every pair of runs by the PPI estimator on per-question
    differences (after - before), labelled as ``comparisons`` are."""
