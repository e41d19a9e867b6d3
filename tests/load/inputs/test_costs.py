"""Latency and cost per question from every input: spans (nanosecond times), trace and
JSONL fields, CSV and Parquet columns; missing values stay null, bad ones are refused."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from reportgen.core.model import GoldSet
from reportgen.errors import InputError
from reportgen.load.inputs.gold import load_gold
from reportgen.load.inputs.runs import load_run
from reportgen.load.inputs.spans import load_span_run
from reportgen.load.inputs.traces import load_trace
from tests.load.conftest import Write

T0 = 1_764_000_000_000_000_000
"""A start time in nanoseconds since the epoch."""


def _span(trace: str, qid: str, start: int, end: int | None, *docs: str) -> dict[str, object]:
    attributes = [
        {"key": "openinference.span.kind", "value": {"stringValue": "RETRIEVER"}},
        {"key": "qid", "value": {"stringValue": qid}},
    ] + [
        {"key": f"retrieval.documents.{i}.document.id", "value": {"stringValue": doc}}
        for i, doc in enumerate(docs)
    ]
    span: dict[str, object] = {
        "traceId": trace,
        "spanId": f"{trace}-{start}",
        "startTimeUnixNano": str(start),
        "attributes": attributes,
    }
    if end is not None:
        span["endTimeUnixNano"] = str(end)
    return span


def _otlp(*spans: dict[str, object]) -> str:
    return json.dumps({"resourceSpans": [{"scopeSpans": [{"spans": list(spans)}]}]}) + "\n"


@pytest.fixture
def gold(write: Write) -> GoldSet:
    lines = [json.dumps({"id": q, "question": q, "gold": [f"c{q}"]}) for q in ("a", "b", "c")]
    return load_gold(write("gold.jsonl", "\n".join(lines) + "\n"))


def latencies(costs: pl.DataFrame | None) -> dict[str, float | None]:
    assert costs is not None
    return dict(costs.select("qid", "latency_ms").iter_rows())


def test_span_latency_is_the_sum_of_the_retriever_spans_durations(
    write: Write, gold: GoldSet
) -> None:
    path = write(
        "spans.json",
        _otlp(
            # a: two hops one after the other, 1.25 ms + 2.5 ms
            _span("t1", "a", T0, T0 + 1_250_000, "ca"),
            _span("t1", "a", T0 + 2_000_000, T0 + 4_500_000, "x"),
            # b: two parallel hops that overlap: 3 ms + 3 ms summed (the work, not the wall)
            _span("t2", "b", T0, T0 + 3_000_000, "cb"),
            _span("t2", "b", T0 + 1_000_000, T0 + 4_000_000, "y"),
            # c: a hop without an end time: no latency, never 0
            _span("t3", "c", T0, None, "cc"),
        ),
    )
    run = load_span_run(path, gold, "spans", "qid")
    assert latencies(run.costs) == {"a": 3.75, "b": 6.0}
    assert run.overlapping_hops == ("t2",)


def test_a_span_that_ends_before_it_starts_is_refused(write: Write, gold: GoldSet) -> None:
    path = write("spans.json", _otlp(_span("t1", "a", T0 + 5, T0, "ca")))
    with pytest.raises(InputError) as caught:
        load_span_run(path, gold, "spans", "qid")
    assert "ends before it starts" in str(caught.value)
    assert caught.value.line == 1


def test_a_span_export_without_times_has_no_latency(write: Write, gold: GoldSet) -> None:
    run = load_span_run(write("s.json", _otlp(_span("t1", "a", T0, None, "ca"))), gold, "s", "qid")
    assert run.costs is None


def test_trace_and_jsonl_fields(write: Write) -> None:
    lines = [
        {"id": "a", "gold": ["ca"], "retrieved": ["ca"], "latency_ms": 12.5, "cost": 0.002},
        {"id": "b", "gold": ["cb"], "retrieved": ["x"], "latency_ms": 30},
        {"id": "c", "gold": ["cc"], "retrieved": ["cc"]},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    trace = load_trace(write("trace.jsonl", text))
    assert trace.run.costs is not None
    assert trace.run.costs.rows() == [("a", 12.5, 0.002), ("b", 30.0, None)]
    assert trace.gold.misspelt_keys == ()  # latency_ms and cost are no misspelt gold keys
    runs = "".join(
        json.dumps({"id": line["id"], "chunks": line["retrieved"]} | {
            k: v for k, v in line.items() if k in ("latency_ms", "cost")
        }) + "\n"
        for line in lines
    )  # fmt: skip
    assert load_run(write("run.jsonl", runs)).costs.rows() == trace.run.costs.rows()  # type: ignore[union-attr]


@pytest.mark.parametrize("value", ['"fast"', "-1", "true", "[12]"])
def test_a_latency_that_is_no_number_of_0_or_more_is_refused(write: Write, value: str) -> None:
    path = write("run.jsonl", '{"id": "a", "chunks": ["c"]}\n{"id": "b", "chunks": ["c"], '
                 f'"latency_ms": {value}}}\n')  # fmt: skip
    with pytest.raises(InputError) as caught:
        load_run(path)
    assert caught.value.line == 2
    assert "latency_ms" in str(caught.value)


def test_csv_columns_are_one_value_per_question(write: Write) -> None:
    text = (
        "id,chunk_id,rank,latency_ms,cost\n"
        "a,ca,1,12.5,0.01\n"
        "a,x,2,12.5,\n"  # an empty cell takes the question's value from its other rows
        "b,cb,1,,\n"
        "c,cc,1,40,0.02\n"
    )
    run = load_run(write("run.csv", text))
    assert run.costs is not None
    assert run.costs.sort("qid").rows() == [("a", 12.5, 0.01), ("c", 40.0, 0.02)]


def test_two_latencies_for_one_question_are_refused_naming_both_lines(write: Write) -> None:
    text = "id,chunk_id,rank,latency_ms\na,ca,1,12\nb,cb,1,5\na,x,2,13\n"
    with pytest.raises(InputError) as caught:
        load_run(write("run.csv", text))
    message = str(caught.value)
    assert "question a has two latency_ms values (lines 2 and 4)" in message
    assert caught.value.line == 2


def test_a_csv_latency_that_is_not_a_number_is_refused(write: Write) -> None:
    with pytest.raises(InputError) as caught:
        load_run(write("run.csv", "id,chunk_id,latency_ms\na,ca,12\nb,cb,slow\n"))
    assert caught.value.line == 3
    assert "'slow'" in str(caught.value)


def test_parquet_columns(tmp_path: Path) -> None:
    path = tmp_path / "run.parquet"
    pl.DataFrame(
        {
            "qid": ["a", "a", "b"],
            "chunk_id": ["ca", "x", "cb"],
            "rank": [1, 2, 1],
            "latency_ms": [7, 7, None],
        }
    ).write_parquet(path)
    assert latencies(load_run(path).costs) == {"a": 7.0}
    pl.DataFrame({"qid": ["a"], "chunk_id": ["ca"], "latency_ms": ["7"]}).write_parquet(path)
    with pytest.raises(InputError, match="latency_ms"):
        load_run(path)


def test_a_run_without_them_has_none(write: Write) -> None:
    assert load_run(write("run.csv", "id,chunk_id\na,ca\n")).costs is None
    assert load_run(write("run.jsonl", '{"id": "a", "chunks": ["ca"]}\n')).costs is None


def test_spans_and_a_jsonl_run_with_the_same_times_give_the_same_summary(
    write: Write, tmp_path: Path
) -> None:
    from click.testing import CliRunner

    from reportgen.cli import cli

    lines = [json.dumps({"id": q, "question": q, "gold": [f"c{q}"]}) for q in ("a", "b", "c")]
    gold = write("gold.jsonl", "\n".join(lines) + "\n")
    spans = write(
        "spans.json",
        _otlp(
            _span("t1", "a", T0, T0 + 1_250_000, "ca"),
            _span("t1", "a", T0 + 2_000_000, T0 + 4_500_000, "x"),
            _span("t2", "b", T0, T0 + 6_000_000, "cb"),
            _span("t3", "c", T0, None, "cc"),
        ),
    )
    run = write(
        "run.jsonl",
        '{"id": "a", "chunks": ["ca", "x"], "latency_ms": 3.75}\n'
        '{"id": "b", "chunks": ["cb"], "latency_ms": 6}\n{"id": "c", "chunks": ["cc"]}\n',
    )
    found = {}
    for name, path, key in (("spans", spans, ["--trace-question-key", "qid"]), ("jsonl", run, [])):
        done = CliRunner().invoke(
            cli,
            ["report", str(gold), f"r={path}", *key,
             "--out", str(tmp_path / name), "--format", "json", "-q"],
        )  # fmt: skip
        assert done.exit_code == 0, done.output
        found[name] = json.loads((tmp_path / name / "report.json").read_text())["runs"]["r"]
    assert found["spans"]["means"] == found["jsonl"]["means"]
    from_spans = found["spans"]["latency"]
    assert from_spans["hops"] == "sum of retriever span durations (end - start)"
    assert (from_spans["count"], from_spans["missing"], from_spans["p50"]) == (2, 1, 4.875)
    same = {
        key: value for key, value in from_spans.items() if key not in ("hops", "overlapping_hops")
    }
    assert same == {k: v for k, v in found["jsonl"]["latency"].items() if k in same}
    assert found["jsonl"]["latency"]["hops"] is None
