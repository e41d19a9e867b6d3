"""The fast reader of space-separated files agrees with the general one, or steps aside."""

from __future__ import annotations

import pytest

from reportgen.errors import InputError
from reportgen.load import load_gold, load_run
from reportgen.load.formats.fields import fields, plain_fields, split_fields
from reportgen.load.formats.files import read_lines

RUN = {0: "qid", 2: "chunk_id", 4: "raw"}
LAYOUT = "qid Q0 docid rank score tag"

REGULAR = {
    "plain": b"q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.4 t\n",
    "blank lines": b"q1 Q0 d1 1 0.5 t\n\nq1 Q0 d2 2 0.4 t\n\n",
    "crlf": b"q1 Q0 d1 1 0.5 t\r\nq1 Q0 d2 2 0.4 t\r\n",
    "no final newline": b"q1 Q0 d1 1 0.5 t\nq2 Q0 d2 2 0.4 t",
    "byte-order mark": "\ufeffq1 Q0 d1 1 0.5 t\n".encode(),
    "trailing space": b"q1 Q0 d1 1 0.5 t \n",
    "quotes are data": b'q1 Q0 "d1 1 0.5 t\nq1 Q0 d2" 2 0.4 t\n',
}
IRREGULAR = {
    "tabs": b"q1\tQ0\td1\t1\t0.5\tt\n",
    "two spaces": b"q1  Q0 d1 1 0.5 t\n",
    "leading space": b" q1 Q0 d1 1 0.5 t\n",
    "comment": b"# made by hand\nq1 Q0 d1 1 0.5 t\n",
    "comment of six words": b"# a b c d e\nq1 Q0 d1 1 0.5 t\n",
    "extra column": b"q1 Q0 d1 1 0.5 t x\n",
    "short line": b"q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.4\n",
}


RUN_REGULAR = {
    **REGULAR,
    "extra column": b"q1 Q0 d1 1 0.5 t x\n",
    "extra columns after two spaces": b"q1 Q0 d1 1 0.5 t  x y\n",
    "extra column, tab inside": b"q1 Q0 d1 1 0.5 t\tx z\n",
}
"""A run's layout is "at least six": with ``exact=False`` the fast path cuts the fields
after the sixth as the general path ignores them."""
READ_ALIKE = [(text, True, f"exact, {name}") for name, text in REGULAR.items()] + [
    (text, False, f"at least, {name}") for name, text in RUN_REGULAR.items()
]


@pytest.mark.parametrize(
    ("content", "exact"), [case[:2] for case in READ_ALIKE], ids=[case[2] for case in READ_ALIKE]
)
def test_regular_files_read_the_same_both_ways(tmp_path, content, exact):
    path = tmp_path / "run.trec"
    path.write_bytes(content)
    fast = plain_fields(path, RUN, 6, exact=exact)
    assert fast is not None
    assert fast.to_dicts() == fields(path, read_lines(path), RUN, 6, False, LAYOUT).to_dicts()


@pytest.mark.parametrize("content", IRREGULAR.values(), ids=IRREGULAR.keys())
def test_irregular_files_take_the_general_path(tmp_path, content):
    path = tmp_path / "run.trec"
    path.write_bytes(content)
    assert plain_fields(path, RUN, 6) is None
    try:
        general = fields(path, read_lines(path), RUN, 6, False, LAYOUT).to_dicts()
    except InputError:
        with pytest.raises(InputError):
            split_fields(path, RUN, 6, False, LAYOUT)
    else:
        assert split_fields(path, RUN, 6, False, LAYOUT).to_dicts() == general


def test_an_error_after_a_blank_line_names_the_right_line(tmp_path):
    # line 1 fine, line 2 blank, line 3 has a NaN score: the error names line 3
    path = tmp_path / "run.trec"
    path.write_bytes(b"q1 Q0 d1 1 0.5 t\n\nq1 Q0 d2 2 nan t\n")
    with pytest.raises(InputError) as caught:
        load_run(path)
    assert caught.value.line == 3


def test_a_short_line_is_reported_by_the_general_path(tmp_path):
    path = tmp_path / "run.trec"
    path.write_bytes(b"q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.4\n")
    with pytest.raises(InputError) as caught:
        load_run(path)
    assert caught.value.line == 2


def test_qrels_with_five_columns_are_refused_by_line(tmp_path):
    path = tmp_path / "gold.qrels"
    path.write_bytes(b"q1 0 d1 1\nq1 0 d2 1 x\n")
    with pytest.raises(InputError) as caught:
        load_gold(path)
    assert caught.value.line == 2


def test_unsorted_run_is_ranked_by_score_then_id_descending(tmp_path):
    # q2 first in the file; q1's rows out of order, with a tie (d1, d3 at 0.5):
    # q1 ranks d3 (0.5, larger id), d1 (0.5), d2 (0.1); questions keep file order
    path = tmp_path / "run.trec"
    path.write_bytes(b"q2 Q0 d9 1 1.0 t\nq1 Q0 d2 1 0.1 t\nq1 Q0 d1 2 0.5 t\nq1 Q0 d3 3 0.5 t\n")
    results = load_run(path).results
    assert results.rows() == [
        ("q2", "d9", 1, 1.0),
        ("q1", "d3", 1, 0.5),
        ("q1", "d1", 2, 0.5),
        ("q1", "d2", 3, 0.1),
    ]


def test_repeated_chunk_is_dropped_and_counted(tmp_path):
    # d1 twice in q1 (scores 0.9 and 0.2): kept at rank 1; d2 keeps position 2
    path = tmp_path / "run.trec"
    path.write_bytes(b"q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.5 t\nq1 Q0 d1 3 0.2 t\n")
    run = load_run(path)
    assert run.results.select("chunk_id", "rank").rows() == [("d1", 1), ("d2", 2)]
    assert run.repeated_chunks == 1


def test_an_empty_field_never_shifts_the_columns(tmp_path):
    # "q1  d1 1 0.5 t" has five fields and an empty one; read naively by position it
    # would look like a valid line. The general path refuses it: five columns.
    path = tmp_path / "run.trec"
    path.write_bytes(b"q1  d1 1 0.5 t\n")
    assert plain_fields(path, RUN, 6) is None
    with pytest.raises(InputError):
        load_run(path)


RUN_IRREGULAR = {name: text for name, text in IRREGULAR.items() if name != "extra column"} | {
    "two spaces, one field too many": b"q1  Q0 d1 1 0.5 t\n",
    "empty rank": b"q1 Q0 d1  0.5 t\n",
}


@pytest.mark.parametrize("content", RUN_IRREGULAR.values(), ids=RUN_IRREGULAR.keys())
def test_an_empty_field_in_a_run_still_takes_the_general_path(tmp_path, content):
    path = tmp_path / "run.trec"
    path.write_bytes(content)
    assert plain_fields(path, RUN, 6, exact=False) is None
