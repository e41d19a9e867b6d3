"""The ``secondary_judgments`` section: numbers with judgments kept apart from the gold
set (an LLM judge's), and their agreement with it."""

from typing import TypedDict


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
