"""Run replicates (SPEC.md "Replicates and judge trials"): the same run name given more
than once is one system run again: per-question means, flaky questions, the noise floor,
the same numbers through the CLI and the Python API, and the refusals where a replicate
cannot stand for the run."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

import reportgen
from reportgen.cli import cli
from reportgen.render.views.replicates import compared_runs, noise_floor_note, replicates_line

GOLD = {"q1": ["c1"], "q2": ["c2"]}


def test_the_worked_example_means_and_flaky() -> None:
    # replicate hits (1, 0) on q1 and (1, 1) on q2 -> hit@k 0.75, q1 flaky (SPEC.md)
    first = {"q1": ["c1", "x"], "q2": ["c2", "x"]}
    second = {"q1": ["x", "y"], "q2": ["c2", "y"]}
    results = reportgen.evaluate(GOLD, {"rag": [first, second]}, k=[1], context_k=1)
    (run,) = results.evaluation.runs
    assert len(run.replicates) == 2
    assert results.headline()["hit@1"].to_list() == [0.75]
    per_question = dict(run.scores.select("qid", "hit@1").iter_rows())
    assert per_question == {"q1": 0.5, "q2": 1.0}


def _write(folder: Path, seed: int = 7, replicates: int = 3) -> tuple[Path, list[Path], Path]:
    """40 questions; a run whose gold rank jitters between replicates; another run."""
    rng = random.Random(seed)
    qids = [f"q{i:02d}" for i in range(40)]
    gold = folder / "gold.jsonl"
    gold.write_text("".join(json.dumps({"id": q, "gold": [f"{q}-g"]}) + "\n" for q in qids))
    base = {q: rng.randint(0, 6) for q in qids}
    paths = []
    for number in range(replicates + 1):
        lines = []
        for q in qids:
            ranked = [f"{q}-x{i}" for i in range(6)]
            place = base[q] + (rng.choice((-1, 0, 1)) if number < replicates else 2)
            ranked.insert(max(0, place), f"{q}-g")
            lines += [f"{q} Q0 {c} {r} {20 - r} x" for r, c in enumerate(ranked[:6], start=1)]
        path = folder / f"run-{number}.trec"
        path.write_text("\n".join(lines) + "\n")
        paths.append(path)
    return gold, paths[:replicates], paths[replicates]


def _report(tmp_path: Path, *args: str) -> dict[str, Any]:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["report", *args, "--out", str(out), "--format", "json", "-q"])
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads((out / "report.json").read_text())
    return report


def test_cli_and_python_api_agree_with_a_count_by_hand(tmp_path: Path) -> None:
    gold, replicates, other = _write(tmp_path)
    report = _report(
        tmp_path,
        str(gold),
        *[f"dense={path}" for path in replicates],
        f"bm25={other}",
        "--context-k",
        "3",
    )
    results = reportgen.evaluate(gold, {"dense": replicates, "bm25": other}, context_k=3)
    dense = report["runs"]["dense"]
    assert dense["replicates"] == {"count": 3, "files": [str(p) for p in replicates]}
    assert "replicates" not in report["runs"]["bm25"]
    # by hand: each replicate alone, then the mean of their per-question values
    alone = [
        reportgen.evaluate(gold, {"dense": path}, context_k=3).evaluation.runs[0].scores
        for path in replicates
    ]
    hits = pl.concat(frame.select("qid", "hit@3", "mrr@3") for frame in alone)
    per_question = hits.group_by("qid").agg(pl.col("hit@3", "mrr@3").mean())
    assert dense["means"]["hit@3"] == pytest.approx(per_question["hit@3"].mean(), abs=1e-9)
    assert dense["means"]["mrr@3"] == pytest.approx(per_question["mrr@3"].mean(), abs=1e-9)
    api = results.headline().filter(pl.col("run") == "dense")
    assert api["mrr@3"].item() == pytest.approx(dense["means"]["mrr@3"], abs=1e-9)
    flaky = hits.group_by("qid").agg(pl.col("hit@3").n_unique() > 1).filter(pl.col("hit@3"))
    assert dense["flaky"]["ids"] == sorted(flaky["qid"].to_list())
    (warning,) = [w for w in report["warnings"] if w["code"] == "replicates_flaky"]
    assert warning["count"] == dense["flaky"]["count"] > 0
    means = [frame["mrr@3"].mean() for frame in alone]
    assert dense["noise_floor"]["mrr@3"] == pytest.approx(max(means) - min(means), abs=1e-9)  # type: ignore[type-var,operator]
    # the comparison reads the folded run; the pages and the terminal say its noise floor
    (pair,) = report["comparisons"]["pairs"]
    assert {pair["before"], pair["after"]} == {"dense", "bm25"}
    floor = noise_floor_note(report, compared_runs(pair))  # type: ignore[arg-type]
    assert f"dense (3 replicates) recall@3 {dense['noise_floor']['recall@3']:.3f}" in floor
    line = replicates_line(report)  # type: ignore[arg-type]
    assert line.startswith(f"Replicates: dense 3 runs, {dense['flaky']['count']} flaky")


def test_verdicts_that_judge_a_replicated_run_are_refused(tmp_path: Path) -> None:
    gold, replicates, _ = _write(tmp_path, replicates=2)
    verdicts = tmp_path / "verdicts.jsonl"
    verdicts.write_text(json.dumps({"id": "q00", "correct": True}) + "\n")
    result = CliRunner().invoke(
        cli,
        [
            *["report", str(gold), *[f"dense={p}" for p in replicates]],
            *["--verdicts", str(verdicts), "--out", str(tmp_path / "out")],
        ],
    )
    assert result.exit_code == 2, result.output
    assert "replicates" in result.output and "Fix:" in result.output


def test_shard_and_merge_give_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gold, replicates, other = _write(tmp_path, replicates=2)
    runs = [*[f"dense={p}" for p in replicates], f"bm25={other}"]
    whole = _report(tmp_path, str(gold), *runs)
    runner = CliRunner()
    shards = tmp_path / "shards"
    cut = runner.invoke(cli, ["shard", str(gold), *runs, "--shards", "2", "--out", str(shards)])
    assert cut.exit_code == 0, cut.output
    plan = json.loads((shards / "shards.json").read_text())
    assert plan["replicates"] == {"dense": ["runs/dense-2.trec"]}
    outs = []
    for number, folder in enumerate(plan["folders"]):
        out = tmp_path / f"out-{number}"
        args = ["report", "gold.jsonl", "dense=runs/dense.trec", "dense=runs/dense-2.trec"]
        args += ["bm25=runs/bm25.trec", "--merge-data", "--out", str(out), "--format", "json"]
        monkeypatch.chdir(shards / folder)
        done = runner.invoke(cli, [*args, "-q"])
        assert done.exit_code == 0, done.output
        outs.append(str(out))
    merged_out = tmp_path / "merged"
    done = runner.invoke(cli, ["merge", *outs, "--out", str(merged_out), "--format", "json", "-q"])
    assert done.exit_code == 0, done.output
    merged = json.loads((merged_out / "report.json").read_text())
    for name in ("dense", "bm25"):
        for key in ("n", "means", "by_kind", "flaky", "noise_floor"):
            assert merged["runs"][name].get(key) == whole["runs"][name].get(key), (name, key)
    assert merged["runs"]["dense"]["replicates"]["count"] == 2
    assert merged["comparisons"]["pairs"] == whole["comparisons"]["pairs"]


def test_replicate_flaky_questions_are_marked_in_the_transitions(tmp_path: Path) -> None:
    gold, replicates, _ = _write(tmp_path, replicates=2)
    runner = CliRunner()
    then, now = tmp_path / "then", tmp_path / "now"
    common = ["report", str(gold), *[f"dense={p}" for p in replicates], "--format", "json", "-q"]
    assert runner.invoke(cli, [*common, "--out", str(then)]).exit_code == 0
    head = [*common[:3], "--format", "json", "-q"]  # the first replicate alone
    done = runner.invoke(cli, [*head, "--baseline", str(then), "--out", str(now)])
    assert done.exit_code == 0, done.output
    report = json.loads((now / "report.json").read_text())
    flaky = set(json.loads((then / "report.json").read_text())["runs"]["dense"]["flaky"]["ids"])
    entry = report["transitions"]["dense"]
    assert entry["mode"] == "retrieval"
    # the head is the first replicate alone: every question that moved is one the
    # baseline's replicates disagreed on
    moved = {qid for move in entry["moves"] for qid in move["questions"]}
    assert moved and moved <= flaky
    assert entry["flaky"]["ids"] == sorted(moved)


def test_results_report_keeps_the_replicates_and_trials(tmp_path: Path) -> None:
    gold, replicates, other = _write(tmp_path, replicates=2)
    trials = [
        {f"q{i:02d}": (i + t) % 3 != 0 for i in range(40)} for t in range(3)
    ]  # every question is wrong in one trial of three: all flaky, none tied
    results = reportgen.evaluate(
        gold,
        {"dense": replicates, "bm25": other},
        context_k=3,
        verdicts=trials,
        verdicts_run="bm25",
    )
    written = results.report(tmp_path / "out", formats=()).report
    assert written["runs"]["dense"]["replicates"]["count"] == 2
    verdicts = written["verdicts"]
    assert verdicts is not None and verdicts["trials"] == 3
    assert results.trials is not None
    assert verdicts["flaky"]["ids"] == list(results.trials.flaky)


def test_a_judges_grades_beside_replicates_are_refused() -> None:
    # the judge-only means would read the first replicate's list, the gold set's all of them
    run = {"q1": ["c1"], "q2": ["x"]}
    with pytest.raises(reportgen.errors.UsageError, match="replicates"):
        reportgen.evaluate(GOLD, {"rag": [run, run]}, context_k=1, judgments={"q1": {"c1": 1}})
