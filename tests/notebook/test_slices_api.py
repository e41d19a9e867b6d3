"""Slices through the Python API: ``evaluate(..., slice_by=[...])`` and
``Results.by_slice`` give report.json's ``runs.RUN.by_slice``, from a file or from a
DataFrame whose extra columns (a list column too) are the fields."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

import reportgen
from reportgen.errors import UsageError
from tests.analyse.slices.slice_data import write_slice_data


def _gold_frame(gold: Path) -> pl.DataFrame:
    """The JSONL gold set as a table: a row per (question, chunk), lang and tags beside."""
    rows = []
    for line in gold.read_text().splitlines():
        record = json.loads(line)
        chunks = record.get("gold") or {"": None}
        for chunk, grade in chunks.items():
            rows.append(
                {
                    "qid": record["id"],
                    "chunk_id": chunk,
                    "grade": grade,
                    "unanswerable": bool(record.get("unanswerable")),
                    "lang": record.get("lang"),
                    "tags": record.get("tags"),
                }
            )
    return pl.DataFrame(rows, schema_overrides={"tags": pl.List(pl.String)})


def test_by_slice_is_report_json_s_and_a_frame_gives_what_the_file_gives(tmp_path: Path) -> None:
    paths = write_slice_data(tmp_path)
    runs = {"a": paths["a"], "b": paths["b"]}
    from_file = reportgen.evaluate(paths["gold"], runs, slice_by=["lang", "tags"])
    from_frame = reportgen.evaluate(_gold_frame(paths["gold"]), runs, slice_by=["lang", "tags"])
    written = from_file.report(tmp_path / "out", formats=[]).report
    for name in ("lang", "tags"):
        assert from_frame.by_slice[name].equals(from_file.by_slice[name])
        for row in from_file.by_slice[name].iter_rows(named=True):
            found = written["runs"][row["run"]]["by_slice"][name][row["value"]]
            assert (row["questions"], row["n"]) == (found["questions"], found["n"])
            assert {key: row[key] for key in found["means"]} == found["means"]


def test_an_unknown_field_is_refused_at_evaluate(tmp_path: Path) -> None:
    paths = write_slice_data(tmp_path)
    with pytest.raises(
        UsageError, match=r"slice_by='langue': no question of the gold set has this field"
    ):
        reportgen.evaluate(paths["gold"], {"a": paths["a"]}, slice_by=["langue"])
    with pytest.raises(UsageError, match="not one string"):
        reportgen.evaluate(paths["gold"], {"a": paths["a"]}, slice_by="lang")  # type: ignore[arg-type]
