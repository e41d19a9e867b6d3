"""A progress bar on stderr for long loads and computations, only on a terminal.

Silent when stderr is not a terminal (CI logs, pipes, tests) or when turned off
(``--quiet``), and silent for work that ends within ``DELAY`` seconds, so that a
small report never flashes a bar. The bar is erased when the work is done.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO, TypeVar

from reportgen.core.log_line import log_line

T = TypeVar("T")

DELAY = 0.5
"""Seconds before a bar appears."""
TICK = 0.2
"""Seconds between redraws."""
WIDTH = 24

_enabled: bool | None = None


def enable(on: bool | None) -> None:
    """Force the bar on or off; None: on exactly when stderr is a terminal."""
    global _enabled
    _enabled = on


def _showing(stream: TextIO) -> bool:
    if _enabled is not None:
        return _enabled
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def bar_line(label: str, done: int, total: int, item: str, seconds: float) -> str:
    """``label [#####-----] 2/4 item 3s``: the line redrawn while the work runs (the
    item, a run's name, escaped as every printed line is)."""
    filled = WIDTH * done // total if total else WIDTH
    bar = "#" * filled + "-" * (WIDTH - filled)
    return log_line(f"{label} [{bar}] {done}/{total} {item} {seconds:.0f}s")


class _Bar:
    """Redraws from a background thread, so that one long step still shows time passing."""

    def __init__(self, label: str, total: int, out: TextIO) -> None:
        self.label, self.total, self.out = label, total, out
        self.done, self.item = 0, ""
        self.start = time.monotonic()
        self.width = 0
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        if self.stop.wait(DELAY):
            return
        while not self.stop.is_set():
            self.draw()
            self.stop.wait(TICK)

    def draw(self) -> None:
        with self.lock:
            seconds = time.monotonic() - self.start
            line = bar_line(self.label, self.done, self.total, self.item, seconds)
            self.out.write("\r" + line.ljust(self.width))
            self.out.flush()
            self.width = len(line)

    def close(self) -> None:
        self.stop.set()
        self.thread.join()
        if self.width:
            self.out.write("\r" + " " * self.width + "\r")
            self.out.flush()


def track(
    items: Sequence[T], label: str, name: Callable[[T], str] = str, *, stream: TextIO | None = None
) -> Iterator[T]:
    """Yield ``items``; on a terminal, show how many are done and which one is running."""
    out = stream or sys.stderr
    if not _showing(out):
        yield from items
        return
    bar = _Bar(label, len(items), out)
    try:
        for done, item in enumerate(items):
            with bar.lock:
                bar.done, bar.item = done, name(item)
            yield item
    finally:
        bar.close()
