"""A new version of a gold file with the labels folded in: `reportgen label import`.

The new file is the old one with only the labelled questions' records touched, so a
diff shows the labels and nothing else: JSON Lines records get the graded chunks (grade
0 included) and, when given, who judged them and when under ``provenance``; CSV gets
rows; qrels get lines (qrels have no room for provenance or a version).
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.analyse.ppi import AUDIT_FIELD
from reportgen.core.model import GoldSet
from reportgen.core.records import dataclass
from reportgen.errors import InputError, UsageError
from reportgen.load.formats.files import read_text
from reportgen.load.formats.json_input import json_records
from reportgen.load.formats.vocabulary import CHUNK_COLUMNS, ID_KEYS
from reportgen.load.inputs.gold import GOLD_KEYS
from reportgen.load.inputs.qrels import BEIR_HEADER

PROVENANCE_KEY = "provenance"
"""The gold record's key of who judged a chunk and when: {chunk: {judged_by, judged_at}}."""


@dataclass(frozen=True)
class NewGold:
    """The new gold file's bytes, and what changed."""

    data: bytes
    questions_changed: tuple[str, ...]
    pairs_added: int
    version: str | None
    notes: tuple[str, ...] = ()


def fresh_labels(
    gold: GoldSet, labels: pl.DataFrame, labels_source: str, unit: str = "line"
) -> pl.DataFrame:
    """The labels that add to the gold set: a pair it grades alike is dropped; a pair it
    grades otherwise, a question it lacks (unless drawn in an audit sample: it joins the
    gold set), or an unanswerable one is refused. ``unit``: what the labels' ``line``
    counts (Label Studio's tasks are named, not lines)."""

    def refused(problem: str, fix: str, line: int) -> InputError:
        if unit == "line":
            return InputError(labels_source, problem, fix, line)
        return InputError(labels_source, f"{unit} {line}: {problem}", fix)

    known = labels.join(gold.questions.select("qid", "unanswerable"), on="qid", how="left")
    unknown = known.filter(pl.col("unanswerable").is_null() & pl.col("audit").is_null())
    if unknown.height:
        row = unknown.row(0, named=True)
        raise refused(
            f"question {row['qid']} is not in the gold set ({gold.source})",
            "label pairs exported from this gold set",
            row["line"],
        )
    if (flagged := known.filter(pl.col("unanswerable").fill_null(False))).height:
        row = flagged.row(0, named=True)
        raise refused(
            f"question {row['qid']} is unanswerable in the gold set",
            "edit the gold set by hand if one of its chunks answers it after all",
            row["line"],
        )
    both = labels.join(gold.judgments, on=["qid", "chunk_id"], how="inner", suffix="_gold")
    if (clash := both.filter(pl.col("grade") != pl.col("grade_gold"))).height:
        row = clash.row(0, named=True)
        raise refused(
            f"question {row['qid']} chunk {row['chunk_id']} is graded {row['grade']} here "
            f"and {row['grade_gold']} in the gold set ({gold.source})",
            "change a grade the gold set has in the gold file itself, not by import",
            row["line"],
        )
    return labels.join(gold.judgments, on=["qid", "chunk_id"], how="anti")


def next_version(current: str | None, given: str | None) -> str | None:
    """The new version: the one given, else the old one's last number plus one."""
    if given is not None:
        return given
    if current is not None and (found := re.fullmatch(r"(.*?)(\d+)", current)):
        digits = found[2]
        return f"{found[1]}{int(digits) + 1:0{len(digits)}d}"
    raise UsageError(
        f"cannot bump the gold set's version {current!r} by itself",
        "pass --version, e.g. --version v2",
    )


def new_gold(
    path: Path, fmt: str, gold: GoldSet, labels: pl.DataFrame, version: str | None
) -> NewGold:
    """The gold file at ``path`` (read as ``fmt``) with ``labels`` (fresh ones) added."""
    changed = tuple(labels.get_column("qid").unique().sort().to_list())
    if fmt == "jsonl":
        new_version = next_version(gold.version, version)
        data = _jsonl(path, labels, new_version)
        return NewGold(data, changed, labels.height, new_version)
    if labels.get_column("audit").is_not_null().any():
        raise UsageError(
            f"the labels are an audit sample, and a {fmt} gold file has no room to mark "
            "its questions as one",
            "import the audit into a JSON Lines gold file (one object per question)",
        )
    notes = [f"{fmt} gold files hold no version: pass --gold-version to `reportgen report`"]
    if version is not None:
        raise UsageError(
            f"--version {version}: a {fmt} gold file has no room for a version",
            "leave --version out and pass --gold-version to `reportgen report`",
        )
    if (
        labels.select(pl.col("judged_by", "judged_at").is_not_null().any()).row(0)
        != (
            False,
            False,
        )
        and fmt == "qrels"
    ):
        notes.append("qrels have no room for judged_by and judged_at: they were left out")
    data = _csv(path, labels) if fmt == "csv" else _qrels(path, labels)
    return NewGold(data, changed, labels.height, None, tuple(notes))


def _by_question(labels: pl.DataFrame) -> dict[str, list[dict[str, Any]]]:
    found: dict[str, list[dict[str, Any]]] = {}
    for row in labels.sort("qid", "chunk_id").iter_rows(named=True):
        found.setdefault(row["qid"], []).append(row)
    return found


def _jsonl(path: Path, labels: pl.DataFrame, version: str | None) -> bytes:
    """Each labelled question's line rewritten; every other line kept byte for byte."""
    lines = read_text(path).split("\n")
    by_question = _by_question(labels)
    meta_written = False
    for number, record in json_records(path):
        if "_meta" in record:
            body = record["_meta"] if isinstance(record["_meta"], dict) else {}
            lines[number - 1] = _dumps({**record, "_meta": {**body, "version": version}})
            meta_written = True
            continue
        qid = next((str(record[k]).strip() for k in ID_KEYS if k in record), None)
        if qid in by_question:
            lines[number - 1] = _dumps(_labelled(record, by_question.pop(qid)))
    if not meta_written and version is not None:
        lines.insert(0, _dumps({"_meta": {"version": version}}))
    if by_question:  # the audit's questions the gold set lacked: new records, in id order
        while lines and not lines[-1].strip():
            lines.pop()
        lines += [_dumps(_labelled({"id": q, "gold": {}}, rows)) for q, rows in by_question.items()]
    text = "\n".join(lines)
    return (text if text.endswith("\n") else text + "\n").encode()


def _labelled(record: dict[str, Any], labels: list[dict[str, Any]]) -> dict[str, Any]:
    key = next((k for k in GOLD_KEYS if k in record), "gold")
    gold = record.get(key)
    grades = dict.fromkeys(gold, 1) if isinstance(gold, list) else dict(gold or {})
    provenance = dict(record.get(PROVENANCE_KEY) or {})
    for label in labels:
        grades[label["chunk_id"]] = label["grade"]
        who = {k: label[k] for k in ("judged_by", "judged_at") if label[k] is not None}
        if who:
            provenance[label["chunk_id"]] = who
    updated = {**record, key: grades}
    if provenance:
        updated[PROVENANCE_KEY] = provenance
    audit = next((label["audit"] for label in labels if label.get("audit")), None)
    if audit is not None:
        updated[AUDIT_FIELD] = audit
    return updated


def _dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False)


def _csv(path: Path, labels: pl.DataFrame) -> bytes:
    """The CSV's rows, then one row per label; a grade (and provenance) column is added
    when the file has none (grade 1 for its rows, as the reader took them)."""
    rows = list(csv.reader(io.StringIO(read_text(path), newline="\n")))
    # the header as the reader finds it (load/formats/csv_input.py): the first row that
    # is not blank, its names compared in lower case; blank lines above it are kept
    start = next(i for i, row in enumerate(rows) if any(field.strip() for field in row))
    blank, header, body = rows[:start], [name.strip() for name in rows[start]], rows[start + 1 :]
    lower = [name.lower() for name in header]
    wanted = ["grade", "judged_by", "judged_at"]
    qid_col = header[next(lower.index(name) for name in ID_KEYS if name in lower)]
    chunk_col = header[next(lower.index(name) for name in CHUNK_COLUMNS if name in lower)]
    chunk_at = header.index(chunk_col)
    for name in wanted:
        if name not in lower and (name == "grade" or labels[name].is_not_null().any()):
            header.append(name)
            lower.append(name)
            # a gold row without a grade was read as grade 1; keep it so
            graded = name == "grade"
            body = [
                [*row, "1" if graded and len(row) > chunk_at and row[chunk_at].strip() else ""]
                for row in body
            ]
    index = {name: lower.index(name) for name in lower}
    for label in labels.sort("qid", "chunk_id").iter_rows(named=True):
        row = [""] * len(header)
        row[header.index(qid_col)], row[chunk_at] = label["qid"], label["chunk_id"]
        for name in wanted:
            if name in index and label[name] is not None:
                row[index[name]] = str(label[name])
        body.append(row)
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([*blank, header, *body])
    return out.getvalue().encode()


def _qrels(path: Path, labels: pl.DataFrame) -> bytes:
    """TREC's ``qid 0 docid grade`` lines, or BEIR's tab-separated ones under its header."""
    text = read_text(path)
    if text and not text.endswith("\n"):
        text += "\n"
    beir = text.split("\n", 1)[0].lower().split() == BEIR_HEADER
    line = "{qid}\t{chunk_id}\t{grade}\n" if beir else "{qid} 0 {chunk_id} {grade}\n"
    added = "".join(
        line.format(**row) for row in labels.sort("qid", "chunk_id").iter_rows(named=True)
    )
    return (text + added).encode()
