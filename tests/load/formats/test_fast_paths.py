"""The shortcuts that make TREC runs and qrels load fast give the answers of the long way.

Each shortcut proves a file clean in one cheap pass and otherwise hands over to the
checks that name the first bad line; these files sit on either side of each shortcut.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from reportgen.errors import InputError
from reportgen.load import load_gold, load_run
from reportgen.load.formats.fields import plain_fields
from reportgen.load.formats.ids import WHITE_SPACE, odd_id, suspect_id
from reportgen.load.formats.repeats import keys_hash
from reportgen.load.inputs.memory import runs_from

RUN = {0: "qid", 2: "chunk_id", 4: "raw"}


def _file(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


def _error(load, path: Path) -> tuple[int | None, str]:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError) as caught:
        load(path)
    return caught.value.line, str(caught.value)


def test_typed_columns_come_out_as_numbers(tmp_path: Path) -> None:
    path = _file(tmp_path, "run.trec", b"q1 Q0 d1 1 0.5 t\n\nq1 Q0 d2 2 -1e-3 t\n")
    frame = plain_fields(path, RUN, 6, {4: pl.Float64()})
    assert frame is not None
    assert frame.schema["raw"] == pl.Float64
    assert frame.rows() == [(1, "q1", "d1", 0.5), (3, "q1", "d2", -0.001)]


def test_a_value_the_reader_cannot_parse_reads_the_file_as_text(tmp_path: Path) -> None:
    # "high" is no number: the fast path still applies, with strings, not the general path
    path = _file(tmp_path, "run.trec", b"q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 high t\n")
    frame = plain_fields(path, RUN, 6, {4: pl.Float64()})
    assert frame is not None
    assert frame.rows() == [(1, "q1", "d1", "0.5"), (2, "q1", "d2", "high")]


def test_a_bad_score_after_a_blank_line_is_named_by_its_line(tmp_path: Path) -> None:
    path = _file(tmp_path, "run.trec", b"q1 Q0 d1 1 0.5 t\n\nq1 Q0 d2 2 high t\n")
    line, message = _error(load_run, path)
    assert line == 3
    assert "score 'high' is not a number" in message


def test_a_bad_grade_does_not_jump_ahead_of_a_bad_id(tmp_path: Path) -> None:
    # ids are checked before grades. Line 1's chunk id "d\t" holds a tab, which only the
    # space-separated fast path keeps inside the id (the general path splits on it):
    # the unparsable grade on line 2 must not send the file down the general path.
    path = _file(tmp_path, "gold.qrels", b"q1 0 d\t 1\nq1 0 d2 x\n")
    line, message = _error(load_gold, path)
    assert line == 1
    assert "a chunk id that holds a control character" in message


def test_a_grade_beyond_int64_is_named_by_its_line(tmp_path: Path) -> None:
    path = _file(tmp_path, "gold.qrels", b"q1 0 d1 1\nq1 0 d2 99999999999999999999\n")
    line, message = _error(load_gold, path)
    assert line == 2
    assert "grade '99999999999999999999' is not an integer" in message


def test_suspect_id_never_misses_and_may_raise_a_false_alarm() -> None:
    ids = ["d1", "d\x00", "d\x1f", "d\x7f", "d" * 512, "d" * 513, "é" * 300]
    suspect = pl.DataFrame({"id": ids}).select(suspect_id(pl.col("id")))["id"].to_list()
    # "é" * 300 is 600 bytes but 300 characters: a false alarm, the exact check passes it
    assert suspect == [False, True, True, True, False, True, True]


def test_a_long_id_of_few_characters_is_accepted(tmp_path: Path) -> None:
    chunk = "é" * 300  # 600 bytes, 300 characters
    path = _file(tmp_path, "run.trec", f"q1 Q0 {chunk} 1 0.5 t\n".encode())
    assert load_run(path).results["chunk_id"].to_list() == [chunk]


def test_a_bad_question_id_is_named_at_its_first_line_in_a_block(tmp_path: Path) -> None:
    # question ids are checked once per block of equal ids: the block starts on line 2
    path = _file(
        tmp_path, "run.trec", b"q1 Q0 d1 1 0.5 t\nq\x01 Q0 d1 1 0.5 t\nq\x01 Q0 d2 2 0.4 t\n"
    )
    line, message = _error(load_run, path)
    assert line == 2
    assert "a question id that holds a control character" in message


def test_a_bad_question_id_in_a_later_block_is_found(tmp_path: Path) -> None:
    # q1, then q\x01, then q1 again: three blocks, the bad one starts on line 3
    path = _file(
        tmp_path,
        "run.trec",
        b"q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.4 t\nq\x01 Q0 d1 1 0.5 t\nq1 Q0 d3 3 0.3 t\n",
    )
    assert _error(load_run, path)[0] == 3


def test_keys_hash_tells_rows_apart_even_when_their_keys_are_equal() -> None:
    # rows 0 and 3 share keys; ("a", "a") and ("b", "b") must not both hash to zero,
    # and ("a", "b") must not meet ("b", "a")
    frame = pl.DataFrame({"qid": ["a", "b", "a", "a", "b"], "chunk_id": ["a", "b", "b", "a", "a"]})
    hashes = frame.select(keys_hash(["qid", "chunk_id"]))["qid"].to_list()
    assert hashes[0] == hashes[3]
    assert len({hashes[0], hashes[1], hashes[2], hashes[4]}) == 4


def test_question_and_chunk_ids_equal_to_each_other_are_no_repeats(tmp_path: Path) -> None:
    path = _file(tmp_path, "run.trec", b"a Q0 a 1 0.5 t\nb Q0 b 1 0.5 t\nb Q0 a 2 0.4 t\n")
    run = load_run(path)
    assert run.repeated_chunks == 0
    assert run.results.rows() == [("a", "a", 1, 0.5), ("b", "b", 1, 0.5), ("b", "a", 2, 0.4)]


def test_a_repeat_in_an_ordered_run_is_counted(tmp_path: Path) -> None:
    # in order, each question one block: d1 comes back at 0.2 in q1 and is dropped;
    # d1 in q2 is another question's chunk and stays
    path = _file(
        tmp_path,
        "run.trec",
        b"q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.5 t\nq1 Q0 d1 3 0.2 t\nq2 Q0 d1 1 0.7 t\n",
    )
    run = load_run(path)
    assert run.repeated_chunks == 1
    assert run.results.rows() == [("q1", "d1", 1, 0.9), ("q1", "d2", 2, 0.5), ("q2", "d1", 1, 0.7)]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        # tie written in ranking order (larger id first): kept as written
        (b"q1 Q0 d2 1 0.5 t\nq1 Q0 d1 2 0.5 t\n", [("q1", "d2", 1), ("q1", "d1", 2)]),
        # tie written the other way round: sorted, d2 first
        (b"q1 Q0 d1 1 0.5 t\nq1 Q0 d2 2 0.5 t\n", [("q1", "d2", 1), ("q1", "d1", 2)]),
        # a tie across two questions is no tie: q2's d2 stays after q1's d1
        (b"q1 Q0 d1 1 0.5 t\nq2 Q0 d2 1 0.5 t\n", [("q1", "d1", 1), ("q2", "d2", 1)]),
        # a rising score inside a question without a tie: sorted
        (b"q1 Q0 d9 1 0.1 t\nq1 Q0 d1 2 0.5 t\n", [("q1", "d1", 1), ("q1", "d9", 2)]),
    ],
)
def test_ties_are_ordered_by_chunk_id_descending(
    tmp_path: Path, content: bytes, expected: list[tuple[str, str, int]]
) -> None:
    run = load_run(_file(tmp_path, "run.trec", content))
    assert run.results.select("qid", "chunk_id", "rank").rows() == expected


def test_a_question_in_two_blocks_is_gathered(tmp_path: Path) -> None:
    # q1, q2, q1 again: in score order within each block, but q1 is split: sorted into
    # one block at q1's first place, positions renumbered
    path = _file(tmp_path, "run.trec", b"q1 Q0 d1 1 0.9 t\nq2 Q0 d5 1 0.8 t\nq1 Q0 d2 2 0.4 t\n")
    assert load_run(path).results.rows() == [
        ("q1", "d1", 1, 0.9),
        ("q1", "d2", 2, 0.4),
        ("q2", "d5", 1, 0.8),
    ]


def test_qrels_judging_a_pair_twice_alike_keep_it_once(tmp_path: Path) -> None:
    path = _file(tmp_path, "gold.qrels", b"q1 0 d1 1\nq1 0 d2 0\nq1 0 d1 1\n")
    assert load_gold(path).judgments.rows() == [("q1", "d1", 1), ("q1", "d2", 0)]


def test_qrels_judging_a_pair_twice_differently_are_refused(tmp_path: Path) -> None:
    path = _file(tmp_path, "gold.qrels", b"q1 0 d1 1\nq1 0 d2 0\nq1 0 d1 2\n")
    line, message = _error(load_gold, path)
    assert line == 3
    assert "q1 d1 is graded differently here and on line 1" in message


AWKWARD_NUMBERS = [
    *("1", "-0", "+1", "01", "1.0", ".5", "5.", "1e3", "1E+3", "-1e-3", "1e400", "-1e400"),
    *("nan", "NaN", "inf", "-inf", "Infinity", "1e", "e3", "1.5.5", "0x10", "1_000", "--1"),
    *("9223372036854775807", "9223372036854775808", "-9223372036854775809", "high"),
]


@pytest.mark.parametrize("dtype", [pl.Float64(), pl.Int64()], ids=["float", "int"])
def test_the_reader_parses_numbers_as_cast_does(tmp_path: Path, dtype: pl.DataType) -> None:
    # the fast path reads numbers itself and the general path casts text: for every
    # value they must agree, or the fast path must hand back the text to cast
    for value in AWKWARD_NUMBERS:
        path = _file(tmp_path, "run.trec", f"q1 Q0 d1 1 {value} t\n".encode())
        frame = plain_fields(path, RUN, 6, {4: dtype})
        assert frame is not None
        cast = pl.Series([value]).cast(dtype, strict=False)
        assert frame["raw"].cast(dtype, strict=False).equals(cast), value
        assert frame["raw"].dtype == (dtype if cast.null_count() == 0 else pl.String), value


def test_white_space_is_every_character_stripping_strips() -> None:
    # chunk ids are looked at for padding by one literal search for WHITE_SPACE: it must
    # hold every character str.strip_chars() removes and the padding regex's \s matches
    chars = pl.Series([chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000])
    stripped = chars.filter(chars.str.strip_chars() == "").to_list()
    matched = chars.filter(chars.str.contains(r"^\s$")).to_list()
    assert sorted(WHITE_SPACE) == stripped == matched


def test_odd_id_flags_every_id_worth_a_closer_look() -> None:
    ids = ["d1", "d 1", " d1", "d1\u3000", "d\x00", "", None, "d" * 513, "é" * 300, "d" * 512]
    odd = pl.DataFrame({"id": ids}).select(odd_id(pl.col("id")))["id"].to_list()
    assert odd == [False, True, True, True, True, True, True, True, True, False]


@pytest.mark.parametrize(
    ("qids", "chunks"),
    [
        # the question id padded on the second row of its block only: a block of its own
        (["q1", " q1", "q2"], ["d1", "d2", "d 3"]),
        # a chunk id padded at the end of a list, question ids clean
        (["q1", "q1", "q2"], ["d1", "d2\u00a0", "d 3"]),
    ],
    ids=["question id", "chunk id"],
)
def test_padding_is_stripped_wherever_it_stands(
    tmp_path: Path, qids: list[str], chunks: list[str]
) -> None:
    # white space inside an id ("d 3") stays
    frame = pl.DataFrame({"qid": qids, "chunk_id": chunks, "score": [0.9, 0.5, 0.4]})
    expected = [("q1", "d1", 1, 0.9), ("q1", "d2", 2, 0.5), ("q2", "d 3", 1, 0.4)]
    (run,) = runs_from(frame)
    assert run.results.rows() == expected
    frame.write_csv(tmp_path / "run.csv")
    assert load_run(tmp_path / "run.csv").results.rows() == expected


def test_a_control_character_after_white_space_is_still_refused(tmp_path: Path) -> None:
    # white space sends the chunk ids to the closer look, which must still find the tab
    path = _file(tmp_path, "run.csv", b"qid,chunk_id,score\nq1,d 1,0.9\nq1,d\t2,0.5\n")
    line, message = _error(load_run, path)
    assert line == 3
    assert "a chunk id that holds a control character" in message


def test_a_repeat_across_a_question_split_in_two_blocks_is_counted(tmp_path: Path) -> None:
    # q1's d1 comes back in q1's second block: gathered into one block, it is a repeat;
    # q2's d1 is another question's and stays
    path = _file(
        tmp_path,
        "run.trec",
        b"q1 Q0 d1 1 0.9 t\nq2 Q0 d1 1 0.8 t\nq1 Q0 d2 2 0.5 t\nq1 Q0 d1 3 0.4 t\n",
    )
    run = load_run(path)
    assert run.repeated_chunks == 1
    assert run.results.rows() == [("q1", "d1", 1, 0.9), ("q1", "d2", 2, 0.5), ("q2", "d1", 1, 0.8)]
