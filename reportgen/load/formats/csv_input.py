"""CSV files with a header: rows as lists, or as a frame for large files.

Header names are stripped and lower-cased, so a column is found by its name (and its
aliases) whatever the spelling of its case.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.errors import InputError
from reportgen.load.formats.files import first_line, read_lines, read_text


def csv_rows(path: Path) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """Header (stripped, lower-cased) and (first line, fields) of each non-blank row."""
    reader = csv.reader(io.StringIO(read_text(path), newline="\n"), strict=True)
    rows: list[tuple[int, list[str]]] = []
    header: list[str] | None = None
    start = 1
    try:
        for fields in reader:
            line, start = start, reader.line_num + 1
            if not any(f.strip() for f in fields):
                continue
            if header is None:
                header = [f.strip().lower() for f in fields]
                continue
            if len(fields) != len(header):
                raise InputError(
                    path,
                    f"{len(fields)} fields where the header has {len(header)}",
                    "give every row the same columns as the header (quote values with commas)",
                    line,
                )
            rows.append((line, fields))
    except csv.Error as err:
        raise InputError(
            path, f"not valid CSV ({err})", "close every quoted value", reader.line_num
        ) from None
    if header is None:
        raise InputError(path, "the file has no header and no rows", "write a CSV header", 1)
    return header, rows


def optional_column(header: list[str], names: tuple[str, ...]) -> int | None:
    """Index of the first header column among ``names`` (aliases), first name preferred."""
    return next((header.index(name) for name in names if name in header), None)


def csv_frame(path: Path) -> tuple[list[str], pl.DataFrame]:
    """Header and rows as a frame (``line``, ``c0``.. as strings), for large CSV files.

    Without quotes every line is one row, so Polars splits them (exact line numbers,
    no Python loop); a file with quotes goes through the csv module instead.
    """
    lines = read_lines(path).filter(pl.col("text").str.strip_chars() != "")
    if lines["text"].str.contains('"', literal=True).any():
        header, rows = csv_rows(path)
        data: dict[str, list[Any]] = {"line": [line for line, _ in rows]}
        data |= {f"c{i}": [fields[i] for _, fields in rows] for i in range(len(header))}
        return header, pl.DataFrame(data, schema={n: pl.String for n in data} | {"line": pl.Int64})
    if lines.height == 0:
        raise InputError(path, "the file has no header and no rows", "write a CSV header", 1)
    header = [f.strip().lower() for f in lines["text"][0].split(",")]
    body = lines.slice(1).with_columns(pl.col("text").str.split(",").alias("f"))
    if (line := first_line(body, pl.col("f").list.len() != len(header))) is not None:
        count = len(body.filter(pl.col("line") == line)["f"].item())
        raise InputError(
            path,
            f"{count} fields where the header has {len(header)}",
            "give every row the same columns as the header (quote values with commas)",
            line,
        )
    picks = [pl.col("f").list.get(i).alias(f"c{i}") for i in range(len(header))]
    return header, body.select("line", *picks)


def column(path: Path, header: list[str], names: tuple[str, ...]) -> int:
    """Like :func:`optional_column`, for a column the file cannot do without."""
    found = optional_column(header, names)
    if found is None:
        raise InputError(
            path,
            f"no {names[0]!r} column in the header ({', '.join(header)})",
            f"add a column named {' or '.join(repr(n) for n in names)}",
            1,
        )
    return found
