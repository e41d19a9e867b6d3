"""Properties every measure keeps, whatever the gold set and the run."""

from __future__ import annotations

from dataclasses import dataclass, field

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from reportgen.measure.measures import CUTOFF_MEASURES, means, measure_keys, per_question

KS = list(range(1, 13))
KEYS = measure_keys(KS)
POOL = [f"c{i:02d}" for i in range(12)]
"""Chunk ids a gold set judges."""
NOISE = [f"n{i:02d}" for i in range(8)]
"""Chunk ids no gold set judges."""
EPS = 1e-12

PROFILE = settings(deadline=None, max_examples=100)
"""No deadline: the first Polars query of a session is slow."""


@dataclass
class Case:
    judged: dict[str, dict[str, int]]
    lists: dict[str, list[str]]
    threshold: int
    unanswerable: list[str] = field(default_factory=list)

    def relevant(self, qid: str) -> set[str]:
        """The chunks of a gold question at or above the threshold."""
        return {c for c, g in self.judged[qid].items() if g >= self.threshold}


@st.composite
def cases(draw: st.DrawFn, repeats: bool = False) -> Case:
    """1 to 5 gold questions, graded 0 to 3 (some with nothing relevant), some
    unanswerable, some absent from the run, and run questions outside the gold set."""
    n = draw(st.integers(1, 5))
    judged = {}
    for i in range(n):
        chunks = draw(st.lists(st.sampled_from(POOL), unique=True, max_size=8))
        grades = draw(st.lists(st.integers(0, 3), min_size=len(chunks), max_size=len(chunks)))
        judged[f"q{i}"] = dict(zip(chunks, grades, strict=True))
    qids = [*judged, "extra"]
    answered = draw(st.lists(st.sampled_from(qids), unique=True))
    ranked = st.lists(st.sampled_from(POOL + NOISE), unique=not repeats, max_size=15)
    lists = {qid: draw(ranked) for qid in answered}
    unanswerable = draw(st.lists(st.sampled_from([*judged, "u0"]), unique=True, max_size=2))
    threshold = draw(st.sampled_from([1, 2]))
    return Case(judged, lists, threshold, unanswerable)


def score(make_gold, make_run, case: Case, ks: list[int] = KS) -> pl.DataFrame:
    gold = make_gold(case.judged, unanswerable=case.unanswerable)
    return per_question(gold, make_run(case.lists), ks, threshold=case.threshold)


@PROFILE
@given(case=cases(repeats=True))
def test_every_measure_is_between_0_and_1(make_gold, make_run, case):
    # repeated chunks included: a chunk counts once, so recall never passes 1
    scores = score(make_gold, make_run, case)
    values = scores.select(KEYS)
    assert values.null_count().sum_horizontal()[0] == 0
    array = values.to_numpy()
    assert ((array >= 0) & (array <= 1 + EPS)).all()
    assert (scores["n_relevant_retrieved"] <= scores["n_relevant"]).all()
    mean = means(scores, KEYS, keep_no_relevant=True).drop("n")
    assert all(v is None or 0 <= v <= 1 + EPS for v in mean.row(0))


@PROFILE
@given(case=cases(), tail=st.lists(st.sampled_from(NOISE), unique=True, max_size=5))
def test_the_ideal_ranking_scores_1(make_gold, make_run, case, tail):
    # every positive grade, best first (then chunks no one judged): a perfect list
    case.lists = {
        qid: sorted((c for c, g in by_chunk.items() if g > 0), key=lambda c: -by_chunk[c]) + tail
        for qid, by_chunk in case.judged.items()
    }
    scores = score(make_gold, make_run, case)
    for row in scores.filter(pl.col("status") == "scored").iter_rows(named=True):
        assert all(row[f"ndcg@{k}"] == pytest.approx(1) for k in KS)
        assert all(row[f"recall@{k}"] == pytest.approx(1) for k in KS if k >= row["n_relevant"])
        assert row["ap"] == pytest.approx(1)
        assert row["mrr"] == 1
        assert row["r-precision"] == pytest.approx(1)


@pytest.mark.slow
@PROFILE
@given(case=cases(), cut=st.integers(0, 12), data=st.data())
def test_what_follows_rank_k_never_changes_measures_at_k(make_gold, make_run, case, cut, data):
    before = score(make_gold, make_run, case)
    for qid, ranked in case.lists.items():
        top = ranked[:cut]
        # not relevant, and no nDCG gain either (a list shorter than k takes them in)
        gains = case.judged.get(qid, {})
        non_relevant = [c for c in POOL + NOISE if c not in top and gains.get(c, 0) <= 0]
        tail = data.draw(st.lists(st.sampled_from(non_relevant), unique=True, max_size=6))
        case.lists[qid] = top + tail
    after = score(make_gold, make_run, case)
    at_k = [m.key(k) for m in CUTOFF_MEASURES for k in KS if k <= cut]
    assert_frame_equal(before.select("qid", *at_k), after.select("qid", *at_k))


@PROFILE
@given(case=cases(repeats=True))
def test_at_1_precision_hit_and_rr_agree(make_gold, make_run, case):
    scores = score(make_gold, make_run, case, ks=[1])
    assert scores["precision@1"].to_list() == scores["hit@1"].to_list()
    assert scores["mrr@1"].to_list() == scores["hit@1"].to_list()


@PROFILE
@given(case=cases(repeats=True))
def test_hit_and_recall_never_fall_as_k_grows(make_gold, make_run, case):
    scores = score(make_gold, make_run, case)
    for name in ("hit", "recall"):
        by_k = scores.select(f"{name}@{k}" for k in KS).to_numpy()
        assert (by_k[:, 1:] >= by_k[:, :-1]).all(), name


@PROFILE
@given(case=cases(repeats=True))
def test_cutoff_beyond_the_list_is_the_whole_list(make_gold, make_run, case):
    # no list is longer than 15: at k = 15 RR and AP are those with no cutoff
    scores = score(make_gold, make_run, case, ks=[15])
    assert scores["mrr@15"].to_list() == pytest.approx(scores["mrr"].to_list())
    assert scores["ap@15"].to_list() == pytest.approx(scores["ap"].to_list())


@pytest.mark.slow
@PROFILE
@given(case=cases(repeats=True), seed=st.integers(0, 2**32 - 1))
def test_row_order_of_the_inputs_changes_nothing(make_gold, make_run, case, seed):
    gold = make_gold(case.judged, unanswerable=case.unanswerable)
    run = make_run(case.lists)
    expected = per_question(gold, run, KS, threshold=case.threshold)

    def shuffled(frame: pl.DataFrame) -> pl.DataFrame:
        return frame.sample(fraction=1.0, shuffle=True, seed=seed)

    gold = type(gold)(
        questions=shuffled(gold.questions),
        judgments=shuffled(gold.judgments),
        source=gold.source,
    )
    run = type(run)(
        name=run.name, results=shuffled(run.results), source=run.source, order=run.order
    )
    assert_frame_equal(per_question(gold, run, KS, threshold=case.threshold), expected)


@PROFILE
@given(case=cases(repeats=True))
def test_one_row_per_gold_question(make_gold, make_run, case):
    scores = score(make_gold, make_run, case)
    gold_qids = sorted({*case.judged, *case.unanswerable})
    assert scores["qid"].to_list() == gold_qids
    statuses = dict(zip(scores["qid"], scores["status"], strict=True))
    for qid in gold_qids:
        if qid in case.unanswerable:
            assert statuses[qid] == "unanswerable"
        elif not case.relevant(qid):
            assert statuses[qid] == "no_relevant"
        elif not case.lists.get(qid):
            assert statuses[qid] == "missing"
        else:
            assert statuses[qid] == "scored"
