"""The issue's check from outside: 150 questions with a known rank for the first gold
chunk and a pass probability falling with rank. The counts per rank are exact, the AUC
of recall@5 equals scipy's Mann-Whitney U / (n_right n_wrong) to 1e-9, through the
command line's report.json, the Python API and shard + merge (the same report.json)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from scipy import stats

import reportgen
from reportgen.analyse.run import AnalysisOptions, run_analyses
from reportgen.cli import cli
from reportgen.load import load_gold, load_run, load_verdicts
from reportgen.load.previous.merge_data import read_merge_data
from reportgen.measure.scoring import Settings, evaluate
from reportgen.report.assemble import assemble
from reportgen.scale.rebuild import merged_evaluation, merged_verdicts
from tests.scale.test_merge_data import CREATED, write_shards

QUESTIONS = 150
K = 5
PASS_BY_RANK = {1: 0.9, 2: 0.75, 3: 0.6, 4: 0.45, 5: 0.3, None: 0.15}
"""The probability an answer passes, by the rank of its first gold chunk (None: not sent)."""


def build(folder: Path, seed: int = 42) -> tuple[Path, Path, Path, dict[str, Any]]:
    """Gold, run and verdicts files, and what the test knows: each question's first
    gold rank, verdict and recall@5 (one to three gold chunks, the others deeper)."""
    draw = random.Random(seed)
    gold, run, verdicts = [], [], []
    known: dict[str, Any] = {"rank": {}, "correct": {}, "recall": {}}
    for number in range(QUESTIONS):
        qid = f"q{number:03d}"
        rank = draw.choice([1, 2, 3, 4, 5, None])
        chunks = [f"{qid}-x{i}" for i in range(1, 11)]
        golds = [f"{qid}-g{i}" for i in range(draw.randint(1, 3))]
        places = []
        if rank is not None:
            # the first gold at its rank; the others after it, inside or outside the top 5
            places = [rank, *sorted(draw.sample(range(rank + 1, 11), len(golds) - 1))]
            for chunk, place in zip(golds, places, strict=False):
                chunks[place - 1] = chunk
        correct = draw.random() < PASS_BY_RANK[rank]
        gold.append({"id": qid, "gold": golds})
        run.append({"id": qid, "chunks": chunks})
        verdicts.append({"id": qid, "correct": correct})
        known["rank"][qid] = rank
        known["correct"][qid] = correct
        known["recall"][qid] = sum(place <= K for place in places) / len(golds)
    paths = (folder / "gold.jsonl", folder / "run.jsonl", folder / "verdicts.jsonl")
    for path, lines in zip(paths, (gold, run, verdicts), strict=True):
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return *paths, known


def expected_counts(known: dict[str, Any]) -> dict[str, tuple[int, int]]:
    counts = {str(rank): (0, 0) for rank in range(1, K + 1)} | {"none": (0, 0)}
    for qid, rank in known["rank"].items():
        key = "none" if rank is None else str(rank)
        n, right = counts[key]
        counts[key] = (n + 1, right + int(known["correct"][qid]))
    return counts


def mann_whitney_auc(known: dict[str, Any]) -> float:
    right = [known["recall"][q] for q, ok in known["correct"].items() if ok]
    wrong = [known["recall"][q] for q, ok in known["correct"].items() if not ok]
    u = stats.mannwhitneyu(right, wrong, alternative="two-sided").statistic
    return float(u / (len(right) * len(wrong)))


def check(section: dict[str, Any], known: dict[str, Any]) -> None:
    found = {
        rank: (row["n"], row["correct"]) for rank, row in section["by_first_gold_rank"].items()
    }
    assert found == expected_counts(known)
    # report.json rounds to 10 digits: the value itself is checked below to 1e-9
    assert section["association"]["measures"]["recall@5"]["auc"] == pytest.approx(
        mann_whitney_auc(known), abs=1e-9
    )
    assert section["first_gold_rank"]["trend"]["falls"]  # 0.9 down to 0.3 over 125 questions


def test_cli_report_json(tmp_path: Path) -> None:
    gold, run, verdicts, known = build(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        [*("report", str(gold), f"rag={run}", "--verdicts", str(verdicts)),
         *("--out", str(out), "--context-k", str(K), "--format", "json")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    check(json.loads((out / "report.json").read_text())["attribution"]["rag"], known)


def test_the_auc_unrounded_equals_mann_whitney(tmp_path: Path) -> None:
    from reportgen.analyse.auc import auc

    gold, run, verdicts, known = build(tmp_path, seed=7)
    qids = sorted(known["rank"])
    values = np.array([known["recall"][q] for q in qids])
    correct = np.array([known["correct"][q] for q in qids])
    assert auc(values, correct) == pytest.approx(mann_whitney_auc(known), abs=1e-9)
    findings = run_analyses(
        evaluate(load_gold(gold), [load_run(run, "rag")], Settings(ks=(1, K), context_k=K)),
        AnalysisOptions(verdicts=load_verdicts(verdicts)),
        version="t",
    )
    entry = findings.predictors["rag"].association["recall@5"]
    assert entry.auc == pytest.approx(mann_whitney_auc(known), abs=1e-9)


def test_python_api(tmp_path: Path) -> None:
    gold, run, verdicts, known = build(tmp_path)
    results = reportgen.evaluate(gold, {"rag": run}, k=[1, K], verdicts=verdicts)
    table = results.first_gold_rank
    found = {row["rank"]: (row["n"], row["correct"]) for row in table.iter_rows(named=True)}
    assert found == expected_counts(known)
    recall = results.association.row(by_predicate=pl.col("measure") == "recall@5", named=True)
    assert recall["auc"] == pytest.approx(mann_whitney_auc(known), abs=1e-9)
    retrieval = results.headroom.row(0, named=True)
    assert retrieval["fix"] == "retrieval"
    assert results.attribution["retrieval_headroom"][0] == retrieval["added"]


def test_shard_and_merge_give_the_same_sections(tmp_path: Path) -> None:
    gold_path, run_path, verdicts_path, known = build(tmp_path)
    gold, run = load_gold(gold_path), load_run(run_path, "rag")
    verdicts = load_verdicts(verdicts_path)
    settings = Settings(ks=(1, K), context_k=K)
    whole = run_analyses(evaluate(gold, [run], settings), AnalysisOptions(verdicts=verdicts),
                         version="v1", created=CREATED)  # fmt: skip
    folders = write_shards(tmp_path / "shards", gold, [run], verdicts, settings, shards=3)
    shards = [read_merge_data(folder) for folder in folders]
    merged = run_analyses(merged_evaluation(shards),
                          AnalysisOptions(verdicts=merged_verdicts(shards)),
                          version="v1", created=CREATED)  # fmt: skip
    expected, found = assemble(whole), assemble(merged)
    assert found["attribution"] == expected["attribution"]
    assert found == expected
    check(dict(found["attribution"]["rag"]), known)


def test_the_python_tables_hold_report_json_s_numbers(tmp_path: Path) -> None:
    gold, run, verdicts, _ = build(tmp_path)
    out = tmp_path / "out"
    args = ["report", str(gold), f"rag={run}", "--verdicts", str(verdicts), "--k", f"1,{K}"]
    result = CliRunner().invoke(cli, [*args, "--out", str(out), "--format", "json"])
    assert result.exit_code == 0, result.output
    section = json.loads((out / "report.json").read_text())["attribution"]["rag"]
    results = reportgen.evaluate(gold, {"rag": run}, k=[1, K], verdicts=verdicts)
    ranks = {
        row["rank"]: {"n": row["n"], "correct": row["correct"], "pass_rate": row["pass_rate"],
                      "interval": [row["low"], row["high"]] if row["low"] is not None else None}
        for row in results.first_gold_rank.iter_rows(named=True)
    }  # fmt: skip
    assert ranks == section["by_first_gold_rank"]
    for row in results.association.iter_rows(named=True):
        entry = section["association"]["measures"][row["measure"]]
        assert (row["auc"], [row["low"], row["high"]]) == (entry["auc"], entry["interval"])
    for row in results.headroom.iter_rows(named=True):
        fix = section["headroom"][row["fix"]]
        assert (row["added"], [row["low"], row["high"]]) == (fix["added"], fix["added_interval"])


def test_a_gated_measure_is_the_one_checked(tmp_path: Path) -> None:
    from reportgen.load.inputs.config import GateRules, Rule

    gold, run, verdicts, _ = build(tmp_path)
    evaluation = evaluate(load_gold(gold), [load_run(run, "rag")], Settings(ks=(1, K)))
    rules = GateRules(rules=(Rule("min", "precision@5", 0.0),))
    found = run_analyses(
        evaluation, AnalysisOptions(verdicts=load_verdicts(verdicts), gate=rules), version="t"
    ).predictors["rag"]
    assert (found.gated, found.gated_from) == (("precision@5",), "gate")
    default = run_analyses(
        evaluation, AnalysisOptions(verdicts=load_verdicts(verdicts)), version="t"
    ).predictors["rag"]
    assert (default.gated, default.gated_from) == (("hit@5", "recall@5"), "default")


def test_a_tied_question_of_judge_trials_stays_out_of_every_predictor() -> None:
    """Two trials splitting on q1 leave it tied (SPEC.md): neither right nor wrong, so
    it counts at no rank, in no AUC and in no cell the headroom reads."""
    gold = {"q1": ["c1"], "q2": ["c2"], "q3": ["c3"]}
    run = {"q1": ["c1", "x"], "q2": ["x", "y"], "q3": ["x", "c3"]}
    trials = [{"q1": True, "q2": False, "q3": True}, {"q1": False, "q2": False, "q3": True}]
    results = reportgen.evaluate(gold, {"rag": run}, context_k=2, verdicts=trials)
    ranks = {row["rank"]: row["n"] for row in results.first_gold_rank.iter_rows(named=True)}
    assert ranks == {"1": 0, "2": 1, "none": 1}  # q3 at rank 2, q2 none; q1 tied
    assert set(results.association["n"].to_list()) == {2}
    assert results.headroom.filter(pl.col("fix") == "retrieval")["failures"].item() == 1
