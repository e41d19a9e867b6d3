"""A (qid, chunk_id, grade) table whose ids are plain skips the stripping and the closer
look at each id: that must never change what is read or which error is raised.

The shortcut is taken when one pass finds no white space, control character, empty or
overlong id (question ids once per block of rows); the reference here is the table
read with the shortcut refused, every id stripped and looked at line by line. Repeated
pairs are proved absent block by block when each question is one block, by hashing
otherwise: both are held to the same reference, with the rows in blocks and shuffled.
"""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from reportgen.errors import InputError
from reportgen.load.inputs import memory
from reportgen.load.inputs.memory import gold_from

IDS = ["q1", "q2", "3", " q4", "q5\t", "q\x016", "\u3000q7", "", "x" * 513, "\u00e9" * 300]
CHUNKS = ["c1", "c2", "c3", "c4 ", "c\x7f5", "c\u20286", "", "y" * 600, "\u00e9" * 257]


def _read(frame: pl.DataFrame) -> tuple[str, Any]:
    try:
        gold = gold_from(frame)
    except InputError as err:
        return "error", str(err)
    return "read", (gold.questions, gold.judgments)


def _read_every_id_looked_at(frame: pl.DataFrame) -> tuple[str, Any]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(memory, "odd_id", lambda text: pl.repeat(True, pl.len()))
        return _read(frame)


def _same(one: tuple[str, Any], other: tuple[str, Any]) -> None:
    assert one[0] == other[0], (one, other)
    if one[0] == "error":
        assert one[1] == other[1]
    else:
        for mine, theirs in zip(one[1], other[1], strict=True):
            assert_frame_equal(mine, theirs)


@settings(max_examples=150, deadline=None)
@given(
    questions=st.lists(
        st.tuples(
            st.sampled_from(IDS[:3] * 3 + IDS[3:]),
            st.lists(
                st.tuples(st.sampled_from(CHUNKS[:4] * 3 + CHUNKS[4:]), st.integers(0, 3)),
                min_size=1,
                max_size=5,
            ),
        ),
        min_size=1,
        max_size=6,
    ),
    shuffle=st.randoms(use_true_random=False),
    shuffled=st.booleans(),
)
def test_plain_ids_read_as_every_id_looked_at(
    questions: list[tuple[str, list[tuple[str, int]]]], shuffle: Any, shuffled: bool
) -> None:
    rows = [(qid, chunk, grade) for qid, judged in questions for chunk, grade in judged]
    if shuffled:
        shuffle.shuffle(rows)
    frame = pl.DataFrame(rows, schema=["qid", "chunk_id", "grade"], orient="row")
    _same(_read(frame), _read_every_id_looked_at(frame))


@pytest.mark.parametrize(
    ("qids", "chunks", "problem"),
    [
        (["q1", "q1", "q\x012"], ["c1", "c2", "c3"], "row(2): a question id that holds a control"),
        (["q1", "q1", "q2"], ["c1", "c\x7f", "c3"], "row(1): a chunk id that holds a control"),
        (["q1", "q2", "q2"], ["c1", "c" * 513, "c3"], "row(1): a chunk id that 513 characters"),
        (["q1", "q2", "q1"], ["c1", "c2", "c1"], "graded differently here and at gold.row(0)"),
        (["q1", "q1", "q2"], ["c1", "c1", "c3"], "graded differently here and at gold.row(0)"),
    ],
)
def test_bad_tables_are_refused_at_their_row(
    qids: list[str], chunks: list[str], problem: str
) -> None:
    frame = pl.DataFrame({"qid": qids, "chunk_id": chunks, "grade": [1, 2, 3]})
    with pytest.raises(InputError, match=r"^gold\.row") as caught:
        gold_from(frame)
    assert problem in str(caught.value)


def test_questions_keep_the_order_they_first_appear_in() -> None:
    in_blocks = pl.DataFrame({"qid": ["b", "b", "a", "c"], "chunk_id": ["1", "2", "1", "1"]})
    scattered = pl.DataFrame({"qid": ["b", "a", "b", "c"], "chunk_id": ["1", "1", "2", "1"]})
    for frame in (in_blocks, scattered):
        assert gold_from(frame).questions.get_column("qid").to_list() == ["b", "a", "c"]
