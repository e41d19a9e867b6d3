"""The labelling queue `reportgen label export` writes: one row per pooled pair, with the
question's and the chunk's text when known, and an empty grade to fill.

Three shapes of one queue: JSON Lines and CSV (the same columns; CSV cells made safe
for spreadsheets), and Label Studio's task import JSON (a list of ``{"data": {...}}``),
whose JSON export `reportgen label import` reads back.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import polars as pl

from reportgen.core.model import ChunkMap, GoldSet
from reportgen.core.spreadsheet import as_text

QUEUE_FORMATS = ("jsonl", "csv", "label-studio")
QUEUE_COLUMNS = (
    "qid",
    "question",
    "chunk_id",
    "chunk_text",
    "missed_correct",
    "runs",
    "best_rank",
    "run_names",
    "grade",
    "judged_by",
    "judged_at",
)
"""The queue's columns: the pair, what a person reads to grade it, why it is queued,
and the three a person fills (``grade``; ``judged_by`` and ``judged_at`` if wanted)."""

TextOf = Callable[[str], str | None]
"""A document's text by its path (--docs), or None when it is not there."""


def queue_format(name: str) -> str:
    """The queue's format from the output's name: .csv, .json (Label Studio), else JSONL."""
    lowered = name.lower()
    if lowered.endswith(".csv"):
        return "csv"
    return "label-studio" if lowered.endswith(".json") else "jsonl"


def chunk_texts(chunks: ChunkMap | None, documents: TextOf | None) -> pl.DataFrame:
    """(chunk_id, chunk_text): the chunk map's text, else its range of the document."""
    if chunks is None:
        return pl.DataFrame(schema={"chunk_id": pl.String, "chunk_text": pl.String})
    frame = chunks.chunks.select("chunk_id", "doc", "start", "end", "text")
    if documents is not None and frame["text"].null_count():
        # one document read per distinct doc, here (an unreadable one raises its own
        # error, which a Polars function would wrap); the slices are Polars'
        docs = frame.get_column("doc").unique().drop_nulls().sort().to_list()
        texts = pl.DataFrame(
            {"doc": docs, "_doc": [documents(doc) for doc in docs]},
            schema={"doc": pl.String, "_doc": pl.String},
        )
        frame = frame.join(texts, on="doc", how="left").with_columns(
            pl.col("text").fill_null(
                pl.col("_doc").str.slice(pl.col("start"), pl.col("end") - pl.col("start"))
            )
        )
    return frame.select("chunk_id", pl.col("text").alias("chunk_text"))


def queue_rows(
    gold: GoldSet,
    pool: pl.DataFrame,
    texts: Sequence[pl.DataFrame],
    questions: Sequence[pl.DataFrame] = (),
) -> pl.DataFrame:
    """The queue in the pool's order, each pair with the texts a person reads: the gold
    set's question, else a trace's; the first of ``texts`` (chunk_id, chunk_text) that
    has the chunk's."""
    asked = pl.concat([gold.questions.select("qid", "question").drop_nulls(), *questions])
    shown = pl.concat(list(texts)) if texts else chunk_texts(None, None)
    return (
        pool.with_row_index("_order")
        .join(asked.unique("qid", keep="first", maintain_order=True), on="qid", how="left")
        .join(
            shown.drop_nulls().unique("chunk_id", keep="first", maintain_order=True),
            on="chunk_id",
            how="left",
        )
        .sort("_order")
        .with_columns(
            grade=pl.lit(None, pl.Int64),
            judged_by=pl.lit(None, pl.String),
            judged_at=pl.lit(None, pl.String),
        )
        .select(QUEUE_COLUMNS)
    )


def queue_bytes(rows: pl.DataFrame, fmt: str) -> bytes:
    """The queue file in ``fmt`` (QUEUE_FORMATS)."""
    records = rows.to_dicts()
    if fmt == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode()
    if fmt == "label-studio":
        tasks = [{"data": _task_data(r)} for r in records]
        return (json.dumps(tasks, ensure_ascii=False, indent=1) + "\n").encode()
    flat = rows.with_columns(pl.col("run_names").list.join(" "))
    texts: Sequence[str] = ("qid", "question", "chunk_id", "chunk_text", "run_names")
    safe = flat.with_columns(as_text(name) for name in texts)
    return safe.write_csv(include_header=True).encode()


def _task_data(record: dict[str, object]) -> dict[str, object]:
    """A Label Studio task's data: every field but the three to fill (the labelling
    interface names the grade; ``question`` and ``chunk_text`` are what it shows)."""
    skipped = ("grade", "judged_by", "judged_at")
    data = {key: value for key, value in record.items() if key not in skipped}
    data["question"] = data["question"] or ""
    data["chunk_text"] = data["chunk_text"] or data["chunk_id"]
    return data
