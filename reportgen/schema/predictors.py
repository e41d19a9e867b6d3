"""What predicts the answers of a judged run: the keys analyse/predictors.py adds to
``attribution.<run>`` (pass rate by first gold rank, AUCs, headroom)."""

from typing import Literal, TypedDict

Interval = list[float | None]
"""[low, high], the 95% interval."""


class RankRow(TypedDict):
    n: int
    correct: int
    pass_rate: float | None
    interval: Interval | None
    """Wilson's score interval of the pass rate; null with no question."""


ByFirstGoldRank = dict[str, RankRow]
""""1".."k_ctx" (deeper when a trace's context was longer), then "none"."""


class RankTrend(TypedDict):
    test: Literal["cochran-armitage"]
    z: float | None
    """Negative when the pass rate falls with rank."""
    p: float | None
    """Two-sided; null when undefined (``reason``)."""
    falls: bool
    alpha: float
    reason: str | None


class KindRanks(TypedDict):
    by_first_gold_rank: ByFirstGoldRank
    trend: RankTrend
    sentence: str | None


class FirstGoldRank(TypedDict):
    basis: Literal["top_k", "trace"]
    multi_hop: bool
    note: str
    trend: RankTrend
    sentence: str | None
    """One sentence when the pass rate falls with rank beyond noise."""
    by_kind: dict[str, KindRanks]


class ResampleMethod(TypedDict):
    resamples: int
    seed: int
    level: float


class MeasureAssociation(TypedDict):
    n: int
    correct: int
    wrong: int
    auc: float | None
    interval: Interval | None
    interval_method: Literal["bootstrap", "delong"]
    """``bootstrap`` up to 2,000 questions (right and wrong resampled apart), else DeLong's."""
    reason: str | None


class AssociationSection(TypedDict):
    measures: dict[str, MeasureAssociation]
    best: str | None
    sentence: str | None
    gated: list[str]
    gated_from: Literal["gate", "default"]
    notes: list[str]
    reason: str | None
    """Why no AUC is defined (every verdict agrees); null otherwise."""
    method: ResampleMethod


class FixHeadroom(TypedDict):
    failures: int
    rate: float | None
    added: float | None
    added_interval: Interval | None
    pass_rate_after: float | None
    pass_rate_after_interval: Interval | None
    assumption: str
    reason: str | None


class HeadroomPair(TypedDict):
    n: int
    pass_rate: float | None
    retrieval: FixHeadroom
    generation: FixHeadroom
    sentence: str | None


class HeadroomSection(HeadroomPair):
    by_kind: dict[str, HeadroomPair]
    method: ResampleMethod
