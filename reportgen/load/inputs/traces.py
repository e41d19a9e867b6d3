"""Trace files: one JSON Lines file that holds the gold set, one run and its verdicts.

A RAG system's own log has, per question, the gold ids, what it retrieved, what it sent
to the model and whether the answer was right. Reading that file whole spares a team
writing three files by hand, and ``context`` says exactly which chunks reached the
model, so the four cells need not assume the top k_ctx.

One line per question::

    {"id": "q1", "question": "...", "gold": ["c1", "c2"], "retrieved": ["c2", {"id": "c9",
     "score": 0.4}], "context": ["c2"], "answer": "...", "correct": true}
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.core.model import SENT_SCHEMA, VERDICTS_SCHEMA, GoldSet, Run, VerdictSet
from reportgen.core.records import dataclass
from reportgen.errors import InputError, printable
from reportgen.load.formats.costs import costs_frame, record_costs
from reportgen.load.formats.ids import json_id
from reportgen.load.formats.json_input import as_number, json_type, pick
from reportgen.load.formats.meta import question_records
from reportgen.load.formats.vocabulary import CHUNK_KEYS, TRACE_FORMAT, parse_flag
from reportgen.load.inputs.gold import load_gold
from reportgen.load.inputs.ranking import ROW_SCHEMA, RunRows, rank_rows

TRACE_KEYS = frozenset({"retrieved", "context", "answer", "correct", "latency_ms", "cost"})
"""Keys a trace line has beyond a gold line's; never taken for misspelt gold keys."""
RETRIEVED_FIX = 'write "retrieved": ["c1", "c2"] or [{"id": "c1", "score": 0.9}] ([] for none)'


@dataclass(frozen=True)
class Trace:
    """What one trace file holds: its gold set, its run, and its verdicts (None if none)."""

    gold: GoldSet
    run: Run
    verdicts: VerdictSet | None


def load_trace(path: str | Path, name: str | None = None) -> Trace:
    """Read one trace file; the run is ``name``, else ``_meta.run``, else the file's stem."""
    path = Path(path)
    gold = load_gold(path, "jsonl")
    gold = dataclasses.replace(
        gold, misspelt_keys=tuple(m for m in gold.misspelt_keys if m.key not in TRACE_KEYS)
    )
    found: dict[str, str | None] = {}
    rows: dict[str, list[Any]] = {name: [] for name in ROW_SCHEMA}
    sent: dict[str, list[Any]] = {name: [] for name in SENT_SCHEMA}
    verdicts: dict[str, list[Any]] = {name: [] for name in VERDICTS_SCHEMA}
    unretrieved: list[str] = []
    questions: list[str] = []
    costs: list[tuple[float | None, ...]] = []
    for line, qid, record in question_records(path, found):
        questions.append(qid)
        costs.append(record_costs(record, path, line))
        ids, scores = _retrieved(record, path, line)
        rows["qid"].extend([qid] * len(ids))
        rows["chunk_id"].extend(ids)
        rows["score"].extend(scores)
        rows["line"].extend([line] * len(ids))
        if (context := record.get("context")) is not None:
            chunks = _context(context, path, line)
            sent["qid"].append(qid)
            sent["sent"].append(chunks)
            if not set(chunks) <= set(ids):
                unretrieved.append(qid)
        if "correct" in record:
            text = record.get("question")
            verdict = (qid, text if isinstance(text, str) else None, None)
            for key, value in zip(("qid", "question", "run"), verdict, strict=True):
                verdicts[key].append(value)
            verdicts["correct"].append(parse_flag(record["correct"], path, line, "correct"))
            verdicts["abstained"].append(None)
            verdicts["line"].append(line)
    run_name = printable(name or found.get("run") or path.stem)
    frame = pl.DataFrame(rows, schema=ROW_SCHEMA)
    if 0 < frame["score"].null_count() < frame.height:
        # ids and scored objects may mix; the list order ranks, so partial scores go
        frame = frame.with_columns(pl.lit(None, pl.Float64).alias("score"))
    results, repeated = rank_rows(path, RunRows(frame, "list", hops=True))
    run = Run(
        name=run_name,
        results=results,
        source=printable(path),
        order="list",
        repeated_across_hops=repeated,
        index_version=found.get("index_version"),
        sent=pl.DataFrame(sent, schema=SENT_SCHEMA) if sent["qid"] else None,
        sent_unretrieved=tuple(sorted(unretrieved)),
        costs=costs_frame(questions, costs),
    )
    judged = None
    if verdicts["qid"]:
        table = pl.DataFrame(verdicts, schema=VERDICTS_SCHEMA).with_columns(
            pl.lit(run_name).alias("run")
        )
        judged = VerdictSet(rows=table, source=printable(path), format=TRACE_FORMAT)
    return Trace(gold=gold, run=run, verdicts=judged)


def _retrieved(record: dict[str, Any], path: Path, line: int) -> tuple[list[str], list[Any]]:
    """Chunk ids and scores (None where absent) of one line; ids and objects may mix."""
    if "retrieved" not in record:
        raise InputError(path, "a line without retrieved", RETRIEVED_FIX, line)
    listed = record["retrieved"]
    if not isinstance(listed, list):
        raise InputError(
            path, f"retrieved is a JSON {json_type(listed)}, not an array", RETRIEVED_FIX, line
        )
    ids: list[str] = []
    scores: list[Any] = []
    for item in listed:
        if not isinstance(item, dict):
            ids.append(json_id(item, path, line, "retrieved chunk id"))
            scores.append(None)
            continue
        if (chunk := pick(item, CHUNK_KEYS, path, line)) is None:
            raise InputError(path, "an object in retrieved without an id", RETRIEVED_FIX, line)
        ids.append(json_id(chunk, path, line, "retrieved chunk id"))
        score = item.get("score")
        if score is not None and (score := as_number(score)) is None:
            raise InputError(
                path,
                f"score {item.get('score')!r} is not a finite number",
                "write scores as numbers",
                line,
            )
        scores.append(score)
    return ids, scores


def _context(value: Any, path: Path, line: int) -> list[str]:
    """The ids sent to the model, in the order sent, each once."""
    if not isinstance(value, list):
        raise InputError(
            path,
            f"context is a JSON {json_type(value)}, not an array",
            'write "context": ["c1", "c2"], the chunks sent to the model ([] for none)',
            line,
        )
    ids = [
        json_id(
            pick(item, CHUNK_KEYS, path, line) if isinstance(item, dict) else item,
            path,
            line,
            "context chunk id",
        )
        for item in value
    ]
    return list(dict.fromkeys(ids))
