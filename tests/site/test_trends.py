"""The site's trends break where the gold set changes: a new segment, a marker, a note.

Sites are built by the real `publish`; the drawn SVG is checked, not only the spec.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    make_report,
)
from reportgen.site.publish import gold_segments, publish

RUNS = ("bm25", "dense")


def report(tmp: Path, version: str, epoch: int, questions: int) -> Path:
    """A report on a gold set of ``questions`` questions (another count, another set)."""
    folder = tmp / f"in-{version}"
    folder.mkdir()
    ids = [f"q{i}" for i in range(questions)]
    (folder / "gold.jsonl").write_text(
        "".join(json.dumps({"id": q, "gold": [f"c{q}"]}) + "\n" for q in ids)
    )
    runs = []
    for depth, name in enumerate(RUNS):
        path = folder / f"{name}.jsonl"
        path.write_text(
            "".join(
                json.dumps({"id": q, "chunks": [f"c{q}" if i % (depth + 2) else "x", "y"]}) + "\n"
                for i, q in enumerate(ids)
            )
        )
        runs.append((name, path))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", str(epoch))
        inputs = ReportInputs(folder / "gold.jsonl", runs)
        outputs = ReportOutputs(folder / "out", formats=())
        make_report(ReportRequest(inputs, outputs, ReportSettings(version=version)))
    return folder / "out"


def line_paths(index: str, chart: str) -> int:
    """How many separate line paths the trend chart ``chart`` of the index draws."""
    svg = index.split(f'id="chart-{chart}"')[1].split("</figure>")[0]
    groups = re.findall(r'<g class="mark-line role-mark[^>]*>(.*?)</g>', svg, re.S)
    return sum(group.count("<path") for group in groups)


def test_a_new_gold_set_starts_a_new_segment_with_a_marker_and_a_note(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for version, epoch, questions in (
        ("v1", 1_760_000_000, 6),
        ("v2", 1_761_000_000, 6),
        ("v3", 1_762_000_000, 8),  # the gold set grew: not comparable with v2
        ("v4", 1_763_000_000, 8),
    ):
        publish(report(tmp_path, version, epoch, questions), site)
    index = (site / "index.html").read_text()
    for chart in ("trend_hit", "trend_recall", "trend_precision", "trend_mrr"):
        assert line_paths(index, chart) == len(RUNS) * 2, chart  # two segments per run
        svg = index.split(f'id="chart-{chart}"')[1].split("</figure>")[0]
        assert svg.count(">new gold set<") == 1
    notes = re.findall(r'<p class="note gold-change">(.*?)</p>', index)
    assert len(notes) == 1
    assert notes[0].startswith("v3 is measured on another gold set than v2 (unversioned, ")
    assert "the lines break there" in notes[0]


def test_one_gold_set_draws_one_line_per_run_and_no_note(tmp_path: Path) -> None:
    site = tmp_path / "site"
    for version, epoch in (("v1", 1_760_000_000), ("v2", 1_761_000_000)):
        publish(report(tmp_path, version, epoch, 6), site)
    index = (site / "index.html").read_text()
    assert line_paths(index, "trend_recall") == len(RUNS)
    assert "new gold set" not in index and "gold-change" not in index


@pytest.mark.parametrize(
    ("fingerprints", "segments"),
    [
        (["a", "a", "b", "b", "a"], [0, 0, 1, 1, 2]),  # back to an old set: still a break
        ([None, "a", None, "a", "b"], [0, 0, 0, 0, 1]),  # unknown (old history): no break
        ([], []),
    ],
)
def test_gold_segments(fingerprints: list[str | None], segments: list[int]) -> None:
    entries = [{"gold": {"fingerprint": fingerprint}} for fingerprint in fingerprints]
    assert gold_segments(entries) == segments
