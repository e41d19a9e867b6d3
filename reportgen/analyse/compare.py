"""Runs and versions side by side, with paired statistics that do not fool anyone.

With 59 questions one question moves a mean by 0.017, and two runs with the same mean
can fail on different questions (SPEC.md). So every comparison is paired by question
and reports, per measure: the difference (after - before) with a 95% percentile
bootstrap interval, a two-sided paired randomization (sign-flip) test, an exact
McNemar test for binary measures (hit@k), Holm's correction across every measure
and pair compared, win / tie / loss counts, the questions that changed, and 1/n.

A difference is labelled "better" or "worse" only when the Holm-adjusted p-value is
below 0.05 AND the interval excludes 0; otherwise it is "within noise".

Resampling (paired.py, the only NumPy user, imported only when something is compared; it
returns arrays, this module builds the entries) is matrix algebra (resamples x
questions, in blocks that bound memory), never a Python loop over resamples. The
resamples depend only on :data:`SEED` and the number of questions n: every pair with the
same n is resampled with the same draws (common random numbers), so each block of draws
is made once per report and applied to all those pairs' differences side by side in one
matrix product (15 pairs of runs over 10,000 questions: ~2 s instead of ~30 s).
Questions are sorted by id first, so the same inputs give the same intervals and
p-values, whatever else is compared alongside.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import polars as pl

from reportgen.analyse.resampling import LEVEL, RESAMPLES, SEED, TOLERANCE
from reportgen.measure.measures import MEASURES

if TYPE_CHECKING:
    from reportgen.analyse.paired import PairedStatistics

ALPHA = 0.05
DIGITS = 10
CHANGED_QUESTIONS_KEPT = 100
"""Questions listed as changed per comparison in report.json (the full per-question
values are in per_question.csv): 15 pairs x 3 measures x thousands of questions made
report.json 15 MB at 10,000 questions."""

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


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error), in the input's order."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [0.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, p_values[index] * (len(p_values) - rank)))
        adjusted[index] = running
    return adjusted


def label(p_holm: float | None, low: float | None, high: float | None) -> str:
    """The plain word next to a difference; "within noise" unless both tests agree."""
    if p_holm is None or low is None or high is None or p_holm >= ALPHA:
        return "within noise"
    if low > 0:
        return "better"
    if high < 0:
        return "worse"
    return "within noise"


def round_value(value: float) -> float:
    return round(float(value), DIGITS)


def significant(p: float) -> float:
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
    return compare_sides([(before, after)], keys, change_keys, seed)[0]


def compare_sides(
    sides: Sequence[tuple[Side, Side]],
    keys: Sequence[str],
    change_keys: Sequence[str] = (),
    seed: int = SEED,
) -> list[dict[str, Any]]:
    """Every comparison (before, after) of ``sides``, before Holm, in the order given."""
    if not sides:
        return []
    # NumPy (0.1 s to import) only when something is compared, not for every report
    from reportgen.analyse.paired import paired_statistics

    joined = [_joined(before, after, keys, change_keys) for before, after in sides]
    # a measure without a value for some questions (a span measure: questions without
    # evidence) is paired on the questions that have one, in a comparison of its own
    parts = [(entry, *_complete(kept, paired)) for entry, kept, paired in joined]
    parts += [(entry, *_partial(kept, paired)) for entry, kept, paired in joined]
    parts = [part for part in parts if part[1]]
    found = paired_statistics(
        [
            (paired.select(f"{k}__before" for k in kept).to_numpy(), paired.select(kept).to_numpy())
            for _, kept, paired in parts
        ],
        [[is_binary(key) for key in kept] for _, kept, _ in parts],
        seed,
    )
    for (entry, kept, paired), statistics in zip(parts, found, strict=True):
        if statistics is None:
            continue
        measures = _measure_entries(kept, statistics)
        if paired.height != entry["n"]:
            measures = {key: {**measure, "n": paired.height} for key, measure in measures.items()}
        entry["measures"].update(measures)
    for entry, kept, _ in joined:  # in the order of ``keys``
        entry["measures"] = {
            key: entry["measures"][key] for key in kept if key in entry["measures"]
        }
    return [entry for entry, _, _ in joined]


def _with_gaps(kept: Sequence[str], paired: pl.DataFrame) -> list[str]:
    """The measures of ``kept`` that some question lacks on either side."""
    return [
        key
        for key in kept
        if paired.get_column(key).null_count() or paired.get_column(f"{key}__before").null_count()
    ]


def _complete(kept: Sequence[str], paired: pl.DataFrame) -> tuple[list[str], pl.DataFrame]:
    gaps = _with_gaps(kept, paired)
    return [key for key in kept if key not in gaps], paired


def _partial(kept: Sequence[str], paired: pl.DataFrame) -> tuple[list[str], pl.DataFrame]:
    gaps = _with_gaps(kept, paired)
    return gaps, paired.drop_nulls([*gaps, *(f"{key}__before" for key in gaps)])


def _joined(
    before: Side, after: Side, keys: Sequence[str], change_keys: Sequence[str]
) -> tuple[dict[str, Any], list[str], pl.DataFrame]:
    """A comparison's entry without its measures, the measures both sides have, and
    their values paired by question (``KEY__before`` beside ``KEY``), sorted by id."""
    kept = [k for k in keys if k in before.values.columns and k in after.values.columns]
    paired = (
        after.values.select("qid", "kind", *kept)
        .join(
            before.values.select("qid", *[pl.col(k).alias(f"{k}__before") for k in kept]),
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
        "one_question": round_value(1 / n) if n else None,
        "measures": {},
    }
    entry.update(changed_questions(paired, [key for key in change_keys if key in kept]))
    return entry, kept, paired


def _measure_entries(keys: Sequence[str], found: PairedStatistics) -> dict[str, Any]:
    """Each measure's numbers, rounded as report.json writes them."""
    entries = {}
    for column, key in enumerate(keys):
        p_mcnemar = found.p_mcnemar[column]
        entries[key] = {
            "before": round_value(found.before[column]),
            "after": round_value(found.after[column]),
            "difference": round_value(found.difference[column]),
            "ci_low": round_value(found.ci_low[column]),
            "ci_high": round_value(found.ci_high[column]),
            "p_randomization": significant(found.p_randomization[column]),
            "randomization_exact": bool(found.randomization_exact[column]),
            "p_mcnemar": None if p_mcnemar is None else significant(p_mcnemar),
            "test": "randomization" if p_mcnemar is None else "mcnemar",
            "p": significant(found.p_randomization[column] if p_mcnemar is None else p_mcnemar),
            "wins": int(found.wins[column]),
            "ties": int(found.ties[column]),
            "losses": int(found.losses[column]),
        }
    return entries


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
    kept = (
        moved.lazy().sort([*(f"{key}__delta" for key in keys), "qid"]).head(CHANGED_QUESTIONS_KEPT)
    )
    # every key's list and the counts in one collect_all, not three collects per key
    *lists, counted = pl.collect_all(
        [
            *(
                kept.filter(pl.col(f"{key}__delta") != 0.0)
                .sort(f"{key}__delta", "qid")
                .select(
                    "qid",
                    "kind",
                    pl.col(f"{key}__before").alias("before"),
                    pl.col(key).alias("after"),
                )
                for key in keys
            ),
            moved.lazy().select((pl.col(f"{key}__delta") != 0.0).sum().alias(key) for key in keys),
        ]
    )
    listed = {
        key: [
            {
                "qid": row["qid"],
                "kind": row["kind"],
                "before": round_value(row["before"]),
                "after": round_value(row["after"]),
            }
            for row in rows.iter_rows(named=True)
        ]
        for key, rows in zip(keys, lists, strict=True)
    }
    counts = {key: int(counted[key][0]) for key in keys}
    return {
        "changed_questions": listed,
        "changed_counts": counts,
        "changed_total": moved.height,
    }


def apply_holm(comparisons: Sequence[dict[str, Any]]) -> None:
    """Holm across every measure of every comparison, written into each measure's entry
    in place (``p_holm``), with the label it decides."""
    cells = [measure for entry in comparisons for measure in entry["measures"].values()]
    for measure, adjusted in zip(cells, holm([m["p"] for m in cells]), strict=True):
        measure["p_holm"] = significant(adjusted)
        measure["label"] = label(adjusted, measure["ci_low"], measure["ci_high"])


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
    entries = compare_sides(
        [
            (Side(a, sides[a]), Side(b, sides[b]))
            for a, b in pairs_to_compare(list(sides), reference)
        ],
        keys,
        change_keys,
    )
    apply_holm(entries)
    return {
        "method": {**method(), "family_size": sum(len(e["measures"]) for e in entries)},
        "measures": list(keys),
        "reference_run": reference,
        "pairs": entries,
    }
