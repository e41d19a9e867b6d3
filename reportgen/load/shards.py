"""The per-question output of one shard: the long rows a report wrote, and its settings.

A shard is a reportgen output folder (per_question.parquet or .csv, with report.json
beside it when there is one) or the per-question file itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.errors import InputError
from reportgen.load.text import check_file, read_text
from reportgen.model import PER_QUESTION_SCHEMA

"""What ``per_question.csv`` / ``.parquet`` hold: one row per run, question and measure."""

STATUSES = ("scored", "missing", "no_relevant", "unanswerable")


@dataclass(frozen=True)
class Shard:
    source: str
    rows: pl.DataFrame
    report: dict[str, Any] | None
    """The shard's report.json, when it sits beside the per-question file."""


def _per_question_file(path: Path) -> Path:
    if not path.is_dir():
        check_file(path)
        return path
    for name in ("per_question.parquet", "per_question.csv"):
        if (path / name).is_file():
            return path / name
    raise InputError(
        path,
        "no per_question.parquet or per_question.csv in this folder",
        "give the --out folder of a `reportgen report` run, or its per-question file",
    )


def _read_rows(path: Path) -> pl.DataFrame:
    try:
        if path.suffix.lower() in (".parquet", ".pq"):
            frame = pl.read_parquet(path)
        else:
            frame = pl.read_csv(path, schema_overrides={"qid": pl.String, "run": pl.String})
    except (pl.exceptions.PolarsError, OSError) as err:
        raise InputError(
            path,
            f"not a readable per-question file ({str(err).splitlines()[0]})",
            "give a per_question.csv or .parquet written by `reportgen report`",
        ) from None
    missing = [name for name in PER_QUESTION_SCHEMA if name not in frame.columns]
    if missing:
        raise InputError(
            path,
            f"no {missing[0]!r} column (columns: {', '.join(frame.columns)})",
            "give a per-question file written by `reportgen report`",
            1,
        )
    try:
        rows = frame.select(PER_QUESTION_SCHEMA.names()).cast(PER_QUESTION_SCHEMA)
    except pl.exceptions.PolarsError:
        raise InputError(
            path, "a value that is not a number", "keep the file as reportgen wrote it"
        ) from None
    odd = rows.filter(~pl.col("status").is_in(STATUSES))
    if odd.height:
        raise InputError(
            path,
            f"unknown status {odd['status'][0]!r}",
            f"use one of {', '.join(STATUSES)}",
        )
    return rows


def load_shard(path: str | Path) -> Shard:
    """Read one shard's per-question rows, and its report.json when present."""
    path = Path(path)
    data = _per_question_file(path)
    report_path = data.parent / "report.json"
    report: dict[str, Any] | None = None
    if report_path.is_file():
        try:
            loaded = json.loads(read_text(report_path))
        except json.JSONDecodeError as err:
            raise InputError(
                report_path, f"not valid JSON ({err.msg})", "write it again", err.lineno
            ) from None
        if not isinstance(loaded, dict) or not isinstance(loaded.get("settings"), dict):
            raise InputError(
                report_path, "no settings object", "give a report.json written by reportgen"
            )
        report = loaded
    return Shard(source=str(data), rows=_read_rows(data), report=report)
