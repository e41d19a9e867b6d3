"""The prediction-powered means through shard + merge: each shard keeps its part of the
judge's questions (cut by `reportgen shard`'s rule) and the runs' values on them; the
merged report.json is the whole report's, --estimate ppi and its gate included."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.load.previous.merge_data import MERGE_DATA_FORMAT
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


def _measured_shards(root: Path, run_cli: Any, *measure: str) -> list[Path]:
    """`reportgen shard` in 2, each shard measured with ``measure``: the output folders."""
    run_cli(["shard", "gold.jsonl", "a=run.trec", "--shards", "2", "--out", "shards", "-q"], root)
    plan = json.loads((root / "shards" / "shards.json").read_text())
    outs = []
    for folder in plan["folders"]:
        out = root / "outs" / folder
        line = shlex.split(plan["measure"].replace("OUT", str(out)))
        run_cli([*line[1:], *measure, "--format", "json", "-q"], root / "shards" / folder)
        outs.append(out)
    return outs


def _merge(root: Path, outs: list[Path]) -> tuple[int, str]:
    done = CliRunner().invoke(
        cli, ["merge", *map(str, outs), "--out", str(root / "merged"), "--format", "json", "-q"]
    )
    return done.exit_code, done.output


@pytest.mark.slow
def test_a_shard_that_lost_its_ppi_files_is_refused(tmp_path: Path, run_cli: Any) -> None:
    root = write_inputs(tmp_path)
    outs = _measured_shards(root, run_cli, "--judgments", str(root / "judge.csv"))
    merge = outs[1] / "merge"
    meta = json.loads((merge / "shard.json").read_text())
    assert meta["merge_data_format"] == MERGE_DATA_FORMAT and meta["judgments"]
    (merge / "ppi_values.parquet").unlink()  # the shard said it had the judge's values
    code, output = _merge(root, outs)
    assert code == 2, output
    assert "ppi_values.parquet: missing" in output and "--judgments" in output
    assert "Traceback" not in output
    # an older reportgen's shard (format 3: no PPI files) is refused, not merged without them
    (merge / "shard.json").write_text(json.dumps(meta | {"merge_data_format": 3}))
    code, output = _merge(root, outs)
    assert code == 2 and f"merge data format 3: this reportgen reads {MERGE_DATA_FORMAT}" in output


@pytest.mark.slow
def test_shards_without_judgments_still_merge(tmp_path: Path, run_cli: Any) -> None:
    root = write_inputs(tmp_path)
    outs = _measured_shards(root, run_cli)
    assert json.loads((outs[0] / "merge" / "shard.json").read_text())["judgments"] is None
    assert not any((outs[0] / "merge").glob("ppi_*"))
    code, output = _merge(root, outs)
    assert code == 0, output
    report = json.loads((root / "merged" / "report.json").read_text())
    assert "ppi" not in (report.get("secondary_judgments") or {})
