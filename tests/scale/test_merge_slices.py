"""Slices through shard + merge: the merged report's slices, cells per slice and gate
per slice are the whole report's; a merge of per-question files refuses --slice-by."""

from __future__ import annotations

from pathlib import Path

import pytest

from reportgen.api import (
    MergeInputs,
    MergeRequest,
    ReportChecks,
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    make_report,
    make_shards,
    merge_reports,
)
from reportgen.errors import UsageError
from reportgen.load.inputs.config import GateRules, Rule
from tests.analyse.slices.slice_data import write_slice_data

SLICED = {"slice_by": ("lang", "tags"), "slice_gate": "lang", "min_slice_n": 5}


def test_shards_merged_have_the_whole_reports_slices(tmp_path: Path) -> None:
    paths = write_slice_data(tmp_path)
    runs = [("a", paths["a"]), ("b", paths["b"])]
    checks = ReportChecks(gate=GateRules((Rule("min", "recall@5", 0.5),)))
    plan = make_shards(paths["gold"], runs, tmp_path / "shards", 3)
    outs = []
    for i, folder in enumerate(plan.folders):
        shard_runs = [(name, folder / path) for name, path in plan.runs.items()]
        outputs = ReportOutputs(tmp_path / f"out-{i}", formats=(), merge_data=True)
        make_report(ReportRequest(ReportInputs(folder / plan.gold, shard_runs), outputs))
        outs.append(tmp_path / f"out-{i}")
    merged = merge_reports(
        MergeRequest(
            MergeInputs(outs),
            ReportOutputs(tmp_path / "merged", formats=()),
            checks,
            **SLICED,  # type: ignore[arg-type]
        )
    )
    whole = make_report(
        ReportRequest(
            ReportInputs(paths["gold"], runs),
            ReportOutputs(tmp_path / "whole", formats=()),
            ReportSettings(**SLICED),  # type: ignore[arg-type]
            checks,
        )
    ).report
    got = merged.report  # type: ignore[union-attr]
    assert got["slices"]["questions"] == whole["slices"]["questions"]
    for name in ("a", "b"):
        for field in ("lang", "tags"):
            for value, numbers in whole["runs"][name]["by_slice"][field].items():
                mine = got["runs"][name]["by_slice"][field][value]
                assert (mine["questions"], mine["n"]) == (numbers["questions"], numbers["n"])
                assert mine["means"] == pytest.approx(numbers["means"], abs=1e-9)
    assert got["slices"]["comparisons"] == whole["slices"]["comparisons"]
    assert got["gate"] == whole["gate"]  # every slice of lang held to --min, alike
    assert any(rule.get("slice") for rule in whole["gate"]["rules"])


def test_a_merge_of_per_question_files_refuses_slices(tmp_path: Path) -> None:
    paths = write_slice_data(tmp_path)
    outputs = ReportOutputs(tmp_path / "one", formats=())
    make_report(ReportRequest(ReportInputs(paths["gold"], [("a", paths["a"])]), outputs))
    request = MergeRequest(
        MergeInputs([tmp_path / "one" / "per_question.csv"]),
        ReportOutputs(tmp_path / "merged", formats=()),
        slice_by=("lang",),
    )
    with pytest.raises(UsageError, match="--merge-data"):
        merge_reports(request)
