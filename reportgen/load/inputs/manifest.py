"""Index manifests: the chunk ids that exist now, the index's version, optional metadata.

Three shapes, all common in ingestion pipelines: one id per line (``# index_version:
X`` as a comment), JSON Lines (an optional ``_meta`` line, then one object per chunk)
and CSV with a header. Metadata (audience, document version, valid from/to) is what
turns a manifest into a list of chunks that must not reach a given audience.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.model import MANIFEST_SCHEMA, Manifest
from reportgen.errors import InputError, printable
from reportgen.load.formats.csv_input import csv_rows, optional_column
from reportgen.load.formats.files import first_line, read_lines
from reportgen.load.formats.ids import json_id, refuse_bad_ids, text_id
from reportgen.load.formats.json_input import json_type, pick
from reportgen.load.formats.meta import records_without_meta
from reportgen.load.formats.vocabulary import CHUNK_KEYS, detect_format

VERSION_KEYS = ("doc_version", "document_version")
METADATA = ("audience", "doc_version", "valid_from", "valid_to")
_VERSION_COMMENT = re.compile(r"^#\s*index[_ ]version\s*[:=]\s*(\S.*?)\s*$", re.IGNORECASE)


def load_manifest(
    path: str | Path, fmt: str | None = None, *, index_version: str | None = None
) -> Manifest:
    """Read a manifest; ``index_version`` overrides what the file says."""
    path = Path(path)
    fmt = detect_format(path, fmt, "manifest")
    readers = {"lines": _lines, "jsonl": _jsonl, "csv": _csv}
    rows, found_version = readers[fmt](path)
    if rows.height == 0:
        raise InputError(path, "no chunk ids in the manifest", "list one chunk id per line", 1)
    _refuse_repeats(path, rows)
    late = first_line(rows, pl.col("valid_from") > pl.col("valid_to"))
    if late is not None:
        raise InputError(
            path, "valid_from is after valid_to", "swap the dates or correct one of them", late
        )
    return Manifest(
        chunks=rows.select(MANIFEST_SCHEMA.names()).cast(MANIFEST_SCHEMA),
        source=printable(path),
        index_version=index_version if index_version is not None else found_version,
    )


def _frame(data: dict[str, list[Any]]) -> pl.DataFrame:
    return pl.DataFrame(data, schema=MANIFEST_SCHEMA)


def _lines(path: Path) -> tuple[pl.DataFrame, str | None]:
    """One id per line; ``#`` lines are comments, one of them may name the index version."""
    lines = read_lines(path).with_columns(pl.col("text").str.strip_chars())
    comments = lines.filter(pl.col("text").str.starts_with("#"))
    versions = comments["text"].str.extract(_VERSION_COMMENT.pattern, 1).drop_nulls()
    if versions.n_unique() > 1:
        raise InputError(
            path,
            f"two index versions ({versions[0]}, {versions[1]})",
            "keep one '# index_version: ...' line",
            first_line(comments, pl.col("text").str.contains(_VERSION_COMMENT.pattern)),
        )
    ids = lines.filter((pl.col("text") != "") & ~pl.col("text").str.starts_with("#"))
    spaced = first_line(ids, pl.col("text").str.contains(r"\s"))
    if spaced is not None:
        raise InputError(
            path,
            "more than one field on a line",
            "write one chunk id per line, or use JSON Lines or CSV for metadata",
            spaced,
        )
    rows = ids.select(pl.col("text").alias("chunk_id"), "line")
    refuse_bad_ids(path, rows, {"chunk_id": "chunk id"})
    frame = rows.with_columns(
        *[pl.lit(None, MANIFEST_SCHEMA[name]).alias(name) for name in METADATA]
    )
    return frame.select(MANIFEST_SCHEMA.names()), (versions[0] if versions.len() else None)


def _jsonl(path: Path) -> tuple[pl.DataFrame, str | None]:
    data: dict[str, list[Any]] = {name: [] for name in MANIFEST_SCHEMA}
    found: dict[str, str | None] = {}
    for line, record in records_without_meta(path, found):
        raw = pick(record, CHUNK_KEYS, path, line)
        if raw is None:
            raise InputError(path, "a record without a chunk id", 'add "chunk_id": "..."', line)
        data["chunk_id"].append(json_id(raw, path, line, "chunk id"))
        data["audience"].append(_label(record.get("audience"), "audience", path, line))
        version = pick(record, VERSION_KEYS, path, line)
        data["doc_version"].append(_label(version, "doc_version", path, line, numbers=True))
        for key in ("valid_from", "valid_to"):
            data[key].append(_date(record.get(key), key, path, line))
        data["line"].append(line)
    return _frame(data), found.get("index_version")


def _csv(path: Path) -> tuple[pl.DataFrame, str | None]:
    """A header with ``chunk_id``; optional metadata columns and an ``index_version`` column."""
    header, rows = csv_rows(path)
    chunk = optional_column(header, CHUNK_KEYS)
    if chunk is None:
        raise InputError(
            path,
            f"no 'chunk_id' column in the header ({', '.join(header)})",
            "add a column named 'chunk_id' (or 'id')",
            1,
        )
    columns = {
        "audience": optional_column(header, ("audience",)),
        "doc_version": optional_column(header, VERSION_KEYS),
        "valid_from": optional_column(header, ("valid_from",)),
        "valid_to": optional_column(header, ("valid_to",)),
    }
    version_column = optional_column(header, ("index_version",))
    data: dict[str, list[Any]] = {name: [] for name in MANIFEST_SCHEMA}
    versions: dict[str, int] = {}
    for line, fields in rows:
        data["chunk_id"].append(text_id(fields[chunk], path, line, "chunk id"))
        got = {k: (None if i is None else fields[i].strip() or None) for k, i in columns.items()}
        data["audience"].append(got["audience"])
        data["doc_version"].append(got["doc_version"])
        for key in ("valid_from", "valid_to"):
            data[key].append(_date(got[key], key, path, line))
        data["line"].append(line)
        if version_column is not None and (value := fields[version_column].strip()):
            versions.setdefault(value, line)
            if len(versions) > 1:
                raise InputError(
                    path,
                    f"index_version {value!r} here, {next(iter(versions))!r} above",
                    "one manifest describes one index: use one index_version",
                    line,
                )
    return _frame(data), next(iter(versions), None)


def _label(value: Any, key: str, path: Path, line: int, *, numbers: bool = False) -> str | None:
    if value is None:
        return None
    ok = isinstance(value, str) or (
        numbers and isinstance(value, int | float) and not isinstance(value, bool)
    )
    if not ok:
        raise InputError(
            path, f"{key} is a JSON {json_type(value)}, not a string", f"quote the {key}", line
        )
    return " ".join(str(value).split()) or None


def _date(value: Any, key: str, path: Path, line: int) -> date | None:
    """An ISO date (``2026-06-30``) or date-time; the time of day is dropped."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        text = value.strip()
        try:
            return date.fromisoformat(text)
        except ValueError:
            pass
        try:
            return datetime.fromisoformat(text).date()
        except ValueError:
            pass
    raise InputError(
        path, f"{key} {value!r} is not a date", "write dates as YYYY-MM-DD, e.g. 2026-06-30", line
    )


def _refuse_repeats(path: Path, rows: pl.DataFrame) -> None:
    """A chunk listed twice is a broken export: its two metadata rows may disagree."""
    repeated = first_line(rows, ~pl.col("chunk_id").is_first_distinct())
    if repeated is None:
        return
    chunk = str(rows.filter(pl.col("line") == repeated)["chunk_id"][0])
    first = rows.filter(pl.col("chunk_id") == chunk)["line"][0]
    raise InputError(
        path,
        f"chunk {chunk} is also on line {first}",
        "list each chunk once",
        repeated,
    )
