"""Gold sets in every format: what each reader keeps, and the set-level provenance."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from reportgen.core.model import JUDGMENTS_SCHEMA, QUESTIONS_SCHEMA, UNLABELLED_KIND, GoldSet
from reportgen.errors import InputError
from reportgen.load import GOLD_FORMATS, load_gold
from tests.load.conftest import Write


def judged(gold: GoldSet) -> list[tuple[str, str, int]]:
    return sorted(gold.judgments.rows())


def test_formats_are_the_public_three() -> None:
    assert GOLD_FORMATS == ("qrels", "jsonl", "csv")


def test_qrels_with_comments_tabs_and_hash_in_ids(write: Write) -> None:
    path = write(
        "g.qrels",
        "# a comment\n"
        "q1 0 c1 1\n"
        "\n"
        "q1\tQ0\tdoc#2\t0\n"
        "   # indented comment\n"
        "q2   0   c3   -1\n"
        "q2 0 c4 2\n"
        "q1 0 c1 1\n",  # exact duplicate: ignored
    )
    gold = load_gold(path)
    assert gold.questions.schema == QUESTIONS_SCHEMA
    assert gold.judgments.schema == JUDGMENTS_SCHEMA
    assert gold.questions.rows() == [
        ("q1", None, UNLABELLED_KIND, False, None),
        ("q2", None, UNLABELLED_KIND, False, None),
    ]
    assert judged(gold) == [("q1", "c1", 1), ("q1", "doc#2", 0), ("q2", "c3", -1), ("q2", "c4", 2)]
    assert gold.version is None and gold.index_version is None
    assert gold.source == str(path)


def test_beir_qrels_tsv_reads_like_the_same_trec_qrels(write: Write) -> None:
    """BEIR's qrels/test.tsv (header query-id, corpus-id, score), as MTEB ships them."""
    beir = write(
        "test.tsv",
        "\ufeffquery-id\tcorpus-id\tscore\r\nq1\tc1\t1\r\nq1\tc2\t0\r\nq2\tc4\t2\r\n",
    )
    trec = write("same.qrels", "q1 0 c1 1\nq1 0 c2 0\nq2 0 c4 2\n")
    assert judged(load_gold(beir)) == [("q1", "c1", 1), ("q1", "c2", 0), ("q2", "c4", 2)]
    assert load_gold(beir).fingerprint == load_gold(trec).fingerprint


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("q1\tc1\n", ":2: 2 columns where exactly 3 are needed"),
        ("q1\tc1\t1\nq1\tc2\thigh\n", ":3: grade 'high' is not an integer"),
    ],
)
def test_beir_qrels_mistakes_are_named_by_line(write: Write, body: str, message: str) -> None:
    path = write("bad.tsv", "query-id\tcorpus-id\tscore\n" + body)
    with pytest.raises(InputError) as caught:
        load_gold(path)
    assert message in str(caught.value)


def test_qrels_crlf_and_bom_are_accepted(write: Write) -> None:
    gold = load_gold(write("g.txt", b"\xef\xbb\xbfq1 0 c1 1\r\nq2 0 c2 1\r\n"))
    assert judged(gold) == [("q1", "c1", 1), ("q2", "c2", 1)]


def test_jsonl_gold_with_aliases_grades_and_meta(write: Write) -> None:
    path = write(
        "g.jsonl",
        '{"id": "q1", "question": "How?", "kind": "version", "gold": ["c2", "c9"],'
        ' "index_version": "2026-10-01", "extra": 1}\n'
        '{"qid": 7, "gold_chunks": {"c1": 2, "c3": 0}}\n'
        "\n"
        '{"_meta": {"version": "v3", "index_version": "2026-11-01"}}\n'
        '{"question_id": " q3 ", "chunks": [" c4 "], "unanswerable": false}\n'
        '{"id": "q4", "question": "Who?", "unanswerable": true}\n'
        '{"id": "q5", "gold": [], "unanswerable": true}\n',
    )
    gold = load_gold(path)
    assert gold.questions.schema == QUESTIONS_SCHEMA
    assert gold.questions.rows() == [
        ("q1", "How?", "version", False, "2026-10-01"),
        ("7", None, UNLABELLED_KIND, False, None),
        ("q3", None, UNLABELLED_KIND, False, None),
        ("q4", "Who?", UNLABELLED_KIND, True, None),
        ("q5", None, UNLABELLED_KIND, True, None),
    ]
    assert judged(gold) == [
        ("7", "c1", 2),
        ("7", "c3", 0),
        ("q1", "c2", 1),
        ("q1", "c9", 1),
        ("q3", "c4", 1),
    ]
    assert (gold.version, gold.index_version) == ("v3", "2026-11-01")


def test_arguments_override_the_file(write: Write) -> None:
    path = write(
        "g.jsonl", '{"_meta": {"version": "v1", "index_version": "i1"}}\n{"id": 1, "gold": [2]}\n'
    )
    gold = load_gold(path, version="v9", index_version="i9")
    assert (gold.version, gold.index_version) == ("v9", "i9")


@pytest.mark.parametrize(
    ("values", "expected"),
    [(["i1", "i1", None], "i1"), (["i1", "i2"], None), ([None], None)],
)
def test_index_version_from_a_single_per_question_value(
    write: Write, values: list[str | None], expected: str | None
) -> None:
    lines = [json.dumps({"id": n, "gold": ["c"], "index_version": v}) for n, v in enumerate(values)]
    assert load_gold(write("g.jsonl", "\n".join(lines))).index_version == expected


def test_csv_gold_with_aliases_grades_and_unanswerable(write: Write) -> None:
    path = write(
        "g.csv",
        "QID,docid,grade,kind,question,unanswerable,index_version\n"
        "q1,c1,2,table,What?,,i1\n"
        "q1,c2,,,What?,false,\n"
        "\n"
        'q2,,,,"Where, then?",true,\n'
        "q3,c5,0,,,,\n",
    )
    gold = load_gold(path)
    assert gold.questions.rows() == [
        ("q1", "What?", "table", False, "i1"),
        ("q2", "Where, then?", UNLABELLED_KIND, True, None),
        ("q3", None, UNLABELLED_KIND, False, None),
    ]
    assert judged(gold) == [("q1", "c1", 2), ("q1", "c2", 1), ("q3", "c5", 0)]
    assert gold.index_version == "i1"


def test_csv_minimal_header(write: Write) -> None:
    gold = load_gold(write("g.csv", "question_id,doc_id\n q1 , c1 \nq1,c1\n"))
    assert judged(gold) == [("q1", "c1", 1)]


@pytest.mark.parametrize(
    ("content", "fmt"),
    [
        ("q1 0 c1 1\n", "qrels"),
        ('{"id": "q1", "gold": ["c1"]}\n', "jsonl"),
        ("id,chunk_id\nq1,c1\n", "csv"),
        ("# comment\n\nq1 0 c1 1\n", "qrels"),
    ],
)
def test_format_is_sniffed_without_extension(write: Write, content: str, fmt: str) -> None:
    assert judged(load_gold(write("gold", content))) == [("q1", "c1", 1)]
    assert judged(load_gold(write("gold.dat", content), fmt)) == [("q1", "c1", 1)]


def test_forced_format_beats_the_extension(write: Write) -> None:
    path = write("gold.txt", '{"id": "q1", "gold": ["c1"]}\n')
    assert judged(load_gold(path, "jsonl")) == [("q1", "c1", 1)]


def test_fingerprint_ignores_layout(write: Write) -> None:
    a = load_gold(write("a.qrels", "q1 0 c1 1\nq2 0 c2 1\n"))
    b = load_gold(write("b.jsonl", '{"id": "q2", "gold": ["c2"]}\n{"id": "q1", "gold": ["c1"]}\n'))
    assert a.fingerprint == b.fingerprint


@pytest.mark.parametrize(
    ("name", "questions", "judgments"),
    [
        ("qrels.test", 3, 3681),
        ("qrels.test.with-comments", 3, 3681),
        ("qrels.comment.test", 31, 5890),
        ("qrels.rel_level", 3, 3681),
    ],
)
def test_trec_eval_qrels(trec_eval_dir: Path, name: str, questions: int, judgments: int) -> None:
    gold = load_gold(trec_eval_dir / name, "qrels")
    assert (gold.questions.height, gold.judgments.height) == (questions, judgments)
    if name == "qrels.test.with-comments":
        assert gold.judgments.filter(pl.col("chunk_id") == "CR#93E-1860").height == 1
