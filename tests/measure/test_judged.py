"""judged@k and hole@k: SPEC.md's worked example, the corners, and ir_measures' Judged@k
question by question on trec_eval's test data and on real TREC runs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from reportgen.core.model import Run
from reportgen.load import load_gold, load_run
from reportgen.measure.judged import judged_keys
from reportgen.measure.scoring import Settings, evaluate

ir_measures = pytest.importorskip("ir_measures")

TOL = 1e-9
KS = (1, 2, 3, 4, 5, 10, 100)


def _scores(gold, run, ks=KS, **settings) -> dict[str, dict[str, object]]:
    evaluation = evaluate(gold, [run], Settings(ks=ks, context_k=ks[0], **settings))
    return {row["qid"]: row for row in evaluation.runs[0].scores.iter_rows(named=True)}


def test_spec_worked_example(make_gold, make_run):
    # gold q1 = {c1: 2, c7: 0}; run c9, c1, c7, c3: c1 and c7 are judged (grade 0 too)
    gold = make_gold({"q1": {"c1": 2, "c7": 0}})
    row = _scores(gold, make_run({"q1": ["c9", "c1", "c7", "c3"]}), ks=(1, 2, 4))["q1"]
    assert row["judged@1"] == 0  # c9 unjudged
    assert row["judged@2"] == pytest.approx(1 / 2, abs=TOL)  # c1 of c9, c1
    assert row["judged@4"] == pytest.approx(2 / 4, abs=TOL)  # c1, c7 of four
    assert row["hole@4"] == pytest.approx(0.5, abs=TOL)


def test_grade_zero_changes_no_other_measure(make_gold, make_run):
    run = make_run({"q1": ["c9", "c1", "c7", "c3"], "q2": ["x", "d1"]})
    plain = _scores(make_gold({"q1": {"c1": 2}, "q2": ["d1"]}), run)
    zeros = _scores(make_gold({"q1": {"c1": 2, "c7": 0, "c3": 0}, "q2": {"d1": 1, "x": 0}}), run)
    other = [key for key in plain["q1"] if key.split("@")[0] not in ("judged", "hole")]
    for qid in ("q1", "q2"):
        assert {k: zeros[qid][k] for k in other} == {k: plain[qid][k] for k in other}
    assert zeros["q1"]["judged@4"] == pytest.approx(3 / 4, abs=TOL)
    assert plain["q1"]["judged@4"] == pytest.approx(1 / 4, abs=TOL)


def test_short_list_still_divides_by_k_as_spec_says(make_gold, make_run):
    # two chunks returned, both judged: the eight places left empty at 10 are holes
    # (SPEC.md; ir_measures 0.4.3 would divide by the list's length and say 1.0)
    row = _scores(make_gold({"q1": {"c1": 1, "c2": 0}}), make_run({"q1": ["c1", "c2"]}))["q1"]
    assert row["judged@10"] == pytest.approx(2 / 10, abs=TOL)
    assert row["hole@10"] == pytest.approx(8 / 10, abs=TOL)
    assert row["judged@2"] == 1.0
    assert row["judged@1"] == 1.0


def test_repeat_counts_once_and_missing_question_is_all_hole(make_gold, make_run):
    gold = make_gold({"q1": ["c1"], "q2": ["d1"]})
    rows = _scores(gold, make_run({"q1": ["c1", "c1", "x"]}))
    # the repeat counts once; the place it leaves at 3 is a hole (divided by k)
    assert rows["q1"]["judged@3"] == pytest.approx(1 / 3, abs=TOL)
    assert rows["q2"]["judged@3"] == 0.0
    assert rows["q2"]["hole@3"] == 1.0
    assert rows["q2"]["status"] == "missing"


def test_judged_keys_follow_measure_order():
    assert judged_keys([1, 5]) == ["judged@1", "judged@5", "hole@1", "hole@5"]


def _ir_measures_judged(qrels: Path, run: Run, ks: tuple[int, ...]) -> dict[tuple[str, int], float]:
    """ir_measures' Judged@k per question, on reportgen's ranking (score = -rank), put
    over k as SPEC.md says for lists shorter than k (ir_measures divides those by their
    length: its count of judged chunks is what is compared there).

    ir_measures breaks score ties by doc id ascending, trec_eval (and reportgen) by doc
    id descending: handing it the order reportgen measured compares the measure itself.
    """
    measures = [ir_measures.Judged @ k for k in ks]
    ranked = [
        ir_measures.ScoredDoc(qid, chunk, float(-rank))
        for qid, chunk, rank in run.results.select("qid", "chunk_id", "rank").iter_rows()
    ]
    qrel_rows = [
        ir_measures.Qrel(q, d, int(g))
        for q, _, d, g in (line.split()[:4] for line in qrels.read_text().splitlines())
        if not q.startswith("#")
    ]
    found = ir_measures.judged.iter_calc(measures, qrel_rows, ranked)
    lengths = Counter(doc.query_id for doc in ranked)
    return {
        (m.query_id, m.measure["cutoff"]): m.value
        * min(lengths[m.query_id], m.measure["cutoff"])
        / m.measure["cutoff"]
        for m in found
    }


def _compare(qrels: Path, runs: list[Path], ks: tuple[int, ...]) -> int:
    gold = load_gold(qrels, "qrels")
    loaded = [load_run(path, f"run{i}", "trec") for i, path in enumerate(runs)]
    evaluation = evaluate(gold, loaded, Settings(ks=ks, context_k=ks[0], trec_eval=True))
    compared = 0
    for run, result in zip(loaded, evaluation.runs, strict=True):
        ours = {row["qid"]: row for row in result.scores.iter_rows(named=True)}
        for (qid, k), value in _ir_measures_judged(qrels, run, ks).items():
            assert ours[qid][f"judged@{k}"] == pytest.approx(value, abs=TOL), (qid, k)
            assert ours[qid][f"hole@{k}"] == pytest.approx(1 - value, abs=TOL), (qid, k)
            compared += 1
    return compared


def test_matches_ir_measures_on_trec_eval_test_data(trec_eval_dir: Path):
    compared = _compare(
        trec_eval_dir / "qrels.test",
        [trec_eval_dir / "results.test", trec_eval_dir / "results.trunc"],
        (1, 5, 10, 100, 1000),
    )
    assert compared == 2 * 3 * 5  # two runs, three questions, five cutoffs


@pytest.mark.parametrize("name", ["trec-dl19-passage", "beir-trec-covid"])
def test_matches_ir_measures_on_real_trec_runs(realdata_dir: Path, name: str):
    folder = realdata_dir / name
    if not folder.is_dir():
        pytest.skip(f"real data set {name} not found: {folder} is missing")
    (qrels,) = folder.glob("qrels*")
    runs = sorted((folder / "runs").glob("*.txt"))[:2]
    assert _compare(qrels, runs, (1, 5, 10, 100)) > 100
