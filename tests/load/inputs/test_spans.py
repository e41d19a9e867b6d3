"""Runs from OpenTelemetry spans: OTLP JSON (OpenInference, GenAI) and Phoenix exports.

The fixtures in tests/fixtures/otel follow the conventions' documented shapes: OTLP JSON
attributes as ``[{key, value: {stringValue | intValue | doubleValue | ...}}]`` with
intValue a JSON string; OpenInference ``retrieval.documents.{i}.document.id``; GenAI
``gen_ai.retrieval.documents`` = ``[{id, score}]``; Phoenix's span table columns.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from reportgen.core.model import GoldSet
from reportgen.errors import InputError
from reportgen.load.formats.otel import read_spans, span_format
from reportgen.load.formats.vocabulary import detect_format
from reportgen.load.inputs.spans import keyed_value, load_span_run
from reportgen.load.inputs.traces import load_trace
from tests.load.conftest import Write

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
OTEL = FIXTURES / "otel"


@pytest.fixture(scope="module")
def gold() -> GoldSet:
    return load_trace(FIXTURES / "traces" / "multihop.jsonl").gold


def lists(frame: pl.DataFrame) -> dict[str, list[tuple[str, float | None]]]:
    ordered = frame.sort("qid", "rank").group_by("qid", maintain_order=True)
    return {
        qid: list(zip(c, s, strict=True)) for qid, c, s in ordered.agg("chunk_id", "score").rows()
    }


def test_openinference_otlp_hops_in_start_order_each_chunk_at_its_first_rank(
    gold: GoldSet,
) -> None:
    read = load_span_run(OTEL / "openinference.otlp.jsonl", gold, "ircot", "metadata.question_id")
    # h1: hop 1 (start 200) eiffel, paris; hop 2 (start 300, written first) x1, seine, paris
    assert lists(read.results) == {
        "h1": [("eiffel", 0.9), ("paris", 0.8), ("x1", 0.5), ("seine", 0.4)],
        "h2": [("jaws", 0.9), ("x2", 0.5)],  # no key on its spans: matched by exact text
    }
    assert (read.repeated_across_hops, read.repeated_chunks) == (1, 0)  # paris in hop 2
    assert read.traces == 4  # the trace with only an LLM span is not counted
    reasons = {u.trace_id: u.reason for u in read.unmatched_traces}
    assert reasons == {
        "0af7651916cd43dd8448eb211c80319c": "no span carries metadata.question_id, and no "
        "span's query text is a gold question's text",
        "0af7651916cd43dd8448eb211c80319d": (
            "metadata.question_id = 'zz9' is not a gold question id"
        ),
    }


def test_without_a_key_only_exact_question_text_matches(gold: GoldSet) -> None:
    read = load_span_run(OTEL / "openinference.otlp.jsonl", gold)
    assert sorted(lists(read.results)) == ["h1", "h2"]  # h1's root span has its text
    assert len(read.unmatched_traces) == 2


def test_genai_documents_structured_or_as_a_json_string(gold: GoldSet) -> None:
    read = load_span_run(OTEL / "genai.otlp.json", gold, question_key="app.question_id")
    assert lists(read.results) == {
        "h1": [("eiffel", 0.9), ("seine", 0.7)],  # arrayValue of kvlistValue, keyed
        "h3": [("dune", 0.8), ("uw", 0.6)],  # JSON string; gen_ai.retrieval.query.text
    }
    assert read.unmatched_traces == ()


@pytest.mark.parametrize("name", ["phoenix_spans.jsonl", "phoenix_spans.parquet"])
def test_phoenix_span_tables_as_json_lines_and_parquet(gold: GoldSet, name: str) -> None:
    read = load_span_run(OTEL / name, gold, question_key="metadata.question_id")
    assert lists(read.results) == {
        "h1": [("eiffel", 0.9), ("x1", 0.3)],
        "h2": [("alien", 0.8)],  # metadata null: matched by text; its LLM span is ignored
    }


def test_phoenix_json_span_encoding_with_nested_attributes(gold: GoldSet) -> None:
    read = load_span_run(OTEL / "phoenix_encoded.jsonl", gold)
    assert lists(read.results) == {"h3": [("uw", 0.7), ("dune", 0.6)]}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("openinference.otlp.jsonl", "otlp"),
        ("genai.otlp.json", "otlp"),
        ("phoenix_spans.jsonl", "phoenix"),
        ("phoenix_spans.parquet", "phoenix"),
        ("phoenix_encoded.jsonl", "phoenix"),
    ],
)
def test_span_exports_are_sniffed(name: str, expected: str) -> None:
    assert span_format(OTEL / name) == expected
    assert detect_format(OTEL / name, None, "run") == expected


def test_otlp_int_values_are_json_strings() -> None:
    spans = read_spans(OTEL / "openinference.otlp.jsonl", "otlp")
    counts = [
        s.attributes["llm.token_count.total"]
        for s in spans
        if "llm.token_count.total" in s.attributes
    ]
    assert counts == [42, 7]
    assert spans[0].start == 1700000000000000100


def test_the_key_is_found_inside_a_json_string_attribute() -> None:
    attributes = {"metadata": json.dumps({"question_id": "q7", "user": {"id": 3}})}
    assert keyed_value(attributes, "metadata.question_id") == "q7"
    assert keyed_value(attributes, "metadata.user.id") == "3"
    assert keyed_value({"metadata.question_id": "q8"}, "metadata.question_id") == "q8"
    assert keyed_value({"metadata": "not json"}, "metadata.question_id") is None


def _otlp(*spans: dict[str, object]) -> str:
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}) + "\n"


def _retriever(trace: str, qid: str, *docs: str) -> dict[str, object]:
    attributes = [
        {"key": "openinference.span.kind", "value": {"stringValue": "RETRIEVER"}},
        {"key": "qid", "value": {"stringValue": qid}},
    ]
    attributes += [
        {"key": f"retrieval.documents.{i}.document.id", "value": {"stringValue": doc}}
        for i, doc in enumerate(docs)
    ]
    return {"traceId": trace, "startTimeUnixNano": "1", "attributes": attributes}


def test_two_traces_for_one_question_are_both_unmatched(write: Write, gold: GoldSet) -> None:
    path = write(
        "t.json",
        _otlp(
            _retriever("aa", "h1", "eiffel"),
            _retriever("bb", "h1", "paris"),
            _retriever("cc", "h2", "jaws"),
        ),
    )
    read = load_span_run(path, gold, question_key="qid")
    assert sorted(lists(read.results)) == ["h2"]
    assert [(u.trace_id, u.reason) for u in read.unmatched_traces] == [
        ("aa", "2 traces match question h1"),
        ("bb", "2 traces match question h1"),
    ]
    assert read.has_scores is False


def _attribute(value: dict[str, object]) -> str:
    return _otlp({"traceId": "aa", "attributes": [value]})


MALFORMED = [
    ('{"resourceSpans": 3}\n', "resourceSpans is a JSON number, not an array"),
    (_otlp({"attributes": []}), "a span without a traceId"),
    (_attribute({"key": "x", "value": {"intValue": "ten"}}), "intValue 'ten'"),
    (_attribute({"key": "x", "value": {"strange": 1}}), "unknown kind 'strange'"),
    (_attribute({"value": {"stringValue": "x"}}), "an attribute without a key"),
    (_attribute({"key": "x", "value": {"bytesValue": "%%"}}), "bytesValue is not base64"),
    (_otlp({"traceId": "aa"}), "no retriever span in the file"),
]


@pytest.mark.parametrize(("text", "problem"), MALFORMED)
def test_malformed_otlp_is_an_input_error(
    write: Write, gold: GoldSet, text: str, problem: str
) -> None:
    path = write("bad.json", '{"resourceSpans": []}\n' + text)
    with pytest.raises(InputError) as caught:
        load_span_run(path, gold, fmt="otlp")
    assert problem in caught.value.problem
    assert "Fix:" in str(caught.value)


def test_a_document_without_an_id_is_refused(write: Write, gold: GoldSet) -> None:
    span = _retriever("aa", "h1")
    span["attributes"] = [  # type: ignore[index]
        {"key": "openinference.span.kind", "value": {"stringValue": "RETRIEVER"}},
        {"key": "retrieval.documents.0.document.score", "value": {"doubleValue": 0.5}},
        {"key": "input.value", "value": {"stringValue": gold.questions["question"][0]}},
    ]
    path = write("t.json", _otlp(span))
    with pytest.raises(InputError, match=r"have no document\.id; they carry score"):
        load_span_run(path, gold)


def test_a_file_that_is_no_span_export_is_refused(write: Write, gold: GoldSet) -> None:
    path = write("t.json", json.dumps({"q1": {"a": 1}}))
    with pytest.raises(InputError, match="not an OTLP JSON or Phoenix span export"):
        load_span_run(path, gold)


def test_a_run_whose_traces_all_go_unmatched_is_refused_with_the_first_reason(
    write: Write, gold: GoldSet
) -> None:
    path = write("t.json", _otlp(_retriever("aa", "nope", "eiffel")))
    with pytest.raises(InputError) as caught:
        load_span_run(path, gold, question_key="qid")
    assert "none of its 1 traces matches a gold question" in caught.value.problem
    assert "qid = 'nope' is not a gold question id" in caught.value.problem
    assert "--trace-question-key" in caught.value.fix
