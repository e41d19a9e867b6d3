"""Merging shards' per-question outputs gives the report of all the questions at once."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    example_dir,
    make_report,
    merge_reports,
)
from reportgen.cli import cli
from reportgen.errors import InputError, UsageError
from reportgen.measure.scoring import Settings

REPO = Path(__file__).resolve().parents[2]
TOL = 1e-9


def example_runs() -> list[tuple[str, Path]]:
    runs = example_dir() / "runs"
    return [
        ("keyword", runs / "keyword.trec"),
        ("dense", runs / "dense.jsonl"),
        ("hybrid", runs / "hybrid.csv"),
        ("rerank", runs / "rerank.jsonl"),
    ]


def split_gold(folder: Path, shards: int) -> list[Path]:
    """The example's gold set cut into ``shards`` files by question, _meta kept in each."""
    lines = (example_dir() / "gold.jsonl").read_text().splitlines()
    meta = [line for line in lines if '"_meta"' in line]
    questions = [line for line in lines if line.strip() and '"_meta"' not in line]
    paths = []
    for i in range(shards):
        path = folder / f"gold-{i}.jsonl"
        path.write_text("\n".join(meta + questions[i::shards]) + "\n")
        paths.append(path)
    return paths


@pytest.mark.parametrize(
    ("fmt", "trec_eval"),
    [
        ("csv", False),
        ("parquet", True),
        # the other two pairings: each format and each setting is already in the default run
        pytest.param("csv", True, marks=pytest.mark.slow),
        pytest.param("parquet", False, marks=pytest.mark.slow),
    ],
)
@pytest.mark.slow
def test_merged_shards_equal_the_whole_report(tmp_path, fmt, trec_eval):
    settings = ReportSettings(Settings((1, 3, 5, 10), 5, 1, trec_eval))
    inputs = ReportInputs(example_dir() / "gold.jsonl", example_runs())
    whole = make_report(ReportRequest(inputs, ReportOutputs(tmp_path / "whole"), settings)).report
    shard_dirs = []
    for i, gold in enumerate(split_gold(tmp_path, 3)):
        out = tmp_path / f"shard-{i}"
        outputs = ReportOutputs(out, per_question_format=fmt)
        make_report(ReportRequest(ReportInputs(gold, example_runs()), outputs, settings))
        shard_dirs.append(out)
    merged = merge_reports(shard_dirs, tmp_path / "merged").report

    assert merged["settings"] == whole["settings"]
    for key in ("questions", "answerable", "unanswerable", "no_relevant"):
        assert merged["gold"][key] == whole["gold"][key]
    assert merged["runs"].keys() == whole["runs"].keys()
    for name, run in whole["runs"].items():
        mine = merged["runs"][name]
        assert mine["n"] == run["n"]
        assert mine["means"] == pytest.approx(run["means"], abs=TOL)
        assert mine["by_kind"].keys() == run["by_kind"].keys()
        for kind, values in run["by_kind"].items():
            assert mine["by_kind"][kind] == pytest.approx(values, abs=TOL)
        for key in ("questions_scored", "questions_missing", "unanswerable_left_out"):
            assert mine["counts"][key] == run["counts"][key]
        # rows a run returns, summed over shards, are the rows of the whole run
        # once per shard: each shard read the whole run file
        assert mine["counts"]["results"] == 3 * run["counts"]["results"]
    rows = pl.read_csv(tmp_path / "merged" / "per_question.csv")
    assert rows.height == pl.read_csv(tmp_path / "whole" / "per_question.csv").height


def write_shard(folder: Path, values: dict[str, tuple[str, float]]) -> Path:
    """A per-question CSV with one measure: qid -> (status, hit@1)."""
    folder.mkdir(parents=True)
    rows = [
        {"run": "bm25", "qid": qid, "kind": "k", "status": status, "measure": "hit@1", "value": v}
        for qid, (status, v) in values.items()
    ]
    pl.DataFrame(rows).write_csv(folder / "per_question.csv")
    return folder


def test_means_come_from_questions_not_from_shard_means(tmp_path):
    # shard a: q1 = 1 (mean 1); shard b: q2, q3, q4 = 0 (mean 0); q5 unanswerable.
    # Over questions: (1 + 0 + 0 + 0) / 4 = 0.25; the mean of the shard means would be 0.5.
    a = write_shard(tmp_path / "a", {"q1": ("scored", 1.0)})
    b = write_shard(
        tmp_path / "b",
        {
            "q2": ("scored", 0.0),
            "q3": ("missing", 0.0),
            "q4": ("scored", 0.0),
            "q5": ("unanswerable", 0.0),
        },
    )
    report = merge_reports([a, b / "per_question.csv"], tmp_path / "out").report
    run = report["runs"]["bm25"]
    assert run["n"] == 4
    assert run["means"]["hit@1"] == pytest.approx(0.25, abs=TOL)
    assert run["counts"]["questions_missing"] == 1
    assert run["counts"]["unanswerable_left_out"] == 1
    assert run["counts"]["results"] is None  # no report.json: not knowable
    assert report["gold"]["questions"] == 5


def test_no_relevant_questions_count_only_with_trec_eval(tmp_path):
    # q1 = 1, q2 has nothing relevant (0): 1/1 without, (1 + 0) / 2 with --trec-eval
    a = write_shard(tmp_path / "a", {"q1": ("scored", 1.0), "q2": ("no_relevant", 0.0)})
    plain = merge_reports([a], tmp_path / "plain").report["runs"]["bm25"]["means"]["hit@1"]
    trec = merge_reports([a], tmp_path / "trec", trec_eval=True).report
    assert plain == pytest.approx(1.0, abs=TOL)
    assert trec["runs"]["bm25"]["means"]["hit@1"] == pytest.approx(0.5, abs=TOL)


def test_overlapping_shards_are_refused(tmp_path):
    a = write_shard(tmp_path / "a", {"q1": ("scored", 1.0), "q2": ("scored", 0.0)})
    b = write_shard(tmp_path / "b", {"q2": ("scored", 1.0), "q3": ("scored", 0.0)})
    with pytest.raises(UsageError, match=r"question 'q2' is in .*a.* and .*b"):
        merge_reports([a, b], tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_shards_measured_differently_are_refused(tmp_path):
    golds = split_gold(tmp_path, 2)
    for gold, out, context_k in ((golds[0], "s0", 5), (golds[1], "s1", 3)):
        settings = ReportSettings(Settings(context_k=context_k))
        outputs = ReportOutputs(tmp_path / out)
        make_report(ReportRequest(ReportInputs(gold, example_runs()), outputs, settings))
    with pytest.raises(UsageError, match=r"measured differently: context_k is 5 in .* and 3"):
        merge_reports([tmp_path / "s0", tmp_path / "s1"], tmp_path / "out")


def test_context_k_given_or_assumed_merges(tmp_path):
    """--context-k 5 given on one shard, left to its default 5 on the other: the same
    numbers; the merge assumed it only if every shard did."""
    golds = split_gold(tmp_path, 2)
    for gold, out, assumed in ((golds[0], "s0", False), (golds[1], "s1", True)):
        settings = ReportSettings(Settings(context_k=5, context_k_assumed=assumed))
        outputs = ReportOutputs(tmp_path / out)
        make_report(ReportRequest(ReportInputs(gold, example_runs()), outputs, settings))
    merged = merge_reports([tmp_path / "s0", tmp_path / "s1"], tmp_path / "out").report
    assert merged["settings"]["context_k_assumed"] is False
    assumed_only = merge_reports([tmp_path / "s1"], tmp_path / "out1").report
    assert assumed_only["settings"]["context_k_assumed"] is True


def test_a_folder_without_per_question_output_is_named(tmp_path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no per_question"):
        merge_reports([tmp_path / "empty"], tmp_path / "out")


def test_a_file_missing_a_column_is_named(tmp_path):
    path = tmp_path / "per_question.csv"
    path.write_text("run,qid,measure,value\nbm25,q1,hit@1,1\n")
    with pytest.raises(InputError, match="no 'kind' column"):
        merge_reports([path], tmp_path / "out")


def test_cli_merges_and_exits_2_on_overlap(tmp_path):
    a = write_shard(tmp_path / "a", {"q1": ("scored", 1.0)})
    b = write_shard(tmp_path / "b", {"q2": ("scored", 0.0)})
    runner = CliRunner()
    ok = runner.invoke(cli, ["merge", str(a), str(b), "--out", str(tmp_path / "out")])
    assert ok.exit_code == 0, ok.output
    assert "Merged 2 shards: 2 questions." in ok.output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["runs"]["bm25"]["means"]["hit@1"] == pytest.approx(0.5, abs=TOL)
    copy = tmp_path / "copy-of-a"
    shutil.copytree(a, copy)
    clash = runner.invoke(cli, ["merge", str(a), str(copy), "--out", str(tmp_path / "x")])
    assert clash.exit_code == 2
    assert "shards overlap" in clash.output
    assert "Traceback" not in clash.output


@pytest.mark.parametrize("again", ["{a}", "{a}/../a"])
def test_a_shard_given_twice_is_named_so(tmp_path, again):
    a = write_shard(tmp_path / "a", {"q1": ("scored", 1.0)})
    b = write_shard(tmp_path / "b", {"q2": ("scored", 0.0)})
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.md").write_text("earlier")
    twice = again.format(a=a)
    done = CliRunner().invoke(cli, ["merge", str(a), str(b), twice, "--out", str(out)])
    assert done.exit_code == 2
    assert f"{twice}: this shard is given twice" in done.output
    assert "Fix: pass each shard's folder once" in done.output
    assert "Traceback" not in done.output
    assert (out / "summary.md").read_text() == "earlier"


def test_merge_runs_as_a_subprocess(tmp_path):
    a = write_shard(tmp_path / "a", {"q1": ("scored", 1.0)})
    done = subprocess.run(
        [sys.executable, "-m", "reportgen", "merge", str(a), "--out", str(tmp_path / "o"), "-q"],
        env={"PYTHONPATH": str(REPO), "PATH": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "o" / "report.json").is_file()


def test_merge_refuses_to_write_over_a_shard(tmp_path):
    whole = tmp_path / "whole"
    example = example_dir()
    report_args = [str(example / "gold.jsonl"), f"bm25={example / 'runs' / 'keyword.trec'}"]
    done = CliRunner().invoke(
        cli, ["report", *report_args, "--merge-data", "--format", "json", "--out", str(whole)]
    )
    assert done.exit_code == 0, done.output
    before = (whole / "per_question.csv").read_bytes()
    again = CliRunner().invoke(cli, ["merge", str(whole), "--out", str(whole)])
    assert again.exit_code == 2, again.output
    assert "report.json: the shard's report.json would be" in again.output
    assert "Fix:" in again.output and "Traceback" not in again.output
    assert (whole / "per_question.csv").read_bytes() == before
