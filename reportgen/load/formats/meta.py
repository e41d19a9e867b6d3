"""JSON Lines files with one optional ``_meta`` line (versions) and one record per question."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from reportgen.errors import InputError
from reportgen.load.formats.ids import json_id
from reportgen.load.formats.json_input import json_records, pick
from reportgen.load.formats.vocabulary import ID_KEYS


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
    path: Path, meta_found: dict[str, str | None]
) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """(line, question id, record) of a file with one line per question (gold, runs)."""
    return identified(path, records_without_meta(path, meta_found))


def identified(
    path: Path, records: Iterable[tuple[int, dict[str, Any]]]
) -> Iterator[tuple[int, str, dict[str, Any]]]:
    """(line, question id, record) of records read anywhere (a file, a dict in memory)."""
    seen: dict[str, int] = {}
    for line, record in records:
        raw_id = pick(record, ID_KEYS, path, line)
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
    """The ``_meta`` line's version, index version and run name, checked as strings."""
    body = record["_meta"]
    if not isinstance(body, dict):
        raise InputError(
            path, "_meta is not an object", 'write {"_meta": {"version": "..."}}', line
        )
    found: dict[str, str | None] = {}
    for key in ("version", "index_version", "run"):
        value = body.get(key)
        if value is not None and not isinstance(value, str | int | float):
            raise InputError(path, f"_meta {key} is not a string", f"quote the {key}", line)
        found[key] = None if value is None else str(value)
    return found
