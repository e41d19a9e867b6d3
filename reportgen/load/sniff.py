"""Which format a file is in: the caller's word, else its extension, else its first record.

Guessing from content is the last resort, so a file that is named well is never
second-guessed; the error for an unknown file says how to force a format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from reportgen.errors import InputError, UsageError
from reportgen.load.text import BOM, check_file

GOLD_FORMATS = ("qrels", "jsonl", "csv")
RUN_FORMATS = ("trec", "jsonl", "csv", "parquet", "json")

Kind = Literal["gold", "run"]

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


def _supported(kind: Kind) -> tuple[str, ...]:
    return GOLD_FORMATS if kind == "gold" else RUN_FORMATS


def _fit(family: str, kind: Kind) -> str | None:
    """Map an extension's family onto the formats this kind of file has."""
    if family == "columns":
        return "qrels" if kind == "gold" else "trec"
    return family if family in _supported(kind) else None


def detect_format(path: Path, fmt: str | None, kind: Kind) -> str:
    """The format to read ``path`` with, or an InputError naming how to force one."""
    supported = _supported(kind)
    if fmt is not None:
        if fmt not in supported:
            raise UsageError(f"unknown {kind} format {fmt!r}", f"use one of {', '.join(supported)}")
        check_file(path)
        return fmt
    check_file(path)
    family = _EXTENSIONS.get(path.suffix.lower())
    if family is not None and (found := _fit(family, kind)) is not None:
        return found
    try:
        found, line = _sniff(path, kind)
    except OSError as err:
        raise InputError(
            path, f"cannot read the file ({err.strerror})", "check its permissions"
        ) from None
    if found is None:
        option = "--gold-format" if kind == "gold" else "--run-format"
        raise InputError(
            path,
            f"cannot tell the {kind} file's format (supported: {', '.join(supported)})",
            f"force one with {option} or use a known extension",
            line,
        )
    return found


def _sniff(path: Path, kind: Kind) -> tuple[str | None, int]:
    """Guess from the first record line; returns (format or None, that line)."""
    with path.open("rb") as handle:
        if handle.read(4) == b"PAR1":
            return ("parquet" if kind == "run" else None), 1
        handle.seek(0)
        for number, raw in enumerate(handle, start=1):
            line = raw.decode("utf-8", errors="replace").strip().removeprefix(BOM).strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("{"):
                more = any(rest.strip() for rest in handle)
                return _sniff_json(line, more, kind), number
            fields = line.split()
            if kind == "gold" and len(fields) == 4:
                return "qrels", number
            if kind == "run" and len(fields) >= 6:
                return "trec", number
            if "," in line:
                return "csv", number
            return None, number
    return None, 1


def _sniff_json(line: str, more: bool, kind: Kind) -> str:
    """JSON Lines when the first line is a whole object, unless it is a lone ranx map."""
    if kind == "gold":
        return "jsonl"
    try:
        record = json.loads(line)
    except (json.JSONDecodeError, RecursionError):
        return "json"  # an object spread over several lines
    ranx = isinstance(record, dict) and all(isinstance(v, dict) for v in record.values())
    return "json" if ranx and not more and "_meta" not in record else "jsonl"
