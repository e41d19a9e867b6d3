"""JSON documents and JSON Lines records, refused when report.json could not carry them.

Python's json module reads NaN, Infinity, huge numbers and lone surrogates; none of them
survive into a JSON report, so they are refused here, with the line they are on.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from reportgen.errors import InputError, printable
from reportgen.load.formats.files import line_at_text, read_text, refuse_cr_only


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
