"""A comparison whose sides differ by more than 0.10 in judged@k_ctx says "may reflect
unjudged chunks" next to its label: report.json, the pages, the summary, the terminal,
and against a baseline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

from reportgen.analyse.judged import judged_gap
from reportgen.cli import cli
from reportgen.render.views.comparisons import glance_table, pair_label, unjudged_note

NOTE = "may reflect unjudged chunks"


def _side(values: list[float]) -> pl.DataFrame:
    return pl.DataFrame({"qid": [f"q{i}" for i in range(len(values))], "judged@2": values})


@pytest.mark.parametrize(
    ("before", "after", "flagged"),
    [
        ([1.0, 0.5], [0.5, 0.5], True),  # 0.75 -> 0.5: 0.25 apart
        ([0.5, 0.3], [0.4, 0.2], False),  # 0.4 -> 0.3: exactly 0.10 is not more than 0.10
        ([0.5, 0.5], [0.5, 0.5], False),
    ],
)
def test_gap_over_a_tenth_flags(before, after, flagged):
    gap = judged_gap(_side(before), _side(after), 2)
    assert gap is not None and gap["unjudged"] is flagged
    assert gap["key"] == "judged@2"


def test_no_gap_without_judged_columns():
    assert judged_gap(pl.DataFrame({"qid": ["q0"]}), _side([1.0]), 2) is None


def test_note_beside_what_moved_not_in_the_pair_label():
    """The glance table's name column stays a name; the note goes with what moved."""
    entry: dict[str, Any] = {"before": "bm25", "after": "dense", "measures": {}}
    assert pair_label(entry) == "bm25 → dense"  # type: ignore[arg-type]
    entry["judged"] = {"key": "judged@5", "before": 0.9, "after": 0.4, "difference": -0.5,
                       "unjudged": True}  # fmt: skip
    assert pair_label(entry) == "bm25 → dense"  # type: ignore[arg-type]
    note = " (may reflect unjudged chunks: judged@5 0.900 → 0.400)"
    assert unjudged_note(entry) == note  # type: ignore[arg-type]
    row = glance_table([(pair_label(entry), entry)], 5, {}, "pairs").rows[0]  # type: ignore[list-item]
    assert row[0].text == "bm25 → dense" and row[-1].text.endswith(note)
    entry["judged"]["unjudged"] = False
    assert unjudged_note(entry) == ""  # type: ignore[arg-type]


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    gold = "".join(
        json.dumps({"id": f"q{i}", "gold": {f"g{i}": 1, f"n{i}": 0}}) + "\n" for i in range(6)
    )
    _write(tmp_path / "gold.jsonl", gold)
    # judged: every chunk of its top 2 is judged; unjudged: the gold chunk then a stranger
    judged = "".join(f"q{i} Q0 g{i} 1 2 j\nq{i} Q0 n{i} 2 1 j\n" for i in range(6))
    unjudged = "".join(f"q{i} Q0 g{i} 1 2 u\nq{i} Q0 new{i} 2 1 u\n" for i in range(6))
    _write(tmp_path / "judged.trec", judged)
    _write(tmp_path / "unjudged.trec", unjudged)
    return tmp_path


def _report(folder: Path, formats: str) -> tuple[Path, str]:
    out = folder / "report"
    result = CliRunner().invoke(
        cli,
        [
            "report", str(folder / "gold.jsonl"), f"judged={folder / 'judged.trec'}",
            f"unjudged={folder / 'unjudged.trec'}", "--context-k", "2", "--out", str(out),
            "--format", formats,
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out, result.output


@pytest.mark.slow
def test_note_in_report_json_markdown_and_terminal(folder: Path):
    out, output = _report(folder, "md,json")
    report = json.loads((out / "report.json").read_text())
    (pair,) = report["comparisons"]["pairs"]
    assert pair["judged"] == {
        "key": "judged@2", "before": 1.0, "after": 0.5, "difference": -0.5, "unjudged": True,
    }  # fmt: skip
    assert report["runs"]["unjudged"]["means"]["hole@2"] == 0.5
    assert NOTE in output
    for name in ("report.md", "summary.md"):
        assert NOTE in (out / name).read_text(), name


@pytest.mark.slow
def test_note_in_the_html_pages(folder: Path):
    out, _ = _report(folder, "html,json")
    assert NOTE in (out / "index.html").read_text()


@pytest.mark.slow
def test_note_against_a_baseline(folder: Path):
    runner = CliRunner()
    first = folder / "then"
    args = ["report", str(folder / "gold.jsonl"), "--context-k", "2", "--format", "json"]
    assert (
        runner.invoke(cli, [*args, f"a={folder / 'judged.trec'}", "--out", str(first)]).exit_code
        == 0
    )
    result = runner.invoke(
        cli,
        [*args, f"a={folder / 'unjudged.trec'}", "--out", str(folder / "now"),
         "--baseline", str(first / "report.json"), "--format", "json,md"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads((folder / "now" / "report.json").read_text())
    (entry,) = report["baseline"]["comparisons"]
    assert entry["judged"]["unjudged"] is True
    assert NOTE in (folder / "now" / "report.md").read_text()
