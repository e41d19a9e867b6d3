"""Bad input: every failure is an InputError naming the file, the line and the fix.

Each case is (file name, content, which loader, expected line). Hypothesis then feeds
random bytes and random token soup to both loaders: they may succeed or raise
InputError, never anything else.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reportgen.errors import InputError
from reportgen.load import load_gold, load_run
from tests.load.conftest import Write

GOLD, RUN = "gold", "run"
BIG = "1" + "0" * 400  # an integer beyond float range

CASES: list[tuple[str, str, bytes | str, str, int]] = [
    # id, file name, content, loader, line
    ("qrels empty", "g.qrels", "", GOLD, 1),
    ("qrels comments only", "g.qrels", "# nothing\n\n", GOLD, 1),
    ("qrels 3 columns", "g.qrels", "q1 0 c1 1\nq1 0 c2\n", GOLD, 2),
    ("qrels 5 columns", "g.qrels", "q1 0 c1 1\n\nq1 0 c2 1 x\n", GOLD, 3),
    ("qrels grade word", "g.qrels", "q1 0 c1 high\n", GOLD, 1),
    ("qrels grade float", "g.qrels", "q1 0 c1 1\nq1 0 c2 1.5\n", GOLD, 2),
    ("qrels regraded", "g.qrels", "q1 0 c1 1\nq2 0 c 1\nq1 Q0 c1 2\n", GOLD, 3),
    ("qrels bad utf-8", "g.qrels", b"q1 0 c1 1\n# ok\nq3 0 \xff\xfe 1\n", GOLD, 3),
    ("gold jsonl broken json", "g.jsonl", '{"id": "q1", "gold": ["c"]}\n{"id": "q2",\n', GOLD, 2),
    ("gold jsonl array line", "g.jsonl", "\n[1, 2]\n", GOLD, 2),
    ("gold jsonl no id", "g.jsonl", '{"gold": ["c1"]}\n', GOLD, 1),
    ("gold jsonl bool id", "g.jsonl", '{"id": true, "gold": ["c1"]}\n', GOLD, 1),
    ("gold jsonl empty id", "g.jsonl", '{"id": "  ", "gold": ["c1"]}\n', GOLD, 1),
    ("gold jsonl gold string", "g.jsonl", '{"id": "q1", "gold": "c1"}\n', GOLD, 1),
    ("gold jsonl grade string", "g.jsonl", '{"id": "q1", "gold": {"c1": "2"}}\n', GOLD, 1),
    ("gold jsonl grade float", "g.jsonl", '{"id": "q1", "gold": {"c1": 1.5}}\n', GOLD, 1),
    ("gold jsonl grade bool", "g.jsonl", '{"id": "q1", "gold": {"c1": true}}\n', GOLD, 1),
    (
        "gold jsonl unanswerable with gold",
        "g.jsonl",
        '{"id": "q1", "gold": ["c"]}\n{"id": "q2", "gold": ["c"], "unanswerable": true}\n',
        GOLD,
        2,
    ),
    ("gold jsonl no gold", "g.jsonl", '{"id": "q1", "gold": ["c"]}\n{"id": "q2"}\n', GOLD, 2),
    ("gold jsonl empty gold", "g.jsonl", '{"id": "q1", "gold": []}\n', GOLD, 1),
    (
        "gold jsonl duplicate id",
        "g.jsonl",
        '{"id": "q1", "gold": ["c"]}\n{"id": 2, "gold": ["c"]}\n{"qid": "q1", "gold": ["d"]}\n',
        GOLD,
        3,
    ),
    (
        "gold jsonl two meta",
        "g.jsonl",
        '{"_meta": {"version": "1"}}\n{"id": "q", "gold": ["c"]}\n{"_meta": {}}\n',
        GOLD,
        3,
    ),
    ("gold jsonl meta not object", "g.jsonl", '{"_meta": "v1"}\n', GOLD, 1),
    ("gold jsonl unanswerable string", "g.jsonl", '{"id": "q1", "unanswerable": "yes"}\n', GOLD, 1),
    ("gold jsonl chunk id object", "g.jsonl", '{"id": "q1", "gold": [{"id": "c"}]}\n', GOLD, 1),
    (
        "gold jsonl question number",
        "g.jsonl",
        '{"id": "q1", "gold": ["c"], "question": 3}\n',
        GOLD,
        1,
    ),
    ("gold jsonl only meta", "g.jsonl", '{"_meta": {"version": "v1"}}\n', GOLD, 1),
    (
        "gold jsonl two aliases",
        "g.jsonl",
        '{"id": "q1", "gold": ["c"], "chunks": ["d"]}\n',
        GOLD,
        1,
    ),
    ("gold jsonl bad utf-8", "g.jsonl", b'{"id": "q1", "gold": ["c"]}\n{"id": "\xc3("}\n', GOLD, 2),
    (
        "gold jsonl grade too big",
        "g.jsonl",
        '{"id": "q1", "gold": {"c1": ' + BIG[:30] + "}}\n",
        GOLD,
        1,
    ),
    ("gold csv grade too big", "g.csv", "id,chunk_id,grade\nq1,c1," + BIG[:30] + "\n", GOLD, 2),
    ("gold csv no chunk column", "g.csv", "id,chunk\nq1,c1\n", GOLD, 1),
    ("gold csv field count", "g.csv", "id,chunk_id\nq1,c1\n\nq2,c2,3\n", GOLD, 4),
    ("gold csv grade word", "g.csv", "id,chunk_id,grade\nq1,c1,2\nq1,c2,two\n", GOLD, 3),
    ("gold csv empty chunk", "g.csv", "id,chunk_id\nq1,c1\nq2,\n", GOLD, 3),
    (
        "gold csv conflicting question",
        "g.csv",
        "id,chunk_id,question\nq1,c1,Why?\nq2,c2,How?\nq1,c3,Why not?\n",
        GOLD,
        4,
    ),
    ("gold csv conflicting kind", "g.csv", "id,chunk_id,kind\nq1,c1,table\nq1,c3,code\n", GOLD, 3),
    (
        "gold csv unanswerable row with chunk",
        "g.csv",
        "id,chunk_id,unanswerable\nq1,c1,true\n",
        GOLD,
        2,
    ),
    (
        "gold csv unanswerable and gold",
        "g.csv",
        "id,chunk_id,unanswerable\nq1,,true\nq1,c1,\n",
        GOLD,
        3,
    ),
    ("gold csv regraded", "g.csv", "id,chunk_id,grade\nq1,c1,1\nq1,c1,2\n", GOLD, 3),
    ("gold csv unterminated quote", "g.csv", 'id,chunk_id\nq1,c1\nq2,"c2\n', GOLD, 3),
    ("gold csv header only", "g.csv", "id,chunk_id\n", GOLD, 1),
    ("gold csv unanswerable maybe", "g.csv", "id,chunk_id,unanswerable\nq1,,maybe\n", GOLD, 2),
    ("gold csv empty id", "g.csv", "id,chunk_id\n ,c1\n", GOLD, 2),
    ("gold unknown format", "gold", "\n\nsomething odd\n", GOLD, 3),
    ("trec empty", "r.trec", "\n\n", RUN, 1),
    ("trec 5 columns", "r.trec", "q1 Q0 c1 1 0.5 t\nq1 Q0 c2 2 0.4\n", RUN, 2),
    ("trec score word", "r.trec", "# c\nq1 Q0 c1 1 high t\n", RUN, 2),
    ("trec score nan", "r.trec", "q1 Q0 c1 1 0.5 t\nq1 Q0 c2 2 nan t\n", RUN, 2),
    ("trec score inf", "r.trec", "q1 Q0 c1 1 -inf t\n", RUN, 1),
    ("trec bad utf-8", "r.trec", b"q1 Q0 c1 1 0.5 t\nq1 Q0 c\x80 2 0.4 t\n", RUN, 2),
    ("run jsonl broken json", "r.jsonl", '{"id": "q1", "chunks": ["a"]}\n\n{"id": \n', RUN, 3),
    (
        "run jsonl duplicate id",
        "r.jsonl",
        '{"id": "q1", "chunks": ["a"]}\n{"id": "q1", "chunks": ["b"]}\n',
        RUN,
        2,
    ),
    ("run jsonl chunks string", "r.jsonl", '{"id": "q1", "chunks": "a"}\n', RUN, 1),
    ("run jsonl no chunks", "r.jsonl", '{"id": "q1"}\n', RUN, 1),
    (
        "run jsonl scores length",
        "r.jsonl",
        '{"id": "q1", "chunks": ["a", "b"], "scores": [1]}\n',
        RUN,
        1,
    ),
    (
        "run jsonl score string",
        "r.jsonl",
        '{"id": "q1", "chunks": ["a"], "scores": ["0.5"]}\n',
        RUN,
        1,
    ),
    (
        "run jsonl score NaN",
        "r.jsonl",
        '{"id": "q1", "chunks": ["a"], "scores": [1]}\n'
        '{"id": "q2", "chunks": ["a"], "scores": [NaN]}\n',
        RUN,
        2,
    ),
    (
        "run jsonl score too big",
        "r.jsonl",
        '{"id": "q0", "chunks": []}\n{"id": "q1", "chunks": ["a"], "scores": [' + BIG + "]}\n",
        RUN,
        2,
    ),
    ("run jsonl null chunk", "r.jsonl", '{"id": "q1", "chunks": ["a", null]}\n', RUN, 1),
    ("run jsonl results not objects", "r.jsonl", '{"id": "q1", "results": ["a"]}\n', RUN, 1),
    (
        "run jsonl score mix",
        "r.jsonl",
        '{"id": "q1", "results": [{"chunk_id": "a", "score": 1}]}\n'
        '{"id": "q2", "results": [{"chunk_id": "a"}]}\n',
        RUN,
        2,
    ),
    ("run jsonl only meta", "r.jsonl", '{"_meta": {"index_version": "i"}}\n', RUN, 1),
    ("run csv duplicate rank", "r.csv", "id,chunk_id,rank\nq1,a,1\nq2,a,1\nq1,b,1\n", RUN, 4),
    ("run csv rank zero", "r.csv", "id,chunk_id,rank\nq1,a,1\nq1,b,0\n", RUN, 3),
    ("run csv rank float", "r.csv", "id,chunk_id,rank\nq1,a,1.5\n", RUN, 2),
    ("run csv missing rank", "r.csv", "id,chunk_id,rank\nq1,a,1\nq1,b,\n", RUN, 3),
    ("run csv score word", "r.csv", "id,chunk_id,score\nq1,a,0.5\nq1,b,x\n", RUN, 3),
    ("run csv field count", "r.csv", "id,chunk_id\nq1,a\n\nq1,b,c\n", RUN, 4),
    ("run csv quoted field count", "r.csv", 'id,chunk_id\n"q1",a\nq1,b,c\n', RUN, 3),
    ("run csv no id column", "r.csv", "query,chunk_id\nq1,a\n", RUN, 1),
    ("run csv empty chunk", "r.csv", "id,chunk_id\nq1,a\nq1, \n", RUN, 3),
    ("run json broken", "r.json", '{\n  "q1": {"a": 1,\n', RUN, 3),
    (
        "run json score string",
        "r.json",
        '{\n  "q1": {"a": 1},\n  "q2": {\n    "b": "x"\n  }\n}',
        RUN,
        4,
    ),
    ("run json score nan", "r.json", '{"q1": {"a": 1},\n"q2": {"b": NaN}}', RUN, 2),
    ("run json score too big", "r.json", '{"q1":\n {"a": ' + BIG + "}}", RUN, 2),
    ("run json list", "r.json", '[{"q1": {"a": 1}}]', RUN, 1),
    ("run json empty", "r.json", "{}", RUN, 1),
    ("run unknown format", "run", "q1 c1 0.5\n", RUN, 1),
]


@pytest.mark.parametrize(
    ("name", "content", "loader", "line"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_bad_input_names_the_line_and_the_fix(
    write: Write, name: str, content: str | bytes, loader: str, line: int
) -> None:
    path = write(name, content)
    with pytest.raises(InputError) as caught:
        (load_gold if loader == GOLD else load_run)(path)
    error = caught.value
    assert error.line == line, str(error)
    assert error.path == str(path)
    assert str(error).startswith(f"{path}:{line}: ")
    assert "Fix:" in str(error)


def test_enough_cases() -> None:
    assert len(CASES) >= 30
    assert len({case[0] for case in CASES}) == len(CASES)


def test_regrade_names_both_lines(write: Write) -> None:
    with pytest.raises(InputError, match=r":3: q1 c1 is graded differently here and on line 1"):
        load_gold(write("g.qrels", "q1 0 c1 1\nq2 0 c 1\nq1 Q0 c1 2\n"))


def test_unknown_format_says_how_to_force_one(write: Write) -> None:
    with pytest.raises(InputError, match="--gold-format"):
        load_gold(write("gold", "what is this\n"))
    with pytest.raises(InputError, match="--run-format"):
        load_run(write("run", "what is this\n"))


@pytest.mark.parametrize(
    ("loader", "fmt"), [(load_gold, None), (load_run, None), (load_run, "parquet")]
)
def test_missing_file_and_directory(tmp_path: Path, loader: object, fmt: str | None) -> None:
    for path, problem in ((tmp_path / "nope.trec", "no such file"), (tmp_path, "directory")):
        with pytest.raises(InputError, match=problem) as caught:
            loader(path, fmt=fmt)  # type: ignore[operator]
        assert "Fix:" in str(caught.value)


def test_unreadable_parquet(write: Write) -> None:
    with pytest.raises(InputError, match="not a readable Parquet file") as caught:
        load_run(write("r.parquet", b"PAR1 this is not parquet PAR1"))
    assert "Fix:" in str(caught.value)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("r.trec", b"\xef\xbb\xbfq1 Q0 c1 1 0.5 t\r\nq1 Q0 c2 2 0.4 t\r\n"),
        ("r.jsonl", b'\xef\xbb\xbf{"id": "q1", "chunks": ["c1", "c2"]}\r\n'),
        ("r.csv", b"\xef\xbb\xbfid,chunk_id\r\nq1,c1\r\nq1,c2\r\n"),
        ("r.json", b'\xef\xbb\xbf{"q1": {"c1": 2, "c2": 1}}\r\n'),
    ],
)
def test_bom_and_crlf_are_accepted(write: Write, name: str, content: bytes) -> None:
    assert load_run(write(name, content)).results["chunk_id"].to_list() == ["c1", "c2"]


NAMES = ["x.qrels", "x.trec", "x.jsonl", "x.csv", "x.json", "x.parquet", "x"]
TOKENS = [
    *("q1", "q2", "Q0", "0", "c1", "c#2", "1", "-1", "0.5", "nan", "#", ",", "id", "chunk_id"),
    *("rank", "score", "{", "}", "[", "]", ":", '"', '"id":', '"gold":', '"chunks":', '"q1"'),
    *("\t", "\r", "\ufeff", "true", "null"),
]
lines = st.lists(st.lists(st.sampled_from(TOKENS), max_size=8).map(" ".join), max_size=6)
soup = lines.map(lambda rows: "\n".join(rows).encode())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(content=st.one_of(st.binary(max_size=200), soup), name=st.sampled_from(NAMES))
def test_anything_fails_only_with_input_error(content: bytes, name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(content)
        for loader in (load_gold, load_run):
            try:
                loader(path)
            except InputError as error:
                assert "Fix:" in str(error)
