"""Repeated keys: a hash proves cheaply that none repeat, an exact pass names the first."""

from __future__ import annotations

import functools
import operator
from typing import Any

import polars as pl


def first_repeat(frame: pl.DataFrame, keys: list[str]) -> tuple[dict[str, Any], int, int] | None:
    """The earliest row whose ``keys`` stood on an earlier line: its keys and both lines."""
    clash = (
        frame.filter(pl.struct(keys).is_duplicated())
        .group_by(keys)
        .agg(pl.col("line").sort().head(2))
        .with_columns(pl.col("line").list.get(1).alias("second"))
        .sort("second")
        .head(1)
    )
    if clash.height == 0:
        return None
    row = clash.row(0, named=True)
    first, second = row["line"]
    return row, first, second


def keys_hash(keys: list[str]) -> pl.Expr:
    """One 64-bit hash of each row's ``keys``, to prove cheaply that no keys repeat.

    All hashes different means all keys different; equal hashes may be a collision,
    so a caller then counts exactly. Each key has its own seed: a row whose keys are
    equal to each other does not hash to zero.
    """
    return functools.reduce(
        operator.xor, (pl.col(key).hash(seed=seed) for seed, key in enumerate(keys))
    )
