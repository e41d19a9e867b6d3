"""The prediction-powered means through shard + merge: each shard keeps its part of the
judge's questions (cut by `reportgen shard`'s rule) and the runs' values on them; the
merged report.json is the whole report's, --estimate ppi and its gate included."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from tests.analyse.ppi.test_ppi import write_inputs
from tests.scale.test_merge_whole import assert_same_report, run_cli, sharded

__all__ = ["run_cli"]  # the fixture, used by name


@pytest.mark.slow
def test_merged_ppi_is_the_whole_reports(tmp_path: Path, run_cli: Any) -> None:
    (tmp_path / "in").mkdir()
    root = write_inputs(tmp_path / "in")
    judge = str(root / "judge.csv")
    (root / "runs").mkdir()
    for name, file in (("a", "run.trec"), ("b", "b.trec")):  # where the shards name them
        (root / file).rename(root / "runs" / f"{name}.trec")
    cut = ["gold.jsonl", "a=runs/a.trec", "b=runs/b.trec"]
    options = ["--version", "v1", "--estimate", "ppi", "--min", "a/recall@5=0.3"]
    options += ["--format", "json"]
    measure = ["--judgments", judge, "--context-k", "5"]
    whole = ["report", *cut, *measure, *options, "--out", "whole", "-q"]
    whole_code = run_cli(whole, root)
    code, merged = sharded(root, cut, measure, options, run_cli)
    assert code == whole_code == 0
    assert_same_report(root / "whole", merged)
    section = json.loads((merged / "report.json").read_text())["secondary_judgments"]
    assert section["audit"]["judge_questions"] == 200 and section["audit"]["guards"] == []
    assert section["ppi"]["a"]["recall@5"]["n_all"] == 200


def test_judgments_with_merge_data_need_a_cut(tmp_path: Path) -> None:
    root = write_inputs(tmp_path)
    result = CliRunner().invoke(
        cli,
        ["report", str(root / "gold.jsonl"), f"a={root / 'run.trec'}", "--judgments",
         str(root / "judge.csv"), "--merge-data", "--out", str(root / "o"), "--format", "json"],
    )  # fmt: skip
    assert result.exit_code == 2 and "reportgen shard" in result.output
