"""Rows in blocks: each question's rows next to each other, in ranking order.

Loaded runs are kept so, and reading positions and counts from where a block starts
costs a fraction of a window over hashed question ids. Used by the loaders (to number
ranks) and by the measures (positions and running counts on sorted frames).
"""

from __future__ import annotations

import polars as pl


def block_starts(column: str = "qid") -> pl.Expr:
    """Whether a row starts a block: its ``column`` differs from the row before."""
    return (pl.col(column) != pl.col(column).shift(1)).fill_null(True)


def block_positions(column: str = "qid") -> pl.Expr:
    """1-based position of each row within its block.

    Evaluate it on a DataFrame, not in a LazyFrame's ``collect``: Polars 2.1's streaming
    engine panics on ``rle`` over a column of several chunks, which frames built with
    ``pl.concat`` are (tests/notebook/test_frames_in_chunks.py).
    """
    lengths = pl.col(column).rle().struct.field("len")
    return pl.int_ranges(1, lengths + 1, dtype=pl.Int64).explode()
