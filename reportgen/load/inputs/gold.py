"""Gold sets from TREC qrels, JSON Lines or CSV, validated into a GoldSet.

Each reader checks what its format can get wrong and names the line; all of them
end in the same two frames, so nothing downstream knows which format it came from.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from dataclasses import field
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.model import (
    ATTRIBUTES_SCHEMA,
    FORBIDDEN_SCHEMA,
    JUDGMENTS_SCHEMA,
    QUESTIONS_SCHEMA,
    UNLABELLED_KIND,
    GoldSet,
    MisspeltKey,
)
from reportgen.core.records import dataclass
from reportgen.errors import InputError, printable
from reportgen.errors import closest as closest_choice
from reportgen.load.evidence.spans import evidence_frame, evidence_items
from reportgen.load.formats.csv_input import column, csv_rows, optional_column
from reportgen.load.formats.ids import checked_id, json_id, text_id
from reportgen.load.formats.json_input import fits_int64, json_type, pick
from reportgen.load.formats.meta import question_records
from reportgen.load.formats.vocabulary import (
    CHUNK_COLUMNS,
    ID_KEYS,
    detect_format,
    flag_word,
    parse_flag,
)
from reportgen.load.inputs.qrels import read_qrels

GOLD_KEYS = ("gold", "gold_chunks", "chunks")
RECORD_KEYS = (
    *ID_KEYS,
    *GOLD_KEYS,
    "question",
    "kind",
    "index_version",
    "unanswerable",
    "forbidden",
    "evidence",
    "provenance",
)
"""Every key reportgen reads in a gold JSON Lines record (``_meta`` lines apart)."""
NO_GOLD_FIX = 'add its gold chunk ids or set "unanswerable": true'
FORBIDDEN_REASON = "forbidden"
"""The reason of a forbidden chunk listed without one."""


@dataclass
class _Parsed:
    """What a reader found, before the set-level provenance is decided."""

    questions: dict[str, list[Any]] = field(
        default_factory=lambda: {name: [] for name in QUESTIONS_SCHEMA}
    )
    judgments: dict[str, list[Any]] = field(
        default_factory=lambda: {name: [] for name in JUDGMENTS_SCHEMA}
    )
    forbidden: dict[str, list[Any]] = field(
        default_factory=lambda: {name: [] for name in FORBIDDEN_SCHEMA}
    )
    version: str | None = None
    index_version: str | None = None
    misspelt: dict[str, MisspeltKey] = field(default_factory=dict)
    evidence: list[tuple[Any, ...]] = field(default_factory=list)
    attributes: list[tuple[str, str, str]] = field(default_factory=list)
    nested: set[str] = field(default_factory=set)

    def question(
        self, qid: str, text: str | None, kind: str | None, flag: bool, index_version: str | None
    ) -> None:
        row = (qid, text, kind or UNLABELLED_KIND, flag, index_version)
        for name, value in zip(QUESTIONS_SCHEMA, row, strict=True):
            self.questions[name].append(value)

    def frames(self) -> tuple[pl.DataFrame, pl.DataFrame]:
        """Questions and judgments, as every reader hands them on."""
        questions = pl.DataFrame(self.questions, schema=QUESTIONS_SCHEMA)
        return questions, pl.DataFrame(self.judgments, schema=JUDGMENTS_SCHEMA)

    def judge(self, qid: str, chunk_id: str, grade: int) -> None:
        for name, value in zip(JUDGMENTS_SCHEMA, (qid, chunk_id, grade), strict=True):
            self.judgments[name].append(value)

    def forbid(self, qid: str, chunk_id: str, reason: str) -> None:
        for name, value in zip(FORBIDDEN_SCHEMA, (qid, chunk_id, reason), strict=True):
            self.forbidden[name].append(value)


def load_gold(
    path: str | Path,
    fmt: str | None = None,
    *,
    version: str | None = None,
    index_version: str | None = None,
) -> GoldSet:
    """Read a gold set; ``version`` and ``index_version`` override what the file says."""
    path = Path(path)
    fmt = detect_format(path, fmt, "gold")
    if fmt == "qrels":
        return gold_set(path, *read_qrels(path), None, version, index_version)
    parsed = _jsonl(path) if fmt == "jsonl" else _csv(path)
    return gold_set(path, *parsed.frames(), parsed, version, index_version)


def gold_set(
    path: Path,
    questions: pl.DataFrame,
    judgments: pl.DataFrame,
    parsed: _Parsed | None = None,
    version: str | None = None,
    index_version: str | None = None,
) -> GoldSet:
    """The GoldSet of what a reader found, from a file or from memory."""
    parsed = parsed or _Parsed()
    if questions.height == 0:
        raise InputError(path, "no questions in the file", "add at least one question", 1)
    if index_version is None:
        index_version = parsed.index_version
    if index_version is None:
        distinct = questions["index_version"].drop_nulls().unique()
        index_version = distinct.item() if distinct.len() == 1 else None
    return GoldSet(
        questions=questions,
        judgments=judgments,
        forbidden=pl.DataFrame(parsed.forbidden, schema=FORBIDDEN_SCHEMA),
        attributes=pl.DataFrame(parsed.attributes, schema=ATTRIBUTES_SCHEMA, orient="row"),
        source=printable(path),
        version=version if version is not None else parsed.version,
        index_version=index_version,
        misspelt_keys=tuple(sorted(parsed.misspelt.values(), key=lambda m: (m.line, m.key))),
        evidence=evidence_frame(parsed.evidence),
        nested_fields=frozenset(parsed.nested),
    )


def _jsonl(path: Path) -> _Parsed:
    found: dict[str, str | None] = {}
    parsed = parsed_records(path, question_records(path, found))
    parsed.version, parsed.index_version = found.get("version"), found.get("index_version")
    return parsed


def parsed_records(path: Path, records: Iterable[tuple[int, str, dict[str, Any]]]) -> _Parsed:
    """Gold JSON records, one per question, checked: a file's lines or a dict's items."""
    parsed = _Parsed()
    for line, qid, record in records:
        if not record.keys() <= _KNOWN_KEYS:
            _note_misspelt(parsed, record, line)
        unanswerable = record.get("unanswerable", False)
        if unanswerable is None:
            unanswerable = False
        if not isinstance(unanswerable, bool):
            raise InputError(path, "unanswerable is not true or false", "write true or false", line)
        chunks = _gold_chunks(pick(record, GOLD_KEYS, path, line), path, line)
        evidence = evidence_items(record.get("evidence"), qid, path, line)
        if unanswerable and (chunks or evidence):
            raise InputError(
                path,
                f"question {qid} is unanswerable but has gold chunks or evidence",
                'remove its gold chunks and evidence or set "unanswerable": false',
                line,
            )
        parsed.evidence.extend(evidence)
        if not unanswerable and not chunks and not evidence:
            raise InputError(
                path,
                f"question {qid} has no gold chunks and no evidence",
                'add its gold chunk ids or "evidence", or set "unanswerable": true'
                + _misspelt_hint(parsed, record),
                line,
            )
        parsed.attributes.extend(own_fields(qid, record, _KNOWN_KEYS, parsed.nested))
        texts = [_text(record, key, path, line) for key in ("question", "kind", "index_version")]
        parsed.question(qid, texts[0], texts[1], unanswerable, texts[2])
        for chunk_id, grade in chunks.items():
            parsed.judge(qid, chunk_id, grade)
        for chunk_id, reason in _forbidden(record.get("forbidden"), path, line).items():
            if chunk_id in chunks:
                raise InputError(
                    path,
                    f"{chunk_id} is both a gold chunk and forbidden for question {qid}",
                    "remove it from one of the two lists",
                    line,
                )
            parsed.forbid(qid, chunk_id, reason)
    return parsed


def field_text(value: str | int | float | bool) -> str:
    """A field's value as a slice or cluster names it: JSON's true/false, numbers as written."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def own_fields(
    qid: str, record: dict[str, Any], known: frozenset[str], nested: set[str]
) -> Iterator[tuple[str, str, str]]:
    """(qid, field, value) of a record's fields reportgen does not read: a text, number or
    true/false gives one row, a list of them a row per distinct item (a question tagged
    ``["billing", "refunds"]`` is in both slices); null and ``[]`` give none (the
    question has no value). Fields holding objects go to ``nested``: they cannot slice."""
    for key, value in record.items():
        if key in known or value is None:
            continue
        if isinstance(value, str | int | float | bool):
            yield qid, key, field_text(value)
        elif isinstance(value, list) and all(
            isinstance(item, str | int | float | bool) for item in value
        ):
            for text in dict.fromkeys(field_text(item) for item in value):
                yield qid, key, text
        else:
            nested.add(key)


@functools.cache
def closest_key(key: str) -> str | None:
    """The key reportgen reads that ``key`` looks like a misspelling of, if any.

    Only a close match counts: other keys (``answer``, ``source``) are data a gold
    set keeps for people, and reportgen leaves them alone without a word.
    """
    return closest_choice(key.lower(), RECORD_KEYS, cutoff=0.75)


def _note_misspelt(parsed: _Parsed, record: dict[str, Any], line: int) -> None:
    for key in sorted(record.keys() - _KNOWN_KEYS):
        if (closest := closest_key(key)) is None:
            continue
        seen = parsed.misspelt.get(key)
        count = 1 if seen is None else seen.count + 1
        first = line if seen is None else seen.line
        parsed.misspelt[key] = MisspeltKey(printable(key), closest, first, count)


_KNOWN_KEYS = frozenset(RECORD_KEYS)


def _misspelt_hint(parsed: _Parsed, record: dict[str, Any]) -> str:
    """A fix's tail naming a misspelt gold key in this record, or ""."""
    for key in sorted(record.keys() - _KNOWN_KEYS):
        if (closest := parsed.misspelt.get(key)) is not None and closest.closest in GOLD_KEYS:
            return f' (the key "{printable(key)}" is not read: did you mean "{closest.closest}"?)'
    return ""


def _forbidden(value: Any, path: Path, line: int) -> dict[str, str]:
    """Chunks that must never reach the model: a list of ids or an object id -> reason."""
    if value is None:
        return {}
    if isinstance(value, list):
        return {json_id(v, path, line, "forbidden chunk id"): FORBIDDEN_REASON for v in value}
    if not isinstance(value, dict):
        raise InputError(
            path,
            f"forbidden is a JSON {json_type(value)}, not an array or an object",
            'write "forbidden": ["c9"] or "forbidden": {"c9": "staff-only"}',
            line,
        )
    found: dict[str, str] = {}
    for key, reason in value.items():
        if reason is not None and not isinstance(reason, str):
            raise InputError(
                path,
                f"the reason of forbidden chunk {key} is {reason!r}, not a string",
                'write a short reason, e.g. "staff-only" or "superseded"',
                line,
            )
        chunk = json_id(key, path, line, "forbidden chunk id")
        found[chunk] = " ".join((reason or "").split()) or FORBIDDEN_REASON
    return found


def _text(record: dict[str, Any], key: str, path: Path, line: int) -> str | None:
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(path, f"{key} is not a string", f"quote the {key}", line)
    return value.strip() or None


def _gold_chunks(gold: Any, path: Path, line: int) -> dict[str, int]:
    """A list of ids (grade 1) or an object id -> integer grade."""
    chunks: dict[str, int] = {}
    if gold is None:
        return chunks
    if isinstance(gold, list):
        for value in gold:
            chunks.setdefault(json_id(value, path, line, "gold chunk id"), 1)
        return chunks
    if not isinstance(gold, dict):
        raise InputError(
            path,
            f"gold is a JSON {json_type(gold)}, not a list or an object",
            'write "gold": ["c1", "c2"] or "gold": {"c1": 2, "c2": 1}',
            line,
        )
    for key, grade in gold.items():
        if isinstance(grade, bool) or not isinstance(grade, int) or not fits_int64(grade):
            raise InputError(
                path,
                f"grade of {key} is {grade!r}, not an integer",
                "write grades as whole numbers",
                line,
            )
        chunks.setdefault(json_id(key, path, line, "gold chunk id"), grade)
    return chunks


@dataclass
class _CsvQuestion:
    line: int
    values: dict[str, tuple[str, int]] = field(default_factory=dict)
    unanswerable_line: int | None = None
    chunk_line: int | None = None


def _csv(path: Path) -> _Parsed:
    """One row per (question, gold chunk); an empty chunk id declares an unanswerable one.

    A row with a ``forbidden`` value names a chunk that must never reach the model.
    """
    return parsed_rows(path, *csv_rows(path))


def parsed_rows(path: Path, header: list[str], rows: Iterable[tuple[int, list[str]]]) -> _Parsed:
    """Gold rows as text fields under a header, checked: a CSV file's or a DataFrame's."""
    cid = column(path, header, ID_KEYS)
    cchunk = column(path, header, CHUNK_COLUMNS)
    optional = {
        name: optional_column(header, (name,))
        for name in ("grade", "unanswerable", "question", "kind", "index_version", "forbidden")
    }
    parsed = _Parsed()
    used = {cid, cchunk, *(i for i in optional.values() if i is not None)}
    extra = {name: i for i, name in enumerate(header) if i not in used}
    seen: set[tuple[str, str]] = set()
    questions: dict[str, _CsvQuestion] = {}
    graded: dict[tuple[str, str], tuple[int, int]] = {}
    forbidden: dict[tuple[str, str], int] = {}
    for line, row in rows:
        qid = text_id(row[cid], path, line, "question id")
        chunk = row[cchunk].strip()
        if chunk:
            checked_id(chunk, path, line, "chunk id")
        get = {k: ("" if i is None else row[i].strip()) for k, i in optional.items()}
        for name, i in extra.items():  # a question's own fields: the first value given
            if row[i].strip() and (qid, name) not in seen:
                seen.add((qid, name))
                parsed.attributes.append((qid, name, row[i].strip()))
        question = questions.setdefault(qid, _CsvQuestion(line))
        for key in ("question", "kind", "index_version"):
            _agree(path, qid, question, key, get[key], line)
        unanswerable = parse_flag(get["unanswerable"], path, line, "unanswerable") or False
        if get["forbidden"] and flag_word(get["forbidden"]) is not False:
            _csv_forbid(parsed, (qid, chunk, get["forbidden"]), graded, forbidden, path, line)
            continue
        if not chunk:
            if not unanswerable:
                raise InputError(path, f"question {qid} has an empty chunk_id", NO_GOLD_FIX, line)
            question.unanswerable_line = line
        else:
            if unanswerable:
                raise InputError(
                    path,
                    f"question {qid} is marked unanswerable on a row with a chunk_id",
                    "leave chunk_id empty on the row that declares it unanswerable",
                    line,
                )
            if (qid, chunk) in forbidden:
                raise _gold_and_forbidden(path, qid, chunk, forbidden[qid, chunk], line)
            grade = _csv_grade(get["grade"], path, line)
            earlier = graded.setdefault((qid, chunk), (grade, line))
            if earlier[1] != line and earlier[0] != grade:
                raise InputError(
                    path,
                    f"{qid} {chunk} is graded differently here and on line {earlier[1]}",
                    "keep one grade per question and chunk",
                    line,
                )
            if earlier[1] == line:
                question.chunk_line = question.chunk_line or line
                parsed.judge(qid, chunk, grade)
        if question.unanswerable_line is not None and question.chunk_line is not None:
            raise InputError(
                path,
                f"question {qid} is declared unanswerable on line "
                f"{question.unanswerable_line} but has a gold chunk on line {question.chunk_line}",
                "remove the gold chunks or the unanswerable row",
                line,
            )
    for qid, q in questions.items():
        if q.chunk_line is None and q.unanswerable_line is None:
            raise InputError(
                path,
                f"question {qid} has only forbidden chunks, no gold chunk",
                "add a row with its gold chunk_id, or a row with an empty chunk_id and "
                "unanswerable true",
                q.line,
            )
        text = {k: v[0] for k, v in q.values.items()}
        unanswerable = q.unanswerable_line is not None
        parsed.question(
            qid, text.get("question"), text.get("kind"), unanswerable, text.get("index_version")
        )
    return parsed


def _csv_forbid(
    parsed: _Parsed,
    row: tuple[str, str, str],
    graded: dict[tuple[str, str], tuple[int, int]],
    forbidden: dict[tuple[str, str], int],
    path: Path,
    line: int,
) -> None:
    """A row whose ``forbidden`` column is set: its chunk must never reach the model.

    The column holds the reason (``staff-only``), or true for a forbidden chunk without one.
    """
    qid, chunk, value = row
    if not chunk:
        raise InputError(
            path, "forbidden is set on a row without a chunk_id", "name the forbidden chunk", line
        )
    if (qid, chunk) in graded:
        raise _gold_and_forbidden(path, qid, chunk, graded[qid, chunk][1], line)
    if (qid, chunk) not in forbidden:
        forbidden[qid, chunk] = line
        parsed.forbid(qid, chunk, FORBIDDEN_REASON if flag_word(value) else value)


def _gold_and_forbidden(path: Path, qid: str, chunk: str, earlier: int, line: int) -> InputError:
    return InputError(
        path,
        f"{chunk} is both a gold chunk and forbidden for question {qid} (line {earlier})",
        "keep one of the two rows",
        line,
    )


def _agree(path: Path, qid: str, question: _CsvQuestion, key: str, value: str, line: int) -> None:
    """A question's text, kind and index version must not change between its rows."""
    if not value:
        return
    earlier = question.values.setdefault(key, (value, line))
    if earlier[0] != value:
        raise InputError(
            path,
            f"question {qid} has a different {key} here than on line {earlier[1]}",
            f"use the same {key} on every row of the question",
            line,
        )


def _csv_grade(value: str, path: Path, line: int) -> int:
    if not value:
        return 1
    try:
        grade = int(value)
        if not fits_int64(grade):
            raise ValueError(value)
        return grade
    except ValueError:
        raise InputError(
            path, f"grade {value!r} is not an integer", "write grades as whole numbers", line
        ) from None
