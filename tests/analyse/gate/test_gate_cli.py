"""The gate through the real command line: exit codes, messages, the report still written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli

REPO = Path(__file__).resolve().parents[3]
QUESTIONS = [f"q{i}" for i in range(6)]


def reportgen(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "SOURCE_DATE_EPOCH": "1764000000"}
    return subprocess.run(
        [sys.executable, "-m", "reportgen", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.fixture(scope="module")
def made_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A gold set of 6, a run that finds all (then.jsonl) and one that misses q5 (now.jsonl),
    and then.jsonl's report in base/: a report through a new process takes ~2 s."""
    folder = tmp_path_factory.mktemp("gate")
    (folder / "gold.jsonl").write_text(
        "".join(json.dumps({"id": q, "gold": [f"c{q}"]}) + "\n" for q in QUESTIONS)
    )
    for name, missed in (("then", set()), ("now", {"q5"})):
        (folder / f"{name}.jsonl").write_text(
            "".join(
                json.dumps({"id": q, "chunks": ["x" if q in missed else f"c{q}"]}) + "\n"
                for q in QUESTIONS
            )
        )
    result = reportgen("report", "gold.jsonl", "m=then.jsonl", "--out", "base", "-q", cwd=folder)
    assert result.returncode == 0, result.stderr
    return folder


@pytest.fixture
def work(made_once: Path, tmp_path: Path) -> Path:
    """The case's own copy of those files."""
    shutil.copytree(made_once, tmp_path, dirs_exist_ok=True)
    return tmp_path


def test_passing_rules_exit_0(work: Path) -> None:
    result = reportgen(
        "report",
        "gold.jsonl",
        "m=now.jsonl",
        "--out",
        "out",
        "--min",
        "recall@5=0.8",
        "--baseline",
        "base",
        "--max-drop",
        "recall@5=0.2",
        cwd=work,
    )
    assert result.returncode == 0, result.stderr
    gate = json.loads((work / "out" / "report.json").read_text())["gate"]
    assert gate["passed"] and len(gate["rules"]) == 2
    assert "Quality gate: passed" in result.stdout


def test_failed_rule_exits_1_after_writing_the_report(work: Path) -> None:
    result = reportgen(
        "report",
        "gold.jsonl",
        "m=now.jsonl",
        "--out",
        "out",
        "--baseline",
        "base",
        "--max-drop",
        "recall@5=0.02",
        "--min",
        "hit@1=0.9",
        cwd=work,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    # recall@5 went from 1 to 5/6: a drop of 1/6 = 0.167; hit@1 is 5/6 = 0.833 < 0.9.
    assert "--max-drop recall@5=0.02 FAILED: run m went from 1.000 (baseline" in result.stderr
    assert "to 0.833, a drop of 0.167 (a drop of at most 0.02 allowed; " in result.stderr
    assert "--min hit@1=0.9 FAILED: run m has hit@1 0.833, minimum 0.9" in result.stderr
    report = json.loads((work / "out" / "report.json").read_text())
    assert report["gate"]["passed"] is False
    drop = next(r for r in report["gate"]["rules"] if r["type"] == "max-drop")
    assert drop["baseline_value"] == 1.0 and drop["drop"] == pytest.approx(1 / 6)
    assert (work / "out" / "report.md").is_file()


def test_the_first_run_passes_max_drop_rules_with_a_notice(work: Path) -> None:
    """No baseline yet: max-drop rules are skipped (and named) everywhere the verdict shows."""
    (work / "reportgen.toml").write_text('max-drop = { "hit@1" = 0.05 }\n')
    result = reportgen(
        "report", "gold.jsonl", "m=now.jsonl", "--out", "out", "--max-drop", "recall@5=0.02",
        cwd=work,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    rules = "--max-drop hit@1=0.05, --max-drop recall@5=0.02"
    notice = f"No baseline, so 2 max-drop rules were skipped and passed: {rules}."
    assert "Quality gate: passed" in result.stdout and notice in result.stdout
    gate = json.loads((work / "out" / "report.json").read_text())["gate"]
    assert gate["passed"] and gate["rules"] == []
    assert gate["skipped"] == ["--max-drop hit@1=0.05", "--max-drop recall@5=0.02"]
    title = "Quality gate passed: 2 max-drop rules skipped, no baseline yet"
    summary = (work / "out" / "summary.md").read_text()
    assert f"#### {title} ✅\n\n> [!NOTE]\n> {notice}" in summary
    assert f"## {title}\n\n> [!NOTE]\n> {notice}" in (work / "out" / "report.md").read_text()
    html = (work / "out" / "index.html").read_text()
    unbroken = re.sub(r'<span class="nw">([^<]*)</span>', r"\1", html)  # words kept whole
    assert f'</span> {title}</h2>\n    <p class="note">{notice}' in unbroken


def test_the_first_run_still_applies_min_rules(work: Path) -> None:
    result = reportgen(
        "report", "gold.jsonl", "m=now.jsonl", "--out", "out", "-q",
        "--max-drop", "recall@5=0.02", "--min", "hit@1=0.9",
        cwd=work,
    )  # fmt: skip
    assert result.returncode == 1
    assert "--min hit@1=0.9 FAILED" in result.stderr and "max-drop" not in result.stderr
    gate = json.loads((work / "out" / "report.json").read_text())["gate"]
    assert [rule["rule"] for rule in gate["rules"]] == ["--min hit@1=0.9"]
    assert gate["skipped"] == ["--max-drop recall@5=0.02"]


def test_with_a_baseline_nothing_is_skipped(work: Path) -> None:
    result = reportgen(
        "report", "gold.jsonl", "m=now.jsonl", "--out", "out", "-q",
        "--baseline", "base", "--max-drop", "recall@5=0.5",
        cwd=work,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    gate = json.loads((work / "out" / "report.json").read_text())["gate"]
    assert gate["skipped"] == [] and gate["notice"] is None
    assert "[!NOTE]" not in (work / "out" / "summary.md").read_text()


def test_significant_only_lets_a_drop_within_noise_pass(work: Path) -> None:
    # One question of six lost: McNemar p = 1, not significant. The primary family is
    # hit@5 and recall@5 (2 tests, 0.05 / 2 each): even all six moving one way gives
    # p = 2 / 2^6 = 0.031 > 0.025, so nothing is detectable: too few questions.
    result = reportgen(
        "report",
        "gold.jsonl",
        "m=now.jsonl",
        "--out",
        "out",
        "--baseline",
        "base",
        "--max-drop",
        "recall@5=0.02",
        "--significant-only",
        cwd=work,
    )
    assert result.returncode == 0, result.stderr
    rule = json.loads((work / "out" / "report.json").read_text())["gate"]["rules"][0]
    assert rule["passed"] and rule["label"] == "too few questions" and not rule["significant"]


def test_rules_from_reportgen_toml(work: Path) -> None:
    (work / "reportgen.toml").write_text('min = { "recall@5" = 0.9 }\n')
    result = reportgen("report", "gold.jsonl", "m=now.jsonl", "--out", "out", "-q", cwd=work)
    assert result.returncode == 1
    assert "--min recall@5=0.9 FAILED" in result.stderr
    overridden = reportgen(
        "report",
        "gold.jsonl",
        "m=now.jsonl",
        "--out",
        "out",
        "-q",
        "--min",
        "recall@5=0.8",
        cwd=work,
    )
    assert overridden.returncode == 0, overridden.stderr


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--max-drop", "recall@5:nosuch=0.02"], "no question of kind 'nosuch'"),
        (["--min", "recall@7=0.5"], "'recall@7' is not measured in this report"),
        (["--min", "recall@5:nosuch=0.5"], "no question of kind 'nosuch'"),
        (["--min", "recall@5"], "has no =VALUE"),
        (["--reference-run", "zz"], "--reference-run zz: not one of the runs"),
    ],
)
def test_bad_rules_exit_2_and_write_nothing(
    work: Path, args: list[str], problem: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(work)  # in-process: the subprocess tests above cover the real exit
    result = CliRunner().invoke(cli, ["report", "gold.jsonl", "m=now.jsonl", "--out", "out", *args])
    assert result.exit_code == 2
    assert problem in result.output and "Fix:" in result.output
    assert not (work / "out").exists()


def test_baseline_on_another_gold_set_exits_2(work: Path) -> None:
    (work / "gold2.jsonl").write_text(
        "".join(json.dumps({"id": q, "gold": [f"c{q}", "extra"]}) + "\n" for q in QUESTIONS)
    )
    refused = reportgen(
        "report", "gold2.jsonl", "m=now.jsonl", "--out", "out", "--baseline", "base", cwd=work
    )
    assert refused.returncode == 2
    assert "numbers measured on different question sets cannot be compared" in refused.stderr
    intersected = reportgen(
        "report",
        "gold2.jsonl",
        "m=now.jsonl",
        "--out",
        "out",
        "--baseline",
        "base",
        "--on-gold-change",
        "intersect",
        cwd=work,
    )
    assert intersected.returncode == 0, intersected.stderr
    change = json.loads((work / "out" / "report.json").read_text())["baseline"]["gold_change"]
    assert change["shared_questions"] == 0
    assert change["left_out"]["changed"]["count"] == 6


def test_a_rise_is_called_a_rise_and_a_kind_rule_names_the_baseline_value(
    tmp_path: Path,
) -> None:
    """The baseline misses q1 and q5; the new run finds every question. Kind spec is
    q0..q2: its recall@5 goes from 2/3 = 0.667 to 1."""
    kinds = {q: "spec" if i < 3 else "other" for i, q in enumerate(QUESTIONS)}
    (tmp_path / "gold.jsonl").write_text(
        "".join(
            json.dumps({"id": q, "kind": kinds[q], "gold": [f"c{q}"]}) + "\n" for q in QUESTIONS
        )
    )
    for name, missed in (("then", {"q1", "q5"}), ("now", set())):
        (tmp_path / f"{name}.jsonl").write_text(
            "".join(
                json.dumps({"id": q, "chunks": ["x" if q in missed else f"c{q}"]}) + "\n"
                for q in QUESTIONS
            )
        )
    runner = CliRunner()
    gold = str(tmp_path / "gold.jsonl")
    base = tmp_path / "base"
    then = f"m={tmp_path / 'then.jsonl'}"
    first = runner.invoke(cli, ["report", gold, then, "--out", str(base), "-q"])
    assert first.exit_code == 0, first.output
    args = ["--baseline", str(base), "--max-drop", "recall@5=0.02", "--min", "recall@5:spec=0.5"]
    result = runner.invoke(
        cli, ["report", gold, f"m={tmp_path / 'now.jsonl'}", "--out", str(tmp_path / "out"), *args]
    )
    assert result.exit_code == 0, result.output
    # 4/6 = 0.667 -> 1: a rise of 0.333, never "a drop of -0.333"
    assert "went from 0.667 (baseline" in result.output and "a rise of 0.333" in result.output
    assert "drop of -" not in result.output
    assert "run m has recall@5 on kind spec 1.000, minimum 0.5 (baseline" in result.output
    assert ": 0.667)" in result.output.split("recall@5:spec=0.5 passed")[1].split("\n")[0]
    rules = json.loads((tmp_path / "out" / "report.json").read_text())["gate"]["rules"]
    kind_rule = next(rule for rule in rules if rule["kind"] == "spec")
    assert kind_rule["baseline_value"] == pytest.approx(2 / 3)
