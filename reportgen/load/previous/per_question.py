"""A per-question file (per_question.csv / .parquet) read back: by baselines and shards.

reportgen writes one row per run and question, a column per measure. Long rows (one
per run, question and measure, with ``measure`` and ``value`` columns: what reportgen
wrote before) are read too and turned wide, so a baseline published by an earlier
version still compares. So is the output of ``trec_eval -q`` (``measure qid value``
lines), so that shards measured by trec_eval itself can be merged.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from reportgen.core.filesystem import reading
from reportgen.core.model import PER_QUESTION_KEYS, UNLABELLED_KIND
from reportgen.core.spreadsheet import from_text
from reportgen.errors import InputError, printable
from reportgen.load.formats.costs import MAX_COST
from reportgen.load.formats.fields import fields
from reportgen.load.formats.files import (
    check_file,
    first_line,
    head_line,
    polars_source,
    read_lines,
)
from reportgen.measure.judged import judged_keys
from reportgen.measure.measures import CUTOFF_MEASURES, WHOLE_LIST_MEASURES, cutoffs, measure_keys
from reportgen.measure.scoring import COST_COLUMNS
from reportgen.measure.spans import span_keys

STATUSES = ("scored", "missing", "no_relevant", "unanswerable")
UNBOUNDED = COST_COLUMNS
"""Columns beside the measures that are no share: latency, cost, words (and
``context_chars@k``): from 0 to MAX_COST, as when they were read from a run."""
SHARE_SLACK = 1e-9
"""Rounding a sum of shares may leave above 1."""
LONG_COLUMNS = ("measure", "value")


def read_per_question(path: Path, fix: str) -> pl.DataFrame:
    """Key columns as strings, then one Float64 column per measure, in file order.

    ``fix`` is what the user should do when the file is not one reportgen wrote.
    """
    parquet = path.suffix.lower() in (".parquet", ".pq")
    if is_trec_eval_output(path):
        return read_trec_eval_output(path)
    check_file(path)
    source = polars_source(path)
    try:
        with reading(path):
            frame = (
                pl.read_parquet(source, glob=False)
                if parquet
                else pl.read_csv(source, infer_schema=False, glob=False)
            )
    except pl.exceptions.PolarsError as err:
        raise InputError(
            path, f"not a readable per-question file ({str(err).splitlines()[0]})", fix
        ) from None
    missing = [name for name in PER_QUESTION_KEYS if name not in frame.columns]
    if missing:
        raise InputError(
            path, f"no {missing[0]!r} column (columns: {', '.join(frame.columns)})", fix, 1
        )
    long = all(name in frame.columns for name in LONG_COLUMNS)
    measures = ["value"] if long else measure_columns(frame)
    frame = frame.select(
        pl.col(*PER_QUESTION_KEYS, *(["measure"] if long else [])).cast(pl.String),
        pl.col(measures),
    )
    if not parquet:  # undo what keeps spreadsheets from running a cell as a formula
        frame = frame.with_columns(from_text(name) for name in PER_QUESTION_KEYS)
    numbers = frame.select(pl.col(measures).cast(pl.Float64, strict=False))
    for name in measures:
        unread = numbers[name].is_null() & frame[name].is_not_null()
        share = not long and name not in UNBOUNDED and not name.startswith("context_chars@")
        for bad, what in (
            (unread, "is not a number"),
            (~numbers[name].is_finite(), "is NaN or infinite"),
            (numbers[name] < 0, "is negative (no measure, latency or cost is)"),
            (
                numbers[name] > (1 + SHARE_SLACK if share else MAX_COST),
                "is above 1 (a share measure lies from 0 to 1)"
                if share
                else f"is above {MAX_COST:.0e} (its sums would overflow)",
            ),
        ):
            if bad.any():
                row = int(bad.arg_true()[0])
                _refuse_row(path, parquet, row, f"{name} {frame[name][row]!r} {what}", fix)
    frame = frame.with_columns(numbers)
    odd = ~frame["status"].is_in(STATUSES)
    if odd.any():
        row = int(odd.arg_true()[0])
        _refuse_row(
            path,
            parquet,
            row,
            f"unknown status {frame['status'][row]!r}",
            f"use one of {', '.join(STATUSES)}",
        )
    if long:
        frame = frame.pivot(
            "measure", index=list(PER_QUESTION_KEYS), values="value", aggregate_function="first"
        )
    return frame


def _refuse_row(path: Path, parquet: bool, row: int, problem: str, fix: str) -> None:
    """Name a bad value by its line (CSV, under the header) or its row (Parquet)."""
    if parquet:
        raise InputError(path, f"{problem} in row {row + 1}", fix)
    raise InputError(path, problem, fix, row + 2)


def measure_columns(frame: pl.DataFrame) -> list[str]:
    """The measure columns of a wide per-question frame, in file order."""
    return [name for name in frame.columns if name not in PER_QUESTION_KEYS]


TREC_EVAL_LAYOUT = "measure qid value (what trec_eval -q prints)"
TREC_EVAL_FIX = "give the unchanged output of `trec_eval -q`, one line per measure and question"
_BY_PREFIX = {m.trec_eval.removesuffix("{k}"): m.name for m in CUTOFF_MEASURES if m.trec_eval}
"""trec_eval's name before the cutoff (``success_``) -> reportgen's (``hit``)."""
_WHOLE_LIST = {m.trec_eval: m.key() for m in WHOLE_LIST_MEASURES if m.trec_eval}
_KNOWN = ", ".join([*(f"{prefix}K" for prefix in _BY_PREFIX), *_WHOLE_LIST])


def is_trec_eval_output(path: Path) -> bool:
    """Whether the first line reads as ``measure qid value``, not as a CSV header."""
    if path.suffix.lower() in (".parquet", ".pq"):
        return False
    head = head_line(path)
    return "," not in head and len(head.split()) == 3


def read_trec_eval_output(path: Path) -> pl.DataFrame:
    """The per-question lines of ``trec_eval -q``, as the wide rows reportgen writes.

    The ``all`` lines (trec_eval's means) are dropped: merging recomputes them. Each
    line belongs to the run named by the next ``runid`` line (trec_eval prints it
    among the means, after the questions), so outputs of several runs can be
    concatenated; without one, the run is the file's stem. Only the measures reportgen
    has are kept. ``num_rel`` 0 makes a question ``no_relevant`` and ``num_ret`` 0
    ``missing``, as reportgen's own measuring would; without them it is ``scored``.
    """
    lines = fields(
        path, read_lines(path), {0: "trec_measure", 1: "qid", 2: "raw"}, 3, True, TREC_EVAL_LAYOUT
    )
    runid = pl.when(pl.col("trec_measure") == "runid").then(pl.col("raw"))
    lines = lines.with_columns(
        run=runid.backward_fill().fill_null(printable(path.stem)),
        measure=_reportgen_key(pl.col("trec_measure")),
    ).filter(pl.col("qid") != "all")
    if lines.filter(pl.col("measure").is_not_null()).height == 0:
        raise InputError(
            path,
            f"no per-question value of a measure reportgen has (it reads {_KNOWN})",
            "run trec_eval with -q and -m all_trec, or -m with some of these measures",
        )
    counts = pl.col("trec_measure").is_in(_STATUS_COUNTS)
    lines = lines.filter(pl.col("measure").is_not_null() | counts).with_columns(
        value=pl.col("raw").cast(pl.Float64, strict=False)
    )
    if (line := first_line(lines, pl.col("value").is_null())) is not None:
        raw = lines.filter(pl.col("line") == line)["raw"].item()
        raise InputError(path, f"value {raw!r} is not a number", TREC_EVAL_FIX, line)
    if (line := first_line(lines, ~pl.col("value").is_finite())) is not None:
        raw = lines.filter(pl.col("line") == line)["raw"].item()
        raise InputError(path, f"value {raw!r} is NaN or infinite", TREC_EVAL_FIX, line)
    keys = ["run", "qid", "trec_measure"]
    if (line := first_line(lines, ~pl.struct(keys).is_first_distinct())) is not None:
        seen = lines.filter(pl.col("line") == line).row(0, named=True)
        raise InputError(
            path,
            f"{seen['trec_measure']} of question {seen['qid']!r} in run {seen['run']!r} "
            "a second time",
            "give one trec_eval output per file, or keep the runid line of each",
            line,
        )
    wide = lines.with_columns(pl.col("measure").fill_null(pl.col("trec_measure"))).pivot(
        "measure", index=["run", "qid"], values="value", sort_columns=False
    )
    found = [name for name in wide.columns if name not in ("run", "qid", *_STATUS_COUNTS)]
    return wide.select(
        "run",
        "qid",
        pl.lit(UNLABELLED_KIND).alias("kind"),
        _status(wide.columns).alias("status"),
        *_in_reportgen_order(found),
    )


_STATUS_COUNTS = ("num_rel", "num_ret")


def _status(columns: list[str]) -> pl.Expr:
    """The status reportgen gives a question, from the counts trec_eval printed."""
    status = pl.lit("scored")
    if "num_ret" in columns:
        status = pl.when(pl.col("num_ret") == 0).then(pl.lit("missing")).otherwise(status)
    if "num_rel" in columns:
        status = pl.when(pl.col("num_rel") == 0).then(pl.lit("no_relevant")).otherwise(status)
    return status


def _reportgen_key(name: pl.Expr) -> pl.Expr:
    """reportgen's key of a trec_eval measure name (``success_5`` -> ``hit@5``), or null."""
    parts = name.str.extract_groups(r"^(.+_)([1-9][0-9]*)$")
    name_at = parts.struct.field("1").replace_strict(
        _BY_PREFIX, default=None, return_dtype=pl.String
    )
    return (name_at + "@" + parts.struct.field("2")).fill_null(
        name.replace_strict(_WHOLE_LIST, default=None, return_dtype=pl.String)
    )


def _in_reportgen_order(keys: list[str]) -> list[str]:
    """The keys in the order reportgen writes them: measure by measure, k by k."""
    ks = cutoffs(keys)
    return [key for key in measure_keys(ks) + judged_keys(ks) + span_keys(ks) if key in keys]
