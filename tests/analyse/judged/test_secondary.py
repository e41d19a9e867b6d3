"""Secondary judgments: kappa as scikit-learn computes it, the gated numbers untouched,
and the refusals."""

from __future__ import annotations

import json
import random
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from reportgen.analyse.secondary import agreement, cohen_kappa
from reportgen.cli import cli

sklearn_metrics = pytest.importorskip("sklearn.metrics")


@pytest.mark.parametrize("seed", range(20))
def test_kappa_matches_scikit_learn(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 40)
    a = [rng.choice([0, 1, 2, 3]) for _ in range(n)]
    # the second rater agrees often, so kappa spans its range
    b = [x if rng.random() < 0.6 else rng.choice([0, 1, 2]) for x in a]
    expected = sklearn_metrics.cohen_kappa_score(a, b)
    found = cohen_kappa(pl.Series(a), pl.Series(b))
    if expected != expected:  # NaN: chance agreement is total
        assert found is None
    else:
        assert found == pytest.approx(expected, abs=1e-12)


def test_confusion_matrix_rows_gold_columns_secondary():
    gold = pl.DataFrame({"qid": ["q"] * 3, "chunk_id": ["a", "b", "c"], "grade": [0, 1, 2]})
    secondary = pl.DataFrame(
        {"qid": ["q"] * 4, "chunk_id": ["a", "b", "c", "z"], "grade": [1, 1, 2, 0]}
    )
    found = agreement(gold, secondary)
    assert found["pairs"] == 3 and found["labels"] == [0, 1, 2]
    assert found["matrix"] == [[0, 1, 0], [0, 1, 0], [0, 0, 1]]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "gold.jsonl").write_text(
        '{"id": "q1", "gold": {"c1": 1, "c7": 0}}\n{"id": "q2", "gold": ["s1"]}\n'
    )
    (tmp_path / "run.trec").write_text(
        "q1 Q0 c9 1 3 r\nq1 Q0 c1 2 2 r\nq1 Q0 c7 3 1 r\nq2 Q0 s9 1 3 r\nq2 Q0 s1 2 2 r\n"
    )
    (tmp_path / "judge.csv").write_text(
        "qid,chunk_id,grade,source,model,prompt_hash\n"
        "q1,c9,1,llm,m-1,ff00\nq1,c7,1,llm,m-1,ff00\nq2,s9,0,llm,m-1,ff00\nq9,x,1,llm,m-1,ff00\n"
    )
    return tmp_path


def _report(folder: Path, *extra: str) -> dict:
    out = folder / ("with" if extra else "without")
    result = CliRunner().invoke(
        cli,
        ["report", str(folder / "gold.jsonl"), f"r={folder / 'run.trec'}", "--context-k", "3",
         "--out", str(out), "--format", "json", *extra],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return json.loads((out / "report.json").read_text())


def test_gated_numbers_never_change(folder: Path):
    plain = _report(folder)
    judged = _report(folder, "--judgments", str(folder / "judge.csv"))
    section = judged.pop("secondary_judgments")
    for report in (plain, judged):  # where each was written and what it read
        report.pop("inputs", None)
        report["gold"].pop("source", None)
    assert judged["runs"] == plain["runs"] and judged["comparisons"] == plain["comparisons"]
    means = section["runs"]["r"]
    assert means["human"]["hit@3"] == plain["runs"]["r"]["means"]["hit@3"]
    # c9 becomes relevant for q1: hit@1 stays 0 on the gold set, but with_secondary
    # recall@3 of q1 = 2/2 (c1, c9) and of q2 = 1 (s1): mean 1.0; judged@3 of q1 = 3/3
    # and of q2 = 2/3 (two chunks returned: the third place is a hole): mean 5/6
    assert means["with_secondary"]["recall@3"] == 1.0
    assert means["with_secondary"]["judged@3"] == pytest.approx(5 / 6, abs=1e-9)
    assert section["added"] == 2 and section["outside_gold"] == 1
    assert section["models"] == ["m-1"] and section["prompt_hashes"] == ["ff00"]
    assert section["agreement"]["pairs"] == 1  # c7: gold 0, secondary 1
    assert section["agreement"]["matrix"] == [[0, 1], [0, 0]]


def test_conflicting_secondary_judgments_are_refused(folder: Path):
    (folder / "bad.jsonl").write_text(
        '{"qid": "q1", "chunk_id": "c9", "grade": 1}\n{"qid": "q1", "chunk_id": "c9", "grade": 0}\n'
    )
    result = CliRunner().invoke(
        cli,
        ["report", str(folder / "gold.jsonl"), str(folder / "run.trec"), "--out",
         str(folder / "x"), "--format", "json", "--judgments", str(folder / "bad.jsonl")],
    )  # fmt: skip
    assert result.exit_code == 2
    assert "bad.jsonl:2: question q1 chunk c9 is graded 0 here and 1 on line 1" in result.output
