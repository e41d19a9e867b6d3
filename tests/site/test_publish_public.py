"""`publish --public` leaves no question or chunk text on the site; --max-site-mb warns
and names what to prune; the gate's outcome is kept in history.jsonl and the index."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.api import (
    ReportChecks,
    ReportOutputs,
    ReportSettings,
    demo_request,
    make_report,
)
from reportgen.cli import cli
from reportgen.load.inputs.config import rules_from_options
from reportgen.site.publish import gate_outcome, publish, size_warning

DEMO_GOLD = Path(__file__).resolve().parents[2] / "reportgen/examples/helpcentre/gold.jsonl"
DEMO_CHUNKS = Path(__file__).resolve().parents[2] / "reportgen/examples/helpcentre/chunks"


@pytest.fixture(scope="module")
def failed_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo with every chunk's text shown and a gate it fails (recall@5 >= 0.99)."""
    folder = tmp_path_factory.mktemp("failed")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", "1764000000")
        request = demo_request(
            dataclasses.replace(ReportOutputs(folder), explain="all"),
            ReportSettings(version="v1"),
        )
        gate = rules_from_options(("recall@5=0.99",), (), False)
        make_report(dataclasses.replace(request, checks=ReportChecks(gate=gate)))
    return folder


def texts() -> list[str]:
    """Every question text of the demo's gold set, and every chunk text it has."""
    questions = [
        json.loads(line).get("question") for line in DEMO_GOLD.read_text().splitlines() if line
    ]
    chunks = []
    for path in DEMO_CHUNKS.rglob("*.jsonl"):
        chunks += [json.loads(line).get("text") for line in path.read_text().splitlines() if line]
    return [text for text in [*questions, *chunks] if isinstance(text, str) and len(text) > 20]


@pytest.mark.slow  # two demo reports and the pages rendered again: ~25 s
def test_public_site_holds_no_question_or_chunk_text(failed_report: Path, tmp_path: Path) -> None:
    wanted = texts()
    report_bytes = b"".join(p.read_bytes() for p in failed_report.rglob("*") if p.is_file())
    shown = [text for text in wanted if text.encode() in report_bytes]
    assert len(shown) > 20  # the private report does quote them: the test can fail
    site = tmp_path / "site"
    result = CliRunner().invoke(
        cli, ["publish", str(failed_report), "--site", str(site), "--public"]
    )
    assert result.exit_code == 0, result.output
    published = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert {p.name for p in published} >= {"index.html", "report.json", "report.md", "summary.md"}
    for path, data in published.items():
        leaked = [text for text in shown if text.encode() in data]
        assert not leaked, (path, leaked[:2])
    header = (site / "v1" / "per_question.csv").read_text().splitlines()[0]
    assert header.startswith("run,qid,kind,status,hit@1")
    # still a baseline: ids and numbers are what comparisons read
    baseline_out = tmp_path / "next"
    make_report(
        dataclasses.replace(
            demo_request(ReportOutputs(baseline_out), ReportSettings(version="v2")),
            inputs=dataclasses.replace(
                demo_request(ReportOutputs(baseline_out)).inputs, baseline=site
            ),
        )
    )
    report = json.loads((baseline_out / "report.json").read_text())
    assert report["baseline"]["version"] == "v1"
    assert all(c["n"] > 0 for c in report["baseline"]["comparisons"])


@pytest.mark.slow  # test_history_gate covers the entry quickly
def test_gate_outcome_in_history_index_and_a_warning(failed_report: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = CliRunner().invoke(cli, ["publish", str(failed_report), "--site", str(site)])
    assert result.exit_code == 0, result.output
    assert "warning: version v1 failed its quality gate (--min recall@5=0.99 (keyword);" in (
        result.output
    )
    [line] = [json.loads(x) for x in (site / "history.jsonl").read_text().splitlines()]
    assert line["gate"]["passed"] is False and line["commit"] is None
    assert "--min recall@5=0.99 (rerank)" in line["gate"]["failed"]
    index = (site / "index.html").read_text()
    cell = index.split('class="meta gate-failed" title="', 1)[1].split("</td>", 1)[0]
    tooltip, shown = cell.split('">', 1)
    assert "--min recall@5=0.99 (rerank)" in tooltip and shown.startswith("FAILED (")


@pytest.mark.slow  # three demo reports: ~30 s; test_size_warning covers the choice quickly
def test_max_site_mb_names_the_oldest_versions_to_prune(
    failed_report: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    folders = []
    for number, epoch in enumerate(("1764000100", "1764000200", "1764000300"), start=1):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        folder = tmp_path / f"r{number}"
        make_report(demo_request(ReportOutputs(folder), ReportSettings(version=f"r{number}")))
        folders.append(folder)
    sizes = []
    for folder in folders:
        published = publish(folder, site, max_site_mb=1000)
        assert published.warnings == []
        sizes.append(sum(p.stat().st_size for p in site.rglob("*") if p.is_file()))
    # a budget between two versions and three: the third publish is over it by one
    budget = (sizes[1] + sizes[2]) / 2 / 1_000_000
    result = CliRunner().invoke(
        cli, ["publish", str(folders[2]), "--site", str(site), "--max-site-mb", str(budget)]
    )
    assert result.exit_code == 0, result.output
    assert "warning: the site holds" in result.output
    assert "prune r1 (publish --keep 2 prunes the oldest)" in result.output
    result = CliRunner().invoke(
        cli, ["publish", str(folders[2]), "--site", str(site), "--max-site-mb", "0"]
    )
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_history_gate() -> None:
    report = {
        "gate": {
            "passed": False,
            "rules": [
                {"rule": "--min hit@5=0.9", "run": "a", "passed": True},
                {"rule": "--max-drop recall@5=0.02", "run": "b", "passed": False},
            ],
        }
    }
    assert gate_outcome(report["gate"]) == {
        "passed": False,
        "failed": ["--max-drop recall@5=0.02 (b)"],
    }
    assert gate_outcome(None) is None
    assert gate_outcome({"passed": True, "rules": []}) == {"passed": True, "failed": []}


def test_size_warning(tmp_path: Path) -> None:
    history = []
    for number in range(1, 4):
        (tmp_path / f"v{number}").mkdir()
        (tmp_path / f"v{number}" / "index.html").write_bytes(b"x" * 400_000)
        history.append({"version": f"v{number}", "created": f"2026-01-0{number}T00:00:00Z"})
    assert size_warning(tmp_path, history, 2) == []
    [warning] = size_warning(tmp_path, history, 0.9)
    assert warning.startswith("the site holds 1.2 MB, over --max-site-mb 0.9")
    assert "prune v1 (publish --keep 2" in warning
    [warning] = size_warning(tmp_path, history, 0.1)
    assert "prune v1, v2 (publish --keep 1" in warning
