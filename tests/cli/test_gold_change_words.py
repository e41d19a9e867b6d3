"""--on-gold-change intersect: the terminal says the gold set changed, and every output
counts the shared questions the same way."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import cli


def gold(qid: str) -> dict[str, object]:
    return {"id": qid, "gold": [f"c{qid}"]}


def write_gold(path: Path, ids: list[str], unanswerable: str) -> None:
    path.write_text(
        "".join(
            json.dumps({"id": q, "unanswerable": True} if q == unanswerable else gold(q)) + "\n"
            for q in ids
        )
    )


def test_the_terminal_and_every_page_count_the_shared_questions_alike(tmp_path: Path) -> None:
    """Then q0..q5, now q0..q4 and q6; q5 removed, q6 added, q4 unanswerable in both:
    5 shared questions (q0..q4), 4 of them with relevant passages, paired."""
    write_gold(tmp_path / "then.jsonl", [f"q{i}" for i in range(6)], "q4")
    write_gold(tmp_path / "now.jsonl", [f"q{i}" for i in (0, 1, 2, 3, 4, 6)], "q4")
    run = tmp_path / "run.jsonl"
    run.write_text(
        "".join(json.dumps({"id": f"q{i}", "chunks": [f"cq{i}"]}) + "\n" for i in range(7))
    )
    runner = CliRunner()
    base = tmp_path / "base"
    then = str(tmp_path / "then.jsonl")
    first = runner.invoke(cli, ["report", then, f"m={run}", "--out", str(base), "-q"])
    assert first.exit_code == 0, first.output
    out = tmp_path / "out"
    args = ["--baseline", str(base), "--on-gold-change", "intersect", "--out", str(out)]
    result = runner.invoke(cli, ["report", str(tmp_path / "now.jsonl"), f"m={run}", *args])
    assert result.exit_code == 0, result.output
    said = (
        "both sides are measured on the 5 questions the two sets share (4 of them with "
        "relevant passages, paired run by run)"
    )
    assert "The gold set changed since the baseline" in result.output
    assert said in result.output
    assert "Left out: 1 removed from the gold set since the baseline; 1 added" in result.output
    for page in ("report.md", "summary.md", "index.html"):
        assert said in (out / page).read_text(), page
