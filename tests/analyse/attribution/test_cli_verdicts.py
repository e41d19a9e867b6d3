"""The verdict options on the command line: the summary, the ragas options, the errors."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import cli
from tests.analyse.attribution.test_four_cells import write_case

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "verdicts"


def test_report_with_verdicts_prints_the_cells(tmp_path: Path) -> None:
    gold, run, verdicts = write_case(tmp_path)
    out = tmp_path / "out"
    result = CliRunner().invoke(
        cli,
        [
            *("report", str(gold), f"rag={run}", "--verdicts", str(verdicts)),
            *("--out", str(out), "--k", "1,5", "--context-k", "5", "--format", "json"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert (
        "rag, four cells at top 5: working as designed 31, generation failure 9, "
        "answered from memory 4, retrieval failure 6." in result.output
    )
    assert "Generation failures are the larger failure cell (9 vs 6" in result.output
    report = json.loads((out / "report.json").read_text())
    assert report["attribution"]["rag"]["focus"] == "generation"


def test_ragas_options_reach_the_loader(tmp_path: Path) -> None:
    gold, run, _ = write_case(tmp_path)
    base = ["report", str(gold), f"rag={run}", "--out", str(tmp_path / "o"), "--format", "json"]
    ragas = ["--verdicts", str(FIXTURES / "ragas_with_id.csv")]
    missing = CliRunner().invoke(cli, [*base, *ragas, "--verdict-format", "ragas"])
    assert missing.exit_code == 2
    assert "needs a metric and a threshold" in missing.output
    assert "Traceback" not in missing.output
    given = CliRunner().invoke(
        cli, [*base, *ragas, "--verdict-metric", "faithfulness", "--verdict-threshold", "0.7"]
    )
    assert given.exit_code == 0, given.output
    # The fixture's ids A, B, C are not in this gold set: every verdict is unknown to it.
    assert "3 verdict(s) are for questions that are not in the gold set" in given.output


def test_verdicts_run_needs_verdicts_and_a_known_run(tmp_path: Path) -> None:
    gold, run, verdicts = write_case(tmp_path)
    base = ["report", str(gold), f"rag={run}", "--out", str(tmp_path / "o"), "--format", "json"]
    alone = CliRunner().invoke(cli, [*base, "--verdicts-run", "rag"])
    assert (
        alone.exit_code == 2
        and "--verdicts-run rag: names the run the verdicts judge, but no verdicts" in alone.output
    )
    unknown = CliRunner().invoke(cli, [*base, "--verdicts", str(verdicts), "--verdicts-run", "x"])
    assert (
        unknown.exit_code == 2 and "--verdicts-run x: not one of the runs (rag)" in unknown.output
    )


def test_help_explains_the_verdict_options() -> None:
    text = CliRunner().invoke(cli, ["report", "--help-all"]).output
    for option in ("--verdicts ", "--verdicts-run", "--verdict-format", "--verdict-metric"):
        assert option in text
    assert "--verdict-threshold 0.7" in text  # the runnable example
