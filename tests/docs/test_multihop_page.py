"""docs/multihop.md: its trace file is the hand-worked fixture, and the CLI prints the
cells and the coverage split the page's tables give."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import cli
from tests.docs.test_docs_pages import write_files

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "traces" / "multihop.jsonl"


def test_the_page_shows_the_worked_fixture_and_its_numbers(tmp_path: Path) -> None:
    (trace,) = write_files("multihop.md", tmp_path)
    assert trace.read_text() == FIXTURE.read_text()
    for rule, cells in (("any", [3, 2, 1, 1]), ("all", [2, 1, 2, 2])):
        out = tmp_path / rule
        result = CliRunner().invoke(
            cli,
            ["report", str(trace), "--out", str(out), "--retrieved-when", rule, "--format", "json"],
        )
        assert result.exit_code == 0, result.output
        section = json.loads((out / "report.json").read_text())["attribution"]["ircot"]
        assert section["rule"] == rule
        assert section["context_source"] == "trace"
        assert list(section["cells"].values()) == cells
        split = {
            name: (row["questions"], row["correct"]) for name, row in section["by_coverage"].items()
        }
        assert split == {"all": (3, 2), "some": (2, 1), "none": (2, 1)}
        assert "all 0.667 (2 of 3), some 0.500 (1 of 2), none 0.500 (1 of 2)" in result.output
        assert "k_ctx = 5 was assumed" in result.output
