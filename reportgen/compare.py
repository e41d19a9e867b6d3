"""Runs and versions side by side, with paired statistics that do not fool anyone.

With 59 questions one question moves a mean by 0.017, and two runs with the same mean
can fail on different questions (SPEC.md). So every comparison is paired by question
and reports, per measure: the difference (after - before) with a 95% percentile
bootstrap interval, a two-sided paired randomization (sign-flip) test, an exact
McNemar test for binary measures (hit@k), Holm's correction across every measure
and pair compared, win / tie / loss counts, the questions that changed, and 1/n.

A difference is labelled "better" or "worse" only when the Holm-adjusted p-value is
below 0.05 AND the interval excludes 0; otherwise it is "within noise".

Resampling is matrix algebra (resamples x questions, in blocks that bound memory),
never a Python loop over resamples. The resamples depend only on :data:`SEED` and the
number of questions n: every pair with the same n is resampled with the same draws
(common random numbers), so each block of draws is made once per report and applied
to all those pairs' differences side by side in one matrix product (15 pairs of runs
over 10,000 questions: ~2 s instead of ~30 s). Questions are sorted by id first, so the
same inputs give the same intervals and p-values, whatever else is compared alongside.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import polars as pl
from threadpoolctl import threadpool_limits

from reportgen.measures import MEASURES

RESAMPLES = 10_000
"""Bootstrap resamples and randomization sign-flips per comparison."""
SEED = 20_250_601
ALPHA = 0.05
LEVEL = 0.95
TOLERANCE = 1e-9
"""Two per-question values closer than this are equal (float noise is not a change)."""
BOOTSTRAP_BLOCK_CELLS = 500_000
SIGN_FLIP_BLOCK_CELLS = 4_000_000
"""Resamples are drawn in blocks of at most this many (resample, question) cells: memory
stays bounded, and these sizes were the fastest at 10,000 questions on 2 cores."""
DIGITS = 10
CHANGED_QUESTIONS_KEPT = 100
"""Questions listed as changed per comparison in report.json (the full per-question
values are in per_question.csv): 15 pairs x 3 measures x thousands of questions made
report.json 15 MB at 10,000 questions."""

Matrix = npt.NDArray[np.float64]
BINARY_NAMES = frozenset(m.name for m in MEASURES if m.binary)


def is_binary(key: str) -> bool:
    return key.partition("@")[0] in BINARY_NAMES


def method() -> dict[str, Any]:
    """How every comparison was computed, written beside the numbers in report.json."""
    return {
        "difference": "after - before: mean over the questions both sides count",
        "interval": {
            "name": "percentile bootstrap over questions",
            "level": LEVEL,
            "resamples": RESAMPLES,
            "seed": SEED,
        },
        "test": {
            "name": "paired randomization test (sign flips of per-question differences), two-sided",
            "resamples": RESAMPLES,
            "seed": SEED,
            "exact_when": "2^m <= resamples, m = questions whose values differ: then every "
            "sign flip is enumerated",
        },
        "binary_test": "exact McNemar test (two-sided binomial on the discordant questions); "
        "used as the p-value of binary measures (hit@k)",
        "correction": "Holm, across every measure of every comparison in this list",
        "changed_questions_kept": CHANGED_QUESTIONS_KEPT,
        "alpha": ALPHA,
        "label": "better / worse only when the Holm-adjusted p < alpha and the interval "
        "excludes 0; otherwise within noise",
    }


def _blocks(resamples: int, n: int, cells: int) -> list[int]:
    size = max(1, cells // max(n, 1))
    full, rest = divmod(resamples, size)
    return [size] * full + ([rest] if rest else [])


def bootstrap_interval(
    diffs: Matrix, rng: np.random.Generator, resamples: int = RESAMPLES
) -> tuple[Matrix, Matrix]:
    """Percentile interval of the mean difference, per column of ``diffs`` (n x M).

    Each resample is a row of counts (how often each question was drawn), so a
    block of resamples is one matrix product with the differences.
    """
    n = diffs.shape[0]
    means = []
    for size in _blocks(resamples, n, BOOTSTRAP_BLOCK_CELLS):
        draws = rng.integers(0, n, size=(size, n), dtype=np.int32)
        offsets = (np.arange(size, dtype=np.int32) * n)[:, None]
        counts = np.bincount((draws + offsets).ravel(), minlength=size * n).reshape(size, n)
        means.append(counts @ diffs / n)
    boot = np.vstack(means)
    tail = (1 - LEVEL) / 2
    low, high = np.quantile(boot, [tail, 1 - tail], axis=0)
    return np.asarray(low, dtype=np.float64), np.asarray(high, dtype=np.float64)


def _two_sided(null: Matrix, observed: Matrix, adjustment: int) -> Matrix:
    """scipy.stats.permutation_test's two-sided p: twice the smaller tail, at most 1."""
    less = ((null <= observed + TOLERANCE).sum(axis=0) + adjustment) / (len(null) + adjustment)
    greater = ((null >= observed - TOLERANCE).sum(axis=0) + adjustment) / (len(null) + adjustment)
    return np.asarray(np.minimum(1.0, 2 * np.minimum(less, greater)), dtype=np.float64)


def randomization_p(
    diffs: Matrix, rng: np.random.Generator, resamples: int = RESAMPLES
) -> tuple[Matrix, npt.NDArray[np.bool_]]:
    """Two-sided p-value of the mean difference per column, and whether it is exact.

    Under the null each question's difference is as likely to have either sign.
    Questions whose values are equal never move the statistic, so when the m that
    differ allow 2^m <= resamples every flip is enumerated (an exact p-value, as
    scipy gives); otherwise random flips, with the +1 correction that keeps a Monte
    Carlo p-value valid.
    """
    n, columns = diffs.shape
    observed = diffs.sum(axis=0)
    p = np.ones(columns)
    changed = np.abs(diffs) > TOLERANCE
    exact = changed.sum(axis=0) <= math.floor(math.log2(resamples))
    sampled = ~exact
    if sampled.any():
        chosen = diffs[:, sampled]
        nulls = []
        for size in _blocks(resamples, n, SIGN_FLIP_BLOCK_CELLS):
            # Flipping the questions marked 1 turns sum(d) into sum(d) - 2 * sum(flipped d).
            flipped = rng.integers(0, 2, size=(size, n), dtype=np.int8).astype(np.float64)
            nulls.append(chosen.sum(axis=0) - 2.0 * (flipped @ chosen))
        p[sampled] = _two_sided(np.vstack(nulls), observed[sampled], adjustment=1)
    for column in np.flatnonzero(exact):
        values = diffs[changed[:, column], column]
        m = len(values)
        flips = 1.0 - 2.0 * ((np.arange(2**m)[:, None] >> np.arange(m)) & 1)
        p[column] = _two_sided(
            (flips @ values)[:, None], observed[column : column + 1], adjustment=0
        )[0]
    return p, exact


def mcnemar_p(before: npt.NDArray[np.float64], after: npt.NDArray[np.float64]) -> float:
    """Exact two-sided McNemar p-value: the discordant questions as fair coin flips.

    The binomial tail is summed in exact integers, each coefficient from the one
    before (C(d, i+1) = C(d, i) * (d - i) / (i + 1)): one multiplication per term, not
    a fresh ``math.comb``, which cost ~1 s over 15 pairs at 10,000 questions.
    """
    lost = int(((before > 0.5) & (after < 0.5)).sum())
    gained = int(((before < 0.5) & (after > 0.5)).sum())
    discordant = lost + gained
    if discordant == 0:
        return 1.0
    term = tail = 1
    for i in range(min(lost, gained)):
        term = term * (discordant - i) // (i + 1)
        tail += term
    return min(1.0, 2 * tail / (1 << discordant))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error), in the input's order."""
    p = np.asarray(p_values, dtype=np.float64)
    if p.size == 0:
        return []
    order = np.argsort(p, kind="stable")
    scaled = p[order] * (p.size - np.arange(p.size))
    adjusted = np.minimum(1.0, np.maximum.accumulate(scaled))
    result = np.empty_like(adjusted)
    result[order] = adjusted
    return [float(value) for value in result]


def label(p_holm: float | None, low: float | None, high: float | None) -> str:
    """The plain word next to a difference; "within noise" unless both tests agree."""
    if p_holm is None or low is None or high is None or p_holm >= ALPHA:
        return "within noise"
    if low > 0:
        return "better"
    if high < 0:
        return "worse"
    return "within noise"


def _round(value: float) -> float:
    return round(float(value), DIGITS)


def _significant(p: float) -> float:
    """p-values keep 10 significant digits: 2 / 2^40 must not round to 0."""
    return float(f"{float(p):.10g}")


@dataclass(frozen=True)
class Side:
    """One side of a comparison: its name and its per-question values (wide frame).

    ``values`` holds qid, kind and one column per measure, for the questions that
    count in its means only.
    """

    name: str
    values: pl.DataFrame


def paired_measures(
    before: Side,
    after: Side,
    keys: Sequence[str],
    change_keys: Sequence[str] = (),
    seed: int = SEED,
) -> dict[str, Any]:
    """One comparison, before Holm: every measure of ``keys``, paired by question.

    ``change_keys`` are the measures whose changed questions are listed.
    """
    return compare_pairs([(before, after)], keys, change_keys, seed)[0]


@dataclass(frozen=True)
class _Pair:
    """One comparison's paired values: questions (sorted by id) x measures."""

    entry: dict[str, Any]
    keys: list[str]
    old: Matrix
    new: Matrix
    diffs: Matrix


def _pair(before: Side, after: Side, keys: Sequence[str], change_keys: Sequence[str]) -> _Pair:
    keys = [k for k in keys if k in before.values.columns and k in after.values.columns]
    paired = (
        after.values.select("qid", "kind", *keys)
        .join(
            before.values.select("qid", *[pl.col(k).alias(f"{k}__before") for k in keys]),
            on="qid",
            how="inner",
        )
        .sort("qid")
    )
    n = paired.height
    entry: dict[str, Any] = {
        "before": before.name,
        "after": after.name,
        "n": n,
        "one_question": _round(1 / n) if n else None,
        "measures": {},
    }
    entry.update(changed_questions(paired, [key for key in change_keys if key in keys]))
    old = paired.select([f"{k}__before" for k in keys]).to_numpy().astype(np.float64)
    new = paired.select(keys).to_numpy().astype(np.float64)
    diffs = new - old
    diffs[np.abs(diffs) <= TOLERANCE] = 0.0  # values read back from CSV differ in the last bits
    return _Pair(entry, keys, old, new, diffs)


Resampled = tuple[Matrix, Matrix, Matrix, npt.NDArray[np.bool_]]
"""A pair's (ci_low, ci_high, p_randomization, randomization_exact), one value per measure."""


def _resampled(pairs: Sequence[_Pair], seed: int) -> list[Resampled]:
    """Each pair's (low, high, p_randomization, exact), the draws shared by equal n.

    Every group of pairs with the same number of questions is resampled in one go:
    their difference matrices side by side, the generator seeded afresh per group,
    so each pair gets exactly the draws it would get alone. The products run on one
    BLAS thread: OpenBLAS's extra threads spin-wait, and on a busy 2-core machine
    they made the bootstrap 3-6x slower than one thread (6-13 s against 2 s).
    """
    nothing: Resampled = (np.empty(0), np.empty(0), np.empty(0), np.empty(0, dtype=np.bool_))
    results = [nothing] * len(pairs)
    groups: dict[int, list[int]] = {}
    for index, pair in enumerate(pairs):
        if pair.diffs.shape[0] and pair.keys:
            groups.setdefault(pair.diffs.shape[0], []).append(index)
    for members in groups.values():
        stacked = np.hstack([pairs[i].diffs for i in members])
        with threadpool_limits(limits=1, user_api="blas"):
            low, high = bootstrap_interval(stacked, np.random.default_rng(seed))
            p_random, exact = randomization_p(stacked, np.random.default_rng(seed))
        bounds = np.cumsum([0, *(len(pairs[i].keys) for i in members)])
        for i, start, stop in zip(members, bounds[:-1], bounds[1:], strict=True):
            results[i] = (
                low[start:stop],
                high[start:stop],
                p_random[start:stop],
                exact[start:stop],
            )
    return results


def compare_pairs(
    sides: Sequence[tuple[Side, Side]],
    keys: Sequence[str],
    change_keys: Sequence[str] = (),
    seed: int = SEED,
) -> list[dict[str, Any]]:
    """Every comparison (before, after) of ``sides``, before Holm, in the order given."""
    pairs = [_pair(before, after, keys, change_keys) for before, after in sides]
    for pair, (low, high, p_random, exact) in zip(pairs, _resampled(pairs, seed), strict=True):
        if not pair.diffs.shape[0]:
            continue
        for column, key in enumerate(pair.keys):
            old, new, column_diffs = pair.old[:, column], pair.new[:, column], pair.diffs[:, column]
            binary = is_binary(key)
            p_mcnemar = mcnemar_p(old, new) if binary else None
            pair.entry["measures"][key] = {
                "before": _round(old.mean()),
                "after": _round(new.mean()),
                "difference": _round(column_diffs.mean()),
                "ci_low": _round(low[column]),
                "ci_high": _round(high[column]),
                "p_randomization": _significant(p_random[column]),
                "randomization_exact": bool(exact[column]),
                "p_mcnemar": None if p_mcnemar is None else _significant(p_mcnemar),
                "test": "mcnemar" if binary else "randomization",
                "p": _significant(p_mcnemar if p_mcnemar is not None else p_random[column]),
                "wins": int((column_diffs > TOLERANCE).sum()),
                "ties": int((np.abs(column_diffs) <= TOLERANCE).sum()),
                "losses": int((column_diffs < -TOLERANCE).sum()),
            }
    return [pair.entry for pair in pairs]


def changed_questions(paired: pl.DataFrame, keys: Sequence[str]) -> dict[str, Any]:
    """The questions whose value moved on any of ``keys``, and how many.

    At most :data:`CHANGED_QUESTIONS_KEPT` questions are listed: those first in the
    order the pages show them (largest losses on the first key, then the next key, then
    id). A listed question carries every key on which it moved, so a reader never sees
    a change as "=". Each key's list runs losses first (largest drop first), then gains.
    """
    if not keys:
        return {"changed_questions": {}, "changed_counts": {}, "changed_total": 0}
    deltas = {key: pl.col(key) - pl.col(f"{key}__before") for key in keys}
    moved = paired.with_columns(
        pl.when(delta.abs() > TOLERANCE).then(delta).otherwise(0.0).alias(f"{key}__delta")
        for key, delta in deltas.items()
    ).filter(pl.any_horizontal(pl.col(f"{key}__delta") != 0.0 for key in keys))
    kept = moved.sort([*(f"{key}__delta" for key in keys), "qid"]).head(CHANGED_QUESTIONS_KEPT)
    listed = {
        key: [
            {
                "qid": row["qid"],
                "kind": row["kind"],
                "before": _round(row["before"]),
                "after": _round(row["after"]),
            }
            for row in kept.filter(pl.col(f"{key}__delta") != 0.0)
            .sort(f"{key}__delta", "qid")
            .select(
                "qid", "kind", pl.col(f"{key}__before").alias("before"), pl.col(key).alias("after")
            )
            .iter_rows(named=True)
        ]
        for key in keys
    }
    counts = {key: moved.filter(pl.col(f"{key}__delta") != 0.0).height for key in keys}
    return {
        "changed_questions": listed,
        "changed_counts": counts,
        "changed_total": moved.height,
    }


def correct(comparisons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Holm across every measure of every comparison; then each difference's label."""
    cells = [measure for entry in comparisons for measure in entry["measures"].values()]
    for measure, adjusted in zip(cells, holm([m["p"] for m in cells]), strict=True):
        measure["p_holm"] = _significant(adjusted)
        measure["label"] = label(adjusted, measure["ci_low"], measure["ci_high"])
    return comparisons


def pairs_to_compare(names: Sequence[str], reference: str | None) -> list[tuple[str, str]]:
    """Every pair in the order given (before, after), or each run against the reference."""
    if reference is not None:
        return [(reference, name) for name in names if name != reference]
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]


def compare_runs(
    sides: Mapping[str, pl.DataFrame],
    keys: Sequence[str],
    change_keys: Sequence[str],
    reference: str | None = None,
) -> dict[str, Any]:
    """The ``comparisons`` section: every pair (or every run against ``reference``)."""
    entries = compare_pairs(
        [
            (Side(a, sides[a]), Side(b, sides[b]))
            for a, b in pairs_to_compare(list(sides), reference)
        ],
        keys,
        change_keys,
    )
    correct(entries)
    return {
        "method": {**method(), "family_size": sum(len(e["measures"]) for e in entries)},
        "measures": list(keys),
        "reference_run": reference,
        "pairs": entries,
    }


def wide(long: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """Per-question long rows (run, qid, kind, measure, value) as one wide frame per run."""
    frames = {}
    for (run,), group in long.sort("run").group_by("run", maintain_order=True):
        frames[str(run)] = group.pivot(
            "measure", index=["qid", "kind"], values="value", aggregate_function="first"
        ).sort("qid")
    return frames
