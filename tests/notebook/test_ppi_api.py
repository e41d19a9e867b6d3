"""The prediction-powered means from the Python API: the CLI's numbers, from a path, a dict
or a DataFrame of the judge's grades."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import reportgen
from reportgen.cli import cli
from reportgen.errors import ReportgenError
from tests.analyse.ppi.test_ppi import write_inputs


def _cli_section(folder: Path, *extra: str) -> dict:
    result = CliRunner().invoke(
        cli,
        ["report", str(folder / "gold.jsonl"), f"a={folder / 'run.trec'}", f"b={folder / 'b.trec'}",
         "--context-k", "5", "--out", str(folder / "cli"), "--format", "json",
         "--judgments", str(folder / "judge.csv"), *extra],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return json.loads((folder / "cli" / "report.json").read_text())["secondary_judgments"]


def test_the_api_gives_the_cli_numbers(tmp_path: Path):
    folder = write_inputs(tmp_path)
    section = _cli_section(folder, "--estimate", "ppi")
    runs = {"a": folder / "run.trec", "b": folder / "b.trec"}
    judge = pl.read_csv(folder / "judge.csv", schema_overrides={"grade": pl.Int64})
    as_dict: dict[str, dict[str, int]] = {}
    for qid, chunk, grade in judge.select("qid", "chunk_id", "grade").iter_rows():
        as_dict.setdefault(qid, {})[chunk] = grade
    for given in (folder / "judge.csv", judge.select("qid", "chunk_id", "grade"), as_dict):
        results = reportgen.evaluate(folder / "gold.jsonl", runs, context_k=5, judgments=given)
        table = {(row["run"], row["measure"]): row for row in results.ppi.iter_rows(named=True)}
        for run, measures in section["ppi"].items():
            for key, entry in measures.items():
                row = table[(run, key)]
                assert {name: row[name] for name in entry} == entry
        written = results.report(tmp_path / "api", formats=["json"], estimate="ppi")
        api = written.report["secondary_judgments"]
        assert api["ppi"] == section["ppi"] and api["audit"] == section["audit"]
        assert api["ppi_comparisons"] == section["ppi_comparisons"]


def test_no_judgments_no_ppi(tmp_path: Path):
    folder = write_inputs(tmp_path)
    results = reportgen.evaluate(folder / "gold.jsonl", folder / "run.trec", context_k=5)
    with pytest.raises(ReportgenError, match="judgments="):
        results.ppi  # noqa: B018
    bad = pl.DataFrame({"qid": ["q1", "q1"], "chunk_id": ["c", "c"], "grade": [0, 1]})
    with pytest.raises(ReportgenError, match="twice"):
        reportgen.evaluate(folder / "gold.jsonl", folder / "run.trec", judgments=bad)
