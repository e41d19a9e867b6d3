"""The per-question output of one shard: the rows a report wrote, and its settings.

A shard is a reportgen output folder (per_question.parquet or .csv, with report.json
beside it when there is one), the per-question file itself, or what ``trec_eval -q``
printed (no report.json: the settings come from the measures and the options).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.filesystem import reading
from reportgen.core.records import dataclass
from reportgen.errors import InputError, printable
from reportgen.load.formats.files import check_file
from reportgen.load.formats.json_input import json_document
from reportgen.load.previous.merge_schema import CUT_JSON, check_cut, check_json
from reportgen.load.previous.per_question import is_trec_eval_output, read_per_question
from reportgen.load.previous.published import read_report

CUT_FILE = "cut.json"
"""Written by `reportgen shard` in each shard folder, beside its gold set: the shard's
number, how many shards the cut made, and the whole gold set's fingerprint and size."""
CUT_FIX = "cut the inputs again with `reportgen shard` (this reportgen)"

SHARD_FIX = (
    "give a per_question.csv or .parquet written by `reportgen report`, "
    "or the output of `trec_eval -q`"
)


@dataclass(frozen=True)
class Shard:
    source: str
    rows: pl.DataFrame
    """One row per run and question, a column per measure."""
    report: Mapping[str, Any] | None
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


def load_shard(path: str | Path) -> Shard:
    """Read one shard's per-question rows, and its report.json when present."""
    path = Path(path)
    with reading(path):
        data = _per_question_file(path)
        report_path = data.parent / "report.json"
        # a report.json beside trec_eval's output belongs to something else
        own = report_path.is_file() and not is_trec_eval_output(data)
        report = read_report(report_path, ("settings",), SHARD_FIX) if own else None
        rows = read_per_question(data, SHARD_FIX)
    return Shard(source=printable(data), rows=rows, report=report)


def read_cut(gold: Path) -> dict[str, Any] | None:
    """The shard's place in its cut, from cut.json beside its gold set; None when the
    gold set was not cut by `reportgen shard` (a merge then cannot tell a missing shard)."""
    path = gold.parent / CUT_FILE
    with reading(path):
        if not path.is_file():
            return None
        cut = json_document(path, CUT_FIX)
        check_json(path, cut, CUT_JSON)
    check_cut(path, cut, CUT_FIX)
    return {key: cut[key] for key in CUT_JSON}
