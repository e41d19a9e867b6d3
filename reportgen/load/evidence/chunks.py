"""Chunk maps: where each chunk of a chunking lies in its document, as JSONL, CSV or Parquet.

``chunk_id, doc, start, end`` (characters, ``[start, end)``), optionally the chunk's
``text`` and the manifest's metadata (audience, doc_version, valid_from, valid_to).
A chunk map is what lets one gold set of evidence spans score any chunking, and it
also serves as the index manifest. Maps run to millions of rows, so they are read by
Polars; only a file that fails that fast path is read again record by record, to name
the line that is wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.filesystem import reading
from reportgen.core.model import CHUNKS_SCHEMA, ChunkMap
from reportgen.errors import InputError, UsageError, printable
from reportgen.load.formats.csv_input import csv_frame, optional_column
from reportgen.load.formats.files import check_file, first_line, polars_source, read_lines
from reportgen.load.formats.ids import json_id, refuse_bad_ids
from reportgen.load.formats.json_input import json_type, pick
from reportgen.load.formats.meta import records_without_meta

CHUNK_MAP_FORMATS = ("jsonl", "csv", "parquet")
CHUNK_KEYS = ("chunk_id", "id")
DOC_KEYS = ("doc", "document")
TEXTS = ("text", "audience", "doc_version", "valid_from", "valid_to")
_EXTENSIONS = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".parquet": "parquet"}
_LAYOUT = "chunk_id, doc, start, end (and optionally text)"


def load_chunk_map(path: str | Path, fmt: str | None = None) -> ChunkMap:
    """Read and validate a chunk map: every chunk once, inside its document, start < end."""
    path = Path(path)
    fmt = _detect(path, fmt)
    frame, index_version = {"jsonl": _jsonl, "csv": _csv, "parquet": _parquet}[fmt](path)
    if frame.height == 0:
        raise InputError(
            path, "no chunks in the chunk map", f"write one row per chunk: {_LAYOUT}", 1
        )
    return ChunkMap(
        chunks=_validated(path, frame), source=printable(path), index_version=index_version
    )


def parse_chunks_spec(spec: str) -> tuple[str | None, Path]:
    """``NAME=PATH`` (the chunk map of one run) or ``PATH`` (of every run)."""
    if "=" not in spec or Path(spec).is_file():
        return None, Path(spec)
    name, _, path = spec.partition("=")
    if not name.strip() or not path:
        raise UsageError(
            f"chunk map {spec!r} has an empty name or path",
            "write --chunks PATH for every run, or --chunks NAME=PATH for one run",
        )
    return printable(name.strip()), Path(path)


def _detect(path: Path, fmt: str | None) -> str:
    if fmt is not None:
        if fmt not in CHUNK_MAP_FORMATS:
            raise UsageError(
                f"unknown chunk map format {fmt!r}", f"use one of {', '.join(CHUNK_MAP_FORMATS)}"
            )
        return fmt
    check_file(path)
    found = _EXTENSIONS.get(path.suffix.lower())
    if found is None:
        raise InputError(
            path,
            f"cannot tell the chunk map's format from the name {path.name!r}",
            "name it .jsonl, .csv or .parquet",
        )
    return found


_JSON_FIELDS = {
    **dict.fromkeys(CHUNK_KEYS, pl.String),
    **dict.fromkeys(DOC_KEYS, pl.String),
    "start": pl.Int64,
    "end": pl.Int64,
    **dict.fromkeys(TEXTS, pl.String),
}
_META = pl.Struct({"index_version": pl.String})


def _jsonl(path: Path) -> tuple[pl.DataFrame, str | None]:
    """One object per line; an optional ``_meta`` line names the index version."""
    lines = read_lines(path).filter(pl.col("text").str.strip_chars() != "")
    dtype = pl.Struct({**_JSON_FIELDS, "_meta": _META})
    try:
        decoded = lines.select("line", pl.col("text").str.json_decode(dtype).alias("r")).unnest("r")
    except pl.exceptions.PolarsError:
        return _jsonl_slowly(path)
    meta = decoded.filter(pl.col("_meta").is_not_null())
    rows = decoded.filter(pl.col("_meta").is_null())
    two_names = any(
        rows.select(pl.col(a).is_not_null() & pl.col(b).is_not_null()).to_series().any()
        for a, b in (CHUNK_KEYS, DOC_KEYS)
    )
    frame = rows.select(
        "line",
        pl.coalesce(*CHUNK_KEYS).str.strip_chars().alias("chunk_id"),
        pl.coalesce(*DOC_KEYS).str.strip_chars().alias("doc"),
        "start",
        "end",
        *TEXTS,
    )
    incomplete = frame.select(pl.col("chunk_id", "doc", "start", "end").is_null().any()).row(0)
    if meta.height > 1 or two_names or any(incomplete):
        return _jsonl_slowly(path)  # names the line and what is wrong with it
    version = meta.get_column("_meta").struct.field("index_version")
    return frame, (version[0] if version.len() else None)


def _jsonl_slowly(path: Path) -> tuple[pl.DataFrame, str | None]:
    """The same, checked record by record: only on the way to an error message."""
    data: dict[str, list[Any]] = {
        name: [] for name in ("line", "chunk_id", "doc", "start", "end", *TEXTS)
    }
    found: dict[str, str | None] = {}
    for line, record in records_without_meta(path, found):
        data["line"].append(line)
        for name, keys in (("chunk_id", CHUNK_KEYS), ("doc", DOC_KEYS)):
            value = pick(record, keys, path, line)
            if value is None:
                raise InputError(
                    path, f"a chunk without {name}", f"give every chunk its {name}", line
                )
            data[name].append(json_id(value, path, line, name.replace("_", " ")))
        for name in ("start", "end"):
            data[name].append(_offset(record.get(name), name, path, line))
        for name in TEXTS:
            value = record.get(name)
            if value is not None and not isinstance(value, str):
                raise InputError(
                    path,
                    f"{name} is a JSON {json_type(value)}, not a string",
                    f"quote the {name}",
                    line,
                )
            data[name].append(value)
    schema = {
        "line": pl.Int64,
        "chunk_id": pl.String,
        "doc": pl.String,
        "start": pl.Int64,
        "end": pl.Int64,
    }
    frame = pl.DataFrame(data, schema=schema | dict.fromkeys(TEXTS, pl.String))
    return frame, found.get("index_version")


def _offset(value: Any, name: str, path: Path, line: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        shown = "missing" if value is None else repr(value)
        raise InputError(
            path,
            f"{name} is {shown}, not a character offset",
            f"give {name} as a whole number of characters from the start of the document",
            line,
        )
    return value


def _csv(path: Path) -> tuple[pl.DataFrame, str | None]:
    header, rows = csv_frame(path)
    return _from_columns(path, header, rows.rename({f"c{i}": str(i) for i in range(len(header))}))


def _parquet(path: Path) -> tuple[pl.DataFrame, str | None]:
    """Columns as in CSV; row numbers (from 2, as if under a header) stand for lines."""
    check_file(path)
    try:
        with reading(path):
            table = pl.read_parquet(polars_source(path), glob=False)
    except pl.exceptions.PolarsError as err:
        raise InputError(
            path,
            f"not a readable Parquet file ({str(err).splitlines()[0]})",
            "write it again with a Parquet writer",
        ) from None
    header = [c.strip().lower() for c in table.columns]
    frame = table.rename({old: str(i) for i, old in enumerate(table.columns)}).with_columns(
        pl.int_range(2, pl.len() + 2, dtype=pl.Int64).alias("line")
    )
    return _from_columns(path, header, frame)


def _from_columns(
    path: Path, header: list[str], frame: pl.DataFrame
) -> tuple[pl.DataFrame, str | None]:
    """Pick the columns a chunk map has by name; numbers are checked here, not guessed."""

    def required(names: tuple[str, ...]) -> str:
        found = optional_column(header, names)
        if found is None:
            raise InputError(
                path,
                f"no {names[0]!r} column in the header ({', '.join(header)})",
                f"give the chunk map the columns {_LAYOUT}",
                1,
            )
        return str(found)

    picked = {
        "chunk_id": required(CHUNK_KEYS),
        "doc": required(DOC_KEYS),
        "start": required(("start",)),
        "end": required(("end",)),
    }
    optional = {name: optional_column(header, (name,)) for name in (*TEXTS, "index_version")}
    as_text = {
        name: pl.col(column).cast(pl.String).str.strip_chars() for name, column in picked.items()
    }
    out = frame.select(
        "line",
        *[expr.alias(name) for name, expr in as_text.items()],
        *[
            (pl.lit(None, pl.String) if i is None else pl.col(str(i)).cast(pl.String)).alias(name)
            for name, i in optional.items()
        ],
    )
    for name in ("start", "end"):
        raw = pl.col(name)
        number = raw.cast(pl.Int64, strict=False)
        if (line := first_line(out, number.is_null())) is not None:
            value = out.filter(pl.col("line") == line)[name].item()
            _offset(value, name, path, line)
        out = out.with_columns(number.alias(name))
    versions = out.get_column("index_version").drop_nulls().str.strip_chars()
    versions = versions.filter(versions != "").unique(maintain_order=True)
    if versions.len() > 1:
        line = first_line(out, pl.col("index_version").str.strip_chars() == versions[1])
        raise InputError(
            path,
            f"index_version {versions[1]!r} here, {versions[0]!r} above",
            "one chunk map describes one index: use one index_version",
            line,
        )
    return out.drop("index_version"), (versions[0] if versions.len() else None)


def _validated(path: Path, frame: pl.DataFrame) -> pl.DataFrame:
    """Ids present and plain, each chunk once, ``0 <= start < end``, dates as dates."""
    for name in ("chunk_id", "doc"):
        if (line := first_line(frame, pl.col(name).is_null() | (pl.col(name) == ""))) is not None:
            raise InputError(path, f"empty {name}", f"give every chunk its {name}", line)
    refuse_bad_ids(path, frame, {"chunk_id": "chunk id"})
    bad = (pl.col("start") < 0) | (pl.col("end") <= pl.col("start"))
    if (line := first_line(frame, bad)) is not None:
        start, end = frame.filter(pl.col("line") == line).select("start", "end").row(0)
        raise InputError(
            path,
            f"the chunk runs from {start} to {end}",
            "give start >= 0 and end > start (characters, end exclusive)",
            line,
        )
    repeated = first_line(frame, ~pl.col("chunk_id").is_first_distinct())
    if repeated is not None:
        chunk = frame.filter(pl.col("line") == repeated)["chunk_id"].item()
        first = frame.filter(pl.col("chunk_id") == chunk)["line"][0]
        raise InputError(
            path, f"chunk {chunk} is also on line {first}", "list each chunk once", repeated
        )
    texts = [
        pl.col(name).str.strip_chars().replace("", None) for name in ("audience", "doc_version")
    ]
    frame = frame.with_columns(*texts, pl.col("text").replace("", None))
    for name in ("valid_from", "valid_to"):
        raw = pl.col(name).str.strip_chars().replace("", None)
        parsed = raw.str.slice(0, 10).str.to_date("%Y-%m-%d", strict=False)
        if (line := first_line(frame, raw.is_not_null() & parsed.is_null())) is not None:
            value = frame.filter(pl.col("line") == line)[name].item()
            raise InputError(
                path,
                f"{name} {value!r} is not a date",
                "write dates as YYYY-MM-DD, e.g. 2026-06-30",
                line,
            )
        frame = frame.with_columns(parsed.alias(name))
    if (line := first_line(frame, pl.col("valid_from") > pl.col("valid_to"))) is not None:
        raise InputError(
            path, "valid_from is after valid_to", "swap the dates or correct one of them", line
        )
    return frame.select(CHUNKS_SCHEMA.names()).cast(CHUNKS_SCHEMA)
