"""Spans from OpenTelemetry exports, read into one plain shape whatever the exporter.

Two sources, both where teams' retrieval traces already live:

- ``otlp``: what the OpenTelemetry collector's file exporter writes (OTLP JSON,
  ``resourceSpans[].scopeSpans[].spans[]``), one JSON document or one batch per line.
  Attributes are ``[{"key", "value": {"stringValue" | "intValue" | ...}}]``; 64-bit
  integers (``intValue``, ``startTimeUnixNano``) are JSON strings.
- ``phoenix``: Phoenix's span table (``get_spans_dataframe``) saved as Parquet or JSON
  Lines, with ``context.trace_id``, ``start_time`` and ``attributes.*`` columns, or its
  JSON span encoding (``context: {trace_id}``, nested ``attributes``), one per line or
  as one JSON array of spans.

Every span becomes a :class:`Span` with flat dotted attribute names
(``retrieval.documents.0.document.id``), so the retriever conventions are read in one
place (:mod:`reportgen.load.inputs.spans`).
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.filesystem import reading
from reportgen.core.records import dataclass
from reportgen.errors import InputError, printable
from reportgen.load.formats.files import BOM, polars_source, read_text
from reportgen.load.formats.json_input import UnreadableJSON, as_number, json_type, strict_loads

_HEAD_BYTES = 65536
_OTLP_START = re.compile(r'\s*\{\s*"resourceSpans"\s*:')
_ARRAY_START = re.compile(r"\s*\[\s*\{")
_BETWEEN_ITEMS = re.compile(r"[\s,]*")
OTLP_FIX = "export with the collector's file exporter (OTLP JSON), or force --run-format"


@dataclass(frozen=True)
class Span:
    """One span: its trace, when it started, where it was read, its attributes (flat)."""

    trace_id: str
    start: int
    """Nanoseconds since the epoch (0 when not given); hops are taken in this order."""
    line: int
    attributes: dict[str, Any]
    kind: str | None = None
    """Phoenix's ``span_kind`` column, when the table has one."""
    end: int = 0
    """When it ended: spans that start together are ordered by it."""
    span_id: str | None = None
    parent_id: str | None = None
    """Of two spans that start and end together, a parent is taken before its child."""


def span_format(path: Path) -> str | None:
    """``otlp`` or ``phoenix`` when the file's head looks like one, else None."""
    try:
        with path.open("rb") as handle:
            head = handle.read(_HEAD_BYTES)
    except OSError:
        return None
    if head.startswith(b"PAR1"):
        try:
            with reading(path):
                columns = pl.read_parquet_schema(polars_source(path))
        except (pl.exceptions.PolarsError, InputError):
            return None
        return "phoenix" if "context.trace_id" in columns else None
    text = head.decode("utf-8", errors="replace").removeprefix(BOM)
    if _OTLP_START.match(text):
        return "otlp"
    if _ARRAY_START.match(text):
        start = text.index("{")
    else:
        start = next((m.start() for m in re.finditer(r"\S", text)), 0)
    try:  # the first object: a line of JSON Lines, or the first span of an array
        record, _ = json.JSONDecoder().raw_decode(text, start)
    except (ValueError, RecursionError):  # ValueError: JSONDecodeError, huge integers
        return None
    return "phoenix" if isinstance(record, dict) and _is_phoenix(record) else None


def _is_phoenix(record: dict[str, Any]) -> bool:
    context = record.get("context")
    nested = isinstance(context, dict) and "trace_id" in context
    return ("context.trace_id" in record or nested) and ("span_kind" in record or "name" in record)


def read_spans(path: Path, fmt: str) -> list[Span]:
    """Every span of an ``otlp`` or ``phoenix`` file, in file order."""
    if fmt == "otlp":
        return list(_otlp(path))
    with path.open("rb") as handle:
        parquet = handle.read(4) == b"PAR1"
    return list(_phoenix_parquet(path) if parquet else _phoenix_json(path))


def _otlp(path: Path) -> Iterator[Span]:
    """Batches of one JSON document, or one per line as the file exporter appends them."""
    text = read_text(path).removeprefix(BOM)
    lines = [(n, raw) for n, raw in enumerate(text.split("\n"), start=1) if raw.strip()]
    whole = len(lines) > 1 and not _parses(lines[0][1])
    batches = [(1, text)] if whole or len(lines) <= 1 else lines
    for number, raw in batches:
        yield from _otlp_batch(path, _loads(path, raw, number, OTLP_FIX), number)


def _loads(path: Path, text: str, line: int, fix: str) -> Any:
    """:func:`strict_loads`, its refusals named by the line they stand on."""
    try:
        return strict_loads(text)
    except UnreadableJSON as err:
        found = err.token.search(text)
        at = line + (text.count("\n", 0, found.start()) if found else 0)
        raise InputError(path, err.problem, err.fix, at) from None
    except json.JSONDecodeError as err:
        raise InputError(path, f"not valid JSON ({err.msg})", fix, line + err.lineno - 1) from None
    except RecursionError:
        raise InputError(path, "JSON nested too deeply", fix, line) from None


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return False
    return True


def _otlp_batch(path: Path, document: Any, line: int) -> Iterator[Span]:
    resources = _list_at(document, "resourceSpans", path, line)
    for resource in resources:
        for scope in _list_at(resource, "scopeSpans", path, line):
            for span in _list_at(scope, "spans", path, line):
                if not isinstance(span, dict):
                    raise InputError(path, f"a span is a JSON {json_type(span)}", OTLP_FIX, line)
                trace_id = span.get("traceId")
                if not isinstance(trace_id, str) or not trace_id.strip():
                    raise InputError(path, "a span without a traceId", OTLP_FIX, line)
                attributes = _key_values(span.get("attributes", []), path, line)
                span_id = _text(span.get("spanId"))
                where = _SpanAt(path, line, trace_id.strip(), span_id)
                yield Span(
                    trace_id.strip(),
                    _nanos(span.get("startTimeUnixNano"), where, "startTimeUnixNano"),
                    line,
                    attributes,
                    end=_nanos(span.get("endTimeUnixNano"), where, "endTimeUnixNano"),
                    span_id=span_id,
                    parent_id=_text(span.get("parentSpanId")),
                )


def _list_at(container: Any, key: str, path: Path, line: int) -> list[Any]:
    if not isinstance(container, dict):
        raise InputError(path, f"{key} sits in a JSON {json_type(container)}", OTLP_FIX, line)
    value = container.get(key, [])
    if not isinstance(value, list):
        raise InputError(path, f"{key} is a JSON {json_type(value)}, not an array", OTLP_FIX, line)
    return value


def _key_values(pairs: Any, path: Path, line: int) -> dict[str, Any]:
    """OTLP ``[{key, value: AnyValue}]`` as a flat dict of plain values."""
    if not isinstance(pairs, list):
        raise InputError(path, "attributes is not an array", OTLP_FIX, line)
    found: dict[str, Any] = {}
    for pair in pairs:
        if not isinstance(pair, dict) or not isinstance(pair.get("key"), str):
            raise InputError(path, "an attribute without a key", OTLP_FIX, line)
        found[pair["key"]] = _any_value(pair.get("value"), path, line)
    return flatten(found)


def _any_value(value: Any, path: Path, line: int) -> Any:
    """One OTLP AnyValue: the single field it sets, decoded (intValue is a string)."""
    if value is None or value == {}:
        return None
    if not isinstance(value, dict) or len(value) != 1:
        raise InputError(path, f"attribute value {value!r} is not an OTLP AnyValue", OTLP_FIX, line)
    ((kind, inner),) = value.items()
    if kind in ("stringValue", "boolValue"):
        return inner
    if kind == "intValue":
        try:
            return int(inner)
        except (TypeError, ValueError):
            problem = f"intValue {inner!r} is not a whole number"
            raise InputError(path, problem, OTLP_FIX, line) from None
    if kind == "doubleValue":  # proto3 JSON writes NaN and Infinity as strings: no score
        return as_number(inner)
    if kind == "bytesValue":
        try:
            return base64.b64decode(str(inner), validate=True).hex()
        except binascii.Error:
            raise InputError(path, "bytesValue is not base64", OTLP_FIX, line) from None
    if kind == "arrayValue" and isinstance(inner, dict):
        return [_any_value(item, path, line) for item in inner.get("values", [])]
    if kind == "kvlistValue" and isinstance(inner, dict):
        return _key_values(inner.get("values", []), path, line)
    raise InputError(path, f"attribute value of unknown kind {kind!r}", OTLP_FIX, line)


def flatten(value: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested objects as dotted names; lists stay lists (their objects flattened); nulls go."""
    flat: dict[str, Any] = {}
    for key, inner in value.items():
        name = f"{prefix}{key}"
        if isinstance(inner, dict):
            flat.update(flatten(inner, f"{name}."))
        elif isinstance(inner, list):
            flat[name] = [flatten(item) if isinstance(item, dict) else item for item in inner]
        elif inner is not None:
            flat[name] = inner
    return flat


@dataclass(frozen=True)
class _SpanAt:
    """Where a span was read, to name it when one of its times cannot be read."""

    path: Path
    line: int
    trace_id: str
    span_id: str | None


_TIME_DIGITS = 30
"""More digits than any time in nanoseconds holds (2**64 has 20)."""


def _nanos(value: Any, where: _SpanAt, what: str) -> int:
    """A time as nanoseconds: OTLP's string of digits, a number, or an ISO time; 0 when
    not given. A time that is not one is refused: taken as 0 it would reorder the hops."""
    if value is None or value == "":
        return 0
    if isinstance(value, datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=UTC)
        return int(moment.timestamp() * 1_000_000) * 1000
    text = value.strip() if isinstance(value, str) else None
    if text is not None and text.isdigit() and len(text) <= _TIME_DIGITS:
        return int(text)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**_TIME_DIGITS:
        return value
    if isinstance(value, float) and math.isfinite(value) and value >= 0:
        return int(value)
    if text is not None and not text.isdigit():
        try:
            return _nanos(datetime.fromisoformat(text.replace("Z", "+00:00")), where, what)
        except (ValueError, OverflowError):
            pass
    shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:40]}..."
    span = f"span {where.span_id} of" if where.span_id else "a span of"
    span = printable(f"{span} trace {where.trace_id}")
    raise InputError(
        where.path,
        f"{span}: {what} {shown} is not a time",
        f"export {what} as nanoseconds since the epoch or an ISO 8601 time",
        where.line,
    )


def _text(value: Any) -> str | None:
    """An id as text (span ids, parent ids), None when absent or not a plain value."""
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None


_PHOENIX_FIX = "export the spans with Phoenix (get_spans_dataframe) as Parquet or JSON Lines"


def _phoenix_record(record: dict[str, Any], path: Path, line: int) -> Span:
    flat = flatten(record)
    trace_id = flat.get("context.trace_id")
    if not isinstance(trace_id, str) or not trace_id.strip():
        raise InputError(path, "a span without context.trace_id", _PHOENIX_FIX, line)
    attributes = {
        name.removeprefix("attributes."): value
        for name, value in flat.items()
        if name.startswith("attributes.")
    }
    kind = flat.get("span_kind")
    span_id = _text(flat.get("context.span_id"))
    where = _SpanAt(path, line, trace_id.strip(), span_id)
    return Span(
        trace_id.strip(),
        _nanos(flat.get("start_time"), where, "start_time"),
        line,
        flatten(attributes),
        kind if isinstance(kind, str) else None,
        end=_nanos(flat.get("end_time"), where, "end_time"),
        span_id=span_id,
        parent_id=_text(flat.get("parent_id")),
    )


_SPAN_FIX = "write one span per line, or one JSON array of spans"


def _phoenix_json(path: Path) -> Iterator[Span]:
    """JSON Lines, one span a line, or one JSON array of spans (each named by its line)."""
    text = read_text(path).removeprefix(BOM)
    if _ARRAY_START.match(text):
        spans = _loads(path, text, 1, _SPAN_FIX)
        if not isinstance(spans, list):
            raise InputError(path, f"a JSON {json_type(spans)}", _SPAN_FIX, 1)
        for line, record in zip(_item_lines(text), spans, strict=False):
            if not isinstance(record, dict):
                raise InputError(path, f"a span is a JSON {json_type(record)}", _SPAN_FIX, line)
            yield _phoenix_record(record, path, line)
        return
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        record = _loads(path, raw, number, _SPAN_FIX)
        if not isinstance(record, dict):
            raise InputError(path, f"a JSON {json_type(record)}", _SPAN_FIX, number)
        yield _phoenix_record(record, path, number)


def _item_lines(text: str) -> Iterator[int]:
    """The line each item of a JSON array (already read whole) starts on."""
    decoder = json.JSONDecoder()
    at = text.index("[") + 1
    while True:
        if gap := _BETWEEN_ITEMS.match(text, at):  # always matches, maybe nothing
            at = gap.end()
        if at >= len(text) or text[at] == "]":
            return
        yield text.count("\n", 0, at) + 1
        _, at = decoder.raw_decode(text, at)


def _phoenix_parquet(path: Path) -> Iterator[Span]:
    try:
        with reading(path):
            table = pl.read_parquet(polars_source(path), glob=False)
    except pl.exceptions.PolarsError as err:
        problem = f"not a readable Parquet file ({str(err).splitlines()[0]})"
        raise InputError(path, problem, _PHOENIX_FIX) from None
    for row, record in enumerate(table.iter_rows(named=True), start=1):
        yield _phoenix_record(record, path, row)
