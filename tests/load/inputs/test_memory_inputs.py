"""In-memory inputs become the frames their file forms become, and fail with the same
problem and fix, naming the parameter and the record where a file names its line."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from reportgen.errors import InputError, ReportgenError, UsageError
from reportgen.load import load_gold, load_run
from reportgen.load.inputs.memory import gold_from, is_one_run, runs_from, verdicts_from

GOLD = {"q1": {"c1": 2, "c2": 1}, "q2": ["c3"], "q3": {"c4": 0, "c5": 1}}
RUN_SCORED = {"q1": {"c2": 0.9, "c1": 0.9, "c7": 0.1}, "q2": {"c3": 0.5}, "q9": {"c1": 1.0}}
RUN_LISTED = {"q1": ["c7", "c1", "c7", "c2"], "q2": ("c3",)}


def _gold_jsonl(path: Path, gold: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps({"id": q, "gold": g}) + "\n" for q, g in gold.items()))
    return path


def test_gold_dict_is_the_gold_jsonl_file(tmp_path: Path) -> None:
    from_file = load_gold(_gold_jsonl(tmp_path / "gold.jsonl", GOLD))
    from_memory = gold_from(GOLD)
    assert_frame_equal(from_memory.questions, from_file.questions)
    assert_frame_equal(from_memory.judgments, from_file.judgments)
    assert from_memory.fingerprint == from_file.fingerprint
    assert from_memory.source == "gold"


def test_gold_frame_is_the_gold_csv_file(tmp_path: Path) -> None:
    frame = pl.DataFrame(
        {
            "QID": ["q1", "q1", "q2", "q3"],
            "docid": ["c1", "c2", "c3", None],
            "grade": [2, 1, None, None],
            "kind": ["how-to", "how-to", "policy", "policy"],
            "unanswerable": [False, False, False, True],
        }
    )
    path = tmp_path / "gold.csv"
    frame.write_csv(path)
    from_file = load_gold(path)
    from_memory = gold_from(frame)
    assert_frame_equal(from_memory.questions, from_file.questions)
    assert_frame_equal(from_memory.judgments, from_file.judgments)
    assert from_memory.questions["unanswerable"].to_list() == [False, False, True]


def test_pandas_gold_and_run_read_as_polars() -> None:
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    gold = pd.DataFrame({"id": ["q1", "q1"], "chunk_id": ["c1", "c2"], "grade": [1, 2]})
    run = pd.DataFrame({"qid": ["q1", "q1"], "chunk_id": ["c2", "c1"], "rank": [2, 1]})
    assert_frame_equal(gold_from(gold).judgments, gold_from(pl.from_pandas(gold)).judgments)
    (loaded,) = runs_from(run)
    assert loaded.results["chunk_id"].to_list() == ["c1", "c2"]


@pytest.mark.parametrize("scores", [[math.nan], [0.9, math.nan]])
def test_pandas_nan_score_is_refused_as_in_polars(scores: list[float]) -> None:
    """pandas keeps a missing or failed score as NaN; read as null it passed for an unscored
    run (or was called a missing score), where Polars and the CSV reader refuse NaN."""
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    run = pd.DataFrame(
        {
            "qid": ["q1"] * len(scores),
            "chunk_id": [f"c{i}" for i in range(len(scores))],
            "score": scores,
        }
    )
    with pytest.raises(InputError, match=r"^runs\.iloc\[\d\]: a score that is NaN or infinite"):
        runs_from(run)


def test_scored_run_dict_is_the_ranx_json_file(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text(json.dumps(RUN_SCORED))
    (from_memory,) = runs_from({"run": RUN_SCORED})
    from_file = load_run(path)
    assert_frame_equal(from_memory.results, from_file.results)
    # ties broken by chunk id descending, as trec_eval does
    assert from_memory.results.filter(pl.col("qid") == "q1")["chunk_id"].to_list() == [
        "c2",
        "c1",
        "c7",
    ]
    assert from_memory.order == "score"


def test_listed_run_dict_is_the_jsonl_file(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text(
        "".join(json.dumps({"id": q, "chunks": list(c)}) + "\n" for q, c in RUN_LISTED.items())
    )
    (from_memory,) = runs_from(RUN_LISTED)
    from_file = load_run(path)
    assert_frame_equal(from_memory.results, from_file.results)
    assert from_memory.repeated_chunks == from_file.repeated_chunks == 1


def test_run_frame_is_the_parquet_file(tmp_path: Path) -> None:
    frame = pl.DataFrame(
        {"qid": ["q2", "q1", "q1"], "Chunk_ID": ["c3", "c1", "c2"], "score": [0.2, 0.5, 0.7]}
    )
    path = tmp_path / "run.parquet"
    frame.write_parquet(path)
    (from_memory,) = runs_from({"dense": frame})
    assert_frame_equal(from_memory.results, load_run(path).results)
    assert from_memory.name == "dense" and from_memory.source == "runs['dense']"


@pytest.mark.parametrize(
    ("value", "one"),
    [
        (RUN_SCORED, True),
        (RUN_LISTED, True),
        ({"a": RUN_SCORED, "b": RUN_LISTED}, False),
        ({"a": "runs/a.trec", "b": pl.DataFrame({"qid": ["q"], "chunk_id": ["c"]})}, False),
        ("runs/a.trec", True),
    ],
)
def test_one_run_or_runs_by_name(value: Any, one: bool) -> None:
    assert is_one_run(value) is one


def _where_free(message: str) -> str:
    """A message's problem and fix, without where it happened."""
    body = message.split(": ", 1)[1]
    record = r"(gold|runs)(\[[^\]]*\]|\.row\(\d+\)|\.iloc\[\d+\])*"
    return re.sub(rf"\b(on )?line \d+|\bat {record}", "", body)


FILE_AND_MEMORY_ERRORS = [
    # (file name, file text, in-memory gold or run, where the memory error points)
    (
        "gold.jsonl",
        '{"id": "q1", "gold": {"c1": "x"}}\n',
        ("gold", {"q1": {"c1": "x"}}),
        "gold['q1']",
    ),
    (
        "gold.jsonl",
        '{"id": "q1", "gold": ["c1"]}\n{"id": "q1 ", "gold": ["c2"]}\n',
        ("gold", {"q1": ["c1"], "q1 ": ["c2"]}),
        "gold['q1 ']",
    ),
    (
        "gold.csv",
        "qid,chunk_id,grade\nq1,c1,1\nq1,c1,2\n",
        ("gold", pl.DataFrame({"qid": ["q1", "q1"], "chunk_id": ["c1", "c1"], "grade": [1, 2]})),
        "gold.row(1)",
    ),
    (
        "gold.csv",
        "qid,grade\nq1,1\n",
        ("gold", pl.DataFrame({"qid": ["q1"], "grade": [1]})),
        "gold (its columns)",
    ),
    (
        "run.json",
        '{"q1": {"c1": "high"}}',
        ("runs", {"bm25": {"q1": {"c0": 1.0, "c1": "high"}}}),
        "runs['bm25']['q1']['c1']",
    ),
    (
        "run.jsonl",
        '{"id": "q1", "chunks": ["c\\u001b1"]}\n',
        ("runs", {"q1": ["c\x1b1"]}),
        "runs['q1']",
    ),
    (
        "run.csv",
        "qid,chunk_id,rank\nq1,c1,1\nq1,c2,1\n",
        ("runs", pl.DataFrame({"qid": ["q1", "q1"], "chunk_id": ["c1", "c2"], "rank": [1, 1]})),
        "runs.row(1)",
    ),
    (
        "run.csv",
        "qid,chunk_id,rank\nq1,c1,0\n",
        ("runs", pl.DataFrame({"qid": ["q1"], "chunk_id": ["c1"], "rank": [0]})),
        "runs.row(0)",
    ),
    (
        "run.csv",
        "qid,chunk_id,score\nq1,c1,1\nq1,c2,\n",
        ("runs", pl.DataFrame({"qid": ["q1", "q1"], "chunk_id": ["c1", "c2"], "score": [1, None]})),
        "runs.row(1)",
    ),
    (
        "run.parquet",
        None,
        ("runs", pl.DataFrame({"qid": ["q1"], "chunk_id": ["c1"], "score": [math.nan]})),
        "runs.row(0)",
    ),
]


@pytest.mark.parametrize(("name", "text", "given", "where"), FILE_AND_MEMORY_ERRORS)
def test_memory_errors_say_what_the_file_error_says(
    tmp_path: Path, name: str, text: str | None, given: tuple[str, Any], where: str
) -> None:
    parameter, value = given
    path = tmp_path / name
    if text is None:
        value.write_parquet(path)
    else:
        path.write_text(text)
    read = load_gold if parameter == "gold" else load_run
    with pytest.raises(InputError) as from_file:
        read(path)
    with pytest.raises(InputError) as from_memory:
        (gold_from if parameter == "gold" else runs_from)(value)
    message = str(from_memory.value)
    assert message.startswith(f"{where}: "), message
    assert _where_free(message) == _where_free(str(from_file.value))
    assert from_memory.value.line is None


def test_a_repeat_names_both_records() -> None:
    frame = pl.DataFrame({"qid": ["q1", "q1"], "chunk_id": ["c1", "c1"], "grade": [1, 2]})
    with pytest.raises(InputError, match=r"here and at gold\.row\(0\)"):
        gold_from(frame)


@pytest.mark.parametrize("value", [[1, 2], 3.5, None, {"q1": "c1"}])
def test_unreadable_gold_says_what_it_takes(value: Any) -> None:
    with pytest.raises(ReportgenError, match="gold"):
        gold_from(value)


def test_empty_inputs_are_refused() -> None:
    with pytest.raises(InputError, match=r"^gold: no questions"):
        gold_from({})
    with pytest.raises(InputError, match=r"^runs: no runs"):
        runs_from({})


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: runs_from({"r": {1: {"c1": 0.5}}}), "runs['r']: question id 1 is of type int"),
        (lambda: runs_from({"r": {"q1": {10: 0.5}}}), "runs['r']['q1']: chunk id 10 is of type"),
        (lambda: runs_from({"r": {"q1": [1, 2]}}), "runs['r']['q1'][0]: chunk id 1 is of type"),
        (lambda: runs_from({"q1": ["c1", None]}), "runs['q1'][1]: chunk id None is of type"),
        (lambda: gold_from({"q1": [None]}), "gold['q1']: chunk id None is of type NoneType"),
        (lambda: gold_from({2: ["c1"]}), "gold: question id 2 is of type int"),
        (lambda: verdicts_from({1: True}), "verdicts: question id 1 is of type int"),
    ],
)
def test_ids_that_are_not_strings_are_refused_with_their_key(
    call: Callable[[], object], message: str
) -> None:
    """In a dict, 1 and "1" would silently be one id: refused where it is, not converted."""
    with pytest.raises(InputError, match=re.escape(message)):
        call()


def test_a_run_of_chunk_and_score_pairs_ranks_by_list_order() -> None:
    (run,) = runs_from({"r": {"q1": [("c2", 0.9), ("c1", 0.95)]}})
    assert run.results.sort("rank")["chunk_id"].to_list() == ["c2", "c1"]
    assert run.results.sort("rank")["score"].to_list() == [0.9, 0.95]


@pytest.mark.parametrize("empty", [[], None, {}])
def test_dict_gold_says_how_to_mark_a_question_unanswerable(empty: object) -> None:
    with pytest.raises(InputError, match=re.escape("unanswerable=['q5']")):
        gold_from({"q1": ["c1"], "q5": empty})
    gold = gold_from({"q1": ["c1"], "q5": empty or []}, unanswerable=["q5", "q6"])
    none = gold.questions.filter(pl.col("unanswerable")).get_column("qid").to_list()
    assert sorted(none) == ["q5", "q6"]


def test_unanswerable_is_no_chunk_id() -> None:
    with pytest.raises(InputError, match="'unanswerable' reads as a chunk id"):
        gold_from({"q1": ["c1"], "q5": {"unanswerable": True}})


def test_unanswerable_is_checked() -> None:
    with pytest.raises(InputError, match=r"gold\['q1'\]: has gold chunks, and unanswerable="):
        gold_from({"q1": ["c1"]}, unanswerable=["q1"])
    with pytest.raises(UsageError, match="is one string"):
        gold_from({"q1": ["c1"]}, unanswerable="q2")
    with pytest.raises(UsageError, match="marks questions of a dict gold set"):
        gold_from(pl.DataFrame({"qid": ["q1"], "chunk_id": ["c1"]}), unanswerable=["q2"])


def test_verdicts_by_question() -> None:
    verdicts = verdicts_from({"q1": True, "q2": {"correct": False, "abstained": True}, "q3": None})
    assert verdicts.rows["correct"].to_list() == [True, False, None]
    with pytest.raises(InputError, match=r"^verdicts\['q2'\]: correct is 'maybe'"):
        verdicts_from({"q1": True, "q2": "maybe"})


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.sampled_from(["q1", "q2", " q3", "4"]),
            st.sampled_from(["c1", "c2", "c3 ", "9"]),
            st.sampled_from([0, 1, 2, 3]),
        ),
        min_size=1,
        max_size=12,
    ),
    integer_ids=st.booleans(),
)
def test_judgment_tables_read_as_the_row_by_row_reader_does(
    rows: list[tuple[str, str, int]], integer_ids: bool
) -> None:
    """A (qid, chunk_id, grade) table takes the frame-wide qrels checks; with one more
    column it goes row by row through the gold CSV reader: the two must agree."""
    frame = pl.DataFrame(rows, schema=["qid", "docid", "grade"], orient="row")
    if integer_ids:
        frame = frame.filter(pl.col("qid") == "4").with_columns(pl.col("qid").cast(pl.Int64))
        if frame.height == 0:
            return
    row_by_row = frame.with_columns(note=pl.lit("kept for people, not read"))
    try:
        fast = gold_from(frame)
    except InputError as err:
        with pytest.raises(InputError) as slow:
            gold_from(row_by_row)
        assert str(slow.value) == str(err)
        return
    slow_set = gold_from(row_by_row)
    assert_frame_equal(fast.questions, slow_set.questions)
    assert_frame_equal(fast.judgments, slow_set.judgments)


@pytest.mark.parametrize("dtype", [pl.Int8, pl.Int32, pl.Int64, pl.UInt8, pl.UInt64, pl.String])
def test_gold_frame_grades_of_any_integer_type_read_alike(dtype: type[pl.DataType]) -> None:
    # signed integers are taken as they are, anything else as the text of a CSV cell
    frame = pl.DataFrame({"qid": ["q1", "q1", "q2"], "chunk_id": ["c1", "c2", "c3"]})
    grades = pl.Series("grade", [2, 0, 1]).cast(dtype)
    judgments = gold_from(frame.with_columns(grades)).judgments
    assert judgments.rows() == [("q1", "c1", 2), ("q1", "c2", 0), ("q2", "c3", 1)]


def test_gold_frame_grade_beyond_int64_is_named_as_text() -> None:
    grade = pl.Series("grade", [2**63], dtype=pl.UInt64)
    frame = pl.DataFrame({"qid": ["q1"], "chunk_id": ["c1"]}).with_columns(grade)
    with pytest.raises(InputError) as caught:
        gold_from(frame)
    assert str(caught.value).startswith("gold.row(0): grade '9223372036854775808' is not an")


def test_float_grades_are_read_as_whole_numbers_and_nan_as_missing(tmp_path: Path) -> None:
    """``DataFrame.to_pandas()`` turns an integer grade column with a missing cell into
    float64 with NaN: read as the Polars frame and the gold CSV file are."""
    frame = pl.DataFrame(
        {
            "qid": ["q1", "q1", "q2", "q3"],
            "chunk_id": ["c1", "c2", "c3", None],
            "grade": [2, 0, 1, None],
            "unanswerable": [False, False, False, True],
        }
    )
    path = tmp_path / "gold.csv"
    frame.write_csv(path)
    from_file = load_gold(path)
    floats = frame.with_columns(pl.col("grade").cast(pl.Float64).fill_null(math.nan))
    for table in (floats, floats.drop("unanswerable").head(3)):
        assert_frame_equal(gold_from(table).judgments, from_file.judgments)
    pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    pandas = frame.to_pandas()
    assert pandas["grade"].dtype == "float64"
    assert_frame_equal(gold_from(pandas).questions, from_file.questions)


@pytest.mark.parametrize("grade", [2.5, math.inf])
def test_float_grades_that_are_not_whole_are_refused(grade: float) -> None:
    frame = pl.DataFrame({"qid": ["q1", "q2"], "chunk_id": ["c1", "c2"], "grade": [1.0, grade]})
    with pytest.raises(InputError) as caught:
        gold_from(frame)
    message = str(caught.value)
    assert message.startswith(f"gold.row(1): grade '{grade}' is not an integer"), message
    assert "Fix:" in message and "\n" not in message
