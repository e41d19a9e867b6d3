"""The hygiene options through the CLI: report.json, HTML, Markdown and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli


def _report(scenario: dict[str, Path], out: Path, *extra: str) -> tuple[int, str]:
    args = ["report", str(scenario["gold"]), f"r={scenario['run']}", "--out", str(out)]
    result = CliRunner().invoke(cli, [*args, "--k", "1,3", "--context-k", "3", *extra])
    return result.exit_code, result.output


def test_every_output_carries_the_findings(scenario: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output = _report(
        scenario,
        out,
        "--manifest",
        str(scenario["manifest"]),
        "--run-index-version",
        "r=kb-2",
        "--audience",
        "public",
        "--as-of",
        "2026-01-01",
    )
    assert code == 0, output
    report = json.loads((out / "report.json").read_text())
    codes = [w["code"] for w in report["warnings"]]
    assert codes == ["index_version_mismatch", "stale_gold", "leaks"]
    assert report["hygiene"]["provenance"]["runs"] == {"r": "kb-2"}
    assert report["hygiene"]["forbidden"]["as_of"] == "2026-01-01"
    assert report["runs"]["r"]["leaks"]["at"]["3"]["by_reason"] == {
        "staff-only": 2,
        "wrong version": 1,
    }
    html = (out / "index.html").read_text()
    markdown = (out / "report.md").read_text()
    line = (
        "r, top 3: staff passages shown to a public audience: 2 | "
        "superseded or not yet valid versions: 1"
    )
    assert line in html
    assert line.replace("|", "\\|") in markdown
    for text in (html, markdown):
        assert "index versions differ" in text
        assert "q3" in text and "c1" in text
    assert "warning: index versions differ" in output


def test_strict_fails_after_writing(scenario: dict[str, Path], tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, output = _report(scenario, out, "--manifest", str(scenario["manifest"]), "--strict")
    assert code == 1
    assert "--strict: " in output and "stale_gold" in output
    assert (out / "report.json").is_file() and (out / "index.html").is_file()


def test_strict_passes_clean_inputs(tmp_path: Path) -> None:
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "q1", "gold": ["c1"]}\n{"id": "q2", "gold": ["c2"]}\n')
    run = tmp_path / "r.jsonl"
    run.write_text('{"id": "q1", "chunks": ["c1", "c2"]}\n{"id": "q2", "chunks": ["c2"]}\n')
    manifest = tmp_path / "ids.txt"
    manifest.write_text("c1\nc2\n")
    result = CliRunner().invoke(
        cli,
        [
            *("report", str(gold), str(run), "--out", str(tmp_path / "o")),
            *("--manifest", str(manifest), "--strict", "--k", "1", "--context-k", "1"),
        ],
    )
    assert result.exit_code == 0, result.output


def test_an_unknown_run_in_run_index_version_is_a_usage_error(
    scenario: dict[str, Path], tmp_path: Path
) -> None:
    code, output = _report(scenario, tmp_path / "o", "--run-index-version", "nope=kb-1")
    assert code == 2
    assert "--run-index-version nope: names no run; the runs are r" in output
    code, output = _report(scenario, tmp_path / "o", "--run-index-version", "kb-1")
    assert code == 2 and "--run-index-version kb-1: not NAME=VERSION" in output


def test_the_demo_names_its_two_stale_ids(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    result = CliRunner().invoke(cli, ["demo", "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    stale = report["hygiene"]["stale"]
    assert stale["basis"] == "manifest"
    assert stale["questions"] == {"q047": ["kb-gift-cards-0009"], "q057": ["kb-gift-cards-0011"]}
    assert report["warnings"][0]["code"] == "stale_gold"
    # rerank: 47 of 52 hit@5 over all; both stale questions miss, so 46 of 50 without them.
    assert report["runs"]["rerank"]["means"]["hit@5"] == pytest.approx(47 / 52)
    assert stale["means_without_stale"]["rerank"]["hit@5"] == pytest.approx(46 / 50)
    markdown = (out / "report.md").read_text()
    assert "| q047 | kb-gift-cards-0009 |" in markdown
    assert (
        '<th scope="row">q057</th><td class="ids">kb-gift-cards-0011</td>'
        in (out / "index.html").read_text()
    )
