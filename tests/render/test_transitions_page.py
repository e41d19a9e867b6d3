"""The transitions on the pages: matrix, moves, side-by-side lists, all escaped.

Question and chunk ids come from the user's files: a hostile one must reach the HTML
escaped and leave summary.md's Markdown with only reportgen's own elements.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.render.summary import render_summary
from reportgen.render.views.transitions import transitions_view
from tests.render.markdown_check import assert_well_formed, render

HOSTILE = '<img src=x onerror="alert(1)">|`@team'


def write(folder: Path, flip: bool) -> Path:
    """Six questions, one with a hostile id and chunk; ``flip`` moves two of them."""
    folder.mkdir(parents=True)
    qids = ["q1", "q2", "q3", "q4", "q5", HOSTILE]
    gold = [{"id": q, "kind": "k", "gold": [f"{q}-g"]} for q in qids]
    run = [
        {"id": q, "chunks": ([f"x{i}", f"{q}-g"] if flip and i < 2 else [f"{q}-g", f"x{i}"])}
        for i, q in enumerate([HOSTILE, *qids[:5]])
    ]
    verdicts = [{"id": q, "correct": not (flip and q == "q3")} for q in qids]
    for name, rows in (("gold", gold), ("run", run), ("verdicts", verdicts)):
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return folder


def report(side: Path, out: Path, *extra: str) -> dict[str, Any]:
    args = [
        *("report", str(side / "gold.jsonl"), f"rag={side / 'run.jsonl'}"),
        *("--verdicts", str(side / "verdicts.jsonl"), "--verdicts-run", "rag"),
        *("--k", "1", "--context-k", "1", "--out", str(out), *extra),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    loaded: dict[str, Any] = json.loads((out / "report.json").read_text())
    return loaded


def test_moves_reach_every_page_escaped(tmp_path: Path) -> None:
    report(write(tmp_path / "a", flip=False), tmp_path / "A")
    now = report(
        write(tmp_path / "b", flip=True), tmp_path / "B", "--baseline", str(tmp_path / "A")
    )
    entry = now["transitions"]["rag"]
    assert {(m["from"], m["to"]): m["questions"] for m in entry["moves"]} == {
        ("retrieved_correct", "missed_correct"): sorted([HOSTILE, "q1"]),
        ("retrieved_correct", "retrieved_wrong"): ["q3"],
    }
    view = transitions_view(now, "rag")  # type: ignore[arg-type]
    assert view is not None and view.summary == "3 questions of 6 moved, 3 stayed."
    # the hostile question's top 1: x0 is new, its gold chunk fell out
    side = next(item for g in view.groups for item in g.questions if item.qid == HOSTILE)
    assert side.then is not None and [(c.chunk_id, c.gold) for c in side.then] == [
        (f"{HOSTILE}-g", True)
    ]
    assert [(c.chunk_id, c.change) for c in side.now] == [("x0", "new")]
    assert [(c.chunk_id, c.change) for c in side.dropped] == [(f"{HOSTILE}-g", "out")]

    html = (tmp_path / "B" / "index.html").read_text()
    assert "<img src=x" not in html and "&lt;img src=x" in html
    assert 'id="transitions"' in html and 'id="changed"' in html
    assert 'data-move="retrieved_correct&gt;missed_correct"' in html
    # without the script the filters stay hidden and every row shows
    assert re.search(r'<form id="question-filters"[^>]* hidden>', html)
    assert not re.search(r"<tr[^>]* hidden", html)

    summary = render_summary(now, "https://example.org/r/")  # type: ignore[arg-type]
    rendered = assert_well_formed(summary)
    assert "Since the baseline: rag" in summary
    assert "retrieved_correct" not in summary  # states are worded as the pages word them
    assert "working as designed → answered from memory" in summary
    assert "<img" not in rendered.html
    assert "[Every definition](https://example.org/r/#glossary)" in summary
    page = render((tmp_path / "B" / "report.md").read_text())
    assert not page.unclosed and 'onerror="alert' not in page.html
    assert "Questions that moved since the baseline" in page.html


def test_no_baseline_no_transitions(tmp_path: Path) -> None:
    now = report(write(tmp_path / "a", flip=False), tmp_path / "A")
    assert now["transitions"] is None
    assert transitions_view(now, "rag") is None  # type: ignore[arg-type]
    assert 'id="transitions"' not in (tmp_path / "A" / "index.html").read_text()
