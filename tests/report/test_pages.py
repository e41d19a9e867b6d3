"""report.json's pages section: the question rows and the cutoff charts' top scores,
built in a fixed number of collects whatever the number of runs (issue 28)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reportgen.analyse.run import AnalysisOptions, Findings, run_analyses
from reportgen.load import load_gold, load_run
from reportgen.measure.scoring import Settings, evaluate
from reportgen.report.pages import question_rows, top_scores_section
from tests.collects import counting_collects


def findings(folder: Path, runs: int) -> Findings:
    """Questions 1-10 (gold q{i}-g) and u (unanswerable); run r finds the gold of the
    questions up to 2 * r + 1, at rank 1, and misses the others."""
    gold = [{"id": str(i), "gold": [f"q{i}-g"]} for i in range(1, 11)]
    gold.append({"id": "u", "unanswerable": True})
    (folder / "gold.jsonl").write_text("".join(json.dumps(row) + "\n" for row in gold))
    loaded = []
    for r in range(runs):
        path = folder / f"run{r}.jsonl"
        rows = [
            {
                "id": str(i),
                "chunks": [f"q{i}-g" if i <= 2 * r + 1 else f"q{i}-x", "noise"],
                "scores": [0.9, 0.5],
            }
            for i in range(1, 11)
        ]
        rows.append({"id": "u", "chunks": ["noise"], "scores": [0.4]})
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
        loaded.append(load_run(path, f"run{r}"))
    evaluation = evaluate(
        load_gold(folder / "gold.jsonl"), loaded, Settings(ks=(1, 2), context_k=1)
    )
    return run_analyses(evaluation, AnalysisOptions(), version="t")


@pytest.mark.parametrize("runs", [1, 4])
def test_rows_and_top_scores_collect_twice_however_many_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, runs: int
) -> None:
    # each run's top k, first rank and cells were a dozen eager collects, and each
    # run's top scores two more
    found = findings(tmp_path, runs)
    with counting_collects(monkeypatch, "report/pages.py") as count:
        rows = question_rows(found)
        top = top_scores_section(found.cutoffs)
    assert count[0] == 2
    # numeric ids by value (2 before 10), then the others
    assert [row["qid"] for row in rows] == [*(str(i) for i in range(1, 11)), "u"]
    last = f"run{runs - 1}"
    found_up_to = 2 * (runs - 1) + 1
    assert [row["runs"][last]["first_rank"] for row in rows[:10]] == [
        1 if i <= found_up_to else None for i in range(1, 11)
    ]
    assert rows[0]["runs"][last]["top"] == ["q1-g"]
    assert rows[0]["runs"][last]["relevant"] == [True]
    assert rows[-1]["runs"][last]["relevant"] == [False]
    for scores in top.values():
        assert scores["unanswerable"] == ["u"]
        assert scores["scores"]["u"] == 0.4 and scores["scores"]["10"] == 0.9
