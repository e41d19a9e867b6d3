"""Hypothesis against the trace and span readers: any JSON in any field ends in a run or
an InputError naming the fix, never a crash."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reportgen.core.model import GoldSet
from reportgen.errors import InputError
from reportgen.load.inputs.spans import load_span_run
from reportgen.load.inputs.traces import load_trace

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
TRACE_KEYS = ["id", "gold", "retrieved", "context", "correct", "question", "unanswerable"]
ANY_VALUE_KINDS = ["stringValue", "intValue", "doubleValue", "boolValue", "arrayValue"]
ATTRIBUTE_KEYS = [
    "openinference.span.kind",
    "input.value",
    "retrieval.documents.0.document.id",
    "retrieval.documents.0.document.score",
    "gen_ai.retrieval.documents",
    "metadata",
]


def _file(name: str, text: str) -> tuple[tempfile.TemporaryDirectory[str], Path]:
    folder = tempfile.TemporaryDirectory()
    path = Path(folder.name) / name
    path.write_text(text)
    return folder, path


@FAST
@given(changes=st.dictionaries(st.sampled_from(TRACE_KEYS), json_values, max_size=4))
def test_a_trace_line_with_any_values_loads_or_says_why(changes: dict[str, object]) -> None:
    record = {"id": "q1", "gold": ["a"], "retrieved": ["a"], **changes}
    folder, path = _file("t.jsonl", json.dumps(record) + "\n")
    with folder:
        try:
            trace = load_trace(path)
        except InputError as error:
            assert "Fix:" in str(error)
        else:
            assert trace.run.results["rank"].min() in (None, 1)


@FAST
@given(
    attributes=st.lists(
        st.tuples(st.sampled_from(ATTRIBUTE_KEYS), st.sampled_from(ANY_VALUE_KINDS), json_values),
        max_size=5,
    ),
    start=json_values,
)
def test_an_otlp_span_with_any_attribute_values_loads_or_says_why(
    attributes: list[tuple[str, str, object]], start: object
) -> None:
    gold: GoldSet = load_trace(FIXTURES / "traces" / "multihop.jsonl").gold
    pairs = [{"key": key, "value": {kind: value}} for key, kind, value in attributes]
    pairs.append({"key": "openinference.span.kind", "value": {"stringValue": "RETRIEVER"}})
    span = {"traceId": "ab", "startTimeUnixNano": start, "attributes": pairs}
    text = json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": [span]}]}]})
    folder, path = _file("t.json", text)
    with folder:
        try:
            read = load_span_run(path, gold, fmt="otlp")
        except InputError as error:
            assert "Fix:" in str(error)
        else:
            assert read.traces == 1


PHOENIX_KEYS = ["start_time", "end_time", "parent_id", "context.span_id"]
DOCUMENT_KEYS = ["document.id", "document.score", "document.content", "document.metadata"]


@FAST
@given(
    span=st.dictionaries(st.sampled_from(PHOENIX_KEYS), json_values, max_size=4),
    document=st.dictionaries(st.sampled_from(DOCUMENT_KEYS), json_values, max_size=4),
    doc_key=st.sampled_from([None, "metadata.chunk_id", "id"]),
    as_array=st.booleans(),
)
def test_a_phoenix_span_with_any_times_and_documents_loads_or_says_why(
    span: dict[str, object], document: dict[str, object], doc_key: str | None, as_array: bool
) -> None:
    gold: GoldSet = load_trace(FIXTURES / "traces" / "multihop.jsonl").gold
    record = {
        "name": "retrieve",
        "span_kind": "RETRIEVER",
        "context.trace_id": "t1",
        "attributes.input.value": gold.questions["question"][0],
        "attributes.retrieval.documents": [document],
        **span,
    }
    text = json.dumps([record, record] if as_array else record) + "\n"
    folder, path = _file("t.json", text)
    with folder:
        try:
            read = load_span_run(path, gold, fmt="phoenix", doc_key=doc_key)
        except InputError as error:
            assert "Fix:" in str(error)
        else:
            assert read.traces == 1
            assert read.results["rank"].to_list() in ([], [1])
