"""The CLI through Click's runner, and the main job once as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli

REPO = Path(__file__).resolve().parents[2]

GOLD = [
    {"id": "A", "kind": "plain", "gold": ["a1"]},
    {"id": "B", "kind": "plain", "gold": ["b1"]},
    {"id": "C", "kind": "multi", "gold": ["c1", "c2"]},
    {"id": "D", "kind": "plain", "gold": ["d1"]},
    {"id": "E", "kind": "none", "unanswerable": True},
]
RUN = {
    "A": ["a1", "x1", "x2"],
    "B": ["x3", "x4", "b1"],
    "C": ["c1", "x5", "x6"],
    "D": ["x7", "x8", "x9"],
    "E": ["x1", "x2", "x3"],
}


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    gold = tmp_path / "gold.jsonl"
    gold.write_text("".join(json.dumps(q) + "\n" for q in GOLD))
    run = tmp_path / "run.jsonl"
    run.write_text("".join(json.dumps({"id": q, "chunks": c}) + "\n" for q, c in RUN.items()))
    return gold, run


def test_report_writes_the_contract(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    gold, run = inputs
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli, ["report", str(gold), f"mine={run}", "--out", str(out), "--k", "3", "--context-k", "3"]
    )
    assert result.exit_code == 0, result.output
    assert "mine, top 3: 4 questions with relevant passages." in result.output
    assert "hit@3 0.750 | recall@3 0.625 | precision@3 0.250 | MRR@3 0.583" in result.output
    report = json.loads((out / "report.json").read_text())
    assert "  kind   n  hit@3  recall@3  MRR@3" not in result.output  # --verbose prints it
    assert report["format_version"] == 2
    assert report["k"] == [3] and report["context_k"] == 3
    assert report["gold"]["questions"] == 5
    assert report["gold"]["answerable"] == 4
    assert report["gold"]["unanswerable"] == 1
    means = report["runs"]["mine"]["means"]
    assert means["hit@3"] == pytest.approx(0.75)
    assert means["ndcg@3"] == pytest.approx(0.5283, abs=5e-5)
    assert means["ap@3"] == pytest.approx(0.4583, abs=5e-5)
    assert report["runs"]["mine"]["by_kind"]["multi"]["recall@3"] == pytest.approx(0.5)
    assert report["runs"]["mine"]["counts"]["unanswerable_left_out"] == 1
    for name in ("index.html", "report.md", "per_question.csv"):
        assert (out / name).is_file()


def test_one_kind_prints_no_table_by_kind(tmp_path: Path) -> None:
    qrels, run = tmp_path / "qrels.txt", tmp_path / "run.trec"
    qrels.write_text("1 0 d1 1\n2 0 d2 1\n")  # TREC qrels: every question unlabelled
    run.write_text("1 Q0 d1 1 2.0 r\n2 Q0 d9 1 1.0 r\n")
    result = CliRunner().invoke(cli, ["report", str(qrels), str(run), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert "run, top 5: 2 questions with relevant passages." in result.output
    assert "  kind " not in result.output  # one row would repeat the headline


def test_same_inputs_give_identical_bytes(
    inputs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")
    gold, run = inputs
    outputs = []
    for name in ("one", "two"):
        out = tmp_path / name
        result = CliRunner().invoke(cli, ["report", str(gold), str(run), "--out", str(out)])
        assert result.exit_code == 0, result.output
        outputs.append({p.name: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()})
    assert outputs[0] == outputs[1]
    assert json.loads(outputs[0]["report.json"])["created"] == "2025-11-24T16:00:00Z"


def test_bad_input_exits_2_without_traceback(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "q1", "gold": ["c1"]}\n{"id": "q2", "gold": \n')
    run = tmp_path / "run.jsonl"
    run.write_text('{"id": "q1", "chunks": ["c1"]}\n')
    result = CliRunner().invoke(cli, ["report", str(gold), str(run), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert f"{gold}:2:" in result.output
    assert "Fix:" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "o").exists()


def test_failed_run_leaves_previous_report(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    gold, run = inputs
    out = tmp_path / "out"
    (out).mkdir()
    (out / "notes.txt").write_text("mine")
    first = CliRunner().invoke(cli, ["report", str(gold), str(run), "--out", str(out)])
    assert first.exit_code == 0
    before = {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    result = CliRunner().invoke(cli, ["report", str(gold), str(broken), "--out", str(out)])
    assert result.exit_code == 2
    assert {p.name: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_usage_errors_exit_2(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    gold, run = inputs
    for args in (["--k", "0"], ["--k", "x"], ["--format", "pdf"], ["--context-k", "0"]):
        result = CliRunner().invoke(cli, ["report", str(gold), str(run), *args])
        assert result.exit_code == 2, (args, result.output)
        assert "Traceback" not in result.output


def test_two_runs_with_one_name_are_replicates(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    # one system run twice (issue 38; tests/analyse/trials has the numbers)
    gold, run = inputs
    out = tmp_path / "o"
    result = CliRunner().invoke(
        cli, ["report", str(gold), f"x={run}", f"x={run}", "--out", str(out), "--format", "json"]
    )
    assert result.exit_code == 0, result.output
    section = json.loads((out / "report.json").read_text())["runs"]["x"]
    assert section["replicates"]["count"] == 2 and section["flaky"]["count"] == 0


def test_quiet_prints_nothing(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    gold, run = inputs
    result = CliRunner().invoke(
        cli, ["report", str(gold), str(run), "--out", str(tmp_path / "o"), "--quiet"]
    )
    assert result.exit_code == 0
    assert result.output == ""


def test_every_command_and_option_has_help() -> None:
    for name, command in cli.commands.items():
        assert command.help, name
        for param in command.params:
            if param.param_type_name == "option":
                assert getattr(param, "help", None), f"{name} {param.name}"


def test_demo_runs_as_a_real_subprocess(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO), "SOURCE_DATE_EPOCH": "1764000000"}
    out = tmp_path / "demo"
    done = subprocess.run(
        [sys.executable, "-m", "reportgen", "demo", "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "rerank, top 5:" in done.stdout
    # the tables by kind are --verbose's: the five runs' headlines fit a screen
    assert done.stdout.count("  kind            n  hit@5  recall@5  MRR@5") == 0
    report = json.loads((out / "report.json").read_text())
    assert set(report["runs"]) == {"keyword", "dense", "hybrid", "rerank", "rerank-sections"}
    # Named relative to the bundled example, not by this machine's install path.
    assert report["gold"]["source"] == "helpcentre/gold.jsonl"
    assert report["runs"]["rerank"]["source"] == "helpcentre/runs/rerank.jsonl"
    html = (out / "index.html").read_text().lower()
    assert "<script src" not in html and 'http-equiv="content-security-policy"' in html


def test_demo_writes_parquet_per_question_values(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = CliRunner().invoke(
        cli, ["demo", "--out", str(out), "--format", "json", "--per-question-format", "parquet"]
    )
    assert result.exit_code == 0, result.output
    assert (out / "per_question.parquet").is_file()
    assert not (out / "per_question.csv").exists()
