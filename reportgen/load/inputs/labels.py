"""Labels a person gave to pooled (question, chunk) pairs: the files `reportgen label
export` wrote, filled in, or Label Studio's JSON export of its tasks.

Each reader ends in one frame (LABELS_SCHEMA) with the line (or Label Studio task) every
label came from, so that two labels of one pair that disagree are refused naming both.
A row left ungraded is not a label: people label part of a queue and import it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.spreadsheet import unquoted
from reportgen.errors import InputError
from reportgen.load.formats.csv_input import column, csv_rows, optional_column
from reportgen.load.formats.ids import json_id, text_id
from reportgen.load.formats.json_input import fits_int64, json_document, json_records, pick
from reportgen.load.formats.meta import question_records
from reportgen.load.formats.vocabulary import CHUNK_COLUMNS, CHUNK_KEYS, ID_KEYS

LABEL_FORMATS = ("jsonl", "csv", "label-studio")
LABELS_SCHEMA = pl.Schema(
    {
        "qid": pl.String,
        "chunk_id": pl.String,
        "grade": pl.Int64,
        "judged_by": pl.String,
        "judged_at": pl.String,
        "line": pl.Int64,
        "audit": pl.String,
    }
)
"""One row per label; ``line`` is the file's line, or the task's position for Label Studio;
``audit``: the sample of the judge's questions the pair was drawn in (`label export
--sample`), null otherwise."""

GRADE_FIX = "write a whole number: 0 (not relevant), 1 (relevant), 2 (highly relevant)"
_LEADING_GRADE = re.compile(r"^\s*(-?\d+)(?![.,]?\d)\b")
"""``2 (highly relevant)``, a Label Studio choice: the number it starts with; never the
``0`` of ``0.9`` (a fraction is no grade: refused, not truncated)."""


def label_format(path: Path, fmt: str | None) -> str:
    """The caller's format, else the extension's: .json is Label Studio's export."""
    if fmt is not None:
        return fmt
    suffix = path.suffix.lower()
    found = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".json": "label-studio"}
    if suffix not in found:
        raise InputError(
            path,
            f"cannot tell the labels' format from the extension {suffix or '(none)'!r}",
            "name it .jsonl, .csv or .json (Label Studio's export), or pass --labels-format",
        )
    return found[suffix]


def load_labels(path: str | Path, fmt: str | None = None) -> pl.DataFrame:
    """Every graded pair of a labels file (LABELS_SCHEMA), conflicting labels refused."""
    path = Path(path)
    fmt = label_format(path, fmt)
    rows = {"jsonl": _jsonl, "csv": _csv, "label-studio": _label_studio}[fmt](path)
    frame = pl.DataFrame(rows, schema=LABELS_SCHEMA, orient="row")
    if frame.height == 0:
        raise InputError(
            path,
            "no graded label in the file",
            "fill the grade of the pairs you labelled (0, 1 or 2), then import",
            None if fmt == "label-studio" else 1,
        )
    refuse_conflicts(path, frame, "task" if fmt == "label-studio" else "line")
    return frame.unique(["qid", "chunk_id"], keep="first", maintain_order=True)


def refuse_conflicts(path: Path, frame: pl.DataFrame, unit: str = "line") -> None:
    """Two labels of one pair with different grades: no right answer to pick. ``unit``:
    what the ``line`` column counts (a Label Studio export's tasks are no lines)."""
    graded = frame.unique(["qid", "chunk_id", "grade"], keep="first", maintain_order=True)
    clash = graded.filter(pl.struct("qid", "chunk_id").is_duplicated())
    if clash.height:
        qid, chunk = clash.row(0)[:2]
        both = clash.filter((pl.col("qid") == qid) & (pl.col("chunk_id") == chunk)).head(2)
        (g1, g2), (l1, l2) = both["grade"].to_list(), both["line"].to_list()
        if unit == "line":
            problem, line = f"is graded {g2} here and {g1} on line {l1}", l2
        else:
            problem, line = f"is graded {g1} in {unit} {l1} and {g2} in {unit} {l2}", None
        raise InputError(
            path,
            f"question {qid} chunk {chunk} {problem}",
            "keep one grade per question and chunk (settle the disagreement, then import)",
            line,
        )


def _grade(value: Any, path: Path, line: int) -> int | None:
    """A grade from JSON or text; None when the row was left ungraded."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, str):
        found = _LEADING_GRADE.match(value)
        value = int(found[1]) if found else value
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not fits_int64(value):
        raise InputError(path, f"grade {value!r} is not a whole number", GRADE_FIX, line)
    if value < 0:
        raise InputError(path, f"grade {value} is below 0", GRADE_FIX, line)
    return value


def _text(value: Any, key: str, path: Path, line: int) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise InputError(path, f"{key} is not a string", f"quote the {key}", line)
    return str(value).strip() or None


def _jsonl(path: Path) -> list[tuple[Any, ...]]:
    rows = []
    for line, record in json_records(path):
        grade = _grade(record.get("grade"), path, line)
        if grade is None:
            continue
        rows.append(_row(record, grade, path, line))
    return rows


def _row(record: dict[str, Any], grade: int, path: Path, line: int) -> tuple[Any, ...]:
    qid = pick(record, ID_KEYS, path, line)
    chunk = pick(record, CHUNK_COLUMNS, path, line)
    if qid is None or chunk is None:
        raise InputError(
            path,
            "a label without its question id or chunk id",
            'keep the "qid" and "chunk_id" of the exported queue',
            line,
        )
    return (
        json_id(qid, path, line, "question id"),
        json_id(chunk, path, line, "chunk id"),
        grade,
        _text(record.get("judged_by"), "judged_by", path, line),
        _text(record.get("judged_at"), "judged_at", path, line),
        line,
        _text(record.get("audit"), "audit", path, line),
    )


def _csv(path: Path) -> list[tuple[Any, ...]]:
    header, rows = csv_rows(path)
    cid, cchunk = column(path, header, ID_KEYS), column(path, header, CHUNK_COLUMNS)
    cgrade = column(path, header, ("grade",))
    by, at = optional_column(header, ("judged_by",)), optional_column(header, ("judged_at",))
    audit = optional_column(header, ("audit",))
    found = []
    for line, row in rows:
        grade = _grade(row[cgrade], path, line)
        if grade is None:
            continue
        found.append(
            (
                text_id(unquoted(row[cid]), path, line, "question id"),
                text_id(unquoted(row[cchunk]), path, line, "chunk id"),
                grade,
                None if by is None else row[by].strip() or None,
                None if at is None else row[at].strip() or None,
                line,
                None if audit is None else row[audit].strip() or None,
            )
        )
    return found


def _label_studio(path: Path) -> list[tuple[Any, ...]]:
    """Label Studio's JSON export: a list of tasks, each with its ``data`` (the exported
    pair) and ``annotations`` (``result``: a choices, rating or number answer).

    Every annotation not cancelled is a label, named by its task's position; two
    annotators who disagree on a task are a conflict like any other.
    """
    tasks = json_document(path, "export the project from Label Studio as JSON")
    if not isinstance(tasks, list):
        raise InputError(
            path,
            "not a list of tasks",
            "export the project from Label Studio as JSON (not JSON-MIN), or pass "
            "--labels-format jsonl for a JSON Lines file",
            1,
        )
    rows = []
    for number, task in enumerate(tasks, start=1):
        try:
            rows += _task_rows(task, path, number)
        except InputError as error:  # named by its task: the export is one line
            problem = error.problem
            if not problem.startswith(f"task {number} "):
                problem = f"task {number}: {problem}"
            raise InputError(path, problem, error.fix) from None
    return rows


def _task_rows(task: Any, path: Path, number: int) -> list[tuple[Any, ...]]:
    """The labels of one Label Studio task (``number``: its position in the export)."""
    data = task.get("data") if isinstance(task, dict) else None
    if not isinstance(data, dict):
        raise InputError(path, f"task {number} has no data object", _LS_FIX, number)
    annotations = task.get("annotations") or []
    if not isinstance(annotations, list):
        raise InputError(path, "its annotations are not a list", _LS_FIX, number)
    rows = []
    for annotation in annotations:
        if not isinstance(annotation, dict) or annotation.get("was_cancelled"):
            continue
        grade = _grade(_answer(annotation, path, number), path, number)
        if grade is None:
            continue
        record = {
            **data,
            "judged_by": _annotator(annotation.get("completed_by")),
            "judged_at": _when(annotation.get("updated_at") or annotation.get("created_at")),
        }
        rows.append(_row(record, grade, path, number))
    return rows


def _when(value: Any) -> str | None:
    """Label Studio's time stamp; another type (a number) is no time: left out."""
    return value if isinstance(value, str) else None


_LS_FIX = "import the tasks `reportgen label export --format label-studio` wrote"


def _answer(annotation: dict[str, Any], path: Path, number: int) -> Any:
    """The grade an annotation's result holds: its choice, rating or number."""
    results = annotation.get("result") or []
    for result in results if isinstance(results, list) else []:
        value = result.get("value") if isinstance(result, dict) else None
        if not isinstance(value, dict):
            continue
        if isinstance(choices := value.get("choices"), list) and choices:
            return choices[0]
        for key in ("rating", "number", "text"):
            if key in value:
                answer = value[key]
                return answer[0] if isinstance(answer, list) and answer else answer
    raise InputError(
        path,
        f"task {number} has an annotation without a grade (no choice, rating or number)",
        "grade it in Label Studio, or skip the task",
        number,
    )


def _annotator(value: Any) -> str | None:
    """Label Studio's ``completed_by``: a user id, or an object with the email."""
    if isinstance(value, dict):
        value = value.get("email") or value.get("id")
    if value is None or isinstance(value, bool):
        return None
    return str(value) if isinstance(value, str | int) else None


JUDGMENTS_SCHEMA = pl.Schema(
    {
        "qid": pl.String,
        "chunk_id": pl.String,
        "grade": pl.Int64,
        "source": pl.String,
        "model": pl.String,
        "prompt_hash": pl.String,
        "line": pl.Int64,
    }
)
"""Secondary judgments (an LLM judge's, another team's): kept apart from the gold set."""


def load_judgments(path: str | Path) -> pl.DataFrame:
    """Secondary judgments, JSON Lines or CSV: qid, chunk_id, grade, and optionally
    source, model and prompt_hash. reportgen never calls a model: these come from one
    the user ran. One pair judged twice with different grades is refused."""
    path = Path(path)
    fmt = label_format(path, None)
    if fmt == "label-studio":
        raise InputError(
            path,
            "secondary judgments are JSON Lines or CSV, not a JSON document",
            "write one object per line (.jsonl) or a CSV with qid, chunk_id, grade, source",
        )
    if fmt == "jsonl":
        rows = [
            (*_row(record, grade, path, line)[:3], *_about(record, path, line), line)
            for line, record in json_records(path)
            if (grade := _grade(record.get("grade"), path, line)) is not None
        ]
    else:
        header, lines = csv_rows(path)
        cid, cchunk = column(path, header, ID_KEYS), column(path, header, CHUNK_COLUMNS)
        cgrade = column(path, header, ("grade",))
        extra = {key: optional_column(header, (key,)) for key in _ABOUT}
        rows = []
        for line, row in lines:
            grade = _grade(row[cgrade], path, line)
            if grade is None:
                continue
            about = {k: None if i is None else row[i].strip() or None for k, i in extra.items()}
            rows.append(
                (
                    text_id(unquoted(row[cid]), path, line, "question id"),
                    text_id(unquoted(row[cchunk]), path, line, "chunk id"),
                    grade,
                    *_about(about, path, line),
                    line,
                )
            )
    frame = pl.DataFrame(rows, schema=JUDGMENTS_SCHEMA, orient="row")
    if frame.height == 0:
        raise InputError(path, "no graded judgment in the file", "give each line a grade", 1)
    refuse_conflicts(path, frame)
    return frame.unique(["qid", "chunk_id"], keep="first", maintain_order=True)


_ABOUT = ("source", "model", "prompt_hash")


def _about(record: dict[str, Any], path: Path, line: int) -> tuple[str | None, ...]:
    return tuple(_text(record.get(key), key, path, line) for key in _ABOUT)


TEXT_KEYS = ("text", "content", "page_content", "chunk_text")
"""Where a trace's retrieved object holds the chunk's text, the first present wins."""


def trace_texts(path: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The texts a trace file carries, for the labelling queue: (chunk_id, chunk_text)
    from its retrieved objects, and (qid, question). The trace was read and checked as
    a run already; here only the strings are picked, the first text of a chunk kept."""
    chunks: dict[str, str] = {}
    questions: dict[str, str] = {}
    for _, qid, record in question_records(path, {}):
        if isinstance(text := record.get("question"), str) and text.strip():
            questions.setdefault(qid, text.strip())
        retrieved = record.get("retrieved")
        for item in retrieved if isinstance(retrieved, list) else []:
            if not isinstance(item, dict):
                continue
            chunk = next((item[k] for k in CHUNK_KEYS if k in item), None)
            text = next((item[k] for k in TEXT_KEYS if isinstance(item.get(k), str)), None)
            if isinstance(chunk, str | int) and not isinstance(chunk, bool) and text:
                chunks.setdefault(str(chunk).strip(), text)
    return (
        pl.DataFrame(
            {"chunk_id": list(chunks), "chunk_text": list(chunks.values())},
            schema={"chunk_id": pl.String, "chunk_text": pl.String},
        ),
        pl.DataFrame(
            {"qid": list(questions), "question": list(questions.values())},
            schema={"qid": pl.String, "question": pl.String},
        ),
    )
