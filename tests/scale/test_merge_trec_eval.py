"""Shards measured by trec_eval itself (`trec_eval -q`) merge into one report.json."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.api import merge_reports
from reportgen.cli import cli

ROUNDING = 0.0001
"""trec_eval prints each value rounded to 4 decimals (off by at most 0.00005): a mean of
rounded per-question values is within 0.00005 of the true mean, and so is trec_eval's
printed mean, so the two differ by at most 0.0001."""

TREC_NAMES = {
    "success": "hit",
    "recall": "recall",
    "P": "precision",
    "ndcg_cut": "ndcg",
    "map_cut": "ap",
}
WHOLE_LIST = {"recip_rank": "mrr", "map": "ap", "Rprec": "r-precision"}
CUTOFF_NAME = re.compile(r"(success|recall|P|ndcg_cut|map_cut)_(\d+)")
ALL_CUTOFFS = [1, 5, 10, 15, 20, 30, 100, 200, 500, 1000]
"""-m all_trec: success at 1, 5, 10; the others at 5 ... 1000."""


def conformance(trec_eval_dir: Path, name: str) -> Path:
    return trec_eval_dir / name


def trec_eval_means(path: Path) -> dict[str, float]:
    """The file's own `all` lines, under reportgen's names (read independently here)."""
    means = {}
    for line in path.read_text().splitlines():
        measure, qid, value = line.split()
        if qid != "all":
            continue
        if measure in WHOLE_LIST:
            means[WHOLE_LIST[measure]] = float(value)
        elif (cut := CUTOFF_NAME.fullmatch(measure)) is not None:
            means[f"{TREC_NAMES[cut[1]]}@{cut[2]}"] = float(value)
    return means


def split_by_question(source: Path, folder: Path, shards: list[set[str]]) -> list[Path]:
    """One trec_eval output per shard: its questions' lines, then the runid line, as
    `trec_eval -q` on that shard would print them (other `all` lines are left out)."""
    lines = source.read_text().splitlines(keepends=True)
    runid = [line for line in lines if line.split()[0] == "runid"]
    paths = []
    for i, questions in enumerate(shards):
        path = folder / f"out-{i}.txt"
        path.write_text("".join([*(ln for ln in lines if ln.split()[1] in questions), *runid]))
        paths.append(path)
    return paths


@pytest.mark.parametrize("name", ["out.test.aq", "out.test.aqc", "out.test.aqcM", "out.test.aql"])
def test_one_shard_gives_trec_eval_s_own_means(tmp_path, trec_eval_dir, name):
    # e.g. out.test.aq, map: (0.0324 + 0.4175 + 0.0858) / 3 = 0.17857 against 0.1785
    source = conformance(trec_eval_dir, name)
    expected = trec_eval_means(source)
    report = merge_reports([source], tmp_path / "merged", trec_eval=True).report
    run = report["runs"]["STANDARD"]
    assert run["n"] == 3
    assert run["means"].keys() == expected.keys()
    for key, value in expected.items():
        assert run["means"][key] == pytest.approx(value, abs=ROUNDING), key
    assert report["settings"]["k"] == ALL_CUTOFFS
    assert report["k"] == ALL_CUTOFFS
    assert report["settings"]["trec_eval"] is True
    assert report["gold"]["questions"] == 3


def test_hand_worked_means_of_out_test_aq(tmp_path, trec_eval_dir):
    report = merge_reports([conformance(trec_eval_dir, "out.test.aq")], tmp_path / "m").report
    means = report["runs"]["STANDARD"]["means"]
    assert means["ap"] == pytest.approx((0.0324 + 0.4175 + 0.0858) / 3, abs=1e-9)
    assert means["hit@10"] == pytest.approx((1 + 1 + 0) / 3, abs=1e-9)
    assert means["precision@5"] == pytest.approx((0.0 + 0.8 + 0.0) / 3, abs=1e-9)


def test_missing_question_counts_as_zero_and_is_counted(tmp_path, trec_eval_dir):
    # out.test.aqc: results.trunc lacks 302, which trec_eval -c scores 0 (num_ret 0)
    report = merge_reports([conformance(trec_eval_dir, "out.test.aqc")], tmp_path / "m").report
    counts = report["runs"]["STANDARD"]["counts"]
    assert counts["questions_missing"] == 1
    assert counts["questions_scored"] == 2


def test_shards_split_by_question_give_the_same_means(tmp_path, trec_eval_dir):
    source = conformance(trec_eval_dir, "out.test.aq")
    whole = merge_reports([source], tmp_path / "whole", trec_eval=True).report
    shards = split_by_question(source, tmp_path, [{"301", "303"}, {"302"}])
    merged = merge_reports(shards, tmp_path / "merged", trec_eval=True).report
    assert [entry["questions"] for entry in merged["merged_from"]] == [2, 1]
    assert merged["runs"]["STANDARD"]["n"] == 3
    assert merged["runs"]["STANDARD"]["means"] == pytest.approx(
        whole["runs"]["STANDARD"]["means"], abs=1e-12
    )
    assert merged["settings"] == whole["settings"]


def test_no_relevant_questions_count_only_with_trec_eval(tmp_path):
    # q2 has nothing relevant: trec_eval keeps it at 0 ((1 + 0) / 2); reportgen leaves it out
    text = "num_rel\tq1\t2\nmap\tq1\t1.0000\nnum_rel\tq2\t0\nmap\tq2\t0.0000\nrunid\tall\tbm25\n"
    (tmp_path / "out.txt").write_text(text)
    plain = merge_reports([tmp_path / "out.txt"], tmp_path / "plain").report
    kept = merge_reports([tmp_path / "out.txt"], tmp_path / "kept", trec_eval=True).report
    assert plain["runs"]["bm25"]["means"]["ap"] == pytest.approx(1.0)
    assert plain["runs"]["bm25"]["counts"]["no_relevant"] == 1
    assert kept["runs"]["bm25"]["means"]["ap"] == pytest.approx(0.5)


def test_cli_merges_trec_eval_output(tmp_path, trec_eval_dir):
    source = conformance(trec_eval_dir, "out.test.aq")
    first, second = split_by_question(source, tmp_path, [{"301", "302"}, {"303"}])
    out = tmp_path / "report"
    result = CliRunner().invoke(
        cli, ["merge", str(first), str(second), "--out", str(out), "--trec-eval"]
    )
    assert result.exit_code == 0, result.output
    assert "Merged 2 shards: 3 questions." in result.output
    # no context k in trec_eval's output: the first measures are shown
    assert "STANDARD: 3 questions in the means. hit@1 0.333" in result.output
    report = json.loads((out / "report.json").read_text())
    assert report["runs"]["STANDARD"]["means"]["ap"] == pytest.approx(0.1785, abs=ROUNDING)
    assert (out / "per_question.csv").read_text().startswith("run,qid,kind,status,hit@1,")


def test_cli_names_the_bad_line_of_a_shard(tmp_path):
    (tmp_path / "out-0.txt").write_text("map\tq1\t0.5000\nP_5\tq1\t0,2\n")
    result = CliRunner().invoke(cli, ["merge", str(tmp_path / "out-0.txt"), "--out", "x"])
    assert result.exit_code == 2
    assert f"{tmp_path / 'out-0.txt'}:2: value '0,2' is not a number" in result.output
