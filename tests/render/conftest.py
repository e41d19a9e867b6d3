"""Small reports to render: SPEC.md's A to E example, and one full of hostile text."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportResult,
    ReportSettings,
    make_report,
)
from reportgen.measure.scoring import Settings

PAYLOAD = "<script>window.__xss=1</script><img src=x onerror=window.__xss=2>"
"""Script in every user field: if any reaches the page unescaped, a browser runs it."""

GOLD = [
    {"id": "A", "kind": "plain", "question": "Where is a1?", "gold": ["a1"]},
    {"id": "B", "kind": "plain", "question": "Where is b1?", "gold": ["b1"]},
    {"id": "C", "kind": "multi", "question": "Where are c1 and c2?", "gold": ["c1", "c2"]},
    {"id": "D", "kind": "plain", "question": "Where is d1?", "gold": ["d1"]},
    {"id": "E", "kind": "none", "question": "Unanswerable", "gold": [], "unanswerable": True},
]
RUN = {
    "A": ["a1", "x1", "x2"],
    "B": ["x3", "x4", "b1"],
    "C": ["c1", "x5", "x6"],
    "D": ["x7", "x8", "x9"],
    "E": ["x1", "x2", "x3"],
}


def write_inputs(
    folder: Path, gold: list[dict[str, object]], runs: dict[str, dict[str, list[str]]]
) -> tuple[Path, list[tuple[str, Path]]]:
    folder.mkdir(parents=True, exist_ok=True)
    gold_path = folder / "gold.jsonl"
    gold_path.write_text("".join(json.dumps(q) + "\n" for q in gold))
    specs = []
    for index, (name, lists) in enumerate(runs.items()):
        path = folder / f"run{index}.jsonl"
        path.write_text(
            "".join(json.dumps({"id": q, "chunks": c}) + "\n" for q, c in lists.items())
        )
        specs.append((name, path))
    return gold_path, specs


@pytest.fixture
def spec_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ReportResult:
    """SPEC.md's A to E example at k = 3, two runs (the second is the first reversed)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")
    reversed_run = {q: list(reversed(c)) for q, c in RUN.items()}
    gold, runs = write_inputs(tmp_path / "in", GOLD, {"mine": RUN, "reversed": reversed_run})
    settings = ReportSettings(Settings((1, 3), 3), version="v1")
    return make_report(
        ReportRequest(ReportInputs(gold, runs), ReportOutputs(tmp_path / "out"), settings)
    )


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], ReportResult]:
    """A report whose question ids, texts, kinds, chunk ids, run names and version all
    carry the payload (plus Markdown and mention syntax)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")

    def make(version: str = PAYLOAD) -> ReportResult:
        qid = f"q|`{PAYLOAD}`@here"
        chunk = f"c{PAYLOAD}|"
        gold = [
            {
                "id": qid,
                "kind": f"k{PAYLOAD}",
                "question": f"**{PAYLOAD}** @octocat | x",
                "gold": [chunk],
            },
            {"id": "plain", "kind": "plain", "question": "fine", "gold": ["c2"]},
        ]
        run = {qid: [chunk, "x"], "plain": ["x", "c2"]}
        gold_path, runs = write_inputs(
            tmp_path / "hostile-in", gold, {f"r{PAYLOAD}": run, "ok": run}
        )
        inputs, outputs = ReportInputs(gold_path, runs), ReportOutputs(tmp_path / "hostile-out")
        return make_report(ReportRequest(inputs, outputs, ReportSettings(version=version)))

    return make
