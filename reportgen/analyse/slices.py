"""Slices: every number per value of a question field (``--slice-by lang``).

A change that helps English and breaks German reads as a small overall gain; cut by
the questions' own fields, it does not. A slice is the set of questions whose field
has a value (a list field: contains it; a question without one is in ``(missing)``),
and each of its numbers equals the number a report on the gold set filtered to that
slice gives (SPEC.md, Slices), to the last bit: the per-question frame is grouped once
per field and each group's mean and standard deviation are taken by the same kernel a
whole column's are (``list.eval``), in the frame's order of questions, so that the
floating-point sums add in the same order. Nothing is measured again.

Comparisons per slice use the labels of compare.py; the slices of one field form one
Holm family of their own, exploratory, apart from the comparisons of the whole runs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from typing import Any

import polars as pl

from reportgen.analyse.attribution import CELLS, Attribution, CellSummary
from reportgen.analyse.compare import Side, apply_holm, compare_sides
from reportgen.analyse.intervals import interval
from reportgen.core.model import GoldSet, ReportWarning, examples
from reportgen.core.records import dataclass
from reportgen.errors import ParameterError
from reportgen.measure.measures import in_means

MISSING = "(missing)"
"""The slice of the questions without a value for the field."""
KIND = "kind"
"""The question kind: a field of every gold set (``unlabelled`` when not given)."""
COMPARED_FIELDS = 1
"""Slice fields whose slices are compared: the gated one, else the first given. Each
slice is resampled on its own (no draws shared across sizes), so a field costs about
what the whole runs' comparison costs; the other fields get means, intervals and cells."""
KEPT = (
    *("before", "after", "difference", "ci_low", "ci_high", "test", "p", "p_holm", "label"),
    *("mde", "n_needed", "wins", "losses"),
)
"""What a slice's comparison keeps of a measure's entry (compare.py's)."""


@dataclass(frozen=True)
class Slicing:
    """What to slice by, and which field's slices the gate holds to its rules."""

    fields: tuple[str, ...] = ()
    gate: str | None = None
    min_n: int = 10
    """A slice with fewer questions in its means is listed as not gated."""

    @property
    def all_fields(self) -> tuple[str, ...]:
        """The fields sliced: those asked, and the gated one."""
        gated = () if self.gate is None else (self.gate,)
        return tuple(dict.fromkeys((*self.fields, *gated)))

    @property
    def compared_fields(self) -> tuple[str, ...]:
        """The fields whose slices are compared: the gated one first."""
        gated = () if self.gate is None else (self.gate,)
        return tuple(dict.fromkeys((*gated, *self.fields)))[:COMPARED_FIELDS]


def slicing_of(slice_by: Sequence[str] | str, gate: str | None, min_n: int) -> Slicing:
    """The slicing a request asks for, a lone string or a size below 1 refused."""
    if isinstance(slice_by, str):
        raise ParameterError(
            "slice_by",
            slice_by,
            "must be a list of field names, not one string",
            f"pass slice_by=[{slice_by!r}]",
            option="--slice-by",
        )
    if isinstance(min_n, bool) or not isinstance(min_n, int) or min_n < 1:
        raise ParameterError(
            "min_slice_n",
            str(min_n),
            "must be a whole number of at least 1",
            "pass e.g. 10",
            option="--min-slice-n",
        )
    return Slicing(tuple(slice_by), gate, min_n)


@dataclass(frozen=True)
class SliceNumbers:
    """One slice of one run: its questions, its means and their 95% intervals."""

    questions: int
    """Every question of the slice (unanswerable and unmeasured ones too)."""
    n: int
    """The questions its means count."""
    means: dict[str, float | None]
    intervals: dict[str, tuple[float, float] | None]


@dataclass(frozen=True)
class SliceFindings:
    """Every slice's numbers: report.json's ``by_slice`` sections and ``slices``."""

    slicing: Slicing
    members: dict[str, pl.DataFrame]
    """Field -> (qid, value): a question once per value it has."""
    numbers: dict[str, dict[str, dict[str, SliceNumbers]]]
    """Run -> field -> value -> its numbers (values sorted, ``(missing)`` last)."""
    cells: dict[str, dict[str, dict[str, dict[str, Any]]]] = field(default_factory=dict)
    """Judged run -> field -> value -> its four cells, pass rate and unanswerable counts."""
    comparisons: dict[str, Any] = field(default_factory=dict)
    """Field -> its slices' comparisons (against the baseline, else between runs)."""


def _known_fields(gold: GoldSet) -> list[str]:
    return sorted({KIND, *gold.attributes.get_column("key").unique().to_list()})


def slice_members(gold: GoldSet, name: str) -> pl.DataFrame:
    """(qid, value) of the field ``name``: one row per question and value, ``(missing)``
    for a question with none. An unknown field or one holding objects is refused."""
    questions = gold.questions.select("qid")
    if name == KIND:
        return gold.questions.select("qid", pl.col("kind").alias("value"))
    if name in gold.nested_fields:
        raise ParameterError(
            "slice_by",
            name,
            "holds objects in the gold set, which cannot cut the questions",
            "slice by a field whose values are text, numbers or lists of them",
            option="--slice-by",
        )
    found = (
        gold.attributes.filter(pl.col("key") == name)
        .select("qid", "value")
        .unique(maintain_order=True)
    )
    if found.is_empty():
        raise ParameterError(
            "slice_by",
            name,
            "no question of the gold set has this field",
            f"use one of {', '.join(_known_fields(gold))}, or give the field in the gold "
            "file or a --question-meta file",
            option="--slice-by",
        )
    missing = questions.join(found, on="qid", how="anti").with_columns(value=pl.lit(MISSING))
    return pl.concat([found, missing])


def _ordered(values: Sequence[str]) -> list[str]:
    """Values sorted, the questions without one last."""
    return sorted(values, key=lambda value: (value == MISSING, value))


def slice_numbers(
    scores: pl.DataFrame, members: pl.DataFrame, keys: Sequence[str], keep_no_relevant: bool
) -> dict[str, SliceNumbers]:
    """Value -> the slice's numbers, in one group_by over the run's per-question frame.

    Each group keeps the frame's order of questions and is reduced by ``list.eval``
    (the kernel a whole column's mean and std use): bit for bit what a report on the
    filtered gold set computes, which a plain group_by mean is not.
    """
    counted = in_means(keep_no_relevant)
    joined = scores.lazy().join(members.lazy(), on="qid", how="inner", maintain_order="left")
    grouped = (
        joined.group_by("value")
        .agg(
            pl.len().alias("questions"),
            counted.sum().cast(pl.Int64).alias("n"),
            *(pl.col(key).filter(counted) for key in keys),
        )
        .select(
            "value",
            "questions",
            "n",
            *(
                pl.col(key).list.eval(reduce).list.first().alias(f"{key}:{name}")
                for key in keys
                for name, reduce in (
                    ("mean", pl.element().mean()),
                    ("std", pl.element().std()),
                    ("count", pl.element().count().cast(pl.Float64)),
                )
            ),
        )
        .collect()
    )
    found: dict[str, SliceNumbers] = {}
    for row in grouped.iter_rows(named=True):
        n = row["n"]
        means = {key: row[f"{key}:mean"] for key in keys}
        intervals = {
            key: None
            if n < 2
            else interval(key, row[f"{key}:count"], row[f"{key}:mean"], row[f"{key}:std"])
            for key in keys
        }
        found[row["value"]] = SliceNumbers(row["questions"], n, means, intervals)
    return {value: found[value] for value in _ordered(list(found))}


def slice_cells(attribution: Attribution, members: pl.DataFrame) -> dict[str, dict[str, Any]]:
    """Value -> the four cells of the slice's questions, its pass rate and how its
    unanswerable questions were handled, as the judged run's overall ones are counted."""
    questions = attribution.questions.lazy().join(members.lazy(), on="qid", how="inner")
    declined = pl.col("declined")
    unanswerable = (pl.col("status") == "unanswerable") & pl.col("has_verdict")
    grouped = (
        questions.group_by("value")
        .agg(
            *((pl.col("cell") == cell).sum().alias(cell) for cell in CELLS),
            (unanswerable & declined.fill_null(False)).sum().alias("declined"),
            (unanswerable & ~declined.fill_null(True)).sum().alias("answered"),
            (unanswerable & declined.is_null()).sum().alias("unknown"),
        )
        .collect()
    )
    found: dict[str, dict[str, Any]] = {}
    for row in grouped.iter_rows(named=True):
        summary = CellSummary({cell: int(row[cell]) for cell in CELLS}, {})
        found[row["value"]] = {
            "summary": summary,
            "unanswerable": {o: int(row[o]) for o in ("declined", "answered", "unknown")},
        }
    return {value: found[value] for value in _ordered(list(found))}


def _compared(
    sides: Sequence[tuple[str, str, str, Side, Side]], keys: Sequence[str]
) -> list[dict[str, Any]]:
    """Each (value, run, against, before, after) compared on ``keys``, Holm across them all."""
    entries = compare_sides([(before, after) for *_, before, after in sides], keys)
    apply_holm(entries)
    return [
        {
            "value": value,
            "run": run,
            "against": against,
            "n": entry["n"],
            "measures": {
                key: {name: measure.get(name) for name in KEPT}
                for key, measure in entry["measures"].items()
            },
        }
        for (value, run, against, *_), entry in zip(sides, entries, strict=True)
    ]


def slice_comparisons(
    members: pl.DataFrame,
    pairs: Sequence[tuple[str, str, Side, Side]],
    keys: Sequence[str],
) -> list[dict[str, Any]]:
    """Every slice's comparisons of ``pairs`` (run, against, before, after) on ``keys``:
    one Holm family per field, apart from the whole runs' comparisons."""
    values = members.group_by("value").agg(pl.col("qid")).sort("value")
    sides = []
    for value, qids in values.iter_rows():
        kept = pl.Series(qids).implode()
        for run, against, before, after in pairs:
            sides.append(
                (
                    value,
                    run,
                    against,
                    Side(before.name, before.values.filter(pl.col("qid").is_in(kept))),
                    Side(after.name, after.values.filter(pl.col("qid").is_in(kept))),
                )
            )
    order = {value: i for i, value in enumerate(_ordered(values.get_column("value").to_list()))}
    return sorted(_compared(sides, keys), key=lambda entry: order[entry["value"]])


def slice_warnings(gold: GoldSet) -> list[ReportWarning]:
    """The --question-meta ids the gold set lacks: a typo there leaves a question in
    ``(missing)``, so the count is said."""
    unknown = gold.unknown_meta_ids
    if not unknown:
        return []
    return [
        ReportWarning(
            "question_meta_unknown_ids",
            f"{len(unknown)} question id(s) of the --question-meta file are not in the gold "
            "set; their fields are not used. Fix: correct the ids, or ignore this when the "
            "gold set is one shard of a larger set.",
            len(unknown),
            examples(unknown),
        )
    ]


def measure_slices(
    runs: Mapping[str, pl.DataFrame],
    gold: GoldSet,
    slicing: Slicing,
    keys: Sequence[str],
    keep_no_relevant: bool,
) -> SliceFindings:
    """Every run's numbers on every slice of every field (``runs``: run -> scores)."""
    members = {name: slice_members(gold, name) for name in slicing.all_fields}
    numbers = {
        run: {
            name: slice_numbers(scores, found, keys, keep_no_relevant)
            for name, found in members.items()
        }
        for run, scores in runs.items()
    }
    return SliceFindings(slicing, members, numbers)
