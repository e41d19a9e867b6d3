"""Hypothesis against the loaders of verdicts, baselines and shards.

These read files that other tools (promptfoo, DeepEval, ragas) or earlier reportgen
runs wrote, so they meet truncated or foreign content too: any bytes must end in a
ReportgenError naming the file, never another exception.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reportgen.errors import ReportgenError
from reportgen.load import load_verdicts
from reportgen.load.previous.baseline import load_baseline
from reportgen.load.previous.shards import load_shard

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VERDICT_NAMES = ["v.jsonl", "v.csv", "v.json", "verdicts"]
TOKENS = [
    *('{"id": "q1",', '"correct": true}', '"correct": "maybe"}', "id,correct", "q1,yes", "q2,"),
    *('{"results": {"results": [', '{"testCases": [', '"success": false', "]}}", "]}", ","),
    *("faithfulness", "0.7", "NaN", "\ufeff", "\r", "\x00", "null", "{", "}"),
]
soup = st.lists(st.lists(st.sampled_from(TOKENS), max_size=6).map(" ".join), max_size=6).map(
    lambda rows: "\n".join(rows).encode()
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=10,
)


@FAST
@given(
    content=st.one_of(st.binary(max_size=200), soup),
    name=st.sampled_from(VERDICT_NAMES),
    metric=st.sampled_from([None, "faithfulness"]),
)
def test_verdicts_fail_only_with_reportgen_errors(
    content: bytes, name: str, metric: str | None
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(content)
        threshold = None if metric is None else 0.7
        try:
            load_verdicts(path, metric=metric, threshold=threshold)
        except ReportgenError as error:
            assert "Fix:" in str(error)


@FAST
@given(report=json_values, per_question=st.one_of(st.binary(max_size=150), soup))
def test_baseline_and_shard_fail_only_with_reportgen_errors(
    report: object, per_question: bytes
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "report.json").write_text(json.dumps(report))
        (root / "per_question.csv").write_bytes(per_question)
        for load in (load_baseline, load_shard):
            try:
                load(root)
            except ReportgenError as error:
                assert "Fix:" in str(error)


def _real_report() -> dict[str, object]:
    """A real report.json, so that fuzzing reaches the per-question reader behind it."""
    from reportgen.api import ReportInputs, ReportOutputs, ReportRequest, make_report

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "gold.jsonl").write_text('{"id": "q1", "gold": ["c1"]}\n')
        (root / "run.jsonl").write_text('{"id": "q1", "chunks": ["c1", "c2"]}\n')
        inputs = ReportInputs(root / "gold.jsonl", [str(root / "run.jsonl")])
        result = make_report(ReportRequest(inputs, ReportOutputs(root / "out")))
        return result.report


REAL_REPORT = _real_report()
CSV_TOKENS = ["run,qid,kind,status,measure,value", "run,q1,unlabelled,scored,hit@5,1.0"]
csv_soup = st.lists(st.one_of(st.sampled_from(CSV_TOKENS), st.text(max_size=30)), max_size=5).map(
    lambda rows: "\n".join(rows).encode()
)


@FAST
@given(per_question=st.one_of(st.binary(max_size=150), csv_soup))
def test_a_real_report_beside_broken_per_question_data(per_question: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        (root / "report.json").write_text(json.dumps(REAL_REPORT))
        (root / "per_question.csv").write_bytes(per_question)
        for load in (load_baseline, load_shard):
            try:
                load(root)
            except ReportgenError as error:
                assert "Fix:" in str(error)
