"""One writer per way in: the data set spelt as each file format, or as in-memory values.

Each writer spells the data set and nothing more: no writer may reorder, drop or add
what the format can carry. Where a format cannot carry something (qrels have no
unanswerable questions, a trace file no ``abstained``) the docstring says so.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from tests.joins.dataset import DataSet, Question

T0 = 1_700_000_000_000_000_000
"""Start of the first span, in nanoseconds (a whole second: Phoenix keeps microseconds)."""


def lines(path: Path, records: list[Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def _gold_record(question: Question, evidence: bool) -> dict[str, Any]:
    record: dict[str, Any] = {"id": question.qid, "question": question.text, "kind": question.kind}
    if question.unanswerable:
        record["unanswerable"] = True
    else:
        record["gold"] = question.gold
    if evidence and question.evidence:
        record["evidence"] = [{"doc": d, "start": s, "end": e} for d, s, e in question.evidence]
    return record


def gold_jsonl(data: DataSet, path: Path, evidence: bool = False) -> Path:
    meta = {"_meta": {"version": f"joins-{data.seed}", "index_version": "kb-1"}}
    return lines(path, [meta, *(_gold_record(q, evidence) for q in data.questions)])


def gold_qrels(data: DataSet, path: Path) -> Path:
    """TREC qrels: no kinds, no question text, and no unanswerable question (it has no row)."""
    rows = [f"{q.qid} 0 {chunk} {grade}" for q in data.questions for chunk, grade in q.gold.items()]
    path.write_text("\n".join(rows) + "\n")
    return path


def gold_frame(data: DataSet) -> pl.DataFrame:
    """Rows as a gold CSV's: one per question and chunk, an unanswerable question one row
    with an empty chunk id."""
    rows = [
        (q.qid, chunk, grade, q.kind, q.text, False)
        for q in data.questions
        for chunk, grade in q.gold.items()
    ]
    rows += [(q.qid, "", None, q.kind, q.text, True) for q in data.questions if q.unanswerable]
    schema = {
        "id": pl.String,
        "chunk_id": pl.String,
        "grade": pl.Int64,
        "kind": pl.String,
        "question": pl.String,
        "unanswerable": pl.Boolean,
    }
    return pl.DataFrame(rows, schema=schema, orient="row")


def gold_csv(data: DataSet, path: Path) -> Path:
    gold_frame(data).write_csv(path)
    return path


def gold_dict(data: DataSet) -> dict[str, dict[str, int]]:
    """``{qid: {chunk: grade}}``: no kinds; an unanswerable question maps to ``{}``."""
    return {q.qid: dict(q.gold) for q in data.questions}


def run_frame(data: DataSet, run: str) -> pl.DataFrame:
    """Long rows in ranking order, with rank and score (rank wins)."""
    rows = [
        (qid, chunk, rank, score)
        for qid, ranked in data.runs[run].items()
        for rank, (chunk, score) in enumerate(ranked, start=1)
    ]
    schema = {"id": pl.String, "chunk_id": pl.String, "rank": pl.Int64, "score": pl.Float64}
    return pl.DataFrame(rows, schema=schema, orient="row")


def run_trec(data: DataSet, run: str, path: Path) -> Path:
    """The rank column is written shuffled-proof (1..n in order); trec_eval ignores it."""
    rows = [
        f"{qid} Q0 {chunk} {rank} {score} {run}"
        for qid, ranked in data.runs[run].items()
        for rank, (chunk, score) in enumerate(ranked, start=1)
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(rows) + "\n")
    return path


def run_jsonl(data: DataSet, run: str, path: Path) -> Path:
    return lines(
        path,
        [
            {"id": qid, "results": [{"chunk_id": c, "score": s} for c, s in ranked]}
            for qid, ranked in data.runs[run].items()
        ],
    )


def run_csv(data: DataSet, run: str, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    run_frame(data, run).write_csv(path)
    return path


def run_parquet(data: DataSet, run: str, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    run_frame(data, run).write_parquet(path)
    return path


def run_ranx(data: DataSet, run: str, path: Path) -> Path:
    """ranx's JSON, question -> chunk -> score: a repeat keeps its first score."""
    scored = {qid: dict(reversed(ranked)) for qid, ranked in data.runs[run].items()}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(scored))
    return path


def run_dict(data: DataSet, run: str) -> dict[str, list[str]]:
    """``{qid: [chunks]}``, list order ranking: no scores (so no cutoff)."""
    return {qid: [chunk for chunk, _ in ranked] for qid, ranked in data.runs[run].items()}


def verdict_records(data: DataSet, run: str | None = None) -> list[dict[str, Any]]:
    """``run``: the run field, naming the run judged (None: no such field)."""
    return [
        {
            "id": v.qid,
            **({"run": run} if run else {}),
            "correct": v.correct,
            "abstained": v.abstained,
        }
        for v in data.verdicts
    ]


def verdicts_jsonl(data: DataSet, path: Path, run: str | None = None) -> Path:
    return lines(path, verdict_records(data, run))


def verdicts_csv(data: DataSet, path: Path) -> Path:
    """``id,correct,abstained``; an unknown verdict is an empty cell."""
    rows = [(v.qid, {True: "yes", False: "no", None: ""}[v.correct], v.abstained)
            for v in data.verdicts]  # fmt: skip
    frame = pl.DataFrame(rows, schema=["id", "correct", "abstained"], orient="row")
    frame.write_csv(path)
    return path


def trace_file(
    data: DataSet,
    run: str,
    path: Path,
    verdicts: bool,
    evidence: bool = False,
    context_k: int | None = None,
) -> Path:
    """The gold set (``evidence`` too), one run and (``verdicts``) its verdicts, one line
    per gold question; ``context_k``: each line's ``context``, its top k chunks.

    A trace line has no ``abstained``, and cannot name a question the gold set lacks."""
    judged = {v.qid: v.correct for v in data.verdicts}
    records: list[dict[str, Any]] = [
        {"_meta": {"version": f"joins-{data.seed}", "index_version": "kb-1", "run": run}}
    ]
    for question in data.questions:
        record = _gold_record(question, evidence)
        ranked = data.ranked(run, question.qid)
        record["retrieved"] = [{"id": chunk, "score": score} for chunk, score in ranked]
        if context_k is not None:
            # the first k positions, a repeat among them taking its slot, as the top k does
            record["context"] = list(dict.fromkeys(chunk for chunk, _ in ranked[:context_k]))
        if verdicts and question.qid in judged:
            record["correct"] = judged[question.qid]
        records.append(record)
    return lines(path, records)


def chunk_map_csv(data: DataSet, path: Path, every: int = 1) -> Path:
    """The chunk map; ``every`` n > 1 keeps one chunk in n (another chunking's map, which
    lacks chunks the runs return)."""
    mapped = list(data.chunk_map.items())[::every]
    rows = [(chunk, doc, start, end) for chunk, (doc, start, end) in mapped]
    frame = pl.DataFrame(rows, schema=["chunk_id", "doc", "start", "end"], orient="row")
    frame.write_csv(path)
    return path


def docs_folder(data: DataSet, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in data.docs.items():
        (folder / name).write_text(text)
    return folder


# Spans. Each question a run answers is one trace: a root CHAIN span that names the
# question (its id in a JSON metadata attribute, its text as input.value), then its
# ranked list cut into one to three retriever hops, each starting 1 ms after the last.


@dataclass(frozen=True)
class Hop:
    """One retriever span: its documents, when it ran (ns), and the hop it is a child of
    (an index into its trace's hops; None: a child of the trace's root)."""

    documents: list[tuple[str, float]]
    start: int
    end: int
    parent: int | None = None


@dataclass(frozen=True)
class SpanTrace:
    qid: str
    text: str
    hops: list[Hop]
    """In the order the file lists them."""


def _ns(trace: int, hop: int) -> int:
    return T0 + trace * 1_000_000_000 + hop * 1_000_000


def span_traces(data: DataSet, run: str, overlap: bool = False) -> list[SpanTrace]:
    """The run's lists as traces, cut into ``n % 3 + 1`` hops; ``overlap``: each later hop
    first finds the previous hop's last chunk again (a repeat across hops, which takes no
    rank). A question the gold set lacks gets a text no gold question has."""
    texts = {q.qid: q.text for q in data.questions}
    traces = []
    for t, (qid, ranked) in enumerate(data.runs[run].items()):
        size = max(1, -(-len(ranked) // (t % 3 + 1)))
        pieces = [ranked[i : i + size] for i in range(0, len(ranked), size)]
        if overlap:
            pieces = [pieces[0], *([pieces[i - 1][-1], *pieces[i]] for i in range(1, len(pieces)))]
        hops = [
            Hop(piece, _ns(t, h + 1), _ns(t, h + 1) + 500_000) for h, piece in enumerate(pieces)
        ]
        traces.append(SpanTrace(qid, texts.get(qid, f"not in the gold set: {qid}"), hops))
    return traces


def _attr(key: str, value: Any) -> dict[str, Any]:
    kind = {str: "stringValue", float: "doubleValue", int: "intValue"}[type(value)]
    return {"key": key, "value": {kind: str(value) if kind == "intValue" else value}}


def _otlp_spans(t: int, trace: SpanTrace, genai: bool) -> list[dict[str, Any]]:
    """One trace's spans: its root, then a retriever span per hop, OpenInference's
    attributes or (``genai``) OpenTelemetry GenAI's."""
    trace_id, root = f"{t + 1:032x}", f"{(t + 1) * 16:016x}"
    first = min(hop.start for hop in trace.hops)
    spans = [
        {
            "traceId": trace_id,
            "spanId": root,
            "name": "query",
            "kind": 1,
            "startTimeUnixNano": str(first - 1000),
            "endTimeUnixNano": str(first + 10**9 // 2),
            "attributes": [
                _attr("openinference.span.kind", "CHAIN"),
                _attr("input.value", trace.text),
                _attr("metadata", json.dumps({"question_id": trace.qid})),
            ],
        }
    ]
    for h, hop in enumerate(trace.hops):
        if genai:
            documents = [{"id": chunk, "score": score} for chunk, score in hop.documents]
            attributes = [
                _attr("gen_ai.operation.name", "retrieval"),
                _attr("gen_ai.retrieval.query.text", trace.text),
                _attr("gen_ai.retrieval.documents", json.dumps(documents)),
            ]
        else:
            attributes = [
                _attr("openinference.span.kind", "RETRIEVER"),
                _attr("input.value", trace.text),
            ]
            for i, (chunk, score) in enumerate(hop.documents):
                attributes.append(_attr(f"retrieval.documents.{i}.document.id", chunk))
                attributes.append(_attr(f"retrieval.documents.{i}.document.score", score))
        parent = root if hop.parent is None else f"{(t + 1) * 16 + hop.parent + 1:016x}"
        spans.append(
            {
                "traceId": trace_id,
                "spanId": f"{(t + 1) * 16 + h + 1:016x}",
                "parentSpanId": parent,
                "name": "retrieve",
                "kind": 1,
                "startTimeUnixNano": str(hop.start),
                "endTimeUnixNano": str(hop.end),
                "attributes": attributes,
            }
        )
    return spans


def _batch(spans: list[dict[str, Any]]) -> dict[str, Any]:
    scope = {"scope": {"name": "joins"}, "spans": spans}
    resource = {"attributes": [_attr("service.name", "rag")]}
    return {"resourceSpans": [{"resource": resource, "scopeSpans": [scope]}]}


def otlp(traces: list[SpanTrace], path: Path, genai: bool = False) -> Path:
    """One OTLP JSON document, as the collector's file exporter writes a single batch."""
    spans = [span for t, trace in enumerate(traces) for span in _otlp_spans(t, trace, genai)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(_batch(spans), indent=1))
    return path


def otlp_lines(traces: list[SpanTrace], path: Path) -> Path:
    """One batch per line (as the file exporter appends them), a trace per batch."""
    return lines(path, [_batch(_otlp_spans(t, trace, False)) for t, trace in enumerate(traces)])


def otlp_genai(traces: list[SpanTrace], path: Path) -> Path:
    return otlp(traces, path, genai=True)


def _phoenix_rows(traces: list[SpanTrace]) -> list[dict[str, Any]]:
    """Phoenix's span table (get_spans_dataframe), the retriever spans only (times kept to
    the microsecond, as Phoenix keeps them)."""
    rows = []
    for t, trace in enumerate(traces):
        for h, hop in enumerate(trace.hops):
            rows.append(
                {
                    "name": "retrieve",
                    "span_kind": "RETRIEVER",
                    "parent_id": None if hop.parent is None else f"s{t}-{hop.parent}",
                    "start_time": datetime.fromtimestamp(hop.start // 1000 / 1e6, UTC),
                    "end_time": datetime.fromtimestamp(hop.end // 1000 / 1e6, UTC),
                    "context.span_id": f"s{t}-{h}",
                    "context.trace_id": f"t{t}",
                    "attributes.input.value": trace.text,
                    "attributes.openinference.span.kind": "RETRIEVER",
                    "attributes.metadata": json.dumps({"question_id": trace.qid}),
                    "attributes.retrieval.documents": [
                        {"document.id": chunk, "document.score": score}
                        for chunk, score in hop.documents
                    ],
                }
            )
    return rows


def phoenix_jsonl(traces: list[SpanTrace], path: Path) -> Path:
    rows = [
        {
            **row,
            "start_time": row["start_time"].isoformat(),
            "end_time": row["end_time"].isoformat(),
        }
        for row in _phoenix_rows(traces)
    ]
    return lines(path, rows)


def phoenix_parquet(traces: list[SpanTrace], path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    pl.DataFrame(_phoenix_rows(traces)).write_parquet(path)
    return path


SPAN_WRITERS = {
    "otlp.json": otlp,
    "otlp-lines.jsonl": otlp_lines,
    "genai.otlp.json": otlp_genai,
    "phoenix.jsonl": phoenix_jsonl,
    "phoenix.parquet": phoenix_parquet,
}
