"""Prediction-powered means: SPEC.md's worked example, an independent implementation
(pytrec_eval's per-question values, numpy's PPI arithmetic) on random data, the guard
rails and --estimate ppi through the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner

from reportgen.analyse.ppi import audit_marker, draw_audit, ppi_findings, ppi_mean
from reportgen.cli import cli
from reportgen.measure.scoring import Settings, evaluate
from tests.analyse.ppi.simulation import gold_of, judged, world

pytrec_eval = pytest.importorskip("pytrec_eval")


def test_spec_worked_example():
    # N = 8, J = (1, 1, 0, 1, 0, 1, 1, 0): mean 0.625; the first 4 audited, H = (1, 0, 0, 1),
    # H - J = (0, -1, 0, 0), mean -0.25 -> 0.375; variance 0.267857/8 + 0.25/4 = 0.095982,
    # half-width 1.96 x 0.309810 = 0.607227 -> (-0.232, 0.982), clipped to [0, 0.982]
    judge = pl.Series([1, 1, 0, 1, 0, 1, 1, 0], dtype=pl.Float64)
    found = ppi_mean(judge, pl.Series([1.0, 0.0, 0.0, 1.0]), judge.head(4))
    assert found.estimate == pytest.approx(0.375)
    assert found.std_error == pytest.approx(math.sqrt(0.267857142857 / 8 + 0.25 / 4))
    assert found.ci_low == 0.0 and found.clipped
    assert found.ci_high == pytest.approx(0.982227, abs=1e-6)
    assert (found.judge_only, found.human_only) == (0.625, 0.5)
    assert (found.n_all, found.n_human) == (8, 4)
    unclipped = ppi_mean(judge, pl.Series([1.0, 0.0, 0.0, 1.0]), judge.head(4), (-1.0, 1.0))
    assert unclipped.ci_low == pytest.approx(0.375 - 0.607227, abs=1e-6)
    assert not unclipped.clipped


def _pytrec_values(
    grades: pl.DataFrame, run: pl.DataFrame, qids: list[str]
) -> dict[str, np.ndarray]:
    """Per-question values by pytrec_eval (hit@5 from its relevant-retrieved count);
    a question it cannot score (nothing relevant) is 0, as PPI counts it."""
    qrels: dict[str, dict[str, int]] = {}
    for qid, chunk, grade in grades.iter_rows():
        qrels.setdefault(qid, {})[chunk] = grade
    ranked: dict[str, dict[str, float]] = {}
    for qid, chunk, rank, _ in run.iter_rows():
        ranked.setdefault(qid, {})[chunk] = float(1000 - rank)
    measures = {"recall_5", "P_5", "ndcg_cut_5", "map_cut_5", "success_5"}
    found = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(ranked)
    names = {"recall@5": "recall_5", "precision@5": "P_5", "ndcg@5": "ndcg_cut_5",
             "ap@5": "map_cut_5", "hit@5": "success_5"}  # fmt: skip
    return {
        key: np.array([found.get(qid, {}).get(name, 0.0) for qid in qids])
        for key, name in names.items()
    }


@pytest.mark.parametrize("seed", range(6))
def test_matches_an_independent_implementation(seed: int):
    rng = np.random.default_rng(seed)
    truth, run = world(int(rng.integers(40, 90)), rng)
    judge = judged(truth, 0.2, 0.1, rng)
    qids = sorted(truth["qid"].unique().to_list())
    audited = sorted(rng.choice(qids, size=int(rng.integers(5, 30)), replace=False).tolist())
    gold = gold_of(truth, audited, "hand-picked")
    from reportgen.core.model import Run

    evaluation = evaluate(gold, [Run("r", run, "sim", "rank")], Settings(ks=(5,), context_k=5))
    keys = ["hit@5", "recall@5", "precision@5", "ndcg@5", "ap@5"]
    found = ppi_findings(evaluation, judge, keys).estimates["r"]
    judge_all = _pytrec_values(judge.select("qid", "chunk_id", "grade"), run, qids)
    judge_audit = _pytrec_values(judge.select("qid", "chunk_id", "grade"), run, audited)
    human = _pytrec_values(truth, run, audited)
    for key in keys:
        gap = human[key] - judge_audit[key]
        estimate = judge_all[key].mean() + gap.mean()
        se = math.sqrt(judge_all[key].var(ddof=1) / len(qids) + gap.var(ddof=1) / len(audited))
        got = found[key]
        assert got.estimate == pytest.approx(estimate, abs=1e-9), key
        assert got.std_error == pytest.approx(se, abs=1e-9), key
        assert got.ci_low == pytest.approx(max(0.0, estimate - 1.96 * se), abs=1e-9)
        assert got.ci_high == pytest.approx(min(1.0, estimate + 1.96 * se), abs=1e-9)
        assert got.judge_only == pytest.approx(judge_all[key].mean(), abs=1e-12)
        assert got.human_only == pytest.approx(human[key].mean(), abs=1e-12)


def test_the_audit_draw_is_reproducible_and_order_free():
    qids = [f"q{i}" for i in range(200)]
    first = draw_audit(qids, 30, 7)
    assert first == draw_audit(list(reversed(qids)), 30, 7) == sorted(first)
    assert len(set(first)) == 30 and set(first) <= set(qids)
    assert draw_audit(qids, 30, 8) != first
    # a random sample: each question about equally likely over many seeds
    counts = pl.Series([q for seed in range(300) for q in draw_audit(qids[:20], 5, seed)])
    shares = counts.value_counts()["count"].to_numpy() / 300
    assert abs(shares.mean() - 0.25) < 1e-9 and shares.min() > 0.15 and shares.max() < 0.35


def write_inputs(folder: Path, audit: int = 40, marked: bool = True, miss: float = 0.1,
                 false_alarm: float = 0.05, seed: int = 3) -> Path:  # fmt: skip
    """A judge over 200 questions and a gold set auditing ``audit`` of them (files)."""
    rng = np.random.default_rng(seed)
    truth, run = world(200, rng)
    judge = judged(truth, miss, false_alarm, rng)
    qids = truth["qid"].unique().to_list()
    audited = draw_audit(qids, audit, seed) if marked else sorted(qids)[:audit]
    marker = audit_marker(audit, 200, seed)
    lines = []
    for qid in audited:
        grades = dict(truth.filter(pl.col("qid") == qid).select("chunk_id", "grade").iter_rows())
        record = {"id": qid, "gold": grades} | ({"audit": marker} if marked else {})
        lines.append(json.dumps(record))
    (folder / "gold.jsonl").write_text("\n".join(lines) + "\n")
    judge.select("qid", "chunk_id", "grade", "source").write_csv(folder / "judge.csv")
    (folder / "run.trec").write_text(
        "".join(f"{q} Q0 {c} {r} {100 - r} a\n" for q, c, r, _ in run.iter_rows())
    )
    (folder / "b.trec").write_text(
        "".join(f"{q} Q0 {c} {11 - r} {r} b\n" for q, c, r, _ in run.iter_rows())
    )
    return folder


def _report(folder: Path, *extra: str) -> tuple[int, str, dict | None]:
    out = folder / "out"
    result = CliRunner().invoke(
        cli,
        ["report", str(folder / "gold.jsonl"), f"a={folder / 'run.trec'}", f"b={folder / 'b.trec'}",
         "--context-k", "5", "--out", str(out), "--format", "json",
         "--judgments", str(folder / "judge.csv"), *extra],
    )  # fmt: skip
    written = out / "report.json"
    report = json.loads(written.read_text()) if result.exit_code in (0, 1) else None
    return result.exit_code, result.output, report


def test_report_json_has_the_ppi_means_beside_both_others(tmp_path: Path):
    code, output, report = _report(write_inputs(tmp_path))
    assert code == 0, output
    section = report["secondary_judgments"]
    assert section["estimate"] == "human"
    assert section["audit"]["questions"] == 40 and section["audit"]["judge_questions"] == 200
    assert section["audit"]["sample"] == {"size": 40, "population": 200, "seed": 3}
    assert section["audit"]["guards"] == []
    recall = section["ppi"]["a"]["recall@5"]
    assert set(recall) >= {"estimate", "ci_low", "ci_high", "n_human", "n_all",
                           "judge_only", "human_only"}  # fmt: skip
    assert (recall["n_human"], recall["n_all"]) == (40, 200)
    # the human-only mean is the gold set's own
    assert recall["human_only"] == pytest.approx(report["runs"]["a"]["means"]["recall@5"])
    assert recall["ci_low"] <= recall["estimate"] <= recall["ci_high"]
    assert "ppi_comparisons" not in section


def test_estimate_ppi_gates_and_compares_on_the_ppi_means(tmp_path: Path):
    folder = write_inputs(tmp_path)
    code, output, report = _report(folder, "--estimate", "ppi", "--min", "a/recall@5=0.99")
    assert code == 1, output
    section = report["secondary_judgments"]
    (rule,) = report["gate"]["rules"]
    assert rule["value"] == pytest.approx(section["ppi"]["a"]["recall@5"]["estimate"])
    assert "prediction-powered" in rule["message"]
    (pair,) = section["ppi_comparisons"]["pairs"]
    entry = pair["measures"]["recall@5"]
    assert entry["label"] in ("better", "worse", "within noise", "too few questions")
    assert entry["p_holm"] >= entry["p"]
    assert entry["estimate"] == pytest.approx(
        section["ppi"]["b"]["recall@5"]["estimate"] - section["ppi"]["a"]["recall@5"]["estimate"]
    )


@pytest.mark.parametrize(
    ("inputs", "code"),
    [
        ({"marked": False}, "ppi_audit_not_random"),
        ({"audit": 20}, "ppi_audit_small"),
        ({"miss": 0.6, "false_alarm": 0.5}, "ppi_judge_disagrees"),
    ],
)
def test_guard_rails_warn_and_refuse_estimate_ppi(tmp_path: Path, inputs: dict, code: str):
    folder = write_inputs(tmp_path, **inputs)
    done, output, report = _report(folder)
    assert done == 0, output
    assert code in [w["code"] for w in report["warnings"]]
    assert code in [g["code"] for g in report["secondary_judgments"]["audit"]["guards"]]
    refused, message, _ = _report(folder, "--estimate", "ppi")
    assert refused == 2 and "--estimate ppi" in message and "Fix:" in message


def test_a_changed_population_is_not_the_drawn_sample(tmp_path: Path):
    folder = write_inputs(tmp_path)
    judge = pl.read_csv(folder / "judge.csv")
    extra = pl.DataFrame({"qid": ["new"], "chunk_id": ["x"], "grade": [1], "source": ["llm"]})
    pl.concat([judge, extra]).write_csv(folder / "judge.csv")
    _, _, report = _report(folder)
    (guard,) = report["secondary_judgments"]["audit"]["guards"]
    assert guard["code"] == "ppi_audit_not_random" and "201 question(s)" in guard["message"]


def test_estimate_ppi_without_judgments_is_refused(tmp_path: Path):
    folder = write_inputs(tmp_path)
    result = CliRunner().invoke(
        cli, ["report", str(folder / "gold.jsonl"), f"a={folder / 'run.trec'}",
              "--out", str(tmp_path / "o"), "--estimate", "ppi"],
    )  # fmt: skip
    assert result.exit_code == 2 and "--judgments" in result.output


@pytest.mark.parametrize(
    "rule", [["--min", "a/recall@5:unlabelled=0.5"], ["--max-drop", "recall@5=0.1"]]
)
def test_estimate_ppi_refuses_rules_it_cannot_read(tmp_path: Path, rule: list[str]):
    refused, message, _ = _report(write_inputs(tmp_path), "--estimate", "ppi", *rule)
    assert refused == 2 and "--estimate ppi" in message and "Fix:" in message


def test_a_gate_measure_beyond_k_ctx_gets_its_ppi_mean(tmp_path: Path):
    code, output, report = _report(write_inputs(tmp_path), "--k", "1,5,10", "--min", "ndcg@10=0")
    assert code == 0, output
    assert "ndcg@10" in report["secondary_judgments"]["ppi"]["a"]
    assert "ndcg@1" not in report["secondary_judgments"]["ppi"]["a"]


def _tiny(judge_grades: dict[str, dict[str, int]], gold_grades: dict[str, dict[str, int]]):
    from reportgen.core.model import Run

    def frame(grades: dict[str, dict[str, int]]) -> pl.DataFrame:
        rows = [(q, c, g) for q, chunks in grades.items() for c, g in chunks.items()]
        return pl.DataFrame(rows, schema=["qid", "chunk_id", "grade"], orient="row")

    judge = judged(frame(judge_grades), 0.0, 0.0, np.random.default_rng(0))
    gold = gold_of(frame(gold_grades), sorted(gold_grades), "hand-picked")
    run = pl.DataFrame(
        {"qid": ["q1", "q2", "q3"], "chunk_id": ["a", "b", "c"], "rank": [1, 1, 1]},
        schema_overrides={"rank": pl.Int64},
    ).with_columns(score=pl.lit(None, pl.Float64))
    evaluation = evaluate(gold, [Run("r", run, "sim", "rank")], Settings(ks=(1,), context_k=1))
    return ppi_findings(evaluation, judge, ["hit@1", "recall@1"]).estimates["r"]


def test_a_judge_question_no_run_answers_counts_zero():
    # q4 is the judge's, and no run returns anything for it: 0, in N
    found = _tiny(
        {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 0}, "q4": {"d": 1}},
        {"q1": {"a": 1}, "q2": {"b": 1}},
    )["hit@1"]
    assert (found.n_all, found.n_human) == (4, 2)
    assert found.judge_only == pytest.approx(2 / 4)
    assert found.estimate == pytest.approx(2 / 4)  # the audit agrees: no correction


def test_a_judge_the_audit_agrees_with_costs_only_its_own_variance():
    found = _tiny(
        {"q1": {"a": 1}, "q2": {"b": 0}, "q3": {"c": 1}},
        {"q1": {"a": 1}, "q2": {"b": 0, "z": 1}},
    )["hit@1"]
    judge = np.array([1.0, 0.0, 1.0])
    assert found.estimate == pytest.approx(judge.mean())
    assert found.std_error == pytest.approx(math.sqrt(judge.var(ddof=1) / 3))
    assert found.human_only == pytest.approx(0.5)
