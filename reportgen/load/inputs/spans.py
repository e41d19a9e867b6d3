"""A run from tracing spans: retriever spans matched to gold questions, never guessed.

Spans are grouped by trace. A trace belongs to a gold question when one of its spans
carries the question key (``--trace-question-key``) with that question's id, or, when
none of its spans carries the key, when a span's query text is the question's text
exactly. The ranked list is every retriever span of the trace in start order, their
documents concatenated (each chunk kept at its first position). A trace that matches
no question, or more than one, is listed as unmatched.

Retriever spans, by convention:

- OpenInference: ``openinference.span.kind`` = ``RETRIEVER``, the query in
  ``input.value``, documents as ``retrieval.documents.{i}.document.id`` / ``.score``
  (Phoenix keeps ``retrieval.documents`` as a list of such objects).
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

from reportgen.core.model import GoldSet, Run, UnmatchedTrace
from reportgen.errors import InputError, printable
from reportgen.load.formats.ids import checked_id
from reportgen.load.formats.json_input import as_number
from reportgen.load.formats.otel import Span, flatten, read_spans, span_format
from reportgen.load.inputs.ranking import ROW_SCHEMA, RunRows, rank_rows

QUERY_KEYS = ("input.value", "gen_ai.retrieval.query.text")
_FLAT_DOCUMENT = re.compile(r"retrieval\.documents\.(\d+)\.document\.(id|score)")


def load_span_run(
    path: str | Path,
    gold: GoldSet,
    name: str | None = None,
    question_key: str | None = None,
    fmt: str | None = None,
) -> Run:
    """Read an ``otlp`` or ``phoenix`` export as one run over ``gold``'s questions."""
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
        retrievers = sorted((s for s in spans if _is_retriever(s)), key=lambda s: (s.start, s.line))
        if retrievers:
            matches.append((trace_id, retrievers, *_match(spans, question_key, qids, texts)))
    claims = Counter(qid for _, _, qid, _ in matches if qid is not None)
    rows: dict[str, list[Any]] = {col: [] for col in ROW_SCHEMA}
    unmatched: list[UnmatchedTrace] = []
    for trace_id, retrievers, qid, reason in matches:
        if qid is not None and claims[qid] > 1:
            reason = f"{claims[qid]} traces match question {qid}"
        if qid is None or claims[qid] > 1:
            unmatched.append(UnmatchedTrace(printable(trace_id), reason, retrievers[0].line))
            continue
        for span in retrievers:
            for chunk, score in _documents(span, path):
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
    results, repeated = rank_rows(path, RunRows(frame, "list"))
    return Run(
        name=printable(name or path.stem),
        results=results,
        source=printable(path),
        order="list",
        repeated_chunks=repeated,
        traces=len(matches),
        unmatched_traces=tuple(sorted(unmatched, key=lambda u: u.line)),
    )


def _question_texts(gold: GoldSet) -> dict[str, list[str]]:
    """Question text -> the ids that have it (two ids with one text cannot be told apart)."""
    found: dict[str, list[str]] = defaultdict(list)
    named = gold.questions.filter(pl.col("question").is_not_null())
    for qid, text in named.select("qid", "question").iter_rows():
        found[text].append(qid)
    return found


def _match(
    spans: Sequence[Span], key: str | None, qids: set[str], texts: dict[str, list[str]]
) -> tuple[str | None, str]:
    """(question id, "") or (None, why not) for one trace's spans."""
    if key is not None:
        values = sorted({v for s in spans if (v := keyed_value(s.attributes, key)) is not None})
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
            except (json.JSONDecodeError, RecursionError):
                continue
        if isinstance(holder, dict):
            value = flatten(holder).get(".".join(parts[cut:]))
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    text = str(value).strip()
    return text or None


def _is_retriever(span: Span) -> bool:
    kind = span.attributes.get("openinference.span.kind", span.kind)
    return (
        (isinstance(kind, str) and kind.upper() == "RETRIEVER")
        or "gen_ai.retrieval.documents" in span.attributes
        or span.attributes.get("gen_ai.operation.name") == "retrieval"
    )


def _documents(span: Span, path: Path) -> list[tuple[str, float | None]]:
    """(chunk id, score) of a retriever span's documents, in their order."""
    attributes = span.attributes
    listed: list[Any] = []
    if isinstance(docs := attributes.get("gen_ai.retrieval.documents"), str):
        try:
            docs = json.loads(docs)
        except (json.JSONDecodeError, RecursionError):
            raise InputError(
                path,
                "gen_ai.retrieval.documents is not JSON",
                'write it as [{"id": "c1", "score": 0.9}]',
                span.line,
            ) from None
    if isinstance(docs, list):
        listed += [(_field(d, "id"), _field(d, "score")) for d in docs]
    if isinstance(docs := attributes.get("retrieval.documents"), list):
        listed += [(_field(d, "document.id"), _field(d, "document.score")) for d in docs]
    numbered: dict[int, dict[str, Any]] = defaultdict(dict)
    for name, value in attributes.items():
        if found := _FLAT_DOCUMENT.fullmatch(name):
            numbered[int(found[1])][found[2]] = value
    listed += [(numbered[i].get("id"), numbered[i].get("score")) for i in sorted(numbered)]
    documents = []
    for chunk, score in listed:
        if isinstance(chunk, bool) or not isinstance(chunk, str | int) or not str(chunk).strip():
            raise InputError(
                path,
                f"a retrieved document of trace {span.trace_id} has no id",
                "record each document's id (document.id, or id in gen_ai.retrieval.documents)",
                span.line,
            )
        number = None if score is None else as_number(score)
        documents.append((checked_id(str(chunk).strip(), path, span.line, "document id"), number))
    return documents


def _field(document: Any, name: str) -> Any:
    return document.get(name) if isinstance(document, dict) else None
