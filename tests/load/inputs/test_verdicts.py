"""Verdicts from every supported tool: what each importer keeps, and what it refuses.

Fixtures in tests/fixtures/verdicts/ follow each tool's documented output shape:
promptfoo's `eval -o results.json` (results.results[], failureReason 0/1/2), a
DeepEval test run (testCases[] with metricsData[]) and a ragas results CSV
(user_input plus one column per metric).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reportgen.core.model import VERDICTS_SCHEMA, VerdictSet
from reportgen.errors import InputError, UsageError
from reportgen.load import VERDICT_FORMATS, load_verdicts
from tests.load.conftest import Write

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "verdicts"

Row = tuple[str | None, str | None, bool | None, bool | None]


def rows(verdicts: VerdictSet) -> list[Row]:
    """(qid, run, correct, abstained) in file order."""
    return list(verdicts.rows.select("qid", "run", "correct", "abstained").iter_rows())


def test_formats() -> None:
    assert VERDICT_FORMATS == ("jsonl", "csv", "promptfoo", "deepeval", "ragas")


def test_jsonl_aliases_spellings_runs_and_unknown() -> None:
    verdicts = load_verdicts(FIXTURES / "verdicts.jsonl")
    assert verdicts.format == "jsonl" and verdicts.join_on == "id"
    assert verdicts.rows.schema == VERDICTS_SCHEMA
    assert rows(verdicts) == [
        ("A", "rerank", True, False),
        ("B", "rerank", False, None),  # "fail"
        ("3", "rerank", True, None),  # numeric id, correct 1
        ("A", "bm25", False, None),  # same question, another run: allowed
        ("E", None, True, True),  # "yes"
        ("D", None, None, None),  # null: unknown, not wrong
    ]
    assert verdicts.runs == ["bm25", "rerank"]
    assert verdicts.rows["line"].to_list() == [1, 2, 3, 4, 5, 6]


def test_csv_with_qid_alias_and_empty_cells() -> None:
    verdicts = load_verdicts(FIXTURES / "verdicts.csv")
    assert verdicts.format == "csv"
    assert rows(verdicts) == [
        ("A", None, True, False),
        ("B", None, False, None),
        ("C", None, True, False),
        ("D", None, None, None),
        ("E", None, True, True),
    ]
    assert verdicts.runs == []


def test_promptfoo_ids_from_var_metadata_then_description_and_errors_unknown() -> None:
    verdicts = load_verdicts(FIXTURES / "promptfoo.json")
    assert verdicts.format == "promptfoo"
    assert rows(verdicts) == [
        ("A", None, True, None),  # vars.id
        ("B", None, False, None),  # testCase.metadata.qid; failureReason 1 = wrong
        ("C", None, None, None),  # description; failureReason 2 = error = unknown
        ("E", None, True, True),  # abstained var
    ]


def test_deepeval_test_case_success_and_ids_from_metadata_then_name() -> None:
    verdicts = load_verdicts(FIXTURES / "deepeval.json")
    assert verdicts.format == "deepeval"
    assert rows(verdicts) == [
        ("A", None, True, None),
        ("B", None, False, None),
        ("C", None, False, None),
    ]


def test_deepeval_one_named_metric_and_its_error_is_unknown() -> None:
    verdicts = load_verdicts(FIXTURES / "deepeval.json", metric="faithfulness")
    assert [r[2] for r in rows(verdicts)] == [True, True, False]
    verdicts = load_verdicts(FIXTURES / "deepeval.json", metric="Correctness")
    assert [r[2] for r in rows(verdicts)] == [True, False, None]


def test_deepeval_unknown_metric_names_the_ones_there() -> None:
    with pytest.raises(InputError) as caught:
        load_verdicts(FIXTURES / "deepeval.json", metric="relevancy")
    assert "testCases[0]: no metric named 'relevancy'" in str(caught.value)
    assert "Correctness, Faithfulness" in str(caught.value)


def test_ragas_with_an_id_column_thresholds_the_metric() -> None:
    verdicts = load_verdicts(FIXTURES / "ragas_with_id.csv", metric="faithfulness", threshold=0.7)
    assert verdicts.format == "ragas" and verdicts.join_on == "id"
    # 0.92 >= 0.7, 0.40 < 0.7, 0.70 >= 0.7 (the threshold itself passes)
    assert [r[2] for r in rows(verdicts)] == [True, False, True]
    empty = load_verdicts(
        FIXTURES / "ragas_with_id.csv", metric="answer_correctness", threshold=0.5
    )
    assert [r[2] for r in rows(empty)] == [True, False, None]  # an empty score is unknown


def test_ragas_without_ids_joins_by_question_text() -> None:
    verdicts = load_verdicts(FIXTURES / "ragas.csv", metric="faithfulness", threshold=0.7)
    assert verdicts.join_on == "question"
    assert verdicts.rows["qid"].null_count() == 3
    assert verdicts.rows["question"].to_list() == [
        "How do refunds work?",  # inner spaces collapsed
        "Where is my parcel?",
        "What is the meaning of life?",
    ]


def test_ragas_needs_metric_and_threshold() -> None:
    with pytest.raises(UsageError, match="needs a metric and a threshold"):
        load_verdicts(FIXTURES / "ragas.csv", "ragas", metric="faithfulness")
    with pytest.raises(InputError, match=r"no 'correct' column.*--verdict-metric"):
        load_verdicts(FIXTURES / "ragas.csv")
    with pytest.raises(InputError, match="no 'recall' column"):
        load_verdicts(FIXTURES / "ragas.csv", metric="recall", threshold=0.5)


def test_metric_options_refused_where_they_mean_nothing() -> None:
    with pytest.raises(UsageError, match="do not apply to jsonl"):
        load_verdicts(FIXTURES / "verdicts.jsonl", metric="faithfulness")
    with pytest.raises(UsageError, match="does not apply to DeepEval"):
        load_verdicts(FIXTURES / "deepeval.json", threshold=0.5)


@pytest.mark.parametrize(
    ("content", "message", "line"),
    [
        ('{"id": "A", "correct": true}\n{"id": "B"}\n', "without a correct field", 2),
        ('{"correct": true}\n', "without a question id", 1),
        ('{"id": "A", "correct": "maybe"}\n', "correct is 'maybe'", 1),
        ('{"id": "A", "correct": 2}\n', "correct is 2", 1),
        (
            '{"id": "A", "correct": true}\n{"id": "B", "correct": true}\n'
            '{"id": "A", "correct": false}\n',
            "question 'A' already has a verdict (line 1)",
            3,
        ),
    ],
)
def test_jsonl_errors_name_the_line(write: Write, content: str, message: str, line: int) -> None:
    path = write("v.jsonl", content)
    with pytest.raises(InputError) as caught:
        load_verdicts(path)
    assert message in str(caught.value)
    assert caught.value.line == line


def test_csv_errors(write: Write) -> None:
    with pytest.raises(InputError) as caught:
        load_verdicts(write("v.csv", "id,correct\nA,true\nB,perhaps\n"))
    assert caught.value.line == 3 and "yes/no" in caught.value.fix
    with pytest.raises(InputError, match="already has a verdict"):
        load_verdicts(write("w.csv", "id,run,correct\nA,x,1\nA,y,1\nA,x,0\n"))


def test_promptfoo_errors_name_the_record(write: Write) -> None:
    path = write("p.json", '{"results": {"results": [{"success": true, "vars": {}}]}}')
    with pytest.raises(InputError) as caught:
        load_verdicts(path)
    assert "results.results[0]: no question id" in str(caught.value)
    twice = (
        '{"results": {"results": [{"success": true, "vars": {"id": "A"}},'
        ' {"success": false, "vars": {"id": "A"}}]}}'
    )
    with pytest.raises(InputError, match=r"results.results\[1\]: .*already has a verdict"):
        load_verdicts(write("q.json", twice))


def test_unrecognised_json_asks_for_the_format(write: Write) -> None:
    with pytest.raises(InputError, match="--verdict-format"):
        load_verdicts(write("v.json", '{"rows": []}'))
    with pytest.raises(InputError, match="no verdicts"):
        load_verdicts(write("e.jsonl", "\n"))
