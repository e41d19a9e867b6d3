"""Judge trials (SPEC.md "Replicates and judge trials"): the majority, flaky and tied
questions, each cell's range, Fleiss' kappa against an independent implementation, and
the same report through the CLI, the Python API and shard + merge."""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

import reportgen
from reportgen.analyse.run import AnalysisOptions, run_analyses
from reportgen.analyse.trials import fleiss_kappa
from reportgen.cli import cli
from reportgen.load.previous.baseline import Baseline
from reportgen.render.views.transitions import transitions_view
from reportgen.render.views.trials import trials_line
from reportgen.report.assemble import assemble, per_question_rows

GOLD = {"q1": ["c1"], "q2": ["c2"], "q3": ["c3"]}
RUN = {"q1": ["c1", "x"], "q2": ["x", "y"], "q3": ["c3"]}
"""q1 and q3 retrieved at k_ctx 2, q2 missed."""


def _cells(trials: list[dict[str, bool | None]]) -> reportgen.Results:
    return reportgen.evaluate(GOLD, {"rag": RUN}, context_k=2, verdicts=trials)


def test_three_trials_take_the_majority_and_mark_the_split_flaky() -> None:
    # q1: (T, T, F) -> correct, flaky (SPEC.md); q2: (F, F, F); q3: (T, T, T)
    results = _cells(
        [
            {"q1": True, "q2": False, "q3": True},
            {"q1": True, "q2": False, "q3": True},
            {"q1": False, "q2": False, "q3": True},
        ]
    )
    assert results.found_cells is not None and results.trials is not None
    assert results.found_cells.overall.counts == {
        "retrieved_correct": 2,
        "retrieved_wrong": 0,
        "missed_correct": 0,
        "missed_wrong": 1,
    }
    assert results.trials.flaky == ("q1",)
    assert results.trials.tied == ()
    # trial 3 puts q1 in retrieved_wrong: retrieved_correct 1..2, retrieved_wrong 0..1
    assert results.trials.cell_ranges["retrieved_correct"] == (1, 2)
    assert results.trials.cell_ranges["retrieved_wrong"] == (0, 1)
    assert results.trials.cell_ranges["missed_wrong"] == (1, 1)
    # 2 of 3 questions unanimous; votes yes/no per question (2,1), (0,3), (3,0):
    # P_i = 1/3, 1, 1 -> mean 7/9; p_yes = 5/9 -> P_e = 25/81 + 16/81 = 41/81
    # kappa = (7/9 - 41/81) / (1 - 41/81) = (63 - 41) / (81 - 41) = 22/40
    assert results.trials.agreement.unanimous == pytest.approx(2 / 3)
    assert results.trials.agreement.fleiss_kappa == pytest.approx(22 / 40)


def test_two_trials_that_split_are_tied_and_out_of_the_cells() -> None:
    # q1: (T, F) -> tied (SPEC.md): neither correct nor wrong, not an unknown verdict
    results = _cells(
        [{"q1": True, "q2": False, "q3": True}, {"q1": False, "q2": False, "q3": True}]
    )
    assert results.trials is not None and results.found_cells is not None
    assert results.trials.tied == ("q1",)
    assert results.trials.flaky == ("q1",)
    assert results.found_cells.overall.n == 2
    assert "q1" not in results.found_cells.join.unknown_verdicts
    assert not [w for w in results.join_warnings if w.code == "verdicts_unknown"]


def test_an_unknown_vote_does_not_count_and_a_known_tie_is_tied() -> None:
    # q1: (T, F, unknown): the known votes tie; q2: (F, unknown, unknown) -> wrong
    results = _cells(
        [
            {"q1": True, "q2": False, "q3": True},
            {"q1": False, "q2": None, "q3": True},
            {"q1": None, "q2": None, "q3": True},
        ]
    )
    assert results.trials is not None and results.found_cells is not None
    assert results.trials.tied == ("q1",)
    assert results.found_cells.overall.counts["missed_wrong"] == 1
    # only q3 was judged by every trial: kappa has one subject, all votes alike
    assert results.trials.agreement.questions == 1
    assert results.trials.agreement.fleiss_kappa is None
    assert results.trials.agreement.unanimous == 1


def _pairwise_kappa(votes: list[list[bool]]) -> float:
    """Fleiss' kappa as the share of agreeing rater pairs against chance, counted pair by
    pair (Fleiss 1971, eq. 2-5), without the per-category sums the code uses."""
    agree = total = 0
    for ratings in votes:
        for a, b in combinations(ratings, 2):
            agree += a == b
            total += 1
    flat = [v for ratings in votes for v in ratings]
    p = sum(flat) / len(flat)
    chance = p * p + (1 - p) * (1 - p)
    return (agree / total - chance) / (1 - chance)


@pytest.mark.parametrize("seed", range(5))
def test_fleiss_kappa_matches_an_independent_count_on_random_votes(seed: int) -> None:
    rng = random.Random(seed)
    raters = rng.randint(2, 6)
    votes = [[rng.random() < 0.6 for _ in range(raters)] for _ in range(rng.randint(5, 60))]
    counts = pl.DataFrame({"yes": [sum(v) for v in votes], "no": [raters - sum(v) for v in votes]})
    assert fleiss_kappa(counts, raters) == pytest.approx(_pairwise_kappa(votes), abs=1e-12)


def _files(folder: Path, trials: int, seed: int = 3) -> tuple[Path, Path, list[Path]]:
    """A random gold set and run of 40 questions, and ``trials`` noisy judgings of it."""
    rng = random.Random(seed)
    gold, run = folder / "gold.jsonl", folder / "rag.trec"
    qids = [f"q{i:02d}" for i in range(40)]
    gold.write_text("".join(json.dumps({"id": q, "gold": [f"{q}-g"]}) + "\n" for q in qids))
    lines = []
    for q in qids:
        ranked = [f"{q}-x{i}" for i in range(5)]
        ranked.insert(rng.randint(0, 6), f"{q}-g")
        lines += [f"{q} Q0 {c} {r} {10 - r} rag" for r, c in enumerate(ranked[:5], start=1)]
    run.write_text("\n".join(lines) + "\n")
    truth = {q: rng.random() < 0.6 for q in qids}
    paths = []
    for number in range(1, trials + 1):
        path = folder / f"judge-{number}.jsonl"
        path.write_text(
            "".join(
                json.dumps({"id": q, "correct": truth[q] != (rng.random() < 0.15)}) + "\n"
                for q in qids
            )
        )
        paths.append(path)
    return gold, run, paths


def _report(args: list[str], cwd: Path) -> dict[str, Any]:
    result = CliRunner().invoke(cli, [*args, "-q"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads((cwd / "report.json").read_text())


@pytest.mark.parametrize("trials", [2, 3])
def test_cli_and_python_api_agree(tmp_path: Path, trials: int) -> None:
    gold, run, judged = _files(tmp_path, trials)
    given = [x for path in judged for x in ("--verdicts", str(path))]
    out = tmp_path / "out"
    report = _report(
        [
            "report",
            str(gold),
            f"rag={run}",
            *given,
            "--context-k",
            "3",
            "--out",
            str(out),
            "--format",
            "json",
        ],
        out,
    )
    results = reportgen.evaluate(
        gold, {"rag": run}, context_k=3, verdicts=[str(path) for path in judged]
    )
    section = report["verdicts"]
    assert results.trials is not None and results.found_cells is not None
    assert section["trials"] == trials
    assert section["flaky"]["ids"] == list(results.trials.flaky)
    assert section["tied"]["ids"] == list(results.trials.tied)
    assert report["attribution"]["rag"]["cells"] == results.found_cells.overall.counts
    ranges = {c: (r["min"], r["max"]) for c, r in section["cell_ranges"].items()}
    assert ranges == results.trials.cell_ranges
    # the majority, recomputed from the files: correct when more trials say so
    votes: dict[str, list[bool]] = {}
    for path in judged:
        for line in path.read_text().splitlines():
            row = json.loads(line)
            votes.setdefault(row["id"], []).append(row["correct"])
    flaky = sorted(q for q, v in votes.items() if len(set(v)) > 1)
    tied = sorted(q for q, v in votes.items() if sum(v) * 2 == len(v))
    assert section["flaky"]["ids"] == flaky
    assert section["tied"]["ids"] == tied
    cells = report["attribution"]["rag"]
    assert cells["n"] == 40 - len(tied)
    assert section["agreement"]["fleiss_kappa"] == pytest.approx(
        _pairwise_kappa(list(votes.values())), abs=1e-9
    )


def test_shard_and_merge_give_the_same_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gold, run, judged = _files(tmp_path, 3)
    whole = tmp_path / "whole"
    given = [x for path in judged for x in ("--verdicts", str(path))]
    expected = _report(
        ["report", str(gold), f"rag={run}", *given, "--out", str(whole), "--format", "json"], whole
    )
    shards = tmp_path / "shards"
    runner = CliRunner()
    cut = runner.invoke(
        cli, ["shard", str(gold), f"rag={run}", *given, "--shards", "2", "--out", str(shards)]
    )
    assert cut.exit_code == 0, cut.output
    plan = json.loads((shards / "shards.json").read_text())
    assert plan["verdicts"] == [f"verdicts-{n}.jsonl" for n in (1, 2, 3)]
    outs = []
    for number, folder in enumerate(plan["folders"]):
        out = tmp_path / f"out-{number}"
        args = ["report", "gold.jsonl", "rag=runs/rag.trec"]
        args += [x for name in plan["verdicts"] for x in ("--verdicts", name)]
        args += ["--merge-data", "--out", str(out), "--format", "json", "-q"]
        monkeypatch.chdir(shards / folder)
        done = runner.invoke(cli, args)
        assert done.exit_code == 0, done.output
        outs.append(str(out))
    merged = tmp_path / "merged"
    done = runner.invoke(cli, ["merge", *outs, "--out", str(merged), "--format", "json", "-q"])
    assert done.exit_code == 0, done.output
    got = json.loads((merged / "report.json").read_text())
    for key in ("trials", "flaky", "tied", "cell_ranges", "agreement", "questions_with_verdict"):
        assert got["verdicts"][key] == expected["verdicts"][key], key
    assert got["attribution"] == expected["attribution"]


def test_trials_of_different_runs_are_refused(tmp_path: Path) -> None:
    gold, run, (first, second) = _files(tmp_path, 2)
    rows = [json.loads(line) | {"run": "rag"} for line in second.read_text().splitlines()]
    second.write_text("".join(json.dumps(row) + "\n" for row in rows))
    result = CliRunner().invoke(
        cli,
        [
            "report",
            str(gold),
            f"rag={run}",
            "--verdicts",
            str(first),
            "--verdicts",
            str(second),
            "--out",
            str(tmp_path / "out"),
        ],
    )
    assert result.exit_code == 2
    assert "judge different runs" in result.output and "Fix:" in result.output


TRACE = Path(__file__).resolve().parents[2] / "fixtures" / "traces" / "multihop.jsonl"


def test_trials_beside_a_trace_with_verdicts_are_refused(tmp_path: Path) -> None:
    # one source of truth per run: a trace's verdicts are one trial, never mixed with trials
    trials = []
    for number in (1, 2):
        path = tmp_path / f"v{number}.jsonl"
        path.write_text(json.dumps({"id": "h1", "correct": number == 1}) + "\n")
        trials += ["--verdicts", str(path)]
    result = CliRunner().invoke(
        cli, ["report", str(TRACE), *trials, "--out", str(tmp_path / "out"), "--format", "json"]
    )
    assert result.exit_code == 2, result.output
    assert "judge trials" in result.output and "Fix:" in result.output


def test_flaky_moves_are_marked_in_the_transitions_junit_and_strict(tmp_path: Path) -> None:
    gold, run, judged = _files(tmp_path, 3)
    then = tmp_path / "then"
    baseline = ["report", str(gold), f"rag={run}", "--verdicts", str(judged[0])]
    _report([*baseline, "--out", str(then), "--format", "json"], then)
    now, junit = tmp_path / "now", tmp_path / "junit.xml"
    given = [x for path in judged for x in ("--verdicts", str(path))]
    args = ["report", str(gold), f"rag={run}", *given, "--baseline", str(then), "--out", str(now)]
    args += ["--format", "json"]  # the pages' words come from report.json: checked below
    report = _report([*args, "--junit", str(junit)], now)
    entry = report["transitions"]["rag"]
    flaky = set(report["verdicts"]["flaky"]["ids"])
    moved = {qid for move in entry["moves"] for qid in move["questions"]}
    # with one trial as baseline, every move is a question some trial judged otherwise
    assert moved and moved <= flaky
    assert entry["flaky"]["ids"] == sorted(moved & flaky)
    for move in entry["moves"]:
        assert move["flaky"] == [qid for qid in move["questions"] if qid in flaky]
    view = transitions_view(report, "rag")  # type: ignore[arg-type]
    assert view is not None and "marked flaky, not regressed" in view.summary
    assert all(move.flaky.startswith(f"{move.count} flaky") for move in view.moves)
    assert trials_line(report["verdicts"]).startswith("Judged 3 times")
    assert 'name="verdicts_flaky (' in junit.read_text()
    strict = CliRunner().invoke(cli, [*args, "--strict", "-q"])
    assert strict.exit_code == 1 and "verdicts_flaky" in strict.output


@pytest.mark.parametrize("seed", range(3))
def test_the_order_of_the_trials_changes_nothing_and_one_trial_is_a_plain_file(
    seed: int,
) -> None:
    rng = random.Random(seed)
    qids = [f"q{i}" for i in range(30)]
    gold = {q: [f"{q}-g"] for q in qids}
    run = {q: [f"{q}-g" if rng.random() < 0.6 else "x", "y"] for q in qids}
    trials = [
        {q: (None if rng.random() < 0.1 else rng.random() < 0.7) for q in qids} for _ in range(4)
    ]
    shuffled = trials[:]
    rng.shuffle(shuffled)
    one, other = (
        reportgen.evaluate(gold, {"rag": run}, context_k=2, verdicts=given)
        for given in (trials, shuffled)
    )
    assert one.trials is not None and other.trials is not None
    assert one.trials.flaky == other.trials.flaky and one.trials.tied == other.trials.tied
    assert one.trials.cell_ranges == other.trials.cell_ranges
    kappa, again = one.trials.agreement, other.trials.agreement
    assert kappa.fleiss_kappa == pytest.approx(again.fleiss_kappa, abs=1e-12)
    assert one.found_cells is not None and other.found_cells is not None
    assert one.found_cells.overall.counts == other.found_cells.overall.counts
    plain, listed = (
        reportgen.evaluate(gold, {"rag": run}, context_k=2, verdicts=given)
        for given in (trials[0], [trials[0]])
    )
    assert listed.trials is None
    assert plain.found_cells is not None and listed.found_cells is not None
    assert plain.found_cells.overall.counts == listed.found_cells.overall.counts


def test_a_tied_question_is_its_own_state_in_the_transitions() -> None:
    # q1 was correct in the baseline; now two trials split on it: tied, not "no verdict"
    then = reportgen.evaluate(GOLD, {"rag": RUN}, context_k=2, verdicts={"q1": True, "q2": False})
    now = reportgen.evaluate(
        GOLD, {"rag": RUN}, context_k=2, verdicts=[{"q1": True, "q2": False}, {"q1": False}]
    )
    earlier = run_analyses(then.evaluation, AnalysisOptions(verdicts=then.verdicts))
    baseline = Baseline(Path("b"), dict(assemble(earlier)), per_question_rows(then.evaluation))
    found = run_analyses(now.evaluation, AnalysisOptions(verdicts=now.verdicts, baseline=baseline))
    assert found.transitions is not None
    entry = found.transitions["rag"]
    (move,) = [m for m in entry["moves"] if "q1" in m["questions"]]
    assert (move["from"], move["to"], move["flaky"]) == ("retrieved_correct", "tied", ["q1"])
