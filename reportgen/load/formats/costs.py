"""Latency and cost per question, as runs and traces give them.

A JSON record carries ``latency_ms`` and ``cost`` fields; a table (CSV, Parquet, a
DataFrame) carries columns of those names, repeated on each of a question's rows: the
value must then be the same on all of them (rows that leave it empty take it from the
others). A value not given stays null, never 0: a missing latency is counted, not read
as instant.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.model import COSTS_SCHEMA
from reportgen.errors import InputError, printable
from reportgen.load.formats.files import first_line
from reportgen.load.formats.json_input import as_number

COST_FIELDS = ("latency_ms", "cost")
_UNITS = {"latency_ms": "milliseconds, e.g. 132.5", "cost": "a number, e.g. 0.0021"}
MAX_COST = 1e15
"""The largest latency (ms: 31,000 years) or cost read: the sums and percentiles over
any number of questions then stay finite (1e308 twice is infinity, and no report.json)."""
_RANGE = f"a number from 0 to {MAX_COST:.0e}"


def record_costs(record: dict[str, Any], path: Path, line: int) -> tuple[float | None, ...]:
    """(latency_ms, cost) of one JSON record; None where the record has no such field."""
    values: list[float | None] = []
    for key in COST_FIELDS:
        value = record.get(key)
        number = None if value is None else as_number(value)
        if value is not None and (number is None or not 0 <= number <= MAX_COST):
            raise InputError(
                path,
                f"{key} {value!r} is not {_RANGE}",
                f"write {key} as {_UNITS[key]}, or leave it out when unknown",
                line,
            )
        values.append(number)
    return tuple(values)


def costs_frame(qids: list[str], values: list[tuple[float | None, ...]]) -> pl.DataFrame | None:
    """COSTS_SCHEMA rows of the questions given a value; None when no question has one."""
    kept = [(qid, *found) for qid, found in zip(qids, values, strict=True) if found != (None, None)]
    if not kept:
        return None
    return pl.DataFrame(kept, schema=COSTS_SCHEMA, orient="row")


def table_costs(path: Path, frame: pl.DataFrame) -> pl.DataFrame | None:
    """COSTS_SCHEMA rows of a table's ``latency_ms`` and ``cost`` columns (``qid``,
    ``line`` and those columns, as text or numbers), one per question; refused when a
    value is no number of 0 or more, or when one question's rows disagree."""
    present = [key for key in COST_FIELDS if key in frame.columns]
    if not present or frame.select(pl.col(present).is_null().all()).row(0) == (True,) * len(
        present
    ):
        return None
    for key in present:
        raw = frame[key]
        number = raw.cast(pl.Float64, strict=False) if raw.dtype != pl.Float64 else raw
        frame = frame.with_columns(number.alias(key), raw.cast(pl.String).alias("_raw"))
        bad = (pl.col(key).is_null() & pl.col("_raw").is_not_null()) | ~(
            pl.col(key).is_finite() & pl.col(key).is_between(0, MAX_COST)
        ).fill_null(True)
        if (line := first_line(frame, bad)) is not None:
            value = frame.filter(pl.col("line") == line)["_raw"].item()
            raise InputError(
                path,
                f"{key} {value!r} is not {_RANGE}",
                f"write {key} as {_UNITS[key]}, or leave the cell empty when unknown",
                line,
            )
        differing = pl.col(key).drop_nulls().n_unique().over("qid") > 1
        if (line := first_line(frame, differing & pl.col(key).is_not_null())) is not None:
            qid = printable(str(frame.filter(pl.col("line") == line)["qid"].item()))
            later = frame.filter(
                (pl.col("qid") == qid)
                & pl.col(key).is_not_null()
                & (pl.col(key) != frame.filter(pl.col("line") == line)[key].item())
            )["line"].to_list()[0]
            raise InputError(
                path,
                f"question {qid} has two {key} values (lines {line} and {later}); "
                f"{key} is one value per question",
                f"write the question's {key} on every one of its rows, the same each time",
                line,
            )
    columns = [
        pl.col(key).drop_nulls().first() if key in present else pl.lit(None, pl.Float64).alias(key)
        for key in COST_FIELDS
    ]
    return (
        frame.group_by("qid", maintain_order=True)
        .agg(*columns)
        .filter(pl.any_horizontal(pl.col(list(COST_FIELDS)).is_not_null()))
        .cast(COSTS_SCHEMA)
    )
