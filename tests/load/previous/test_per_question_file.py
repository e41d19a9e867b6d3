"""Reading a per-question file back: the wide rows reportgen writes, and long rows."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    make_report,
)
from reportgen.errors import InputError
from reportgen.load.previous.baseline import load_baseline
from reportgen.load.previous.per_question import read_per_question

FIX = "keep the file as reportgen wrote it"
WIDE = "run,qid,kind,status,hit@1,mrr\nm,q1,a,scored,1.0,0.5\nm,q2,b,missing,0.0,0.0\n"
LONG = (
    "run,qid,kind,status,measure,value\n"
    "m,q1,a,scored,hit@1,1.0\nm,q1,a,scored,mrr,0.5\n"
    "m,q2,b,missing,hit@1,0.0\nm,q2,b,missing,mrr,0.0\n"
)


def _file(tmp_path: Path, text: str, name: str = "per_question.csv") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_wide_rows_read_with_measures_as_numbers(tmp_path: Path) -> None:
    frame = read_per_question(_file(tmp_path, WIDE), FIX)
    assert frame.columns == ["run", "qid", "kind", "status", "hit@1", "mrr"]
    assert frame.schema["qid"] == pl.String and frame.schema["mrr"] == pl.Float64
    assert frame["mrr"].to_list() == [0.5, 0.0]


def test_long_rows_of_older_reports_read_as_the_same_wide_rows(tmp_path: Path) -> None:
    wide = read_per_question(_file(tmp_path, WIDE), FIX)
    long = read_per_question(_file(tmp_path, LONG, "long.csv"), FIX)
    assert_frame_equal(long, wide)


def test_parquet_reads_like_csv(tmp_path: Path) -> None:
    wide = read_per_question(_file(tmp_path, WIDE), FIX)
    wide.write_parquet(tmp_path / "per_question.parquet")
    assert_frame_equal(read_per_question(tmp_path / "per_question.parquet", FIX), wide)


def test_numeric_ids_stay_text(tmp_path: Path) -> None:
    text = "run,qid,kind,status,mrr\n7,0012,a,scored,1\n"
    frame = read_per_question(_file(tmp_path, text), FIX)
    assert frame.row(0) == ("7", "0012", "a", "scored", 1.0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (WIDE.replace("0.5", "half"), ":2: mrr 'half' is not a number. Fix: " + FIX),
        (WIDE.replace("missing", "lost"), "unknown status 'lost'"),
        ("run,qid,status,mrr\nm,q1,scored,1\n", ":1: no 'kind' column"),
        (LONG.replace(",0.5", ",x"), ":3: value 'x' is not a number"),
    ],
)
def test_files_reportgen_did_not_write_are_named(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        read_per_question(_file(tmp_path, text), FIX)
    assert message in str(caught.value)


def test_a_baseline_written_in_long_rows_still_compares(tmp_path: Path) -> None:
    """A baseline published before the per-question file turned wide gives the same numbers."""
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        "".join(json.dumps({"id": f"q{i}", "gold": [f"c{i}"]}) + "\n" for i in range(6))
    )
    run = tmp_path / "m.jsonl"
    run.write_text(
        "".join(json.dumps({"id": f"q{i}", "chunks": [f"c{i % 3}", "z"]}) + "\n" for i in range(6))
    )
    for name in ("wide", "long"):
        outputs = ReportOutputs(tmp_path / name, formats=("json",))
        settings = ReportSettings(version="one")
        make_report(ReportRequest(ReportInputs(gold, [("m", run)]), outputs, settings))
    written = pl.read_csv(tmp_path / "long" / "per_question.csv", infer_schema=False)
    written.unpivot(index=["run", "qid", "kind", "status"], variable_name="measure").write_csv(
        tmp_path / "long" / "per_question.csv"
    )
    assert_frame_equal(
        load_baseline(tmp_path / "long").per_question,
        load_baseline(tmp_path / "wide").per_question,
    )
    now, again = (
        make_report(
            ReportRequest(
                ReportInputs(gold, [("m", run)], baseline=tmp_path / baseline),
                ReportOutputs(tmp_path / out),
                ReportSettings(version="now"),
            )
        )
        for out, baseline in (("now", "long"), ("again", "wide"))
    )
    assert now.report["baseline"]["comparisons"] == again.report["baseline"]["comparisons"]
    assert now.report["baseline"]["comparisons"][0]["n"] == 6
