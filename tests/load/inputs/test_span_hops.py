"""Hops of a span export: ranked once each, in the order they ran, ties named; documents
whose id sits in their metadata (LangChain's OpenInference spans); span values that are
no time or no text refused with a fix, never a crash."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import polars as pl
import pytest

from reportgen.core.model import GoldSet, Run
from reportgen.errors import InputError
from reportgen.load.formats.otel import span_format
from reportgen.load.formats.vocabulary import detect_format
from reportgen.load.inputs.spans import load_span_run
from reportgen.load.inputs.traces import load_trace
from tests.load.conftest import Write

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
OTEL = FIXTURES / "otel"
GOLD = FIXTURES / "traces" / "multihop.jsonl"


@pytest.fixture(scope="module")
def gold() -> GoldSet:
    return load_trace(GOLD).gold


def ranks(run: Run) -> dict[str, list[tuple[str, int]]]:
    ordered = run.results.sort("qid", "rank").group_by("qid", maintain_order=True)
    return {
        qid: list(zip(c, r, strict=True)) for qid, c, r in ordered.agg("chunk_id", "rank").rows()
    }


def _span(trace: str, span_id: str, start: str, end: str, *docs: str, **more: object) -> dict:
    attributes = [
        {"key": "openinference.span.kind", "value": {"stringValue": "RETRIEVER"}},
        {"key": "qid", "value": {"stringValue": "h1"}},
    ]
    attributes += [
        {"key": f"retrieval.documents.{i}.document.id", "value": {"stringValue": doc}}
        for i, doc in enumerate(docs)
    ]
    found = {"traceId": trace, "spanId": span_id, "startTimeUnixNano": start}
    return found | {"endTimeUnixNano": end, "attributes": attributes} | more


def _otlp(*spans: dict) -> str:
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}) + "\n"


def test_a_chunk_a_later_hop_finds_again_takes_no_rank(write: Write, gold: GoldSet) -> None:
    path = write(
        "t.json",
        _otlp(
            _span("aa", "s2", "200", "250", "x10", "c41"),
            _span("aa", "s1", "100", "150", "x9", "x10"),
        ),
    )
    run = load_span_run(path, gold, question_key="qid")
    assert ranks(run) == {"h1": [("x9", 1), ("x10", 2), ("c41", 3)]}
    assert (run.repeated_across_hops, run.repeated_chunks) == (1, 0)
    assert run.longest_list == run.results["rank"].max() == 3  # one list, one length
    assert run.tied_hops == ()


TIES = {
    "aa": ([("late", "100", "300", "b", None), ("early", "100", "200", "a", None)], ["a", "b"]),
    "bb": (
        [("child", "100", "200", "c", "parent"), ("parent", "100", "200", "d", None)],
        ["d", "c"],
    ),
    "cc": ([("one", "100", "200", "e", None), ("two", "100", "200", "f", None)], ["e", "f"]),
}


@pytest.mark.parametrize("trace", sorted(TIES))
def test_tied_starts_go_by_end_time_then_parent_then_file_order(
    write: Write, gold: GoldSet, trace: str
) -> None:
    written, expected = TIES[trace]
    spans = [
        _span(trace, sid, start, end, doc, **({"parentSpanId": parent} if parent else {}))
        for sid, start, end, doc, parent in written
    ]
    run = load_span_run(write("t.json", _otlp(*spans)), gold, question_key="qid")
    assert [chunk for chunk, _ in ranks(run)["h1"]] == expected
    assert run.tied_hops == (trace,)


def test_a_phoenix_span_array_in_milliseconds_newest_first(gold: GoldSet) -> None:
    path = OTEL / "phoenix_array.json"  # pandas' to_json: one array, times in milliseconds
    assert span_format(path) == detect_format(path, None, "run") == "phoenix"
    run = load_span_run(path, gold, question_key="metadata.question_id")
    # both hops start in the same millisecond; the first ends first
    assert ranks(run) == {"h1": [("x9", 1), ("x10", 2), ("seine", 3)]}
    assert run.tied_hops == ("p-h1",)
    assert run.repeated_across_hops == 1


def test_langchain_documents_without_ids_are_refused_naming_what_they_carry(
    gold: GoldSet,
) -> None:
    with pytest.raises(InputError) as caught:
        load_span_run(OTEL / "langchain.otlp.json", gold, question_key="metadata.question_id")
    message = str(caught.value)
    assert "have no document.id; they carry content, metadata" in message
    assert "metadata keys: chunk_id, source, start_index" in message
    assert "--span-doc-key metadata.chunk_id" in caught.value.fix
    assert caught.value.line is not None


def test_span_doc_key_takes_the_id_from_the_metadata(gold: GoldSet) -> None:
    run = load_span_run(
        OTEL / "langchain.otlp.json",
        gold,
        question_key="metadata.question_id",
        doc_key="metadata.chunk_id",
    )
    assert ranks(run) == {
        "h1": [("eiffel", 1), ("paris", 2), ("seine", 3)],  # paris again in hop 2: no rank
        "h3": [("dune", 1), ("uw", 2)],  # no question key: matched by its exact text
    }
    assert run.repeated_across_hops == 1


def test_a_span_doc_key_that_a_document_lacks_is_named(gold: GoldSet) -> None:
    with pytest.raises(InputError) as caught:
        load_span_run(OTEL / "langchain.otlp.json", gold, doc_key="metadata.doc_id")
    assert "has no metadata.doc_id; it carries content, metadata" in caught.value.problem


def test_structured_metadata_is_read_as_well(write: Write, gold: GoldSet) -> None:
    record = {
        "context": {"trace_id": "t1", "span_id": "s1"},
        "name": "retrieve",
        "span_kind": "RETRIEVER",
        "start_time": "2023-11-14T22:13:20+00:00",
        "attributes": {
            "input.value": gold.questions["question"][0],
            "retrieval.documents": [
                {"document.content": "...", "document.metadata": {"chunk_id": "eiffel"}}
            ],
        },
    }
    path = write("p.jsonl", json.dumps(record) + "\n")
    run = load_span_run(path, gold, doc_key="metadata.chunk_id")
    assert ranks(run) == {"h1": [("eiffel", 1)]}


BIG = "9" * 5000
KIND = {"key": "openinference.span.kind", "value": {"stringValue": "RETRIEVER"}}
BAD_SPANS = [
    (
        '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "aa", "startTimeUnixNano": "'
        + BIG
        + '", "attributes": []}]}]}]}',
        "startTimeUnixNano '999",
    ),
    (
        '{"resourceSpans": [{"scopeSpans": [{"spans": [{"traceId": "aa", "startTimeUnixNano": '
        + BIG
        + ', "attributes": []}]}]}]}',
        "more than 4,300 digits",
    ),
    (
        _otlp(
            {
                "traceId": "aa",
                "attributes": [
                    KIND,
                    {
                        "key": "retrieval.documents.0.document.id",
                        "value": {"stringValue": "\ud800"},
                    },
                ],
            }
        ),
        "lone surrogate",
    ),
    (
        _otlp({"traceId": "aa", "startTimeUnixNano": "soon", "attributes": [KIND]}),
        "startTimeUnixNano 'soon' is not a time",
    ),
]


@pytest.mark.parametrize(("text", "problem"), BAD_SPANS, ids=["long", "huge", "surrogate", "word"])
def test_span_values_that_are_no_time_or_no_text_are_refused(
    write: Write, gold: GoldSet, text: str, problem: str
) -> None:
    path = write("bad.json", text)
    with pytest.raises(InputError) as caught:
        load_span_run(path, gold, fmt="otlp")
    assert problem in caught.value.problem
    assert caught.value.line == 1


@pytest.mark.parametrize("start", [float("nan"), float("inf")])
def test_a_phoenix_table_whose_start_time_is_nan_or_infinite_exits_2(
    tmp_path: Path, start: float
) -> None:
    table = pl.DataFrame(
        {
            "name": ["retrieve"],
            "span_kind": ["RETRIEVER"],
            "context.span_id": ["s1"],
            "context.trace_id": ["t1"],
            "start_time": [start],
            "attributes.input.value": ["x"],
            "attributes.retrieval.documents": [[{"document.id": "a"}]],
        }
    )
    table.write_parquet(tmp_path / "spans.parquet")
    done = subprocess.run(
        [
            "reportgen",
            "report",
            str(GOLD),
            str(tmp_path / "spans.parquet"),
            "--out",
            str(tmp_path / "r"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "spans.parquet:1: span s1 of trace t1: start_time" in done.stderr
    assert "Fix:" in done.stderr and "Traceback" not in done.stderr


def test_a_phoenix_line_with_a_huge_integer_is_an_input_error(write: Write, gold: GoldSet) -> None:
    record = {"context.trace_id": "t1", "name": "r", "span_kind": "RETRIEVER"}
    text = json.dumps(record)[:-1] + f', "start_time": {BIG}}}\n'
    path = write("p.jsonl", text)
    assert span_format(path) is None  # not read as anything: the format must be forced
    with pytest.raises(InputError, match="more than 4,300 digits"):
        load_span_run(path, gold, fmt="phoenix")


def _report(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = ["reportgen", "report", str(GOLD), *args, "--out", str(tmp_path / "r")]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def test_the_report_counts_repeats_and_ties_and_warns_everywhere(tmp_path: Path) -> None:
    spans = f"phoenix={OTEL / 'phoenix_array.json'}"
    done = _report(tmp_path, spans, "--trace-question-key", "metadata.question_id")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    phoenix = report["runs"]["phoenix"]
    assert phoenix["counts"]["repeated_across_hops"] == 1
    assert phoenix["counts"]["repeated_chunks"] == 0
    assert phoenix["traces"]["tied_hops"] == 1
    tied = [w for w in report["warnings"] if w["code"] == "hop_order_ambiguous"]
    assert [(w["count"], w["examples"]) for w in tied] == [(1, ["p-h1"])]
    assert "Phoenix parquet" in done.stdout + done.stderr  # the terminal
    for page in ("summary.md", "report.md", "index.html"):
        assert "start at the same time" in (tmp_path / "r" / page).read_text(), page


def test_the_span_doc_key_reads_langchain_spans_from_the_command_line(tmp_path: Path) -> None:
    chain = f"chain={OTEL / 'langchain.otlp.json'}"
    refused = _report(tmp_path, chain)
    assert refused.returncode == 2
    assert "--span-doc-key metadata.chunk_id" in refused.stderr
    assert "shares no question" not in refused.stderr
    done = _report(tmp_path, chain, "--span-doc-key", "metadata.chunk_id", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert report["runs"]["chain"]["counts"]["repeated_across_hops"] == 1
    assert report["runs"]["chain"]["traces"]["tied_hops"] == 0


def test_a_span_doc_key_without_a_span_export_is_refused(tmp_path: Path) -> None:
    done = _report(tmp_path, "--span-doc-key", "metadata.chunk_id")
    assert done.returncode == 2
    assert "--span-doc-key metadata.chunk_id: names a span attribute" in done.stderr
