"""A run from tracing spans: retriever spans matched to gold questions, never guessed.

Spans are grouped by trace. A trace belongs to a gold question when one of its spans
carries the question key (``--trace-question-key``) with that question's id, or, when
none of its spans carries the key, when a span's query text is the question's text
exactly. The ranked list is every retriever span of the trace in start order, their
documents concatenated, each chunk once, at its first position: a chunk a later hop
finds again takes no rank. Spans that start together (Phoenix writes milliseconds) are
ordered by end time, then parent before child, then file order, and the trace is named
as tied. A trace that matches no question, or more than one, is listed as unmatched.

Retriever spans, by convention:

- OpenInference: ``openinference.span.kind`` = ``RETRIEVER``, the query in
  ``input.value``, documents as ``retrieval.documents.{i}.document.id`` / ``.score``
  (Phoenix keeps ``retrieval.documents`` as a list of such objects). LangChain's
  instrumentor writes no id, only ``.document.content`` and ``.document.metadata``:
  ``--span-doc-key metadata.chunk_id`` names the id inside the metadata.
- OpenTelemetry GenAI: ``gen_ai.retrieval.documents`` = ``[{"id", "score"}]`` (structured,
  or a JSON string), the query in ``gen_ai.retrieval.query.text``.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.model import COSTS_SCHEMA, GoldSet, Run, UnmatchedTrace
from reportgen.errors import InputError, printable
from reportgen.load.formats.ids import id_problem
from reportgen.load.formats.json_input import as_number
from reportgen.load.formats.otel import Span, flatten, read_spans, span_format
from reportgen.load.inputs.ranking import ROW_SCHEMA, RunRows, rank_rows

QUERY_KEYS = ("input.value", "gen_ai.retrieval.query.text")
_FLAT_DOCUMENT = re.compile(r"retrieval\.documents\.(\d+)\.document\.(.+)")


def load_span_run(
    path: str | Path,
    gold: GoldSet,
    name: str | None = None,
    question_key: str | None = None,
    fmt: str | None = None,
    doc_key: str | None = None,
) -> Run:
    """Read an ``otlp`` or ``phoenix`` export as one run over ``gold``'s questions;
    ``doc_key`` names where a document's id is when it has no ``id`` of its own."""
    path = Path(path)
    fmt = fmt or span_format(path)
    if fmt is None:
        raise InputError(
            path,
            "not an OTLP JSON or Phoenix span export",
            "force --run-format otlp or phoenix, or check that this is the right file",
        )
    by_trace: dict[str, list[Span]] = defaultdict(list)
    for span in read_spans(path, fmt):
        by_trace[span.trace_id].append(span)
    qids = set(gold.questions.get_column("qid").to_list())
    texts = _question_texts(gold)
    matches = []
    for trace_id, spans in by_trace.items():
        if retrievers := hops(spans):
            matches.append((trace_id, retrievers, *_match(spans, question_key, qids, texts, path)))
    claims = Counter(qid for _, _, qid, _ in matches if qid is not None)
    rows: dict[str, list[Any]] = {col: [] for col in ROW_SCHEMA}
    unmatched: list[UnmatchedTrace] = []
    tied: list[str] = []
    overlapping: list[str] = []
    latencies: list[tuple[str, float | None, None]] = []
    for trace_id, retrievers, qid, reason in matches:
        if qid is not None and claims[qid] > 1:
            reason = f"{claims[qid]} traces match question {qid}"
        if qid is None or claims[qid] > 1:
            unmatched.append(UnmatchedTrace(printable(trace_id), reason, retrievers[0].line))
            continue
        if len({span.start for span in retrievers}) < len(retrievers):
            tied.append(printable(trace_id))
        latencies.append((qid, hop_latency(retrievers, path), None))
        if _overlap(retrievers):
            overlapping.append(printable(trace_id))
        for span in retrievers:
            for chunk, score in _documents(span, path, doc_key):
                for col, value in zip(ROW_SCHEMA, (qid, chunk, score, span.line), strict=True):
                    rows[col].append(value)
    if not matches:
        raise InputError(
            path,
            "no retriever span in the file (openinference.span.kind RETRIEVER, "
            "retrieval.documents or gen_ai.retrieval.documents)",
            "export the traces of the retrieval step, with their documents",
        )
    if len(unmatched) == len(matches):
        first = min(unmatched, key=lambda u: u.line)
        raise InputError(
            path,
            f"none of its {len(matches)} traces matches a gold question (trace "
            f"{first.trace_id}: {first.reason})",
            "name the attribute that holds the question id with --trace-question-key, "
            "or record the question's exact text as the query",
            first.line,
        )
    frame = pl.DataFrame(rows, schema=ROW_SCHEMA)
    if 0 < frame["score"].null_count() < frame.height:
        # some conventions make scores optional; the span order ranks anyway
        frame = frame.with_columns(pl.lit(None, pl.Float64).alias("score"))
    results, repeated = rank_rows(path, RunRows(frame, "list", hops=True))
    return Run(
        name=printable(name or path.stem),
        results=results,
        source=printable(path),
        order="list",
        repeated_across_hops=repeated,
        traces=len(matches),
        unmatched_traces=tuple(sorted(unmatched, key=lambda u: u.line)),
        tied_hops=tuple(sorted(tied)),
        costs=pl.DataFrame(latencies, schema=COSTS_SCHEMA, orient="row").filter(
            pl.col("latency_ms").is_not_null()
        )
        if any(latency is not None for _, latency, _ in latencies)
        else None,
        overlapping_hops=tuple(sorted(overlapping)),
    )


HOPS_RULE = "sum of retriever span durations (end - start)"
"""How a trace's hops make one latency (``latency.hops`` in report.json). Hops that run
in parallel overlap: their sum is the retrieval work, more than the wall time, and such
traces are counted (``latency.overlapping_hops``)."""


def hop_latency(retrievers: Sequence[Span], path: Path) -> float | None:
    """Milliseconds: the sum of the retriever spans' end - start; None when a span lacks
    a time (a missing time is not a zero duration)."""
    if any(span.start == 0 or span.end == 0 for span in retrievers):
        return None
    for span in retrievers:
        if span.end < span.start:
            which = f"span {span.span_id}" if span.span_id else "a retriever span"
            raise InputError(
                path,
                printable(
                    f"{which} of trace {span.trace_id} ends before it starts "
                    f"({span.end} < {span.start} ns)"
                ),
                "export the spans' start and end times as the tracer recorded them",
                span.line,
            )
    return sum(span.end - span.start for span in retrievers) / 1_000_000


def _overlap(retrievers: Sequence[Span]) -> bool:
    """Whether a hop starts before an earlier one ended (hops in start order)."""
    ended = 0
    for span in retrievers:
        if span.start < ended:
            return True
        ended = max(ended, span.end)
    return False


def hops(spans: Sequence[Span]) -> list[Span]:
    """A trace's retriever spans in the order they ran: by start, then end, then parent
    before child (fewer ancestors first), then file order (the sort is stable)."""
    parents = {s.span_id: s.parent_id for s in spans if s.span_id is not None}

    def depth(span: Span) -> int:
        seen: set[str] = set()
        parent = span.parent_id
        while parent is not None and parent in parents and parent not in seen:
            seen.add(parent)
            parent = parents[parent]
        return len(seen)

    return sorted((s for s in spans if _is_retriever(s)), key=lambda s: (s.start, s.end, depth(s)))


def _question_texts(gold: GoldSet) -> dict[str, list[str]]:
    """Question text -> the ids that have it (two ids with one text cannot be told apart)."""
    found: dict[str, list[str]] = defaultdict(list)
    named = gold.questions.filter(pl.col("question").is_not_null())
    for qid, text in named.select("qid", "question").iter_rows():
        found[text].append(qid)
    return found


def _match(
    spans: Sequence[Span],
    key: str | None,
    qids: set[str],
    texts: dict[str, list[str]],
    path: Path,
) -> tuple[str | None, str]:
    """(question id, "") or (None, why not) for one trace's spans."""
    if key is not None:
        values = sorted(
            {
                _plain(v, path, s, key)
                for s in spans
                if (v := keyed_value(s.attributes, key)) is not None
            }
        )
        if len(values) > 1:
            return None, f"{key} names {len(values)} questions ({', '.join(values[:3])})"
        if values:
            if values[0] not in qids:
                return None, f"{key} = {values[0]!r} is not a gold question id"
            return values[0], ""
    found = sorted(
        {
            qid
            for s in spans
            for k in QUERY_KEYS
            if isinstance(text := s.attributes.get(k), str)
            for qid in texts.get(text.strip(), [])
        }
    )
    if len(found) == 1:
        return found[0], ""
    if found:
        return None, f"its query text is the text of {len(found)} questions"
    without = f"no span carries {key}, and " if key is not None else ""
    return None, f"{without}no span's query text is a gold question's text"


def keyed_value(attributes: dict[str, Any], key: str) -> str | None:
    """The attribute ``key``, or the path ``key`` inside a JSON-string attribute.

    ``metadata.question_id`` is found as an attribute of that name, or inside the
    ``metadata`` attribute when that holds a JSON object (as OpenInference writes it).
    """
    value = attributes.get(key)
    parts = key.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        if value is not None:
            break
        holder = attributes.get(".".join(parts[:cut]))
        if isinstance(holder, str):
            try:
                holder = json.loads(holder)
            except (ValueError, RecursionError):  # ValueError: JSONDecodeError, huge integers
                continue
        if isinstance(holder, dict):
            value = flatten(holder).get(".".join(parts[cut:]))
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    try:
        text = str(value).strip()
    except ValueError:  # an integer over Python's 4,300 digits: no id
        return None
    return text or None


def _plain(value: str, path: Path, span: Span, what: str) -> str:
    """An id read from a span, refused when it is no text a page can hold."""
    problem = "holds a lone surrogate, which is not text" if printable(value) != value else None
    if (problem := problem or id_problem(value)) is not None:
        raise InputError(
            path,
            f"{what} of a span of trace {printable(span.trace_id)} {problem}",
            f"write each {what} as a short plain id",
            span.line,
        )
    return value


def _is_retriever(span: Span) -> bool:
    kind = span.attributes.get("openinference.span.kind", span.kind)
    return (
        (isinstance(kind, str) and kind.upper() == "RETRIEVER")
        or "gen_ai.retrieval.documents" in span.attributes
        or span.attributes.get("gen_ai.operation.name") == "retrieval"
    )


def _documents(span: Span, path: Path, key: str | None) -> list[tuple[str, float | None]]:
    """(chunk id, score) of a retriever span's documents, in their order."""
    documents = []
    for fields in _document_fields(span, path):
        chunk = keyed_value(fields, key) if key is not None else _id(fields.get("id"))
        if chunk is None:
            raise _no_id(path, span, fields, key)
        score = fields.get("score")
        number = None if score is None else as_number(score)
        documents.append((_plain(chunk, path, span, "document id"), number))
    return documents


def _document_fields(span: Span, path: Path) -> list[dict[str, Any]]:
    """Each document of the span as its flat fields (``id``, ``score``, ``content``,
    ``metadata``...), whichever convention wrote it."""
    attributes = span.attributes
    listed: list[dict[str, Any]] = []
    if isinstance(docs := attributes.get("gen_ai.retrieval.documents"), str):
        try:
            docs = json.loads(docs)
        except (ValueError, RecursionError):
            raise InputError(
                path,
                "gen_ai.retrieval.documents is not JSON",
                'write it as [{"id": "c1", "score": 0.9}]',
                span.line,
            ) from None
    if isinstance(docs, list):
        listed += [d if isinstance(d, dict) else {} for d in docs]
    if isinstance(docs := attributes.get("retrieval.documents"), list):
        listed += [
            {k.removeprefix("document."): v for k, v in d.items()} if isinstance(d, dict) else {}
            for d in docs
        ]
    # numbered by digits, compared as numbers without int(): an index of any length
    # (past 64 bits, past Python's 4,300 digits) still orders, never overflows
    numbered: dict[str, dict[str, Any]] = defaultdict(dict)
    for name, value in attributes.items():
        if found := _FLAT_DOCUMENT.fullmatch(name):
            numbered[found[1].lstrip("0") or "0"][found[2]] = value
    return listed + [numbered[i] for i in sorted(numbered, key=lambda i: (len(i), i))]


def _id(value: Any) -> str | None:
    if isinstance(value, bool) or not isinstance(value, str | int):
        return None
    return keyed_value({"id": value}, "id")


def _no_id(path: Path, span: Span, fields: dict[str, Any], key: str | None) -> InputError:
    """Refuse a document without an id, naming what it does carry and where an id may be."""
    carried = sorted({printable(name.split(".")[0]) for name in fields})
    metadata = sorted(_metadata_keys(fields))
    has = ", ".join(carried) or "nothing"
    if metadata:
        has += f" (metadata keys: {', '.join(metadata[:8])})"
    trace = printable(span.trace_id)
    if key is None:
        example = f"metadata.{metadata[0]}" if metadata else "metadata.chunk_id"
        return InputError(
            path,
            f"the retrieved documents of trace {trace} have no document.id; they carry {has}",
            f"give --span-doc-key the key that holds each chunk's id (e.g. --span-doc-key "
            f"{example}), or record document.id when tracing",
            span.line,
        )
    return InputError(
        path,
        f"a retrieved document of trace {trace} has no {key}; it carries {has}",
        "give --span-doc-key the key that holds each chunk's id",
        span.line,
    )


def _metadata_keys(fields: dict[str, Any]) -> set[str]:
    """The keys of a document's metadata: a JSON-string attribute, or flattened."""
    found = {name.removeprefix("metadata.") for name in fields if name.startswith("metadata.")}
    if isinstance(raw := fields.get("metadata"), str):
        try:
            raw = json.loads(raw)
        except (ValueError, RecursionError):
            return found
    if isinstance(raw, dict):
        found |= {printable(k) for k in raw}
    return found
