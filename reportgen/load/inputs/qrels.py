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
from reportgen.measure.blocks import block_starts

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


def judged_frames(
    path: Path, rows: pl.DataFrame, *, ids_checked: bool = False
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Questions and judgments of (qid, chunk_id, raw grade, line) rows, checked: a qrels
    file's, or a DataFrame's given in memory (``ids_checked``: its ids are known to
    pass :func:`refuse_bad_ids`)."""
    if not ids_checked:
        refuse_bad_ids(path, rows, {"qid": "question id", "chunk_id": "chunk id"})
    rows = rows.with_columns(pl.col("raw").cast(pl.Int64, strict=False).alias("grade"))
    if (line := first_line(rows, pl.col("grade").is_null())) is not None:
        raw = rows.filter(pl.col("line") == line)["raw"].item()
        raise InputError(
            path, f"grade {raw!r} is not an integer", "write grades as whole numbers", line
        )
    starts = block_starts()
    blocks, questions = rows.select(
        blocks=starts.sum(), questions=pl.col("qid").filter(starts).n_unique()
    ).row(0)
    in_blocks = blocks == questions  # each question's rows one block, as most files have
    if not _pairs_distinct(rows, in_blocks):
        rows = rows.unique(["qid", "chunk_id", "grade"], keep="first", maintain_order=True)
        _refuse_regraded(path, rows)
    judgments = rows.select(JUDGMENTS_SCHEMA.names())
    # in blocks, the first row of each block is each question in order of appearance
    qid = pl.col("qid")
    firsts = qid.filter(starts) if in_blocks else qid.unique(maintain_order=True)
    questions_of = judgments.select(firsts).with_columns(
        pl.lit(None, pl.String).alias("question"),
        pl.lit(UNLABELLED_KIND).alias("kind"),
        pl.lit(False).alias("unanswerable"),
        pl.lit(None, pl.String).alias("index_version"),
    )
    return questions_of.cast(QUESTIONS_SCHEMA), judgments.cast(JUDGMENTS_SCHEMA)


def _pairs_distinct(rows: pl.DataFrame, in_blocks: bool) -> bool:
    """Whether no (qid, chunk_id) pair repeats. Most qrels judge each pair once: all
    pair hashes different proves it cheaply. With each question one block of rows,
    chunk ids counted distinct block by block (sorted slices, a small table each) are
    exact, at half the cost."""
    if not in_blocks:
        return bool(rows.select(keys_hash(["qid", "chunk_id"]).n_unique()).item() == rows.height)
    block = pl.col("qid").rle_id().set_sorted().alias("_block")
    counts = rows.select(block, "chunk_id").group_by("_block").agg(pl.col("chunk_id").n_unique())
    return bool(counts.get_column("chunk_id").sum() == rows.height)


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
