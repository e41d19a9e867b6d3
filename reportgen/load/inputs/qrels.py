"""Gold sets as TREC qrels (``qid iter docid grade``) or BEIR's qrels TSV.

Qrels hold judgments only: every question is answerable, of no kind and no index
version; the same pair judged twice alike counts once, with two grades is an error.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from reportgen.core.model import JUDGMENTS_SCHEMA, QUESTIONS_SCHEMA, UNLABELLED_KIND
from reportgen.errors import InputError
from reportgen.load.formats.fields import fields, split_fields
from reportgen.load.formats.files import first_line, head_line, read_lines
from reportgen.load.formats.ids import refuse_bad_ids
from reportgen.load.formats.repeats import first_repeat, keys_hash

BEIR_HEADER = ["query-id", "corpus-id", "score"]
"""The header of BEIR's qrels (``qrels/test.tsv``), which MTEB and most RAG sets reuse."""


def read_qrels(path: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``qid iter docid grade`` lines (the iter column means nothing to us), or BEIR's
    tab-separated ``query-id corpus-id score`` under that header."""
    if head_line(path).lower().split() == BEIR_HEADER:
        lines = read_lines(path).filter(pl.col("line") > 1)
        picks = {0: "qid", 1: "chunk_id", 2: "raw"}
        rows = fields(path, lines, picks, 3, True, "query-id corpus-id score (BEIR's qrels)")
    else:
        picks = {0: "qid", 2: "chunk_id", 3: "raw"}
        rows = split_fields(path, picks, 4, True, "qid iter docid grade", {3: pl.Int64()})
    if rows.height == 0:
        raise InputError(path, "no judgments in the file", "add lines: qid 0 docid grade", 1)
    return judged_frames(path, rows)


def judged_frames(path: Path, rows: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Questions and judgments of (qid, chunk_id, raw grade, line) rows, checked: a qrels
    file's, or a DataFrame's given in memory."""
    refuse_bad_ids(path, rows, {"qid": "question id", "chunk_id": "chunk id"})
    rows = rows.with_columns(pl.col("raw").cast(pl.Int64, strict=False).alias("grade"))
    if (line := first_line(rows, pl.col("grade").is_null())) is not None:
        raw = rows.filter(pl.col("line") == line)["raw"].item()
        raise InputError(
            path, f"grade {raw!r} is not an integer", "write grades as whole numbers", line
        )
    # most qrels judge each pair once: all pair hashes different proves it cheaply
    if rows.select(keys_hash(["qid", "chunk_id"]).n_unique()).item() < rows.height:
        rows = rows.unique(["qid", "chunk_id", "grade"], keep="first", maintain_order=True)
        _refuse_regraded(path, rows)
    judgments = rows.select(JUDGMENTS_SCHEMA.names())
    questions = judgments.select(pl.col("qid").unique(maintain_order=True)).with_columns(
        pl.lit(None, pl.String).alias("question"),
        pl.lit(UNLABELLED_KIND).alias("kind"),
        pl.lit(False).alias("unanswerable"),
        pl.lit(None, pl.String).alias("index_version"),
    )
    return questions.cast(QUESTIONS_SCHEMA), judgments.cast(JUDGMENTS_SCHEMA)


def _refuse_regraded(path: Path, rows: pl.DataFrame) -> None:
    """The same (qid, docid) judged twice with different grades has no right answer."""
    if (clash := first_repeat(rows, ["qid", "chunk_id"])) is not None:
        row, first, second = clash
        raise InputError(
            path,
            f"{row['qid']} {row['chunk_id']} is graded differently here and on line {first}",
            "keep one grade per question and chunk",
            second,
        )
