"""A per-question file (per_question.csv / .parquet) read back: by baselines and shards.

reportgen writes one row per run and question, a column per measure. Long rows (one
per run, question and measure, with ``measure`` and ``value`` columns: what reportgen
wrote before, and what other engines write, like ``trec_eval -q``) are read too and
turned wide, so a baseline published by an earlier version still compares.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from reportgen.errors import InputError
from reportgen.model import PER_QUESTION_KEYS

STATUSES = ("scored", "missing", "no_relevant", "unanswerable")
LONG_COLUMNS = ("measure", "value")


def read_per_question(path: Path, fix: str) -> pl.DataFrame:
    """Key columns as strings, then one Float64 column per measure, in file order.

    ``fix`` is what the user should do when the file is not one reportgen wrote.
    """
    parquet = path.suffix.lower() in (".parquet", ".pq")
    try:
        frame = pl.read_parquet(path) if parquet else pl.read_csv(path, infer_schema=False)
    except (pl.exceptions.PolarsError, OSError) as err:
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
    numbers = frame.select(pl.col(measures).cast(pl.Float64, strict=False))
    for name in measures:
        failed = numbers[name].is_null() & frame[name].is_not_null()
        if failed.any():
            row = int(failed.arg_true()[0])
            raise InputError(
                path,
                f"{name} {frame[name][row]!r} is not a number",
                fix,
                None if parquet else row + 2,
            )
    frame = frame.with_columns(numbers)
    odd = frame.filter(~pl.col("status").is_in(STATUSES))
    if odd.height:
        raise InputError(
            path, f"unknown status {odd['status'][0]!r}", f"use one of {', '.join(STATUSES)}"
        )
    if long:
        frame = frame.pivot(
            "measure", index=list(PER_QUESTION_KEYS), values="value", aggregate_function="first"
        )
    return frame


def measure_columns(frame: pl.DataFrame) -> list[str]:
    """The measure columns of a wide per-question frame, in file order."""
    return [name for name in frame.columns if name not in PER_QUESTION_KEYS]
