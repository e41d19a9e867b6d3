"""The failure drill-down: what the model was sent for each failed question, bounded."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.render.views.drilldown import CHUNK_TEXT_SHOWN, MARKDOWN_PANELS, PANELS_SHOWN
from tests.collects import counting_collects

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'
CHUNK = 100
"""Each document is two chunks: evidence in the first, noise in the second."""


def write_case(folder: Path, questions: int, text_length: int = 2 * CHUNK) -> list[str]:
    """Per question a document, its evidence in [10, 60), two chunks; q0 is hostile.

    Even questions retrieve the noise chunk first and the evidence chunk at rank 3
    (beyond k_ctx = 2): retrieval failures when wrong. Odd ones retrieve the evidence
    first: generation failures when wrong. Every verdict is wrong.
    """
    (folder / "docs").mkdir()
    gold, chunks, run, verdicts = [], [], [], []
    for i in range(questions):
        qid = f"q{i:04d}"
        body = (HOSTILE if i == 0 else f"document {i} ").ljust(text_length, ".")
        (folder / "docs" / f"{qid}.md").write_text(body)
        question = HOSTILE if i == 0 else f"Question {i}?"
        gold.append({"id": qid, "question": question,
                     "evidence": [{"doc": f"{qid}.md", "start": 10, "end": 60}]})  # fmt: skip
        chunks.append({"chunk_id": f"{qid}-a", "doc": f"{qid}.md", "start": 0, "end": CHUNK})
        chunks.append({"chunk_id": f"{qid}-b", "doc": f"{qid}.md", "start": CHUNK,
                       "end": text_length})  # fmt: skip
        ranked = [f"{qid}-b", "other", f"{qid}-a"] if i % 2 == 0 else [f"{qid}-a", f"{qid}-b"]
        run.append({"id": qid, "chunks": ranked})
        verdicts.append({"id": qid, "correct": False})
    for name, rows in (("gold", gold), ("chunks", chunks), ("run", run), ("verdicts", verdicts)):
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return [row["id"] for row in gold]


def report(folder: Path, *extra: str) -> dict[str, Any]:
    out = folder / "out"
    args = [
        *("report", str(folder / "gold.jsonl"), f"run={folder / 'run.jsonl'}"),
        *("--chunks", str(folder / "chunks.jsonl"), "--docs", str(folder / "docs")),
        *("--verdicts", str(folder / "verdicts.jsonl"), "--k", "1,2,3", "--context-k", "2"),
        *("--out", str(out), "--report-url", "https://example.test/r/", *extra),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return {
        "json": json.loads((out / "report.json").read_text()),
        "html": (out / "index.html").read_text(),
        "md": (out / "report.md").read_text(),
        "summary": (out / "summary.md").read_text(),
    }


def test_failed_questions_get_panels_with_evidence_and_the_chunks_sent(tmp_path: Path) -> None:
    write_case(tmp_path, 4)
    found = report(tmp_path)
    section = found["json"]["drilldown"]
    # generation failures (odd ids) first, then retrieval failures
    assert section["questions"] == ["q0001", "q0003", "q0000", "q0002"]
    html = found["html"]
    assert html.count('<details class="panel">') == 4
    panel = html.split('<details class="panel">')[3]  # q0000: the hostile one
    assert "q0000 · retrieval failure" in panel
    assert "<script>alert" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in panel
    # its evidence, characters 10-60 of the document, highlighted
    assert "characters 10-60" in panel
    assert re.search(r"<mark>[^<]*</mark>", panel)
    # 120 characters of context each side (q0001's document is plain text): it starts
    # 10 characters before the evidence (nothing cut) and goes on 20 characters after
    # what is shown ("…")
    plain = html.split('<details class="panel">')[1]
    assert re.search(r"<blockquote>[^…<]{10}<mark>[^<]*</mark>\.{120}…</blockquote>", plain)
    # the chunks sent (k_ctx = 2): the noise chunk, then one the chunk map lacks
    rows = re.findall(r'<td class="id">([^<]*)</td><td>([^<]*)</td>', panel)
    assert rows == [("q0000-b", "not relevant"), ("other", "not relevant")]
    assert "(no text for this chunk)" in panel
    assert "The first relevant chunk, q0000-a, came at rank 3: beyond the 2 sent." in panel


def test_markdown_and_summary_carry_the_drilldown(tmp_path: Path) -> None:
    write_case(tmp_path, 3)
    found = report(tmp_path)
    md = found["md"]
    assert md.count("<details><summary>q") == 3
    # escaped for GitHub: a backslash before every < (and entities inside <summary>)
    assert not re.search(r"(?<!\\)<(script|img)", md)
    assert "<summary>q0000 · retrieval failure · &lt;script&gt;" in md
    assert "| 1 | | q0001-a | relevant |" in md.replace("|  |", "| |")
    assert "[in the full report](https://example.test/r/#drilldown)" in found["summary"]


def test_panels_and_text_are_bounded(tmp_path: Path) -> None:
    total = PANELS_SHOWN + 5
    write_case(tmp_path, total, text_length=CHUNK + CHUNK_TEXT_SHOWN + 50)
    found = report(tmp_path)
    html, md = found["html"], found["md"]
    assert html.count('<details class="panel">') == PANELS_SHOWN
    assert f"5 more questions left out: the page shows the first {PANELS_SHOWN} of {total}" in html
    assert md.count("<details><summary>q") == MARKDOWN_PANELS
    assert f"The first {MARKDOWN_PANELS} of {total} questions" in md
    # the second chunk is 650 characters long: 600 shown, the rest counted
    assert "… 50 more characters" in html
    assert found["json"]["drilldown"]["count"] == total
    assert len(found["json"]["drilldown"]["questions"]) == PANELS_SHOWN


@pytest.mark.parametrize(("mode", "panels"), [("all", 3), ("none", 0)])
def test_explain_picks_the_questions(tmp_path: Path, mode: str, panels: int) -> None:
    write_case(tmp_path, 3)
    (tmp_path / "verdicts.jsonl").write_text('{"id": "q0001", "correct": true}\n')
    found = report(tmp_path, "--explain", mode)
    assert found["html"].count('<details class="panel">') == panels
    assert (found["json"]["drilldown"] is None) == (panels == 0)


def without_docs(tmp_path: Path, *extra: str) -> list[str]:
    """``report`` on the written case with its chunk map and verdicts, no ``--docs``."""
    return [
        *("report", str(tmp_path / "gold.jsonl"), f"run={tmp_path / 'run.jsonl'}"),
        *("--chunks", str(tmp_path / "chunks.jsonl")),
        *("--verdicts", str(tmp_path / "verdicts.jsonl")),
        *extra,
    ]


def test_no_panel_without_chunk_text(tmp_path: Path) -> None:
    write_case(tmp_path, 2)
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, without_docs(tmp_path, "--out", str(out), "--format", "json"))
    assert result.exit_code == 0, result.output
    assert json.loads((out / "report.json").read_text())["drilldown"] is None


def test_question_table_marks_the_chunks_the_evidence_made_relevant(tmp_path: Path) -> None:
    # Evidence-only gold: the table once said "gold: (none)" and marked no chunk as gold,
    # while saying "gold at rank 1" for the same run.
    write_case(tmp_path, 2)
    found = report(tmp_path)
    row = found["html"].split('<th scope="row">q0001')[1].split("</tr>")[0]
    assert "gold: (evidence spans)" in row and "(none)" not in row
    assert '<li class="gold">q0001-a</li>' in row
    md_row = next(line for line in found["md"].splitlines() if line.startswith("| q0001 "))
    assert "gold: (evidence spans)" in md_row and "**q0001-a**" in md_row


@pytest.mark.parametrize("questions", [2, 9])
def test_the_drilldown_collects_once_however_many_panels(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, questions: int
) -> None:
    # a filter, a partition key or a sort per question was a collect per question
    write_case(tmp_path, questions)
    with counting_collects(monkeypatch, "analyse/drilldown.py") as count:
        found = report(tmp_path)
    assert len(found["json"]["drilldown"]["questions"]) == questions
    assert count[0] == 2  # the questions chosen, then every frame the panels read


def test_without_the_documents_the_evidence_comes_from_a_chunk_that_holds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the chunk map carries each chunk's text and --docs is not given: the passage and
    # its context come from the chunk holding the range, for every panel in one collect
    write_case(tmp_path, 5)
    chunks = [json.loads(line) for line in (tmp_path / "chunks.jsonl").read_text().splitlines()]
    for chunk in chunks:
        body = (tmp_path / "docs" / chunk["doc"]).read_text()
        chunk["text"] = body[chunk["start"] : chunk["end"]]
    chunks[0]["text"] += "!"  # q0000's first chunk no longer matches its document
    (tmp_path / "chunks.jsonl").write_text("".join(json.dumps(c) + "\n" for c in chunks))
    out = tmp_path / "out"
    args = without_docs(tmp_path, "--k", "1,2,3", "--context-k", "2", "--out", str(out))
    with counting_collects(monkeypatch, "analyse/drilldown.py") as count:
        result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert count[0] == 2
    panels = {p["qid"]: p for p in json.loads((out / "report.json").read_text())["pages"]["panels"]}
    assert len(panels) == 5
    (evidence,) = panels["q0001"]["evidence"]
    assert (evidence["start"], evidence["end"], evidence["before"]) == (10, 60, "document 1")
    assert evidence["text"] == " " + "." * 49 and evidence["after"] == "." * 40
    assert not evidence["cut_before"] and not evidence["cut_after"]  # the chunk is [0, 100)
    (unknown,) = panels["q0000"]["evidence"]
    assert unknown["text"] is None and unknown["before"] is None
