"""Frames read again: an equal frame gives what it gave, a changed one is read anew."""

from __future__ import annotations

from collections.abc import Iterator

import polars as pl
import pytest

import reportgen
from reportgen.errors import InputError
from reportgen.load.inputs.memory import gold_from, run_from
from reportgen.load.inputs.remembered import GOLD_FRAMES, RUN_FRAMES, Remembered


@pytest.fixture(autouse=True)
def forgotten() -> Iterator[None]:
    GOLD_FRAMES.forget()
    RUN_FRAMES.forget()
    yield
    GOLD_FRAMES.forget()
    RUN_FRAMES.forget()


def gold_frame() -> pl.DataFrame:
    return pl.DataFrame(
        {"qid": ["q1", "q1", "q2"], "chunk_id": ["a", "b", "c"], "grade": [1, 2, 1]}
    )


def run_frame() -> pl.DataFrame:
    return pl.DataFrame(
        {
            "qid": ["q1", "q1", "q2", "q2"],
            "chunk_id": ["b", "a", "c", "d"],
            "score": [0.9, 0.8, 0.7, 0.6],
        }
    )


def test_an_equal_frame_gives_the_same_objects_again() -> None:
    assert gold_from(gold_frame()) is gold_from(gold_frame())
    first = run_from(run_frame(), "bm25", "runs['bm25']")
    assert run_from(run_frame(), "bm25", "runs['bm25']") is first
    # another name or label is another run (its name and source are in it)
    assert run_from(run_frame(), "dense", "runs['dense']").name == "dense"


def test_a_frame_changed_in_place_is_read_again() -> None:
    frame = run_frame()
    before = run_from(frame, "r", "run")
    frame[0, "score"] = 0.1  # q1's b falls below a
    after = run_from(frame, "r", "run")
    assert after is not before
    assert after.results.filter(pl.col("qid") == "q1")["chunk_id"].to_list() == ["a", "b"]
    assert before.results.filter(pl.col("qid") == "q1")["chunk_id"].to_list() == ["b", "a"]

    gold = gold_frame()
    kept = gold_from(gold)
    gold.replace_column(2, pl.Series("grade", [3, 2, 1]))
    assert gold_from(gold) is not kept
    assert gold_from(gold).judgments["grade"].to_list() != kept.judgments["grade"].to_list()


def test_equal_values_of_another_type_are_read_again() -> None:
    kept = gold_from(gold_frame())
    narrower = gold_frame().with_columns(pl.col("grade").cast(pl.Int32))
    assert gold_from(narrower) is not kept


def test_a_frame_that_fails_is_refused_every_time() -> None:
    bad = run_frame().with_columns(pl.lit(float("nan")).alias("score"))
    for _ in range(2):
        with pytest.raises(InputError, match="NaN"):
            run_from(bad, "r", "run")


def test_the_means_are_the_same_read_anew_or_remembered() -> None:
    first = reportgen.evaluate(gold_frame(), {"r": run_frame()}).means
    again = reportgen.evaluate(gold_frame(), {"r": run_frame()}).means
    GOLD_FRAMES.forget()
    RUN_FRAMES.forget()
    anew = reportgen.evaluate(gold_frame(), {"r": run_frame()}).means
    assert first.equals(again) and first.equals(anew)


def test_only_the_last_few_are_kept() -> None:
    kept: Remembered[int] = Remembered(2)
    frames = [pl.DataFrame({"x": [i]}) for i in range(3)]
    made: list[int] = []
    for i, frame in enumerate(frames):
        kept.read(frame, None, lambda i=i: made.append(i) or i)
    assert kept.read(frames[2], None, lambda: -1) == 2
    assert kept.read(frames[0], None, lambda: -1) == -1  # the oldest was let go
    assert made == [0, 1, 2]
