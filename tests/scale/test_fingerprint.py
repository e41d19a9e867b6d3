"""A merged report carries the unsharded gold fingerprint: it is built from the
question digests, so the union of the shards' digests gives it back."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportResult,
    example_dir,
    make_report,
    merge_reports,
)
from reportgen.core.model import JUDGMENTS_SCHEMA, QUESTIONS_SCHEMA, GoldSet, fingerprint_of
from reportgen.errors import InputError
from reportgen.load import load_gold
from tests.scale.test_merge import example_runs, split_gold


def report_json(gold: Path, out: Path, baseline: Path | None = None) -> ReportResult:
    """The example's runs on ``gold``: report.json and the per-question file only."""
    inputs = ReportInputs(gold, example_runs(), baseline=baseline)
    return make_report(ReportRequest(inputs, ReportOutputs(out, formats=())))


def test_merged_fingerprint_equals_the_unsharded_one(tmp_path: Path) -> None:
    inputs = ReportInputs(example_dir() / "gold.jsonl", example_runs())
    whole = make_report(ReportRequest(inputs, ReportOutputs(tmp_path / "whole")))
    shards = []
    for i, gold in enumerate(split_gold(tmp_path, 3)):
        report_json(gold, tmp_path / f"shard-{i}")
        shards.append(tmp_path / f"shard-{i}")
    merged = merge_reports(shards, tmp_path / "merged").report
    whole_gold = whole.report["gold"]
    assert merged["gold"]["fingerprint"] == whole_gold["fingerprint"]
    assert merged["gold"]["question_digests"] == whole_gold["question_digests"]
    # and each shard's own fingerprint is another one: the merge does not reuse them
    assert whole_gold["fingerprint"] not in {s["fingerprint"] for s in merged["merged_from"]}


def test_a_merged_report_is_a_baseline_for_the_unsharded_one(tmp_path: Path) -> None:
    shards = []
    for i, gold in enumerate(split_gold(tmp_path, 2)):
        report_json(gold, tmp_path / f"shard-{i}")
        shards.append(tmp_path / f"shard-{i}")
    merge_reports(shards, tmp_path / "merged")
    gold = example_dir() / "gold.jsonl"
    again = report_json(gold, tmp_path / "again", baseline=tmp_path / "merged").report
    assert again["baseline"]["gold_change"] is None


@pytest.mark.hand_made_reports
def test_a_shard_without_question_digests_is_named(tmp_path: Path) -> None:
    report_json(split_gold(tmp_path, 2)[0], tmp_path / "old")
    report_path = tmp_path / "old" / "report.json"
    report = json.loads(report_path.read_text())
    del report["gold"]["question_digests"]  # as reportgen wrote it before the digests
    report_path.write_text(json.dumps(report))
    with pytest.raises(InputError, match=r"report.json.*no gold.question_digests.*again"):
        merge_reports([tmp_path / "old"], tmp_path / "merged")
    assert not (tmp_path / "merged").exists()


def test_an_old_baseline_on_the_same_gold_set_is_matched_by_its_digests(tmp_path: Path) -> None:
    report_json(example_dir() / "gold.jsonl", tmp_path / "old")
    report_path = tmp_path / "old" / "report.json"
    report = json.loads(report_path.read_text())
    report["gold"]["fingerprint"] = "b1a21a7d00000000"  # the fingerprint of the old formula
    report_path.write_text(json.dumps(report))
    now = report_json(example_dir() / "gold.jsonl", tmp_path / "now", tmp_path / "old").report
    assert now["baseline"]["gold_change"] is None


def _gold(questions: list[tuple[str, str, str]], grades: list[tuple[str, str, int]]) -> GoldSet:
    return GoldSet(
        questions=pl.DataFrame(
            [(q, text, kind, False, None) for q, text, kind in questions],
            schema=QUESTIONS_SCHEMA,
            orient="row",
        ),
        judgments=pl.DataFrame(grades, schema=JUDGMENTS_SCHEMA, orient="row"),
        source="test",
    )


ids = st.text(alphabet="abcq0123456789-_", min_size=1, max_size=6)


@settings(max_examples=50, deadline=None)
@given(
    qids=st.lists(ids, min_size=1, max_size=12, unique=True),
    parts=st.integers(1, 5),
    data=st.data(),
)
def test_any_split_of_a_gold_set_gives_its_fingerprint(
    qids: list[str], parts: int, data: st.DataObject
) -> None:
    """Independent of how questions are cut: the digests of each part, united."""
    questions = [(q, f"text of {q}", "k") for q in qids]
    grades = [(q, f"c{i}", 1 + i % 2) for i, q in enumerate(qids)]
    whole = _gold(questions, grades)
    owner = {q: data.draw(st.integers(0, parts - 1)) for q in qids}
    union: dict[str, str] = {}
    for part in range(parts):
        mine = [row for row in questions if owner[row[0]] == part]
        if mine:
            union |= _gold(mine, [g for g in grades if owner[g[0]] == part]).question_digests
    assert fingerprint_of(union) == whole.fingerprint


def test_the_fingerprint_still_follows_content_not_layout(tmp_path: Path) -> None:
    a = tmp_path / "a.jsonl"
    b = tmp_path / "b.jsonl"
    a.write_text('{"id": "q1", "gold": ["c1"]}\n{"id": "q2", "gold": {"c2": 2}}\n')
    b.write_text('{"id":"q2","gold":{"c2":2}}\n\n{"id":"q1","gold":["c1"]}\n')
    assert load_gold(a).fingerprint == load_gold(b).fingerprint
    b.write_text('{"id": "q2", "gold": {"c2": 1}}\n{"id": "q1", "gold": ["c1"]}\n')
    assert load_gold(a).fingerprint != load_gold(b).fingerprint


def test_forbidden_chunks_change_only_their_questions_digest(tmp_path: Path) -> None:
    plain = tmp_path / "plain.csv"
    plain.write_text("id,chunk_id,grade\nq1,c1,1\nq2,c2,1\n")
    forbidding = tmp_path / "forbidding.csv"
    forbidding.write_text("id,chunk_id,grade,forbidden\nq1,c1,1,\nq2,c2,1,\nq2,c9,,staff-only\n")
    before = load_gold(plain)
    after = load_gold(forbidding)
    assert after.question_digests["q1"] == before.question_digests["q1"]
    assert after.question_digests["q2"] != before.question_digests["q2"]
    assert after.fingerprint != before.fingerprint
