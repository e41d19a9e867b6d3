"""reportgen against pytrec_eval on real public runs (TREC DL 2019/2020, BEIR TREC-COVID
and TREC-NEWS, from shared/realdata beside the repository), question by question, every measure.

The random cases of test_differential.py cover the corners; these cover what real
runs hold: 1,000-deep lists, graded qrels with judged non-relevant documents, real
score distributions and ties.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from reportgen.load import load_gold, load_run
from reportgen.measure.scoring import Settings, evaluate
from tests.measure.test_differential import PYTREC_TO_REPORTGEN

pytrec_eval = pytest.importorskip("pytrec_eval")

KS = (1, 3, 5, 10)
DATASETS = ("trec-dl19-passage", "trec-dl20-passage", "beir-trec-covid", "beir-trec-news")
TOL = 1e-9


def _dataset(realdata_dir: Path, name: str) -> tuple[Path, list[Path]]:
    folder = realdata_dir / name
    if not folder.is_dir():
        pytest.skip(f"real data set {name} not found: {folder} is missing")
    (qrels,) = folder.glob("qrels*")
    return qrels, sorted((folder / "runs").glob("*.txt"))


def _pytrec_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    for line in path.read_text().splitlines():
        qid, _, docid, grade = line.split()
        qrels[qid][docid] = int(grade)
    return qrels


def _pytrec_run(path: Path) -> dict[str, dict[str, float]]:
    run: dict[str, dict[str, float]] = defaultdict(dict)
    for line in path.read_text().splitlines():
        qid, _, docid, _, score, _ = line.split()
        run[qid][docid] = float(score)
    return run


@pytest.mark.parametrize("name", DATASETS)
def test_every_question_and_measure_matches_pytrec_eval(realdata_dir: Path, name: str) -> None:
    qrels_path, run_paths = _dataset(realdata_dir, name)
    measures = {"map", "recip_rank", "Rprec"} | {
        f"{m}.{','.join(map(str, KS))}" for m in ("P", "recall", "success", "ndcg_cut", "map_cut")
    }
    evaluator = pytrec_eval.RelevanceEvaluator(_pytrec_qrels(qrels_path), measures)
    gold = load_gold(qrels_path)
    runs = [load_run(path) for path in run_paths]
    evaluation = evaluate(gold, runs, Settings(ks=KS, context_k=10, trec_eval=True))
    compared = 0
    for path, result in zip(run_paths, evaluation.runs, strict=True):
        expected = evaluator.evaluate(_pytrec_run(path))
        ours = {row["qid"]: row for row in result.scores.iter_rows(named=True)}
        for qid, values in expected.items():
            for measure, value in values.items():
                key = PYTREC_TO_REPORTGEN[measure]
                assert ours[qid][key] == pytest.approx(value, abs=TOL), (path.name, qid, key)
                compared += 1
    assert compared > 1000  # every run, question and measure, not a vacuous pass
