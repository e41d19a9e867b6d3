"""report.json's slice sections (``--slice-by``): their types."""

from __future__ import annotations

from typing import TypedDict


class SliceMeasureChange(TypedDict):
    before: float
    after: float
    difference: float
    ci_low: float
    ci_high: float
    test: str
    p: float
    p_holm: float
    label: str
    mde: float | None
    n_needed: int
    wins: int
    losses: int


class SliceComparison(TypedDict):
    value: str
    run: str
    against: str
    """``baseline``, or the run it is compared with."""
    n: int
    measures: dict[str, SliceMeasureChange]


class SliceFieldComparisons(TypedDict):
    against: str
    """``baseline`` (each run against its namesake there) or ``runs``."""
    measures: list[str]
    correction: str
    slices: list[SliceComparison]


class SlicesSection(TypedDict):
    fields: list[str]
    missing_value: str
    """The name of the slice of the questions without a value."""
    gate_field: str | None
    min_slice_n: int
    questions: dict[str, dict[str, int]]
    """Field -> value -> the slice's questions."""
    comparisons: dict[str, SliceFieldComparisons]
    """Field -> its slices' comparisons: the gated field, else the first field only."""
    not_compared: list[str]
    """The other fields: means, intervals and cells, no comparison (each field's
    resampling costs about what the whole runs' comparison costs)."""


class RuleSlice(TypedDict):
    field: str
    value: str
    n: int


class NotGated(TypedDict):
    value: str
    n: int


class GateSlices(TypedDict):
    field: str
    min_n: int
    gated: list[str]
    not_gated: list[NotGated]
