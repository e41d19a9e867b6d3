"""A small scenario with every hygiene finding, values worked out by hand.

gold   q1: a1 (forbidden s1, staff-only) | q2: b1, b2 | q3: c1 | q4: unanswerable
index  a1 b1 s1(staff) old1(valid to 2025-01-01) x1 x2 x3   -> b2 and c1 are stale
run r  q1: s1 a1 x1 | q2: b1 old1 x2 | q3: x3 x1 x2 | q4: s1 x1 b2
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

GOLD = [
    {"_meta": {"version": "g1", "index_version": "kb-1"}},
    {"id": "q1", "gold": ["a1"], "forbidden": {"s1": "staff-only"}},
    {"id": "q2", "gold": ["b1", "b2"]},
    {"id": "q3", "gold": ["c1"]},
    {"id": "q4", "unanswerable": True},
]
MANIFEST = [
    {"_meta": {"index_version": "kb-1"}},
    {"chunk_id": "a1", "audience": "public"},
    {"chunk_id": "b1"},
    {"chunk_id": "s1", "audience": "staff"},
    {"chunk_id": "old1", "doc_version": "v1", "valid_to": "2025-01-01"},
    {"chunk_id": "x1"},
    {"chunk_id": "x2"},
    {"chunk_id": "x3"},
]
RUN = {
    "q1": ["s1", "a1", "x1"],
    "q2": ["b1", "old1", "x2"],
    "q3": ["x3", "x1", "x2"],
    "q4": ["s1", "x1", "b2"],
}


def write_jsonl(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.fixture
def scenario(tmp_path: Path) -> dict[str, Path]:
    run = [{"id": q, "chunks": c} for q, c in RUN.items()]
    return {
        "gold": write_jsonl(tmp_path / "gold.jsonl", GOLD),
        "manifest": write_jsonl(tmp_path / "manifest.jsonl", MANIFEST),
        "run": write_jsonl(tmp_path / "r.jsonl", run),
    }
