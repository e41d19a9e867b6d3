"""No silent assumption that changes the four cells (issue 38): several runs, verdicts
that name none of them and no --verdicts-run: the first run is assumed, and every output
says so (a notice under the title, the warning ``verdicts_run_assumed``)."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import reportgen
from reportgen.cli import cli

GOLD = {f"q{i}": [f"c{i}"] for i in range(8)}
FIRST = {qid: [chunks[0], "x"] for qid, chunks in GOLD.items()}
SECOND = {qid: ["x", chunks[0]] if i % 2 else ["x"] for i, (qid, chunks) in enumerate(GOLD.items())}
VERDICTS = {qid: i % 3 != 0 for i, qid in enumerate(GOLD)}


def _codes(results: reportgen.Results) -> list[str]:
    return [warning.code for warning in results.warnings]


def test_the_api_warns_when_the_run_the_verdicts_judge_is_assumed() -> None:
    both = reportgen.evaluate(GOLD, {"bm25": FIRST, "dense": SECOND}, verdicts=VERDICTS)
    (warning,) = [w for w in both.warnings if w.code == "verdicts_run_assumed"]
    assert warning.examples == ("bm25",)
    assert "--verdicts-run" in warning.message and "bm25" in warning.message
    named = reportgen.evaluate(
        GOLD, {"bm25": FIRST, "dense": SECOND}, verdicts=VERDICTS, verdicts_run="dense"
    )
    assert "verdicts_run_assumed" not in _codes(named)
    alone = reportgen.evaluate(GOLD, {"bm25": FIRST}, verdicts=VERDICTS)
    assert "verdicts_run_assumed" not in _codes(alone)  # one run: nothing to choose


def _write(folder: Path, name: str, rows: dict[str, object]) -> str:
    path = folder / name
    path.write_text("".join(json.dumps(row) + "\n" for row in rows.values()))
    return str(path)


@pytest.fixture
def inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")
    gold = _write(tmp_path, "gold.jsonl", {q: {"id": q, "gold": c} for q, c in GOLD.items()})
    first = _write(tmp_path, "a.jsonl", {q: {"id": q, "chunks": c} for q, c in FIRST.items()})
    second = _write(tmp_path, "b.jsonl", {q: {"id": q, "chunks": c} for q, c in SECOND.items()})
    verdicts = _write(
        tmp_path, "v.jsonl", {q: {"id": q, "correct": v} for q, v in VERDICTS.items()}
    )
    return [gold, f"bm25={first}", f"dense={second}", "--verdicts", verdicts, "--context-k", "2"]


@pytest.mark.slow  # two reports, 2-4 s; the API test above covers the warning by default
def test_every_output_names_the_assumed_run_and_the_option(
    inputs: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["report", *inputs, "--out", str(out)])
    assert result.exit_code == 0, result.output
    notice = "the four cells are bm25's, the first run given (assumed)"
    assert notice in result.output and "--verdicts-run" in result.output
    for page in ("summary.md", "report.md", "index.html"):
        text = html.unescape((out / page).read_text()).replace("\\", "")  # Markdown escapes
        assert notice in text and "--verdicts-run" in text, page
    header = html.unescape((out / "index.html").read_text()).split("<nav")[0]  # the top
    assert notice in header
    report = json.loads((out / "report.json").read_text())
    (warning,) = [w for w in report["warnings"] if w["code"] == "verdicts_run_assumed"]
    assert warning["examples"] == ["bm25"]
    named = CliRunner().invoke(
        cli, ["report", *inputs, "--verdicts-run", "bm25", "--out", str(tmp_path / "named")]
    )
    assert named.exit_code == 0 and notice not in named.output
    # the same four cells, said or not: only the notice differs
    again = json.loads((tmp_path / "named" / "report.json").read_text())
    assert again["attribution"] == report["attribution"]
