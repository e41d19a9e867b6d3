"""What each run's quality costs: latency, cost and context size per question, summed up.

Each summary is over the gold set's questions that have a value: count, missing (never
read as 0), mean and the percentiles p50, p90, p95, p99 by linear interpolation between
the closest ranks, numpy's default method (Polars' ``interpolation="linear"`` is the
same). A run is compared with the reference run (``--reference-run``, else the first)
and with its namesake in the baseline, paired by question: the mean difference and its
95% bootstrap interval, over the questions both sides have a value for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from reportgen.analyse.resampling import LEVEL, SEED
from reportgen.core.records import dataclass
from reportgen.measure.names import PERCENTILES, SUMMARY_STATISTICS, summary_key
from reportgen.measure.scoring import Evaluation

PERCENTILE_METHOD = (
    "linear interpolation between the closest ranks (numpy's default percentile method)"
)


@dataclass(frozen=True)
class Quantity:
    """One per-question quantity reported beside quality."""

    name: str
    """The report.json key under ``runs.NAME`` and the stem of gate measures."""
    column: str
    unit: str

    def gate_key(self, statistic: str) -> str:
        """The measure a gate rule names: ``latency_p95_ms``, ``cost_p95``, ..."""
        return summary_key(self.name, statistic)


LATENCY = Quantity("latency", "latency_ms", "ms")
COST = Quantity("cost", "cost", "as given")
CONTEXT_WORDS = Quantity("context_words", "context_words", "words")


def context_size(context_k: int | None) -> Quantity:
    """Characters sent to the model per question: the chunks' lengths at k_ctx."""
    return Quantity("context_size", f"context_chars@{context_k}", "characters")


def quantities(columns: Sequence[str], context_k: int | None) -> list[Quantity]:
    """The quantities a per-question frame has columns for."""
    found = [LATENCY, COST, context_size(context_k), CONTEXT_WORDS]
    return [quantity for quantity in found if quantity.column in columns]


def summary(values: pl.Series) -> dict[str, float | int | None]:
    """count, missing, mean and the percentiles of one run's per-question values."""
    present = values.drop_nulls()
    found: dict[str, float | int | None] = {
        "count": present.len(),
        "missing": values.null_count(),
    }
    stats = present.to_frame("v").select(
        pl.col("v").mean().alias("mean"),
        *(
            pl.col("v").quantile(p / 100, interpolation="linear").alias(f"p{p}")
            for p in PERCENTILES
        ),
    )
    row = stats.row(0, named=True) if present.len() else dict.fromkeys(SUMMARY_STATISTICS)
    stated: dict[str, float | None] = {key: row[key] for key in SUMMARY_STATISTICS}
    return found | {key: None if value is None else float(value) for key, value in stated.items()}


def paired_difference(
    before: pl.DataFrame, after: pl.DataFrame, column: str
) -> dict[str, float | int | None]:
    """after - before, paired by question: its mean and 95% bootstrap interval, over the
    questions with a value on both sides (``questions``; an interval needs two)."""
    joined = (
        before.select("qid", pl.col(column).alias("before"))
        .join(after.select("qid", pl.col(column).alias("after")), on="qid", how="inner")
        .drop_nulls()
        .sort("qid")
    )
    diffs = joined.select(pl.col("after") - pl.col("before")).to_series()
    found: dict[str, float | int | None] = {
        "questions": diffs.len(),
        "difference": None if diffs.is_empty() else float(diffs.mean()),  # type: ignore[arg-type]
        "ci_low": None,
        "ci_high": None,
        "level": LEVEL,
    }
    if diffs.len() < 2:
        return found
    # NumPy (0.1 s to import) only when something is compared
    import numpy as np
    from threadpoolctl import threadpool_limits

    from reportgen.analyse.paired import bootstrap_interval

    with threadpool_limits(limits=1, user_api="blas"):
        low, high = bootstrap_interval(
            diffs.to_numpy().astype(np.float64).reshape(-1, 1), np.random.default_rng(SEED)
        )
    return found | {"ci_low": float(low[0]), "ci_high": float(high[0])}


@dataclass(frozen=True)
class RunCosts:
    """One quantity of one run: its summary and its paired differences."""

    summary: dict[str, float | int | None]
    versus_run: dict[str, float | int | str | None] | None
    """Against the reference run (None for the reference itself)."""
    versus_baseline: dict[str, float | int | str | None] | None
    """Against the baseline's run of that name (None without one that has a value)."""


@dataclass(frozen=True)
class CostFindings:
    """Every run's latency, cost and context size, and what the baseline had."""

    quantities: tuple[Quantity, ...]
    """The quantities some run has a value of, in report order."""
    runs: dict[str, dict[str, RunCosts]]
    """run -> quantity name -> its findings."""
    baseline: dict[str, dict[str, dict[str, float | int | None]]]
    """run -> quantity name -> the baseline run's summary, for the ones it has."""
    baseline_note: str | None
    """Why the baseline gives no latency or cost to compare with, when it does not."""
    overlapping_hops: dict[str, int]
    """run -> traces whose retriever spans overlap (parallel hops), for span runs."""
    hops: dict[str, str]
    """run -> how its traces' hops make one latency, for runs read from spans."""


def cost_findings(
    evaluation: Evaluation,
    reference: str | None,
    baseline_frame: pl.DataFrame | None,
    baseline_version: str | None,
    hops_rule: str,
) -> CostFindings | None:
    """Latency, cost and context size of every run; None when no run has a latency or
    a cost. ``baseline_frame`` is the baseline's per-question file (run, qid, ...)."""
    spans = [result for result in evaluation.runs if result.run.traces is not None]
    return findings_of(
        {result.name: result.scores for result in evaluation.runs},
        evaluation.settings.context_k,
        reference,
        baseline_frame,
        baseline_version,
        hops={result.name: hops_rule for result in spans},
        overlapping={result.name: len(result.run.overlapping_hops) for result in spans},
    )


def findings_of(
    frames: Mapping[str, pl.DataFrame],
    context_k: int | None,
    reference: str | None = None,
    baseline_frame: pl.DataFrame | None = None,
    baseline_version: str | None = None,
    *,
    hops: Mapping[str, str] | None = None,
    overlapping: Mapping[str, int] | None = None,
) -> CostFindings | None:
    """:func:`cost_findings` of per-question frames (run -> qid and value columns): what
    a merge of shards' per-question files rebuilds too."""
    if not frames:
        return None
    columns = next(iter(frames.values())).columns
    has_value = [
        quantity
        for quantity in quantities(columns, context_k)
        if any(frame[quantity.column].null_count() < frame.height for frame in frames.values())
    ]
    if not any(quantity in (LATENCY, COST) for quantity in has_value):
        return None  # context size alone is context_chars@k among the means already
    first = reference or next(iter(frames))
    then = _baseline_frames(baseline_frame, [q.column for q in has_value])
    runs: dict[str, dict[str, RunCosts]] = {}
    for name, frame in frames.items():
        runs[name] = {}
        for quantity in has_value:
            versus = (
                None
                if name == first
                else {"against": first, **paired_difference(frames[first], frame, quantity.column)}
            )
            earlier = then.get(name)
            versus_then = (
                {"against": baseline_version, **paired_difference(earlier, frame, quantity.column)}
                if earlier is not None and quantity.column in earlier.columns
                else None
            )
            runs[name][quantity.name] = RunCosts(
                summary(frame[quantity.column]), versus, versus_then
            )
    baseline = {
        name: {
            quantity.name: summary(frame[quantity.column])
            for quantity in has_value
            if quantity.column in frame.columns
        }
        for name, frame in then.items()
    }
    note = None
    if baseline_frame is not None and not any(
        LATENCY.column in f.columns or COST.column in f.columns for f in then.values()
    ):
        note = (
            f"the baseline ({baseline_version}) has no latency or cost per question (a report "
            "from before they were measured, or inputs without them): nothing to compare with"
        )
    return CostFindings(
        quantities=tuple(has_value),
        runs=runs,
        baseline=baseline,
        baseline_note=note,
        overlapping_hops=dict(overlapping or {}),
        hops=dict(hops or {}),
    )


def _baseline_frames(frame: pl.DataFrame | None, columns: Sequence[str]) -> dict[str, pl.DataFrame]:
    """run -> (qid, and the columns it has of ``columns``) of the baseline's file."""
    if frame is None:
        return {}
    kept = [column for column in columns if column in frame.columns]
    return {
        str(run): group.select("qid", *kept)
        for (run,), group in frame.group_by("run", maintain_order=True)
    }


def known_gate_keys(findings: CostFindings | None) -> dict[str, tuple[Quantity, str]]:
    """Gate measure -> (quantity, statistic) for the quantities this report has."""
    if findings is None:
        return {}
    return {
        quantity.gate_key(statistic): (quantity, statistic)
        for quantity in findings.quantities
        for statistic in SUMMARY_STATISTICS
    }


def statistic_of(
    findings: CostFindings | None, run: str, quantity: Quantity, statistic: str
) -> float | None:
    """A run's summary value a gate rule reads (None when it has none)."""
    if findings is None or quantity.name not in findings.runs.get(run, {}):
        return None
    value = findings.runs[run][quantity.name].summary[statistic]
    return None if value is None else float(value)


def baseline_statistic(
    findings: CostFindings | None, run: str, quantity: Quantity, statistic: str
) -> float | None:
    """The baseline run's summary value (None when the baseline lacks it)."""
    if findings is None:
        return None
    value = findings.baseline.get(run, {}).get(quantity.name, {}).get(statistic)
    return None if value is None else float(value)
