"""The benchmark script runs end to end on a tiny input (not a measurement)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]


def load(name: str) -> ModuleType:
    """A module of benchmarks/ (not a package: the folder is not shipped)."""
    if str(REPO / "benchmarks") not in sys.path:
        sys.path.insert(0, str(REPO / "benchmarks"))
    spec = importlib.util.spec_from_file_location(
        f"bench_{name}", REPO / "benchmarks" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_generated_inputs_are_seeded_and_ranked(tmp_path):
    generate = load("generate")
    first = generate.generate(tmp_path / "a", 20, 5)
    second = generate.generate(tmp_path / "b", 20, 5)
    assert first.qrels.read_bytes() == second.qrels.read_bytes()
    assert first.runs[0].read_bytes() == second.runs[0].read_bytes()
    lines = first.runs[0].read_text().splitlines()
    assert len(lines) == 20 * 5
    scores = [float(line.split()[4]) for line in lines[:5]]
    assert scores == sorted(scores, reverse=True)
    assert len(set(scores)) == 5


@pytest.mark.slow
def test_benchmark_runs_on_a_small_size(tmp_path, capsys):
    pytest.importorskip("pytrec_eval")
    run = load("run")
    run.main(["--scenarios", "small", "--repeat", "1", "--work", str(tmp_path)])
    table = capsys.readouterr().out
    assert "| small | reportgen |" in table
    assert "pytrec_eval max abs diff" in table


def test_exact_gold_per_question(tmp_path):
    """Issue #28's set-ups: every question has exactly N relevant chunks (grades 1-3)."""
    generate = load("generate")
    made = generate.generate(tmp_path, 30, 10, gold=4)
    lines = [line.split() for line in made.qrels.read_text().splitlines()]
    per_question: dict[str, set[str]] = {}
    for qid, _, docid, grade in lines:
        assert grade in {"1", "2", "3"}
        per_question.setdefault(qid, set()).add(docid)
    assert len(lines) == 30 * 4 and len(per_question) == 30
    assert {len(ids) for ids in per_question.values()} == {4}  # distinct within a question
    again = generate.generate(tmp_path / "again", 30, 10, gold=4)
    assert again.qrels.read_bytes() == made.qrels.read_bytes()


@pytest.mark.parametrize(
    ("figure", "level"),
    [
        ((1.10, 1.10), 0),  # 10% worse: fine
        ((1.30, 1.30), 1),  # 30% worse on both: a warning
        ((1.60, 1.60), 2),  # 60% worse on both: a failure
        ((1.60, 1.05), 0),  # the wall time alone: load from elsewhere, not a regression
        ((1.60, 1.30), 1),  # the lesser of the two decides
    ],
)
def test_regression_levels(figure, level):
    targets = load("targets")
    line, found = targets.verdict("cold", figure, {"wall": 1.0, "cpu": 1.0})
    assert found == level
    assert line.startswith({0: "cold", 1: "WARNING", 2: "FAIL"}[level])
    assert targets.verdict("cold", figure, {})[1] == 0  # nothing recorded: nothing to check


@pytest.mark.slow
def test_targets_run_the_demo_set_up(tmp_path, capsys, monkeypatch):
    targets = load("targets")
    monkeypatch.setattr(targets, "BASELINE", tmp_path / "baseline.json")
    args = ["--size", "ci", "--setups", "demo", "--rounds", "1", "--work", str(tmp_path)]
    assert targets.main([*args, "--record"]) == 0
    assert "demo: " in capsys.readouterr().out
    recorded = json.loads((tmp_path / "baseline.json").read_text())
    assert set(recorded["ci"]) == {"demo", "measured"}
    assert targets.main(args) == 0  # against what it just recorded
