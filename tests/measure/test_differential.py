"""reportgen against an independent implementation (pytrec_eval, trec_eval's C code) on
random data: graded judgments, tied scores, questions the run misses, run questions
the gold set lacks, questions with nothing relevant.

pytrec_eval evaluates only the questions both sides have; a gold question the run
does not answer is scored 0 here by hand (trec_eval -c), as reportgen does.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from reportgen.measure.measures import means, per_question

pytrec_eval = pytest.importorskip("pytrec_eval")

KS = (1, 3, 5, 10)
TOL = 1e-9
"""Scores have 2 decimals, so ties are the same in float64 and pytrec_eval's float32."""

CUTOFF_MEASURES = {"P": "precision", "recall": "recall", "success": "hit"}
CUTOFF_MEASURES |= {"ndcg_cut": "ndcg", "map_cut": "ap"}
WHOLE_LIST_MEASURES = {"map": "ap", "recip_rank": "mrr", "Rprec": "r-precision"}
PYTREC_TO_REPORTGEN = {
    f"{name}_{k}": f"{ours}@{k}" for name, ours in CUTOFF_MEASURES.items() for k in KS
} | WHOLE_LIST_MEASURES
PYTREC_MEASURES = {f"{name}.{','.join(map(str, KS))}" for name in CUTOFF_MEASURES} | set(
    WHOLE_LIST_MEASURES
)


@dataclass
class RandomCase:
    judged: dict[str, dict[str, int]]
    scores: dict[str, dict[str, float]]
    missing: set[str]
    """Gold questions the run does not answer."""


def random_case(seed: int) -> RandomCase:
    rng = random.Random(seed)
    pool = [f"d{i:03d}" for i in range(40)]
    n_questions = rng.randint(4, 12)
    judged: dict[str, dict[str, int]] = {}
    for i in range(n_questions):
        chunks = rng.sample(pool, rng.randint(1, 15))
        if rng.random() < 0.15:  # judged, but nothing relevant
            judged[f"q{i:02d}"] = dict.fromkeys(chunks, 0)
        else:
            judged[f"q{i:02d}"] = {c: rng.choice([0, 0, 1, 1, 2, 3]) for c in chunks}
    missing = {qid for qid in judged if rng.random() < 0.2}
    extra = [f"x{i}" for i in range(rng.randint(0, 3))]  # run questions not in the gold set
    scores = {
        qid: {
            # 2 decimals over a short range: many ties, broken by chunk id descending
            chunk: round(rng.uniform(0, 3), 2) if rng.random() < 0.7 else rng.choice([1.0, 2.0])
            for chunk in rng.sample(pool, rng.randint(1, 30))
        }
        for qid in [*(q for q in judged if q not in missing), *extra]
    }
    return RandomCase(judged, scores, missing)


@pytest.mark.parametrize("threshold", [1, 2])
@pytest.mark.parametrize("seed", range(20))
def test_matches_pytrec_eval(make_gold, make_scored_run, seed, threshold):
    case = random_case(seed)
    evaluator = pytrec_eval.RelevanceEvaluator(
        case.judged, PYTREC_MEASURES, relevance_level=threshold
    )
    theirs = evaluator.evaluate(case.scores)
    ours = per_question(make_gold(case.judged), make_scored_run(case.scores), KS, threshold)

    # one row per gold question, none for the run's extra questions
    assert sorted(ours["qid"]) == sorted(case.judged)
    assert set(theirs) == set(case.judged) - case.missing
    rows = {row["qid"]: row for row in ours.iter_rows(named=True)}

    mismatches = []
    for qid, values in theirs.items():
        for measure, key in PYTREC_TO_REPORTGEN.items():
            got, want = rows[qid][key], values[measure]
            if abs(got - want) > TOL:
                mismatches.append(f"{qid} {measure}: pytrec_eval {want}, reportgen {got}")
    assert not mismatches, "\n".join(mismatches)

    # A gold question the run misses: 0 everywhere (pytrec_eval never sees it)
    for qid in case.missing:
        assert rows[qid]["status"] in {"missing", "no_relevant"}
        assert all(rows[qid][key] == 0 for key in PYTREC_TO_REPORTGEN.values())

    # Means: pytrec_eval's values plus a 0 for every missing question, over the
    # questions that count (with or without those that have nothing relevant).
    relevant = {qid for qid, row in rows.items() if row["n_relevant"] > 0}
    for keep_no_relevant, counted in ((True, set(case.judged)), (False, relevant)):
        mean = means(ours, list(PYTREC_TO_REPORTGEN.values()), keep_no_relevant=keep_no_relevant)
        assert mean["n"][0] == len(counted)
        for measure, key in PYTREC_TO_REPORTGEN.items():
            total = sum(theirs[qid][measure] for qid in counted if qid in theirs)
            expected = total / len(counted) if counted else None
            assert mean[key][0] == pytest.approx(expected, abs=TOL), (keep_no_relevant, measure)


def test_random_cases_exercise_every_convention():
    # the seeds above cover ties, missing questions, extra run questions and
    # questions with nothing relevant: a guard against a generator that drifts
    cases = [random_case(seed) for seed in range(20)]
    assert any(case.missing for case in cases)
    assert any(set(case.scores) - set(case.judged) for case in cases)
    assert any(not any(g >= 1 for g in j.values()) for c in cases for j in c.judged.values())
    assert any(
        len(set(by_chunk.values())) < len(by_chunk) for c in cases for by_chunk in c.scores.values()
    )
