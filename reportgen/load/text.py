"""Reading files as lines, JSON records or CSV rows, with every failure named by line.

The format readers build on these so that a missing file, a directory, bad UTF-8 or
a broken JSON line reads the same whatever the format, and always as an InputError.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import math
import operator
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.errors import InputError, printable
from reportgen.filesystem import check_readable_file, is_text, reading

BOM = "\ufeff"
MAX_ID_LENGTH = 512
"""Longer than any real id: such a value is a whole passage or a broken line."""
_CONTROL = "[\x00-\x1f\x7f]"
_CONTROL_CHARS = [*map(chr, range(0x20)), "\x7f"]


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


_FIELD = r"[^ \t\n\v\f\r]+"
_GAP = r"[ \t\n\v\f\r]+"
_SPACE = r"[ \t\n\v\f\r]*"


def fields(
    path: Path, lines: pl.DataFrame, names: dict[int, str], width: int, exact: bool, layout: str
) -> pl.DataFrame:
    """Pick whitespace-separated fields by position, one regex pass (no Python loop).

    Blank lines and lines starting with ``#`` are skipped (``doc#3`` is still an id);
    a line with fewer than ``width`` fields (or more, when ``exact``) is an error.
    Field 0 is always picked: it tells comment lines apart.
    """
    names = {0: "_first"} | names
    groups = [f"({_FIELD})" if i in names else _FIELD for i in range(width)]
    pattern = "^" + _SPACE + _GAP.join(groups) + (_SPACE + "$" if exact else "")
    picked = [names[i] for i in sorted(names)]
    frame = lines.with_columns(
        pl.col("text").str.extract_groups(pattern).struct.rename_fields(picked).alias("_f")
    ).unnest("_f")
    first = pl.col(names[0])
    odd = frame.filter(first.is_null() & ~pl.col("text").str.contains("^" + _SPACE + "(#|$)"))
    if odd.height:
        count = len(odd["text"][0].split())
        raise InputError(
            path,
            f"{count} columns where {'exactly' if exact else 'at least'} {width} are needed",
            f"write each line as: {layout}",
            int(odd["line"][0]),
        )
    keep = [n for n in picked if not n.startswith("_")]
    return frame.filter(first.is_not_null() & ~first.str.starts_with("#")).select("line", *keep)


def plain_fields(
    path: Path, names: dict[int, str], width: int, types: dict[int, pl.DataType] | None = None
) -> pl.DataFrame | None:
    """The common case of :func:`fields`, read by Polars' CSV reader: much faster.

    Applies when every line has exactly ``width`` fields separated by one space (what
    trec_eval, Anserini and pytrec_eval write). Blank lines are skipped and keep their
    line numbers. Anything else (tabs, runs of spaces, comments, extra or missing
    columns, bad bytes) returns None, and the caller takes the general path, which
    reads every layout it allows and reports problems by line.

    ``types`` reads some columns as numbers straight away, which costs less than
    casting strings (the reader and ``cast`` parse alike). A value the reader cannot
    parse sends it back to reading strings, so that the caller's checks meet the same
    frame, in the same order, as without ``types``.
    """
    # One column more than the layout: it stays null unless a line has an extra field
    # or an empty one (two spaces in a row), which the general path handles.
    columns = [f"_{i}" for i in range(width)]
    frame = _scan_plain(path, columns, types or {})
    if frame is None and types:
        frame = _scan_plain(path, columns, {})
    if frame is None:
        return None
    blank = pl.all_horizontal(pl.col(*columns, "_extra").is_null())
    irregular = ~blank & (
        pl.any_horizontal(pl.col(columns).is_null())
        | pl.col("_extra").is_not_null()
        | pl.col("_0").str.starts_with("#")
    )
    found_blank, found_irregular = frame.select(
        blank.any().alias("blank"), irregular.any().alias("irregular")
    ).row(0)
    if found_irregular:
        return None
    if found_blank:
        frame = frame.filter(~blank)
    if frame.height == 0:
        return None
    picked = {f"_{i}": name for i, name in names.items()}
    return frame.select(pl.col("line").cast(pl.Int64), *picked).rename(picked)


def _scan_plain(
    path: Path, columns: list[str], types: dict[int, pl.DataType]
) -> pl.DataFrame | None:
    """The file read by the CSV reader, plus a column for an extra field; None on failure."""
    schema = {name: types.get(i, pl.String()) for i, name in enumerate(columns)}
    try:
        return (
            pl.scan_csv(
                polars_source(path),
                glob=False,
                separator=" ",
                has_header=False,
                quote_char=None,
                schema=pl.Schema(schema | {"_extra": pl.String()}),
                missing_columns="insert",
            )
            .with_row_index("line", offset=1)
            .collect()
        )
    except (pl.exceptions.PolarsError, OSError, InputError):
        return None


def split_fields(
    path: Path,
    names: dict[int, str],
    width: int,
    exact: bool,
    layout: str,
    types: dict[int, pl.DataType] | None = None,
) -> pl.DataFrame:
    """Fields of a whitespace-separated file: :func:`plain_fields` when it applies.

    Columns in ``types`` come typed from the fast path and as text from the general
    one: cast them either way.
    """
    plain = plain_fields(path, names, width, types)
    if plain is not None:
        return plain
    return fields(path, read_lines(path), names, width, exact, layout)


def first_repeat(frame: pl.DataFrame, keys: list[str]) -> tuple[dict[str, Any], int, int] | None:
    """The earliest row whose ``keys`` stood on an earlier line: its keys and both lines."""
    clash = (
        frame.filter(pl.struct(keys).is_duplicated())
        .group_by(keys)
        .agg(pl.col("line").sort().head(2))
        .with_columns(pl.col("line").list.get(1).alias("second"))
        .sort("second")
        .head(1)
    )
    if clash.height == 0:
        return None
    row = clash.row(0, named=True)
    first, second = row["line"]
    return row, first, second


def keys_hash(keys: list[str]) -> pl.Expr:
    """One 64-bit hash of each row's ``keys``, to prove cheaply that no keys repeat.

    All hashes different means all keys different; equal hashes may be a collision,
    so a caller then counts exactly. Each key has its own seed: a row whose keys are
    equal to each other does not hash to zero.
    """
    return functools.reduce(
        operator.xor, (pl.col(key).hash(seed=seed) for seed, key in enumerate(keys))
    )


def first_line(frame: pl.DataFrame, bad: pl.Expr) -> int | None:
    """Line of the first row where ``bad`` holds, or None when every row is fine."""
    hit = frame.lazy().filter(bad).select(pl.col("line").min()).collect().item()
    return None if hit is None else int(hit)


class UnreadableJSON(ValueError):
    """A JSON value that parses but that reportgen cannot carry into report.json."""

    def __init__(self, problem: str, fix: str, token: re.Pattern[str]) -> None:
        super().__init__(problem)
        self.problem, self.fix, self.token = problem, fix, token


_NON_FINITE_TOKEN = re.compile(r"(?<![\w\"])(-?Infinity|NaN)(?![\w\"])")
_BIG_EXPONENT = re.compile(r"\d[eE]\+?0*[1-9]\d{2,}|\d{309}")
_LONG_INTEGER = re.compile(r"\d{4301,}")
_LONE_SURROGATE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
_NUMBER_FIX = "write numbers as finite JSON numbers (JSON has no NaN or Infinity)"


def _no_constant(token: str) -> float:
    raise UnreadableJSON(
        f"{token}, a number that is NaN or infinite", _NUMBER_FIX, _NON_FINITE_TOKEN
    )


def _finite_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise UnreadableJSON(
            f"the number {token[:20]} is NaN or infinite once read (too large)",
            _NUMBER_FIX,
            _BIG_EXPONENT,
        )
    return value


def _has_lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return printable(value) != value
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(item) for item in value)
    return False


def strict_loads(text: str) -> Any:
    """``json.loads`` that refuses what report.json could not hold, as ``UnreadableJSON``.

    NaN and Infinity (which Python reads, JSON does not allow), a number so large it
    reads as infinite, an integer over Python's 4,300 digits, a string holding a lone
    surrogate (``"\\ud800"``: not text; no file, page or terminal can hold it). The
    costly checks run only when a cheap scan of the text finds a candidate.
    """
    strict_floats = _BIG_EXPONENT.search(text) is not None
    try:
        value = json.loads(
            text,
            parse_constant=_no_constant,
            parse_float=_finite_float if strict_floats else None,
        )
    except UnreadableJSON:
        raise
    except json.JSONDecodeError:
        raise
    except ValueError:  # int() over sys.get_int_max_str_digits()
        raise UnreadableJSON(
            "an integer with more than 4,300 digits",
            "write ids as strings and numbers in a sane range",
            _LONG_INTEGER,
        ) from None
    if _LONE_SURROGATE.search(text) and _has_lone_surrogate(value):
        raise UnreadableJSON(
            "a string with a lone surrogate escape (like \\ud800), which is not text",
            "write the character itself, or a surrogate pair (\\ud83d\\ude00)",
            _LONE_SURROGATE,
        )
    return value


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


def json_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each non-blank line of a JSON Lines file as (line, object)."""
    text = read_text(path)
    refuse_cr_only(path, text)
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip():
            continue
        try:
            record = strict_loads(raw)
        except json.JSONDecodeError as err:
            raise InputError(
                path,
                f"not valid JSON ({err.msg} at column {err.colno})",
                "write one complete JSON object per line",
                number,
            ) from None
        except UnreadableJSON as err:
            raise InputError(path, err.problem, err.fix, number) from None
        except RecursionError:
            raise InputError(path, "JSON nested too deeply", "flatten the record", number) from None
        if not isinstance(record, dict):
            raise InputError(
                path,
                f"a JSON {json_type(record)} where an object was expected",
                'write one object per line, like {"id": "q1", ...}',
                number,
            )
        yield number, record


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


def text_id(value: str, path: Path, line: int, what: str) -> str:
    """An id from a text field: stripped, and never empty."""
    value = value.strip()
    if not value:
        raise InputError(path, f"empty {what}", f"give every row its {what}", line)
    return checked_id(value, path, line, what)


def json_type(value: Any) -> str:
    """JSON's own name for a parsed value's type, for messages."""
    names = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}
    return names.get(type(value), "number")


def as_number(value: Any) -> float | None:
    """A JSON number as a finite float, or None when it is not one (bool, text, 1e999)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None


def fits_int64(value: int) -> bool:
    return -(2**63) <= value < 2**63


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


def pick(record: dict[str, Any], names: tuple[str, ...], path: Path, line: int) -> Any:
    """The value under the first of ``names`` present; two aliases at once is ambiguous."""
    present = [n for n in names if n in record]
    if len(present) > 1:
        raise InputError(
            path,
            f"both {present[0]!r} and {present[1]!r} are given",
            f"keep only one of {', '.join(repr(n) for n in names)}",
            line,
        )
    return record[present[0]] if present else None


def json_document(path: Path, fix: str) -> Any:
    """A whole file as one JSON value; a syntax error is named by its line."""
    text = read_text(path)
    try:
        return strict_loads(text)
    except json.JSONDecodeError as err:
        raise InputError(path, f"not valid JSON ({err.msg})", fix, err.lineno) from None
    except UnreadableJSON as err:
        found = err.token.search(text)
        line = 1 if found is None else line_at_text(text, found.start())
        raise InputError(path, err.problem, err.fix, line) from None
    except RecursionError:
        raise InputError(path, "JSON nested too deeply", "flatten it", 1) from None


def records_without_meta(
    path: Path, meta_found: dict[str, str | None]
) -> Iterator[tuple[int, dict[str, Any]]]:
    """``json_records`` less the one optional ``_meta`` line, whose values fill ``meta_found``."""
    meta_line: int | None = None
    for line, record in json_records(path):
        if "_meta" not in record:
            yield line, record
            continue
        if meta_line is not None:
            raise InputError(
                path,
                f"a second _meta line (first on line {meta_line})",
                "merge them into one _meta line",
                line,
            )
        meta_line = line
        meta_found.update(meta(record, path, line))


def question_records(
    path: Path, meta_found: dict[str, str | None], id_keys: tuple[str, ...]
) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """(line, question id, record) of a file with one line per question (gold, runs)."""
    seen: dict[str, int] = {}
    for line, record in records_without_meta(path, meta_found):
        raw_id = pick(record, id_keys, path, line)
        if raw_id is None:
            raise InputError(path, "a line without a question id", 'add "id": "..."', line)
        qid = json_id(raw_id, path, line, "question id")
        if qid in seen:
            raise InputError(
                path,
                f"question {qid} is also on line {seen[qid]}",
                "give each question one line and a unique id",
                line,
            )
        seen[qid] = line
        yield line, qid, record


def meta(record: dict[str, Any], path: Path, line: int) -> dict[str, str | None]:
    """The ``_meta`` line's version and index version, checked as strings."""
    body = record["_meta"]
    if not isinstance(body, dict):
        raise InputError(
            path, "_meta is not an object", 'write {"_meta": {"version": "..."}}', line
        )
    found: dict[str, str | None] = {}
    for key in ("version", "index_version"):
        value = body.get(key)
        if value is not None and not isinstance(value, str | int | float):
            raise InputError(path, f"_meta {key} is not a string", f"quote the {key}", line)
        found[key] = None if value is None else str(value)
    return found
