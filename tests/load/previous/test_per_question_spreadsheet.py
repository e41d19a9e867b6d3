"""per_question.csv holds no cell a spreadsheet would run, and reads back to the same ids.

The writer is the real one (``per_question_bytes``), the readers the real baseline and
merge-shard loaders, on hostile text in every key column.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import polars as pl
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from reportgen.api import ReportInputs, ReportOutputs, ReportRequest, make_report
from reportgen.core.spreadsheet import FORMULA_START
from reportgen.load.previous.baseline import load_baseline
from reportgen.load.previous.shards import load_shard
from reportgen.render.output import per_question_bytes

FORMULA_CHARACTERS = "=+-@\t\r"
HOSTILE = st.text(
    alphabet=st.sampled_from(list(FORMULA_CHARACTERS + "'\"\n, ;|`<>&#aZ0é\u00a0\u200b")),
    min_size=1,
    max_size=8,
) | st.text(min_size=1, max_size=8)


def _rows(keys: list[tuple[str, str, str]]) -> pl.DataFrame:
    """Per-question rows as reportgen writes them: key columns, then a measure per column."""
    return pl.DataFrame(
        {
            "run": [run for run, _, _ in keys],
            "qid": [qid for _, qid, _ in keys],
            "kind": [kind for _, _, kind in keys],
            "status": ["scored"] * len(keys),
            "hit@1": [-0.0 if i % 2 else 1.0 for i in range(len(keys))],
            "mrr": [None if i % 3 == 0 else 0.25 for i in range(len(keys))],
        },
        schema_overrides={"hit@1": pl.Float64, "mrr": pl.Float64},
    )


@pytest.fixture(scope="module")
def report_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real report's folder, whose per_question.csv each example replaces."""
    folder = tmp_path_factory.mktemp("pq")
    (folder / "gold.jsonl").write_text(json.dumps({"id": "q1", "gold": ["c1"]}) + "\n")
    (folder / "run.jsonl").write_text(json.dumps({"id": "q1", "chunks": ["c1"]}) + "\n")
    inputs = ReportInputs(folder / "gold.jsonl", [("m", folder / "run.jsonl")])
    make_report(ReportRequest(inputs, ReportOutputs(folder / "out", formats=())))
    return folder / "out"


KEYS = st.lists(
    st.tuples(HOSTILE, HOSTILE, HOSTILE), min_size=1, max_size=6, unique_by=lambda k: k[:2]
)


@given(keys=KEYS)
@example(keys=[("=cmd|' /C calc'!A0", "+1", "-2"), ("@SUM(1)", "\t=x", "\r=y")])
@example(keys=[("'=x", "''-1", "'plain"), ("''", "'", "=")])
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_no_cell_runs_as_a_formula_and_the_readers_undo_it(
    keys: list[tuple[str, str, str]], report_folder: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    rows = _rows(keys)
    data = per_question_bytes(rows, "csv")
    table = list(csv.reader(io.StringIO(data.decode(), newline="")))
    for record in table[1:]:
        assert all(cell[:1] not in FORMULA_CHARACTERS or cell == "" for cell in record[:4])
        assert all(cell == "" or float(cell) >= 0 for cell in record[4:])  # numbers stay numbers
    folder = tmp_path_factory.mktemp("case")
    shutil.copy(report_folder / "report.json", folder / "report.json")
    (folder / "per_question.csv").write_bytes(data)
    assert_frame_equal(load_baseline(folder).per_question, rows)
    assert_frame_equal(load_shard(folder).rows, rows)


def test_the_quote_is_only_where_a_spreadsheet_needs_it() -> None:
    rows = _rows([("=1+1", "'plain", "-"), ("'=x", "q@1", "a-b")])
    lines = per_question_bytes(rows, "csv").decode().splitlines()
    assert lines[1].startswith("'=1+1,'plain,'-,scored,1.0,")
    assert lines[2].startswith("''=x,q@1,a-b,scored,")
    assert FORMULA_START == r"[=+\-@\t\r]"


def test_parquet_stays_raw(tmp_path: Path) -> None:
    rows = _rows([("=1+1", "'=x", "@k")])
    (tmp_path / "per_question.parquet").write_bytes(per_question_bytes(rows, "parquet"))
    assert_frame_equal(pl.read_parquet(tmp_path / "per_question.parquet"), rows)
