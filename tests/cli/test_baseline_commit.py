"""--commit, --baseline-commit and --baseline-fallback: refused early and clearly."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from tests.render.conftest import GOLD, RUN, write_inputs


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--baseline-commit", "abcdef1"], "--baseline-commit abcdef1: picks a version of the"),
        (["--commit", "main"], "--commit main: not a commit hash"),
        (
            ["--baseline", "site", "--baseline-commit", "xyz"],
            "--baseline-commit xyz: not a commit hash",
        ),
        (
            ["--baseline", "site", "--baseline-commit", "abcdef1", "--baseline-version", "v1"],
            "--baseline-commit abcdef1: and --baseline-version both pick",
        ),
        (
            ["--baseline", "site", "--baseline-fallback", "newest"],
            "--baseline-fallback newest: says what to do when --baseline-commit",
        ),
    ],
)
def test_refused_before_reading(tmp_path: Path, extra: list[str], said: str) -> None:
    gold, runs = write_inputs(tmp_path / "in", GOLD, {"mine": RUN})
    args = ["report", str(gold), f"mine={runs[0][1]}", "--out", str(tmp_path / "o"), *extra]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert said in result.output and "Fix:" in result.output
    assert "Traceback" not in result.output and not (tmp_path / "o").exists()


def test_commit_is_recorded_lowercase(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")
    gold, runs = write_inputs(tmp_path / "in", GOLD, {"mine": RUN})
    args = ["report", str(gold), f"mine={runs[0][1]}", "--format", "json", "--quiet"]
    given = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "a"), "--commit", "ABCDEF1"])
    assert given.exit_code == 0, given.output
    assert '"commit": "abcdef1"' in (tmp_path / "a" / "report.json").read_text()
    monkeypatch.setenv("GITHUB_SHA", "F" * 40)
    from_env = CliRunner().invoke(cli, [*args, "--out", str(tmp_path / "b")])
    assert from_env.exit_code == 0, from_env.output
    assert f'"commit": "{"f" * 40}"' in (tmp_path / "b" / "report.json").read_text()
