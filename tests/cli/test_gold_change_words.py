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
    # the first screen says it before any number: a gold_changed alert and its digest
    report = json.loads((out / "report.json").read_text())
    (alert,) = [w for w in report["warnings"] if w["code"] == "gold_changed"]
    assert alert["count"] == 2 and alert["examples"] == ["q5", "q6"]
    assert "covers the 5 questions both sets share" in alert["message"]
    page = (out / "index.html").read_text()
    digest = page.index("gold set changed since the baseline (2)")
    assert digest < page.index('id="four-cells"') if 'id="four-cells"' in page else digest > 0


def test_the_same_gold_set_raises_no_gold_changed_alert(tmp_path: Path) -> None:
    write_gold(tmp_path / "gold.jsonl", ["q0", "q1"], "")
    run = tmp_path / "run.jsonl"
    run.write_text("".join(json.dumps({"id": q, "chunks": [f"c{q}"]}) + "\n" for q in ("q0", "q1")))
    runner = CliRunner()
    gold_path, base, out = str(tmp_path / "gold.jsonl"), tmp_path / "base", tmp_path / "out"
    assert (
        runner.invoke(cli, ["report", gold_path, f"m={run}", "--out", str(base), "-q"]).exit_code
        == 0
    )
    args = ["--baseline", str(base), "--on-gold-change", "intersect", "--out", str(out), "-q"]
    assert runner.invoke(cli, ["report", gold_path, f"m={run}", *args]).exit_code == 0
    report = json.loads((out / "report.json").read_text())
    assert "gold_changed" not in {w["code"] for w in report["warnings"]}
