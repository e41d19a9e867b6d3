"""No @mention stays live in report.md or summary.md, wherever user text lands.

Pasted into a pull-request comment, ``@octocat`` or ``@org/team`` in a question, an
id or a run name would notify people; the drill-down's ``<summary>`` lines left them
live. Outside fenced code blocks, every @ that GitHub reads as a mention or an e-mail
address must be followed by a zero-width space.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.hardening.corpus import run_cli

LIVE = re.compile(r"(?<![A-Za-z0-9])@(?=[A-Za-z0-9])|[A-Za-z0-9]@[A-Za-z0-9-]+\.[A-Za-z]")
"""A mention (``@octocat``, ``@org/team``) or an e-mail address (``a@b.example``)."""
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
PINGS = ["@octocat", "@org/team", "octo@cat.example"]


def write_case(folder: Path) -> None:
    """Two questions whose ids, kinds and texts mention people, each failing at
    retrieval (the gold chunk beyond k_ctx) with its chunk text at hand: drill-down panels."""
    (folder / "docs").mkdir(parents=True)
    gold, chunks, run, verdicts = [], [], [], []
    for i, ping in enumerate(PINGS):
        qid = f"{ping} q{i}"
        doc = f"d{i}.md"
        (folder / "docs" / doc).write_text(f"evidence {ping} here, cc {ping}. ".ljust(200, "."))
        gold.append(
            {
                "id": qid,
                "kind": f"kind {ping}",
                "question": f"Why {ping}?",
                "evidence": [{"doc": doc, "start": 0, "end": 40}],
            }
        )
        chunks.append({"chunk_id": f"{ping}-a", "doc": doc, "start": 0, "end": 100})
        chunks.append({"chunk_id": f"{ping}-b", "doc": doc, "start": 100, "end": 200})
        run.append({"id": qid, "chunks": [f"{ping}-b", "other", f"{ping}-a"]})
        verdicts.append({"id": qid, "correct": False})
    for name, rows in (("gold", gold), ("chunks", chunks), ("run", run), ("verdicts", verdicts)):
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_no_mention_is_live_in_the_markdown(tmp_path: Path) -> None:
    write_case(tmp_path)
    out = tmp_path / "out"
    outcome = run_cli(
        [
            *("report", str(tmp_path / "gold.jsonl"), f"@octocat={tmp_path / 'run.jsonl'}"),
            *("--chunks", str(tmp_path / "chunks.jsonl"), "--docs", str(tmp_path / "docs")),
            *("--verdicts", str(tmp_path / "verdicts.jsonl"), "--k", "1,2,3"),
            *("--context-k", "2", "--version", "v1", "--out", str(out), "-q"),
        ]
    )
    assert outcome.code == 0, outcome.stderr
    for name in ("report.md", "summary.md"):
        text = (out / name).read_text(encoding="utf-8")
        assert "<details><summary>" in text or name == "summary.md"
        prose = FENCE.sub("", text)
        live = [prose[max(0, m.start() - 30) : m.end() + 10] for m in LIVE.finditer(prose)]
        assert live == [], f"{name}: {live}"
        assert "@\u200boctocat" in text  # neutralised, not dropped
    assert "@\u200boctocat q0" in (out / "report.md").read_text().split("<summary>")[1]
