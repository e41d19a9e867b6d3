"""The words input files share: id keys, true/false spellings, and which format a file is in.

Each reader used to carry its own copy of these; one copy means a key or a spelling
accepted in one format is accepted in every format that has the field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from reportgen.core.filesystem import reading
from reportgen.errors import InputError, UsageError
from reportgen.load.formats.csv_input import csv_rows
from reportgen.load.formats.files import BOM, check_file
from reportgen.load.formats.json_input import json_document
from reportgen.load.formats.otel import span_format

ID_KEYS = ("id", "qid", "question_id")
"""Names of a question's id, as a JSON key or a CSV column; the first is preferred."""
CHUNK_KEYS = ("chunk_id", "id", "doc_id", "docid")
"""Names of a chunk's id in a JSON record of chunks (a run's results, a manifest line)."""
CHUNK_COLUMNS = ("chunk_id", "docid", "doc_id")
"""Names of the chunk id column of a CSV file with one row per (question, chunk)."""

TRUE_WORDS = frozenset({"true", "t", "1", "yes", "y", "pass", "passed"})
FALSE_WORDS = frozenset({"false", "f", "0", "no", "n", "fail", "failed"})
FLAG_FIX = "write true/false, 1/0, yes/no or pass/fail"


def flag_word(text: str) -> bool | None:
    """What a true/false word means (case and spaces aside), or None for any other text."""
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    return None


def parse_flag(value: Any, path: Path, line: int | None, what: str) -> bool | None:
    """A yes/no value in any of the spellings eval tools write; empty or null is unknown."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        if not value.strip():
            return None
        if (flag := flag_word(value)) is not None:
            return flag
    raise InputError(path, f"{what} is {value!r}", FLAG_FIX, line)


Kind = Literal["gold", "run", "verdict", "manifest"]

FORMATS: dict[Kind, tuple[str, ...]] = {
    "gold": ("qrels", "jsonl", "csv"),
    "run": ("trec", "jsonl", "csv", "parquet", "json", "trace", "otlp", "phoenix"),
    "verdict": ("jsonl", "csv", "promptfoo", "deepeval", "ragas"),
    "manifest": ("lines", "jsonl", "csv"),
}
GOLD_FORMATS = FORMATS["gold"]
RUN_FORMATS = FORMATS["run"]
VERDICT_FORMATS = FORMATS["verdict"]
MANIFEST_FORMATS = FORMATS["manifest"]

_EXTENSIONS = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".trec": "columns",
    ".run": "columns",
    ".qrels": "columns",
    ".txt": "columns",
    ".tsv": "columns",
}
"""Extension -> family; each kind of file maps a family onto one of its formats."""

_Guess = tuple[str | None, int | None]
"""A format (None: cannot tell) and the line it was told by (None: the whole file)."""


def detect_format(path: Path, fmt: str | None, kind: Kind, metric: str | None = None) -> str:
    """The format to read ``path`` with: the caller's word, else its extension, else its
    first record. A file named well is never second-guessed; ``metric`` tells ragas CSV
    from plain verdict CSV. An unknown file is an InputError naming how to force one."""
    supported = FORMATS[kind]
    if fmt is not None:
        if fmt not in supported:
            raise UsageError(f"unknown {kind} format {fmt!r}", f"use one of {', '.join(supported)}")
        return fmt
    check_file(path)
    family = _EXTENSIONS.get(path.suffix.lower())
    with reading(path):
        found, line = _GUESSES[kind](path, family, metric)
    if found is None:
        known = "" if kind == "verdict" else " or use a known extension"
        raise InputError(
            path,
            f"cannot tell the {kind} file's format (supported: {', '.join(supported)})",
            f"force one with --{kind}-format{known}",
            line,
        )
    return found


def _gold(path: Path, family: str | None, metric: str | None) -> _Guess:
    if family == "columns":
        return "qrels", None
    if family in GOLD_FORMATS:
        return family, None
    if _is_parquet(path):
        return None, 1
    line, number, _ = _first_record(path)
    if line is None:
        return None, number
    if line.startswith("{"):
        return "jsonl", number
    if len(line.split()) == 4:
        return "qrels", number
    return ("csv" if "," in line else None), number


SPAN_FORMATS = ("otlp", "phoenix")
"""Run formats that are span exports: read with the gold set (load/spans.py)."""
TRACE_FORMAT = "trace"
"""A trace file: gold set, run and verdicts in one (load/traces.py)."""


def _run(path: Path, family: str | None, metric: str | None) -> _Guess:
    if family == "columns":
        return "trec", None
    if family in (None, "json", "jsonl", "parquet"):
        if is_trace_file(path):
            return TRACE_FORMAT, None
        if (spans := span_format(path)) is not None:
            return spans, None
    if family in RUN_FORMATS:
        return family, None
    if _is_parquet(path):
        return "parquet", 1
    line, number, more = _first_record(path)
    if line is None:
        return None, number
    if line.startswith("{"):
        return _json_run(line, more), number
    if len(line.split()) >= 6:
        return "trec", number
    return ("csv" if "," in line else None), number


def _json_run(line: str, more: bool) -> str:
    """JSON Lines when the first line is a whole object, unless it is a lone ranx map."""
    try:
        record = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return "json"  # an object spread over several lines
    ranx = isinstance(record, dict) and all(isinstance(v, dict) for v in record.values())
    return "json" if ranx and not more and "_meta" not in record else "jsonl"


def _verdict(path: Path, family: str | None, metric: str | None) -> _Guess:
    """Verdict files are told by extension, then by what the eval tool put inside."""
    if family == "jsonl":
        return "jsonl", None
    if family == "csv":
        header, _ = csv_rows(path)
        return ("csv" if "correct" in header or metric is None else "ragas"), None
    if family == "json":
        document = json_document(path, "write one JSON document")
        if isinstance(document, dict):
            if isinstance(document.get("results"), dict | list):
                return "promptfoo", None
            if "testCases" in document or "testRunData" in document:
                return "deepeval", None
    return None, None


def _manifest(path: Path, family: str | None, metric: str | None) -> _Guess:
    """JSON Lines when the first record is ``{``, else one id per line."""
    if family in ("jsonl", "csv"):
        return family, None
    line, _, _ = _first_record(path)
    return ("jsonl" if line is not None and line.startswith("{") else "lines"), None


def _is_parquet(path: Path) -> bool:
    with path.open("rb") as handle:
        return handle.read(4) == b"PAR1"


def _first_record(path: Path) -> tuple[str | None, int, bool]:
    """The first line that is not blank or a ``#`` comment and its number; for a line
    that opens a JSON object, whether any text follows (a ranx map stands alone)."""
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            line = raw.decode("utf-8", errors="replace").strip().removeprefix(BOM).strip()
            if line and not line.startswith("#"):
                more = line.startswith("{") and any(rest.strip() for rest in handle)
                return line, number, more
    return None, 1, False


_GUESSES = {"gold": _gold, "run": _run, "verdict": _verdict, "manifest": _manifest}


_SNIFF_LINES = 20


def is_trace_file(path: Path) -> bool:
    """Whether ``path`` is JSON Lines whose first question line carries ``retrieved``.

    Only the first lines are read: this decides which loader runs, the loader checks all
    (a FIFO, a folder or a line JSON cannot hold are left to it, to name plainly).
    """
    try:
        if not path.is_file():
            return False
        with path.open("rb") as handle:
            if handle.read(4) == b"PAR1":
                return False
            handle.seek(0)
            for _, raw in zip(range(_SNIFF_LINES), handle, strict=False):
                line = raw.decode("utf-8", errors="replace").strip().removeprefix(BOM).strip()
                if not line:
                    continue
                try:
                    record = json.loads(line)
                except (ValueError, RecursionError):  # ValueError: JSONDecodeError, huge ints
                    return False
                if isinstance(record, dict) and "_meta" in record:
                    continue
                return isinstance(record, dict) and "retrieved" in record
    except OSError:
        return False  # the loader that runs next names the file and the reason
    return False
