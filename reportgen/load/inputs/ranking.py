"""Ranking a reader's long rows: one place for what every run format must satisfy.

Each reader (TREC, JSON Lines, CSV, Parquet, ranx JSON, traces, span exports) yields
rows (qid, chunk_id, score, rank?, line); ``rank_rows`` validates scores and ids,
orders each question's list, numbers positions and drops repeated chunks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import polars as pl

from reportgen.core.model import RESULTS_SCHEMA
from reportgen.core.records import dataclass
from reportgen.errors import InputError
from reportgen.load.formats.files import first_line
from reportgen.load.formats.ids import odd_id, refuse_bad_ids, suspect_id
from reportgen.load.formats.repeats import first_repeat
from reportgen.measure.blocks import block_positions, block_starts

Order = Literal["rank", "score", "list"]
ROW_SCHEMA = pl.Schema(
    {"qid": pl.String, "chunk_id": pl.String, "score": pl.Float64, "line": pl.Int64}
)


@dataclass
class RunRows:
    """A reader's long rows, file order kept, with what decides the ranking."""

    frame: pl.DataFrame
    order: Order
    index_version: str | None = None
    tidy: bool = True
    """Strip ids first; TREC fields come out of the split already clean."""
    costs: pl.DataFrame | None = None
    """Latency and cost per question (COSTS_SCHEMA), when the file gives any."""
    hops: bool = False
    """The lists are hops concatenated (traces, spans): a repeat takes no rank, so the
    chunk after it moves up (trec_eval's files never repeat; plain runs keep the gap)."""


def rank_rows(path: Path, rows: RunRows) -> tuple[pl.DataFrame, int]:
    """Validate, order each question's list, number positions, drop repeats (they keep
    their rank slot, unless ``rows.hops``).

    Questions keep the order they first appear in; sorting by that first position is
    numeric, so it costs far less than sorting 10M question ids as strings.
    """
    frame = rows.frame.with_columns(_NEW_QUESTION)
    survey = _surveyed(frame, rows.order, rows.tidy)
    if survey["padded"]:
        frame = frame.with_columns(pl.col("qid", "chunk_id").str.strip_chars())
        frame = frame.with_columns(_NEW_QUESTION)
        survey = _surveyed(frame, rows.order, tidy=False)
    if survey["suspect"]:
        _refuse_bad_values(path, frame)
    if 0 < survey["missing"] < frame.height:
        raise InputError(
            path,
            "no score here while other results have one",
            "give every result a score, or none of them",
            first_line(frame, pl.col("score").is_null()),
        )
    in_order = survey["blocks"] == survey["questions"] and survey["ordered"]
    if rows.order == "rank":
        # ranks rising strictly within each question's block cannot repeat
        _check_ranks(path, frame, repeats_possible=not in_order)
    if not in_order:
        frame = _ordered(frame, rows.order, one_block_each=survey["blocks"] == survey["questions"])
    frame = frame.with_columns(block_positions().alias("rank"))
    total = frame.height
    distinct = total if survey["pair_hashes"] == total else _distinct_pairs(frame)
    if distinct < total:
        frame = frame.filter(pl.col("chunk_id").is_first_distinct().over("qid"))
        if rows.hops:
            frame = frame.with_columns(block_positions().alias("rank"))
    results = frame.select(RESULTS_SCHEMA.names()).cast(RESULTS_SCHEMA)
    return results, total - distinct


def _ordered(frame: pl.DataFrame, order: Order, one_block_each: bool) -> pl.DataFrame:
    """The rows sorted into ranking order, questions in the order they first appear.

    Each question already one block (most files: grouped, not yet sorted within) is
    numbered by a running count of block starts instead of a window over hashed ids.
    Scores are sorted as numbers first; the chunk-id tie-break (a string key, a third of
    the sort's cost) is added only when two results of a question share a score.
    """
    if one_block_each:
        frame = frame.with_columns(pl.col("_new").cum_sum().alias("_q"))
    else:
        frame = frame.with_row_index("_q").with_columns(pl.col("_q").min().over("qid"))
    if order == "list":
        return frame.with_row_index("_seq").sort("_q", "_seq")
    if order == "rank":
        return frame.sort("_q", "rank")
    by_score = frame.sort(["_q", "score"], descending=[False, True])
    score = pl.col("score")
    tied = (pl.col("_q") == pl.col("_q").shift(1)) & score.eq_missing(score.shift(1))
    if not by_score.select(tied.any()).item():
        return by_score
    return frame.sort(["_q", "score", "chunk_id"], descending=[False, True, True])


_NEW_QUESTION = block_starts().alias("_new")
"""Whether a row starts a block of its question (rows in their current order)."""


def _surveyed(frame: pl.DataFrame, order: Order, tidy: bool) -> dict[str, bool | int]:
    """:func:`_survey`'s answers; ``padded``: some id has white space at an end (asked
    only when ``tidy``), ``suspect``: some value may be bad (:func:`_refuse_bad_values`)."""
    survey = frame.select(**_survey(order)).row(0, named=True)
    padded = tidy and survey["qid_padded"]
    suspect = survey["qid_suspect"] or survey["bad_score"]
    if survey["odd_chunks"]:  # white space, a control character, too long: look closer
        chunk = pl.col("chunk_id")
        chunk_suspect = chunk.is_null() | (chunk == "") | suspect_id(chunk)
        chunk_padded = _padded(chunk) if tidy else pl.lit(False)
        found = frame.select(suspect=chunk_suspect.any(), padded=chunk_padded.any()).row(0)
        suspect, padded = suspect or found[0], padded or found[1]
    return survey | {"padded": padded, "suspect": suspect}


def _survey(order: Order) -> dict[str, pl.Expr]:
    """Everything the checks and the ordering need to know, as one pass of aggregates.

    ``qid_suspect`` and ``odd_chunks`` never miss a bad value but may be false alarms;
    only then do the slower checks run, which find the first bad line. A row that
    repeats the question id above it passes or fails as that row did, so question ids
    are checked (and looked at for padding) once per block; chunk ids are looked at
    for control characters and white space in one pass. ``ordered`` and blocks equal
    to questions say the rows already are in ranking order, each question in one
    block: most runs are written that way, and checking costs a fraction of the sort
    it saves.
    """
    new, qid, chunk, score = pl.col("_new"), pl.col("qid"), pl.col("chunk_id"), pl.col("score")
    first_qid = qid.filter(new)
    # chunk ids are compared only where scores tie: filtering costs less than comparing all
    tie = ~new & (score == score.shift(1))
    ordered = {
        "rank": (new | (pl.col("rank") > pl.col("rank").shift(1))).all(),
        "score": (new | (score <= score.shift(1))).all()
        & (chunk.filter(tie) <= chunk.shift(1).filter(tie)).all(),
        "list": pl.lit(True),
    }[order]
    return {
        "qid_suspect": (first_qid.is_null() | (first_qid == "") | suspect_id(first_qid)).any(),
        "qid_padded": _padded(first_qid).any(),
        "odd_chunks": odd_id(chunk).any(),
        "bad_score": (~score.is_finite()).any(),
        "missing": score.null_count(),
        "blocks": new.sum(),
        "questions": first_qid.n_unique(),
        "ordered": ordered,
        # as many distinct hashes of (question, chunk) as rows: no pair repeats (a
        # collision only sends the exact count below to work)
        "pair_hashes": (qid.hash(PAIR_SEEDS[0]) ^ chunk.hash(PAIR_SEEDS[1])).n_unique(),
    }


PAIR_SEEDS = (0x5EED_0001, 0x5EED_0002)
"""Two seeds, so that (a, b) and (b, a) hash apart."""


def _distinct_pairs(frame: pl.DataFrame) -> int:
    """How many (question, chunk) pairs differ, each question one block of rows by now.

    Chunks are counted distinct block by block: grouped by a block number known to be
    sorted, each block is a slice with a small table of its own, which costs half the
    CPU of proving a million (question, chunk) hashes distinct, and is exact.
    """
    blocks = frame.select(pl.col("qid").rle_id().set_sorted().alias("_block"), "chunk_id")
    counts = blocks.group_by("_block").agg(pl.col("chunk_id").n_unique())
    return int(counts.get_column("chunk_id").sum())


def _refuse_bad_values(path: Path, frame: pl.DataFrame) -> None:
    """Raise for the first empty id, bad id or NaN score, named by its line."""
    for col, what in (("qid", "question id"), ("chunk_id", "chunk id")):
        if (line := first_line(frame, pl.col(col).is_null() | (pl.col(col) == ""))) is not None:
            raise InputError(path, f"empty {what}", f"give every result its {what}", line)
    refuse_bad_ids(path, frame, {"qid": "question id", "chunk_id": "chunk id"})
    score = pl.col("score")
    if (line := first_line(frame, score.is_nan() | score.is_infinite())) is not None:
        raise InputError(
            path, "a score that is NaN or infinite", "write scores as finite numbers", line
        )


def _padded(text: pl.Expr) -> pl.Expr:
    """Whether an id has surrounding white space: checking costs less than stripping."""
    return text.str.contains(r"^\s|\s$")


def _check_ranks(path: Path, frame: pl.DataFrame, repeats_possible: bool = True) -> None:
    if (line := first_line(frame, pl.col("rank") < 1)) is not None:
        raise InputError(path, "a rank below 1", "number ranks from 1", line)
    if not repeats_possible:
        return
    if (clash := first_repeat(frame, ["qid", "rank"])) is not None:
        row, first, second = clash
        raise InputError(
            path,
            f"question {row['qid']} has rank {row['rank']} here and on line {first}",
            "give each result of a question its own rank",
            second,
        )
