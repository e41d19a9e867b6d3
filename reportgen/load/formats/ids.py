"""Question and chunk ids: stripped, never empty, short and free of control characters.

An id that is a whole passage or holds a control character is a broken line, not an
id; it is refused before it can reach a page or a terminal.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.errors import InputError
from reportgen.load.formats.files import first_line
from reportgen.load.formats.json_input import json_type

MAX_ID_LENGTH = 512
"""Longer than any real id: such a value is a whole passage or a broken line."""

_CONTROL = "[\x00-\x1f\x7f]"
_CONTROL_CHARS = [*map(chr, range(0x20)), "\x7f"]
WHITE_SPACE = [
    *("\t", "\n", "\x0b", "\x0c", "\r", " ", "\x85", "\xa0", "\u1680"),
    *map(chr, range(0x2000, 0x200B)),
    *("\u2028", "\u2029", "\u202f", "\u205f", "\u3000"),
]
"""What ``str.strip_chars()`` strips and the regex ``\\s`` matches (Unicode White_Space)."""


def id_problem(value: str) -> str | None:
    """What is wrong with an id's text (too long, control characters), or None."""
    if len(value) > MAX_ID_LENGTH:
        return f"{len(value)} characters long (at most {MAX_ID_LENGTH})"
    if re.search(_CONTROL, value):
        return "holds a control character"
    return None


def checked_id(value: str, path: Path, line: int, what: str) -> str:
    if (problem := id_problem(value)) is not None:
        raise InputError(
            path, f"a {what} that {problem}", f"write each {what} as a short plain id", line
        )
    return value


def suspect_id(text: pl.Expr) -> pl.Expr:
    """Whether an id may fail :func:`checked_id`, at a fraction of the cost of knowing.

    Never misses a bad id: a text of at most 512 bytes has at most 512 characters, and
    the control characters are looked for as literals, not with a regex. Only a hit is
    worth the exact check (a long id of multi-byte characters can be a false alarm).
    """
    return (text.str.len_bytes() > MAX_ID_LENGTH) | text.str.contains_any(_CONTROL_CHARS)


def odd_id(text: pl.Expr) -> pl.Expr:
    """:func:`suspect_id`, or white space anywhere (padding is white space at an end),
    or empty: every id that may need a closer look, in one pass over the text. Looking
    for white space too costs what looking for the control characters alone does."""
    too_long = text.str.len_bytes() > MAX_ID_LENGTH
    return text.is_null() | (text == "") | too_long | text.str.contains_any(_ODD_CHARS)


_ODD_CHARS = sorted({*_CONTROL_CHARS, *WHITE_SPACE})


def refuse_bad_ids(path: Path, frame: pl.DataFrame, columns: dict[str, str]) -> None:
    """The frame form of :func:`checked_id`: when a cheap pass suspects something, one
    pass per column names the first bad line."""
    if not frame.select(pl.any_horizontal(suspect_id(pl.col(col)) for col in columns).any()).item():
        return
    for col, what in columns.items():
        text = pl.col(col)
        bad = (text.str.len_chars() > MAX_ID_LENGTH) | text.str.contains(_CONTROL)
        if (line := first_line(frame, bad)) is not None:
            values = frame.filter((pl.col("line") == line) & bad)[col]
            checked_id(values[0], path, line, what)


def text_id(value: str, path: Path, line: int, what: str) -> str:
    """An id from a text field: stripped, and never empty."""
    value = value.strip()
    if not value:
        raise InputError(path, f"empty {what}", f"give every row its {what}", line)
    return checked_id(value, path, line, what)


def json_id(value: Any, path: Path, line: int, what: str) -> str:
    """An id from JSON: a string or a number, turned into a stripped string."""
    text: str
    if isinstance(value, str):
        text = value.strip()
    elif isinstance(value, int | float) and not isinstance(value, bool):
        finite = not isinstance(value, float) or math.isfinite(value)
        text = str(value) if finite else ""
    else:
        raise InputError(
            path,
            f"{what} is a JSON {json_type(value)}, not a string",
            f"write the {what} as a string",
            line,
        )
    if not text:
        raise InputError(path, f"empty {what}", f"give every record its {what}", line)
    return checked_id(text, path, line, what)
