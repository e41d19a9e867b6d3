"""A site published before gold fingerprints were built from the question digests
(format_version 1) still knows its gold set: the first report after an upgrade picks its
baseline by gold set, and the trends do not break at the upgrade. The site in
tests/fixtures/site_format1 was written by that reportgen's own `publish`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.load.previous.published import load_history

FIXTURE = Path(__file__).parents[1] / "fixtures" / "site_format1"
GOLD = FIXTURE / "inputs" / "gold.jsonl"
RUN = FIXTURE / "inputs" / "run.tsv"

pytestmark = pytest.mark.hand_made_reports  # the old site's reports are format_version 1


@pytest.fixture
def old_site(tmp_path: Path) -> Path:
    site = tmp_path / "site"
    shutil.copytree(FIXTURE / "site", site)
    return site


def report(tmp_path: Path, gold: Path, site: Path, *options: str, version: str = "v3") -> dict:
    out = tmp_path / f"report-{version}"
    result = CliRunner().invoke(
        cli,
        [
            *("report", str(gold), f"bm25={RUN}", "--out", str(out), "--version", version),
            *("--baseline", str(site), "--format", "json", "--quiet", *options),
        ],
    )
    assert result.exit_code == 0, result.output
    return json.loads((out / "report.json").read_text())


def publish(tmp_path: Path, site: Path, version: str = "v3") -> None:
    result = CliRunner().invoke(
        cli, ["publish", str(tmp_path / f"report-{version}"), "--site", str(site)]
    )
    assert result.exit_code == 0, result.output


def test_the_old_site_holds_old_fingerprints(old_site: Path) -> None:
    reports = [json.loads(p.read_text()) for p in sorted(old_site.glob("*/report.json"))]
    assert {r["format_version"] for r in reports} == {1}
    history = [json.loads(line) for line in (old_site / "history.jsonl").read_text().splitlines()]
    assert all("fingerprint_from" not in entry["gold"] for entry in history)


def test_first_report_after_the_upgrade_finds_its_gold_set(old_site: Path, tmp_path: Path) -> None:
    now = report(tmp_path, GOLD, old_site)
    assert now["baseline"]["selection"]["rule"] == "same_gold"
    old = json.loads((old_site / "v2" / "report.json").read_text())
    assert old["gold"]["fingerprint"] != now["gold"]["fingerprint"]  # the schemes differ


def test_trends_do_not_break_at_the_upgrade(old_site: Path, tmp_path: Path) -> None:
    report(tmp_path, GOLD, old_site)
    publish(tmp_path, old_site)
    index = (old_site / "index.html").read_text()
    assert "another gold set" not in index
    fingerprints = {
        entry["gold"]["fingerprint"] for entry in load_history(old_site / "history.jsonl")
    }
    assert len(fingerprints) == 1


def test_a_real_gold_change_still_breaks_the_trends(old_site: Path, tmp_path: Path) -> None:
    changed = tmp_path / "gold.jsonl"
    changed.write_text(GOLD.read_text().replace('"gold": ["c7"]', '"gold": ["c7", "c8"]'))
    now = report(tmp_path, changed, old_site, "--on-gold-change", "intersect")
    assert now["baseline"]["selection"]["rule"] == "newest"
    publish(tmp_path, old_site)
    assert "another gold set" in (old_site / "index.html").read_text()


def test_a_pruned_old_version_is_unknown_not_a_change(old_site: Path, tmp_path: Path) -> None:
    shutil.rmtree(old_site / "v1")  # as if pruned: its report.json is gone
    history = load_history(old_site / "history.jsonl")
    assert history[0]["gold"]["fingerprint"] is None
    report(tmp_path, GOLD, old_site)
    publish(tmp_path, old_site)
    assert "another gold set" not in (old_site / "index.html").read_text()
