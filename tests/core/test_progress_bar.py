"""The progress bar: drawn on a terminal for long work, silent everywhere else."""

from __future__ import annotations

import io
import time

import pytest

from reportgen.core import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def automatic():
    progress.enable(None)
    yield
    progress.enable(None)


def test_bar_line_fills_in_proportion():
    # 2 of 4 done: 24 * 2 // 4 = 12 filled cells of 24
    line = progress.bar_line("Loading runs", 2, 4, "bm25", 3.4)
    assert line == "Loading runs [" + "#" * 12 + "-" * 12 + "] 2/4 bm25 3s"


def test_silent_when_stderr_is_not_a_terminal():
    out = io.StringIO()
    assert list(progress.track([1, 2, 3], "Measuring", stream=out)) == [1, 2, 3]
    assert out.getvalue() == ""


def test_silent_when_turned_off_even_on_a_terminal(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    progress.enable(False)
    out = Terminal()
    for _ in progress.track(["a"], "Loading runs", stream=out):
        time.sleep(0.05)
    assert out.getvalue() == ""


def test_quick_work_draws_nothing():
    out = Terminal()
    assert list(progress.track(["a", "b"], "Loading runs", stream=out)) == ["a", "b"]
    assert out.getvalue() == ""


def test_long_step_is_drawn_then_erased(monkeypatch):
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "TICK", 0.01)
    out = Terminal()
    for _ in progress.track(["bm25", "dense"], "Loading runs", stream=out):
        time.sleep(0.1)
    text = out.getvalue()
    assert "Loading runs [" in text
    assert "0/2 bm25" in text
    assert "1/2 dense" in text
    assert text.endswith("\r")  # the last write blanks the line
    assert text.rsplit("\r", 2)[-2].strip() == ""
