"""One vocabulary for every reader: id keys, true/false words, format detection."""

from __future__ import annotations

from pathlib import Path

import pytest

from reportgen.errors import InputError, UsageError
from reportgen.load import load_gold, load_manifest, load_verdicts
from reportgen.load.formats.vocabulary import (
    FALSE_WORDS,
    FORMATS,
    TRUE_WORDS,
    Kind,
    detect_format,
    flag_word,
    parse_flag,
)
from tests.load.conftest import Write

GOLD_CSV_WORDS_BEFORE = {"true", "1", "yes", "y", "t"}, {"false", "0", "no", "n", "f"}
"""What the gold CSV ``unanswerable`` column read before the two parsers became one."""
VERDICT_WORDS_BEFORE = (
    {"true", "t", "1", "yes", "y", "pass", "passed"},
    {"false", "f", "0", "no", "n", "fail", "failed"},
)


def test_one_word_set_keeps_every_word_either_parser_accepted() -> None:
    for true, false in (GOLD_CSV_WORDS_BEFORE, VERDICT_WORDS_BEFORE):
        assert true <= TRUE_WORDS and false <= FALSE_WORDS
    assert not TRUE_WORDS & FALSE_WORDS


@pytest.mark.parametrize("word", sorted(TRUE_WORDS | FALSE_WORDS))
def test_every_word_reads_in_any_case_and_spacing(word: str) -> None:
    expected = word in TRUE_WORDS
    for spelling in (word, word.upper(), f"  {word.title()} "):
        assert flag_word(spelling) is expected
        assert parse_flag(spelling, Path("v.jsonl"), 3, "correct") is expected


@pytest.mark.parametrize(
    ("value", "expected"),
    [(None, None), ("", None), (" ", None), (True, True), (0, False), (1.0, True)],
)
def test_json_values_and_empty_text(value: object, expected: bool | None) -> None:
    assert parse_flag(value, Path("v.jsonl"), 1, "correct") is expected


@pytest.mark.parametrize("value", ["maybe", 2, 0.5, [], {}])
def test_other_values_are_refused_with_the_spellings(value: object) -> None:
    with pytest.raises(InputError, match="true/false, 1/0, yes/no or pass/fail") as caught:
        parse_flag(value, Path("v.jsonl"), 4, "abstained")
    assert caught.value.line == 4 and "abstained is" in str(caught.value)
    assert flag_word(str(value)) is None


@pytest.mark.parametrize("word", ["yes", "Y", "pass", "1", "TRUE"])
def test_gold_csv_unanswerable_reads_the_shared_words(write: Write, word: str) -> None:
    gold = load_gold(write("g.csv", f"id,chunk_id,unanswerable\nq1,,{word}\nq2,c1,no\n"))
    assert gold.questions.filter(unanswerable=True)["qid"].to_list() == ["q1"]


def test_gold_csv_forbidden_is_a_reason_or_a_true_word(write: Write) -> None:
    path = write(
        "g.csv",
        "id,chunk_id,forbidden\nq1,c1,\nq1,c2,staff-only\nq1,c3,yes\nq1,c4,no\nq1,c5,\n",
    )
    forbidden = load_gold(path).forbidden.sort("chunk_id")
    assert forbidden.select("chunk_id", "reason").rows() == [
        ("c2", "staff-only"),
        ("c3", "forbidden"),
    ]


def test_gold_csv_unknown_word_names_the_line(write: Write) -> None:
    with pytest.raises(InputError, match="unanswerable is 'maybe'") as caught:
        load_gold(write("g.csv", "id,chunk_id,unanswerable\nq1,c1,no\nq2,,maybe\n"))
    assert caught.value.line == 3


@pytest.mark.parametrize(
    ("kind", "name", "content", "fmt"),
    [
        ("gold", "g", "q1 0 c1 1\n", "qrels"),
        ("gold", "g.txt", "q1 0 c1 1\n", "qrels"),
        ("gold", "g", '# c\n{"id": "q1"}\n', "jsonl"),
        ("gold", "g", "id,chunk_id\n", "csv"),
        ("run", "r", "q1 Q0 c1 1 0.5 t\n", "trec"),
        ("run", "r.run", "anything\n", "trec"),
        ("run", "r", '{"q1": {"c1": 1}}\n', "json"),
        ("run", "r", '{"q1": {"c1": 1}}\n{"q2": {"c1": 1}}\n', "jsonl"),
        ("run", "r", '{"id": "q1", "chunks": []}\n', "jsonl"),
        ("run", "r", "PAR1xxxx", "parquet"),
        ("verdict", "v.ndjson", "{}\n", "jsonl"),
        ("verdict", "v.csv", "id,correct\n", "csv"),
        ("verdict", "v.json", '{"results": []}', "promptfoo"),
        ("verdict", "v.json", '{"testCases": []}', "deepeval"),
        ("manifest", "m", "# index_version: 3\nc1\n", "lines"),
        ("manifest", "m.txt", '{"chunk_id": "c1"}\n', "jsonl"),
        ("manifest", "m", "", "lines"),
        ("manifest", "m.csv", "chunk_id\n", "csv"),
    ],
)
def test_one_detector_for_every_kind(
    write: Write, kind: Kind, name: str, content: str, fmt: str
) -> None:
    assert detect_format(write(name, content), None, kind) == fmt


def test_ragas_csv_is_told_by_the_metric(write: Write) -> None:
    path = write("v.csv", "user_input,faithfulness\nq,0.9\n")
    assert detect_format(path, None, "verdict") == "csv"
    assert detect_format(path, None, "verdict", "faithfulness") == "ragas"


@pytest.mark.parametrize(
    ("kind", "name", "content", "line", "fix"),
    [
        ("gold", "g", "a b\n", 1, "--gold-format or use a known extension"),
        ("gold", "g.parquet", "PAR1", 1, "--gold-format or use a known extension"),
        ("run", "r", "\n\na b c\n", 3, "--run-format or use a known extension"),
        ("verdict", "v.txt", "x\n", None, "--verdict-format"),
        ("verdict", "v.json", "[]", None, "--verdict-format"),
    ],
)
def test_unknown_content_says_how_to_force_a_format(
    write: Write, kind: Kind, name: str, content: str, line: int | None, fix: str
) -> None:
    with pytest.raises(InputError, match=f"cannot tell the {kind} file's format") as caught:
        detect_format(write(name, content), None, kind)
    assert caught.value.line == line and str(caught.value).endswith(f"Fix: force one with {fix}.")


@pytest.mark.parametrize("kind", FORMATS)
def test_a_forced_format_must_be_known(tmp_path: Path, kind: Kind) -> None:
    assert detect_format(tmp_path / "absent", FORMATS[kind][-1], kind) == FORMATS[kind][-1]
    with pytest.raises(UsageError, match=f"unknown {kind} format 'pdf'"):
        detect_format(tmp_path / "absent", "pdf", kind)


def test_loaders_use_the_detector(write: Write) -> None:
    with pytest.raises(UsageError, match="unknown manifest format"):
        load_manifest(write("m", "c1\n"), "xml")
    with pytest.raises(UsageError, match="unknown verdict format"):
        load_verdicts(write("v.jsonl", "{}\n"), "xml")
