"""Reading a file as bytes, text or lines, with every failure named by its line.

The format readers build on these so that a missing file, a directory, bad UTF-8 or
CR-only line endings read the same whatever the format, and always as an InputError.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from reportgen.core.filesystem import check_readable_file, is_text, reading
from reportgen.errors import InputError

BOM = "\ufeff"


def check_file(path: Path) -> None:
    """Fail early and plainly on a path that is not a readable regular file."""
    check_readable_file(path)


def read_bytes(path: Path) -> bytes:
    check_file(path)
    with reading(path):
        return path.read_bytes()


def polars_source(path: Path) -> Path | bytes:
    """What to hand Polars for ``path``: the path, or its bytes when the name is not
    UTF-8 (Polars takes only text paths, and fails on others with a TypeError)."""
    if is_text(str(path)):
        return path
    with reading(path):
        return path.read_bytes()


def line_at(data: bytes, offset: int) -> int:
    """1-based line of a byte offset, for errors found in raw bytes."""
    return data.count(b"\n", 0, offset) + 1


def line_at_text(text: str, offset: int) -> int:
    """1-based line of a character offset in a text."""
    return text.count("\n", 0, offset) + 1


def decode(path: Path, data: bytes) -> str:
    """UTF-8 text without a byte-order mark; bad bytes are reported with their line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(
            path,
            f"bytes that are not UTF-8 ({data[err.start : err.start + 4]!r})",
            "save the file as UTF-8",
            line_at(data, err.start),
        ) from None
    return text.removeprefix(BOM)


def read_text(path: Path) -> str:
    return decode(path, read_bytes(path))


def head_line(path: Path) -> str:
    """The file's first line (BOM dropped), to tell a layout by; "" when unreadable,
    for the reader that follows says why."""
    try:
        check_file(path)
        with path.open("rb") as handle:
            return handle.readline(4096).decode("utf-8", errors="replace").removeprefix(BOM)
    except (OSError, InputError):
        return ""


def read_lines(path: Path) -> pl.DataFrame:
    """Lines as a frame (``line`` 1-based, ``text``), read by Polars for large files.

    CRLF endings are accepted; a leading byte-order mark is dropped.
    """
    check_file(path)
    try:
        with reading(path):
            frame = pl.read_lines(
                polars_source(path),
                name="text",
                row_index_name="line",
                row_index_offset=1,
                glob=False,
            )
    except pl.exceptions.PolarsError:
        decode(path, read_bytes(path))  # raises with the line of the first bad byte
        raise InputError(
            path, "cannot read the file as text lines", "save it as UTF-8 text"
        ) from None
    frame = frame.with_columns(pl.col("line").cast(pl.Int64))
    if frame.height == 1:
        refuse_cr_only(path, frame["text"][0])
    if frame.height and frame["text"][0].startswith(BOM):
        frame = frame.with_columns(pl.col("text").str.strip_prefix(BOM))
    return frame


def refuse_cr_only(path: Path, text: str) -> None:
    """A file read as one line that holds carriage returns inside: lines that end with
    CR alone (classic Mac OS), which no line-based format here reads."""
    if "\n" not in text and "\r" in text.rstrip("\r"):
        raise InputError(
            path,
            "lines end with a carriage return alone (CR, classic Mac OS line endings)",
            "save the file with LF or CRLF line endings (e.g. tr '\\r' '\\n' < in > out)",
            1,
        )


def first_line(frame: pl.DataFrame, bad: pl.Expr) -> int | None:
    """Line of the first row where ``bad`` holds, or None when every row is fine."""
    hit = frame.lazy().filter(bad).select(pl.col("line").min()).collect().item()
    return None if hit is None else int(hit)
