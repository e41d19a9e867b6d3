"""Finding a question's line in its gold file, for annotations."""

from __future__ import annotations

from pathlib import Path

from reportgen.load.inputs.gold_lines import question_lines


def test_jsonl_csv_and_qrels(tmp_path: Path) -> None:
    jsonl = tmp_path / "gold.jsonl"
    jsonl.write_text('{"id": "q1", "question": "what about q2?"}\n\n{"id": "q2"}\n{"qid": "q10"}\n')
    assert question_lines(jsonl, ["q1", "q2", "q10", "q3"]) == {"q1": 1, "q2": 3, "q10": 4}
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q7 0 d1 1\nq7 0 d2 1\nq8\tQ0\td3\t2\n")
    assert question_lines(qrels, ["q8", "q7"]) == {"q7": 1, "q8": 3}
    csv = tmp_path / "gold.csv"
    csv.write_text('id,question,gold\n"q5","Is q6 here?",c1\n')
    assert question_lines(csv, ["q5"]) == {"q5": 2}
    assert question_lines(tmp_path / "missing", ["q1"]) == {}
