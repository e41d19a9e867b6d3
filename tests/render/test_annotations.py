"""GitHub workflow commands: escaped as the runner reads them, capped, with a summary."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.render.annotations import CAP, command, workflow_commands
from tests.render.conftest import GOLD, RUN, write_inputs


def test_escaping_keeps_a_hostile_text_inside_one_command() -> None:
    line = command("error", "50% down\r\n::error::forged", title="a:b,c", file="g,1.jsonl")
    assert line == ("::error title=a%3Ab%2Cc,file=g%2C1.jsonl::50%25 down%0D%0A::error::forged")
    assert "\n" not in line and "\r" not in line


def test_each_class_is_capped_with_a_summary_line() -> None:
    rules = [{"message": f"rule {i} FAILED", "passed": False} for i in range(CAP + 3)] + [
        {"message": "fine", "passed": True}
    ]
    stale = {f"q{i}": [f"c{i}"] for i in range(CAP + 1)}
    report = {
        "gate": {"rules": rules},
        "hygiene": {"stale": {"questions": stale, "question_count": 40}},
    }
    lines = workflow_commands(report, "eval/gold.jsonl", {"q0": 7})
    errors = [line for line in lines if line.startswith("::error")]
    warnings = [line for line in lines if line.startswith("::warning")]
    assert len(errors) == CAP + 1 and errors[-1].endswith(
        "3 more quality rules failed (of 13): see the report"
    )
    assert warnings[0].startswith(
        "::warning title=reportgen stale gold,file=eval/gold.jsonl,line=7::question q0:"
    )
    assert ",line=" not in warnings[1]  # no line known: none given
    assert (
        len(warnings) == CAP + 1 and "30 more questions with stale gold ids (of 40)" in warnings[-1]
    )
    assert workflow_commands({"gate": None, "hygiene": {}}, None, {}) == []


def test_cli_prints_annotations_only_under_github_actions(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")
    gold, runs = write_inputs(tmp_path / "in", GOLD, {"mine": RUN})
    manifest = tmp_path / "in" / "manifest.txt"
    manifest.write_text("a1\nx1\nx2\n")  # b1, c1, c2, d1 are gone: B, C and D are stale
    args = ["report", str(gold), f"mine={runs[0][1]}", "--out", str(tmp_path / "o")]
    args += ["--format", "json", "--quiet", "--manifest", str(manifest), "--min", "hit@3=0.9"]
    quiet = CliRunner().invoke(cli, args)
    assert quiet.exit_code == 1 and "::" not in quiet.stdout
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path))
    loud = CliRunner().invoke(cli, args)
    assert loud.exit_code == 1
    lines = loud.stdout.splitlines()
    assert lines[0].startswith("::error title=reportgen quality gate::--min hit@3=0.9 FAILED")
    assert lines[1].startswith(
        "::warning title=reportgen stale gold,file=in/gold.jsonl,line=2::question B:"
    )
