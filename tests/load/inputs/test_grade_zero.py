"""Grade 0, "looked at, not relevant", is kept as a judgment by every gold format, and
is what judged@k counts: it never makes a chunk relevant."""

from __future__ import annotations

from pathlib import Path

import pytest

from reportgen.load import load_gold, load_run
from reportgen.measure.scoring import Settings, evaluate

FILES = {
    "gold.jsonl": '{"id": "q1", "gold": {"c1": 2, "c7": 0}}\n{"id": "q2", "gold": {"d7": 0}}\n',
    "gold.qrels": "q1 0 c1 2\nq1 0 c7 0\nq2 0 d7 0\n",
    "gold.csv": "qid,chunk_id,grade\nq1,c1,2\nq1,c7,0\nq2,d7,0\n",
}


@pytest.mark.parametrize("name", sorted(FILES))
def test_grade_zero_is_judged_not_relevant(tmp_path: Path, name: str):
    gold_path = tmp_path / name
    gold_path.write_text(FILES[name])
    fmt = "qrels" if name.endswith(".qrels") else None
    gold = load_gold(gold_path, fmt)
    grades = {(q, c): g for q, c, g in gold.judgments.iter_rows()}
    assert grades == {("q1", "c1"): 2, ("q1", "c7"): 0, ("q2", "d7"): 0}
    run_path = tmp_path / "run.trec"
    run_path.write_text("q1 Q0 c9 1 4 r\nq1 Q0 c1 2 3 r\nq1 Q0 c7 3 2 r\nq1 Q0 c3 4 1 r\n")
    scores = evaluate(gold, [load_run(run_path)], Settings(ks=(2, 4), context_k=4))
    q1 = scores.runs[0].scores.row(0, named=True)
    # SPEC.md's worked example: judged@2 = 1/2, judged@4 = 2/4; c7 is no gold chunk
    assert (q1["judged@2"], q1["judged@4"], q1["hole@4"]) == (0.5, 0.5, 0.5)
    assert q1["n_relevant"] == 1 and q1["precision@4"] == 0.25
    # a question judged only at grade 0 has nothing relevant: left out of the means
    q2 = scores.runs[0].scores.row(1, named=True)
    assert q2["status"] == "no_relevant"
