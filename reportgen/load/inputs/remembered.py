"""The last DataFrames a notebook passed, and what reading them gave.

A notebook calls ``evaluate`` again and again with the same gold set, and often the same
runs: checking and ranking a million rows costs more than measuring them (ranx, too,
builds its Qrels and Run once). A frame equal to one read before (``DataFrame.equals``
and the same schema: names, types, values, order) gives back what reading it gave then.
Exact, never a guess from identity or a hash: the frame kept is a clone, so that a
caller who changes their frame in place afterwards passes a frame that no longer equals
it. Comparing costs ~8 ms per million rows; ranking them, ~0.15 s.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

import polars as pl

from reportgen.core.model import GoldSet, Run

T = TypeVar("T")


class Remembered(Generic[T]):
    """What the last ``size`` frames read gave, most recently used kept longest."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: list[tuple[Hashable, pl.DataFrame, T]] = []
        self._lock = threading.Lock()

    def read(self, frame: pl.DataFrame, key: Hashable, make: Callable[[], T]) -> T:
        """``make()``, or what it gave for an equal frame read with the same ``key`` (the
        other arguments that shaped the result); a failure is not remembered."""
        with self._lock:
            for index, (known, kept, value) in enumerate(self._entries):
                if known == key and kept.schema == frame.schema and kept.equals(frame):
                    self._entries.append(self._entries.pop(index))
                    return value
        value = make()
        with self._lock:
            self._entries.append((key, frame.clone(), value))
            del self._entries[: -self._size]
        return value

    def forget(self) -> None:
        with self._lock:
            self._entries.clear()


GOLD_FRAMES: Remembered[GoldSet] = Remembered(2)
"""Gold sets read from Polars DataFrames (a notebook holds one or two)."""
RUN_FRAMES: Remembered[Run] = Remembered(4)
"""Runs read from Polars DataFrames (a comparison holds a few)."""
