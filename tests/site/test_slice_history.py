"""The published site keeps the gated field's slices in history.jsonl and draws their
trend, and a failed slice rule is named with its slice in the history's gate."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reportgen.api import publish_report
from reportgen.cli import cli
from tests.analyse.slices.slice_data import write_slice_data


def test_history_keeps_each_slice_of_the_gated_field(tmp_path: Path) -> None:
    paths = write_slice_data(tmp_path)
    site = tmp_path / "site"
    for version, run in (("v1", "a"), ("v2", "b")):
        out = tmp_path / version
        args = ["report", str(paths["gold"]), f"rag={paths[run]}", "--out", str(out)]
        options = ["--version", version, "--slice-gate", "lang", "--min", "recall@5=0.5"]
        result = CliRunner().invoke(cli, [*args, *options, "--quiet"])
        assert result.exit_code in (0, 1), result.output
        publish_report(out, site)
    lines = [json.loads(line) for line in (site / "history.jsonl").read_text().splitlines()]
    report = json.loads((tmp_path / "v2" / "report.json").read_text())
    for line in lines:
        assert line["slices"]["field"] == "lang"
    de = report["runs"]["rag"]["by_slice"]["lang"]["de"]
    kept = lines[-1]["slices"]["runs"]["rag"]["de"]
    assert kept["n"] == de["n"]
    for key in ("hit", "recall", "mrr"):
        assert kept[key] == de["means"][f"{key}@5"]
    failed = [r for r in report["gate"]["rules"] if not r["passed"] and r.get("slice")]
    assert failed, "run b lost its German gold chunks"
    assert "--min recall@5=0.5 in lang=de (rag)" in lines[-1]["gate"]["failed"]
    index = (site / "index.html").read_text()
    assert "recall@k_ctx per slice of lang" in index
