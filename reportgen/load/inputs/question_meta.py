"""``--question-meta FILE``: the questions' own fields kept beside a gold set that has none.

TREC qrels and BEIR gold sets hold (question, chunk, grade) only; a team keeps the
language, product area or tags of each question in a side file. This reads it (JSON
Lines: one object per question with an id key; CSV: an id column and one column per
field) and adds its fields to the gold set's, where ``--slice-by`` and ``--cluster-by``
read them. Ids the gold set lacks are kept aside for a warning, not refused: one meta
file serves every shard of a cut gold set.
"""

from __future__ import annotations

import dataclasses
from os import PathLike
from pathlib import Path

import polars as pl

from reportgen.core.model import ATTRIBUTES_SCHEMA, GoldSet
from reportgen.errors import InputError, printable
from reportgen.load.formats.csv_input import column, csv_rows
from reportgen.load.formats.files import read_text
from reportgen.load.formats.ids import text_id
from reportgen.load.formats.meta import question_records
from reportgen.load.formats.vocabulary import ID_KEYS
from reportgen.load.inputs.gold import own_fields

JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")


def with_question_meta(gold: GoldSet, path: str | PathLike[str]) -> GoldSet:
    """``gold`` with the fields of the meta file at ``path`` added to its own.

    A field both the gold set and the file give is refused: which of the two values
    a slice should use cannot be guessed.
    """
    path = Path(path)
    rows, nested = _jsonl(path) if _is_jsonl(path) else _csv(path)
    found = pl.DataFrame(rows, schema=ATTRIBUTES_SCHEMA, orient="row")
    both = sorted(set(found.get_column("key")) & set(gold.attributes.get_column("key")))
    if both:
        raise InputError(
            path,
            f"the field {both[0]!r} is also in the gold set {gold.source}",
            "keep each field in one of the two files",
        )
    known = gold.questions.get_column("qid")
    unknown = found.filter(~pl.col("qid").is_in(known.implode())).get_column("qid").unique()
    return dataclasses.replace(
        gold,
        attributes=pl.concat([gold.attributes, found.filter(pl.col("qid").is_in(known.implode()))]),
        nested_fields=gold.nested_fields | nested,
        unknown_meta_ids=tuple(sorted(unknown.to_list())),
    )


def _is_jsonl(path: Path) -> bool:
    if path.suffix.lower() in JSON_SUFFIXES:
        return True
    if path.suffix.lower() == ".csv":
        return False
    return read_text(path).lstrip().startswith("{")


def _jsonl(path: Path) -> tuple[list[tuple[str, str, str]], set[str]]:
    rows: list[tuple[str, str, str]] = []
    nested: set[str] = set()
    for _, qid, record in question_records(path, {}):
        rows.extend(own_fields(qid, record, frozenset(ID_KEYS), nested))
    return rows, nested


def _csv(path: Path) -> tuple[list[tuple[str, str, str]], set[str]]:
    header, lines = csv_rows(path)
    cid = column(path, header, ID_KEYS)
    seen: dict[str, int] = {}
    rows: list[tuple[str, str, str]] = []
    for line, fields in lines:
        qid = text_id(fields[cid], path, line, "question id")
        if qid in seen:
            raise InputError(
                path,
                f"question {printable(qid)} is also on line {seen[qid]}",
                "give each question one row",
                line,
            )
        seen[qid] = line
        rows.extend(
            (qid, name, value.strip())
            for i, (name, value) in enumerate(zip(header, fields, strict=True))
            if i != cid and value.strip()
        )
    return rows, set()
