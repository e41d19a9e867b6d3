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
    grades: pl.DataFrame, run: pl.DataFrame, qids: list[str], threshold: int = 1
) -> dict[str, np.ndarray]:
    """Per-question values by pytrec_eval at relevance level ``threshold``; a question
    it does not score (not in the qrels) is 0, as PPI counts it."""
    qrels: dict[str, dict[str, int]] = {}
    for qid, chunk, grade in grades.iter_rows():
        qrels.setdefault(qid, {})[chunk] = grade
    ranked: dict[str, dict[str, float]] = {}
    for qid, chunk, rank, _ in run.iter_rows():
        ranked.setdefault(qid, {})[chunk] = float(1000 - rank)
    measures = {"recall_5", "P_5", "ndcg_cut_5", "map_cut_5", "success_5"}
    found = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=threshold).evaluate(
        ranked
    )
    names = {"recall@5": "recall_5", "precision@5": "P_5", "ndcg@5": "ndcg_cut_5",
             "ap@5": "map_cut_5", "hit@5": "success_5"}  # fmt: skip
    return {
        key: np.array([found.get(qid, {}).get(name, 0.0) for qid in qids])
        for key, name in names.items()
    }


def _graded(grades: pl.DataFrame, rng: np.random.Generator) -> pl.DataFrame:
    """Relevant pairs graded 2 and a third of the others 1 (partly relevant); the
    questions ending in 3 have nothing at 2: at threshold 2 they have nothing relevant,
    and nDCG's gains still count (trec_eval's)."""
    partly = pl.Series(rng.random(grades.height) < 1 / 3)
    grade = pl.when(pl.col("grade") > 0).then(2).when(partly).then(1).otherwise(0)
    capped = pl.when(pl.col("qid").str.ends_with("3")).then(grade.clip(0, 1)).otherwise(grade)
    return grades.with_columns(grade=capped)


@pytest.mark.parametrize(
    ("seed", "threshold", "trec_eval"),
    [*((seed, 1, False) for seed in range(6)), (6, 2, True), (7, 2, False), (8, 2, True)],
)
def test_matches_an_independent_implementation(seed: int, threshold: int, trec_eval: bool):
    rng = np.random.default_rng(seed)
    truth, run = world(int(rng.integers(40, 90)), rng)
    judge = judged(truth, 0.2, 0.1, rng)
    if threshold == 2:
        truth, judge = _graded(truth, rng), _graded(judge, rng)
    qids = sorted(truth["qid"].unique().to_list())
    audited = sorted(rng.choice(qids, size=int(rng.integers(5, 30)), replace=False).tolist())
    gold = gold_of(truth, audited, "hand-picked")
    from reportgen.core.model import Run

    settings = Settings(ks=(5,), context_k=5, threshold=threshold, trec_eval=trec_eval)
    evaluation = evaluate(gold, [Run("r", run, "sim", "rank")], settings)
    keys = ["hit@5", "recall@5", "precision@5", "ndcg@5", "ap@5"]
    found = ppi_findings(evaluation, judge, keys).estimates["r"]
    judge_grades = judge.select("qid", "chunk_id", "grade")
    judge_all = _pytrec_values(judge_grades, run, qids, threshold)
    judge_audit = _pytrec_values(judge_grades, run, audited, threshold)
    human = _pytrec_values(truth, run, audited, threshold)
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


EXTRA_USED = (
    "run 'a' answers 161 question(s) that are not in the gold set; the prediction-powered "
    "means use the 160 the judge grades (counted in their n_all); every other number "
    "ignores them"
)


def _with_a_stray_question(tmp_path: Path, formats: str) -> tuple[Path, Path, str]:
    """The run answers the judge's 200 questions and one nobody graded; the gold set
    has 40: (inputs, report folder, the terminal's output)."""
    folder = write_inputs(tmp_path)
    with (folder / "run.trec").open("a") as run:
        run.write("stray Q0 s1 1 1 a\n")
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        ["report", str(folder / "gold.jsonl"), f"a={folder / 'run.trec'}", "--context-k", "5",
         "--out", str(out), "--format", formats, "--judgments", str(folder / "judge.csv")],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return folder, out, result.output


def test_the_runs_extra_questions_the_judge_grades_are_said_to_be_used(tmp_path: Path):
    folder, out, output = _with_a_stray_question(tmp_path, "json")
    report = json.loads((out / "report.json").read_text())
    (warning,) = [w for w in report["warnings"] if w["code"] == "extra_questions"]
    assert warning["message"] == EXTRA_USED and warning["count"] == 161
    assert report["secondary_judgments"]["ppi"]["a"]["recall@5"]["n_all"] == 200
    assert EXTRA_USED in " ".join(output.split())  # the terminal's, wrapped
    # without the stray question: all of them
    from reportgen import evaluate as api_evaluate

    results = api_evaluate(folder / "gold.jsonl", {"b": folder / "b.trec"}, k=5, context_k=5,
                           judgments=folder / "judge.csv")  # fmt: skip
    (warning,) = [w for w in results.warnings if w.code == "extra_questions"]
    assert warning.message.endswith(
        "the prediction-powered means use them (counted in their n_all); every other number "
        "ignores them"
    )
    # and without judgments they are ignored, as before
    plain = api_evaluate(folder / "gold.jsonl", {"b": folder / "b.trec"}, k=5, context_k=5)
    (warning,) = [w for w in plain.warnings if w.code == "extra_questions"]
    assert warning.message.endswith("not in the gold set; they are ignored")


@pytest.mark.slow
def test_the_pages_say_the_extra_questions_are_used(tmp_path: Path):
    _, out, _ = _with_a_stray_question(tmp_path, "json,md,html")
    for page in ("report.md", "summary.md"):
        assert EXTRA_USED.replace("n_all", "n\\_all") in (out / page).read_text(), page
    assert EXTRA_USED.replace("'", "&#39;") in (out / "index.html").read_text()


def test_with_trec_eval_at_threshold_2_the_gold_only_mean_is_the_gold_sets(tmp_path: Path):
    # grades 0/1/2, a few audited questions with nothing at 2: trec_eval keeps them (nDCG
    # still counts their grade-1 gains), and so does the PPI's gold-set-only mean
    folder = write_inputs(tmp_path)
    rng = np.random.default_rng(5)
    records = [json.loads(line) for line in (folder / "gold.jsonl").read_text().splitlines()]
    for number, record in enumerate(records):
        top = 1 if number < 5 else 2
        record["gold"] = {c: g * top or int(rng.random() < 0.3) for c, g in record["gold"].items()}
    (folder / "gold.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    judge = pl.read_csv(folder / "judge.csv")
    judge.with_columns(grade=pl.col("grade") * 2).write_csv(folder / "judge.csv")
    code, output, report = _report(folder, "--trec-eval", "--relevance-threshold", "2")
    assert code == 0, output
    assert any(w["code"] == "no_relevant" for w in report["warnings"])
    for run in ("a", "b"):
        means = report["runs"][run]["means"]
        for key, found in report["secondary_judgments"]["ppi"][run].items():
            assert found["human_only"] == pytest.approx(means[key], abs=1e-9), (run, key)


def test_estimate_ppi_refusals_name_the_api_parameter_or_the_cli_flag(tmp_path: Path):
    from reportgen import evaluate as api_evaluate
    from reportgen.errors import UsageError
    from reportgen.load.inputs.config import GateRules, Rule

    folder = write_inputs(tmp_path)
    code, output, _ = _report(folder)
    assert code == 0, output
    (folder / "out").rename(tmp_path / "base")  # the baseline
    rule = ["--max-drop", "recall@5=0.1", "--baseline", str(tmp_path / "base")]
    refused, message, _ = _report(folder, "--estimate", "ppi", *rule)
    assert refused == 2 and "Traceback" not in message
    assert message.startswith("Error: --estimate ppi: ") and "estimate='ppi'" not in message
    assert "max-drop recall@5=0.1" in message and "Fix:" in message
    results = api_evaluate(folder / "gold.jsonl", {"a": folder / "run.trec"}, k=5, context_k=5,
                           judgments=folder / "judge.csv", baseline=tmp_path / "base")  # fmt: skip
    gate = GateRules((Rule("max-drop", "recall@5", 0.1),))
    with pytest.raises(UsageError) as raised:
        results.report(tmp_path / "api", gate=gate, estimate="ppi", formats=("json",))
    said = str(raised.value)
    assert said.startswith("estimate='ppi': ") and "--estimate" not in said
    assert "max-drop recall@5=0.1" in said
    # a guard rail that fails: the same, by the surface it came through
    (tmp_path / "unmarked").mkdir()
    unmarked = write_inputs(tmp_path / "unmarked", marked=False)
    refused, message, _ = _report(unmarked, "--estimate", "ppi")
    assert refused == 2 and message.startswith("Error: --estimate ppi: ")
    results = api_evaluate(unmarked / "gold.jsonl", {"a": unmarked / "run.trec"}, k=5,
                           context_k=5, judgments=unmarked / "judge.csv")  # fmt: skip
    with pytest.raises(UsageError, match=r"^estimate='ppi': no gold question is marked"):
        results.report(tmp_path / "api2", estimate="ppi", formats=("json",))


@pytest.mark.slow
def test_a_baseline_with_or_without_ppi_compares_the_gold_sets_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")  # one version name for all
    folder = write_inputs(tmp_path)
    reports = {}
    for name, judged_now, baseline in [
        ("plain", False, None), ("judged", True, None), ("on_plain", True, "plain"),
        ("on_judged", True, "judged"), ("plain_on_judged", False, "judged"),
        ("ppi_on_judged", True, "judged"),
    ]:  # fmt: skip
        args = ["report", str(folder / "gold.jsonl"), f"a={folder / 'run.trec'}",
                f"b={folder / 'b.trec'}", "--context-k", "5", "--format", "json",
                "--out", str(tmp_path / name)]  # fmt: skip
        args += ["--judgments", str(folder / "judge.csv")] if judged_now else []
        args += ["--baseline", str(tmp_path / baseline)] if baseline else []
        args += ["--estimate", "ppi", "--min", "recall@5=0"] if name == "ppi_on_judged" else []
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
        reports[name] = json.loads((tmp_path / name / "report.json").read_text())
    compared = [reports[name]["baseline"]["comparisons"] for name in
                ("on_plain", "on_judged", "plain_on_judged", "ppi_on_judged")]  # fmt: skip
    assert all(found == compared[0] for found in compared)
    ppi = reports["ppi_on_judged"]["secondary_judgments"]["ppi"]
    assert ppi == reports["on_judged"]["secondary_judgments"]["ppi"]  # the baseline moves no PPI
    rules = reports["ppi_on_judged"]["gate"]["rules"]
    assert rules and all("prediction-powered" in rule["message"] for rule in rules)


def test_a_trace_file_is_the_gold_set_and_the_run_of_the_ppi(tmp_path: Path):
    # the judge agrees with the trace's gold on its 7 answerable questions and grades 5
    # questions no run answers: its mean is the gold set's x 7/12, and the audit moves it
    # by nothing
    trace = Path(__file__).resolve().parents[2] / "fixtures" / "traces" / "multihop.jsonl"
    records = [json.loads(line) for line in trace.read_text().splitlines()]
    grades = [
        {"qid": record["id"], "chunk_id": chunk, "grade": 1}
        for record in records
        if record.get("gold")
        for chunk in record["gold"]
    ]
    grades += [{"qid": f"extra{i}", "chunk_id": "zz", "grade": 1} for i in range(5)]
    (tmp_path / "judge.jsonl").write_text("".join(json.dumps(g) + "\n" for g in grades))
    result = CliRunner().invoke(
        cli, ["report", str(trace), "--judgments", str(tmp_path / "judge.jsonl"),
              "--out", str(tmp_path / "out"), "--format", "json", "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    (run,) = report["runs"]
    assert report["runs"][run]["n"] == 7
    for key, found in report["secondary_judgments"]["ppi"][run].items():
        gold_mean = report["runs"][run]["means"][key]
        assert (found["n_all"], found["n_human"]) == (12, 7)
        assert found["human_only"] == pytest.approx(gold_mean, abs=1e-9), key
        assert found["judge_only"] == pytest.approx(gold_mean * 7 / 12, abs=1e-9), key
        assert found["estimate"] == pytest.approx(found["judge_only"], abs=1e-9), key


def test_judgments_beside_a_chunk_map_are_refused(tmp_path: Path):
    # with --chunks the runs are judged on the evidence spans, not on chunk grades
    from reportgen.api import example_dir

    example = example_dir()
    (tmp_path / "judge.jsonl").write_text('{"qid": "q001", "chunk_id": "c1", "grade": 1}\n')
    result = CliRunner().invoke(
        cli, ["report", str(example / "gold.jsonl"), f"k={example / 'runs' / 'keyword.trec'}",
              "--chunks", str(example / "chunks" / "paragraphs.jsonl"), "--docs",
              str(example / "docs"), "--judgments", str(tmp_path / "judge.jsonl"),
              "--out", str(tmp_path / "out"), "--format", "json"],
    )  # fmt: skip
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "--judgments" in result.output and "--chunks" in result.output
    assert "Fix:" in result.output
