"""The worked examples of SPEC.md, value by value, with the arithmetic beside each."""

from __future__ import annotations

from math import log2

import polars as pl
import pytest

from reportgen.measure.measures import means, measure_keys, per_question
from reportgen.measure.ties import ties_at_cutoffs

TOL = 1e-9
SPEC_TOL = 5e-5
"""SPEC.md prints some values to 4 decimals."""

# --- A to E, k = 3 -----------------------------------------------------------------

A_TO_E_GOLD = {"A": ["a1"], "B": ["b1"], "C": ["c1", "c2"], "D": ["d1"]}
A_TO_E_RUN = {
    "A": ["a1", "x1", "x2"],
    "B": ["x3", "x4", "b1"],
    "C": ["c1", "x5", "x6"],
    "D": ["x7", "x8", "x9"],
    "E": ["x1", "x2", "x3"],
}
IDCG_C = 1 + 1 / log2(3)  # two gold chunks, ideal at ranks 1 and 2: 1/log2(2) + 1/log2(3)


@pytest.fixture
def a_to_e(make_gold, make_run):
    gold = make_gold(A_TO_E_GOLD, unanswerable=["E"])
    return per_question(gold, make_run(A_TO_E_RUN), ks=[3])


@pytest.mark.parametrize(
    ("qid", "expected"),
    [
        # a1 at rank 1 of 3: 1 of 1 gold; P = 1/3; RR = 1/1; DCG = 1/log2(2) = IDCG; AP = P@1 / 1
        pytest.param("A", (1, 1, 1 / 3, 1, 1, 1), id="A"),
        # b1 at rank 3: RR = 1/3; nDCG = (1/log2(4)) / (1/log2(2)) = 0.5; AP = P@3 / 1 = 1/3
        pytest.param("B", (1, 1, 1 / 3, 1 / 3, 0.5, 1 / 3), id="B"),
        # c1 at rank 1, c2 not retrieved: recall 1/2; nDCG = 1 / (1 + 1/log2(3)) = 0.6131;
        # AP = P@1 / |G| = 1/2
        pytest.param("C", (1, 0.5, 1 / 3, 1, 1 / IDCG_C, 0.5), id="C"),
        # nothing of d1 in the top 3
        pytest.param("D", (0, 0, 0, 0, 0, 0), id="D"),
    ],
)
def test_a_to_e_per_question(a_to_e, qid, expected):
    row = a_to_e.filter(pl.col("qid") == qid).row(0, named=True)
    assert row["status"] == "scored"
    keys = ["hit@3", "recall@3", "precision@3", "mrr@3", "ndcg@3", "ap@3"]
    assert [row[key] for key in keys] == pytest.approx(expected, abs=TOL)
    # every list has 3 results, so the whole-list RR and AP are those at 3
    assert row["mrr"] == pytest.approx(row["mrr@3"], abs=TOL)
    assert row["ap"] == pytest.approx(row["ap@3"], abs=TOL)


def test_a_to_e_unanswerable_question_is_kept_and_marked(a_to_e):
    row = a_to_e.filter(pl.col("qid") == "E").row(0, named=True)
    assert row["status"] == "unanswerable"
    assert row["n_relevant"] == 0


@pytest.mark.parametrize(
    ("key", "expected", "spec_value"),
    [
        # (1 + 1 + 1 + 0) / 4
        ("hit@3", 3 / 4, 0.75),
        # (1 + 1 + 0.5 + 0) / 4
        ("recall@3", 2.5 / 4, 0.625),
        # (1/3 + 1/3 + 1/3 + 0) / 4
        ("precision@3", 1 / 4, 0.25),
        # (1 + 1/3 + 1 + 0) / 4
        ("mrr@3", (1 + 1 / 3 + 1) / 4, 0.5833),
        # (1 + 0.5 + 0.6131 + 0) / 4
        ("ndcg@3", (1 + 0.5 + 1 / IDCG_C) / 4, 0.5283),
        # (1 + 1/3 + 0.5 + 0) / 4
        ("ap@3", (1 + 1 / 3 + 0.5) / 4, 0.4583),
    ],
)
def test_a_to_e_means_leave_out_the_unanswerable(a_to_e, key, expected, spec_value):
    mean = means(a_to_e, [key])
    assert mean["n"][0] == 4  # A to D; E is unanswerable
    assert mean[key][0] == pytest.approx(expected, abs=TOL)
    assert mean[key][0] == pytest.approx(spec_value, abs=SPEC_TOL)


# --- Help centre, k = 2 ------------------------------------------------------------

HELP_GOLD = {"refund": ["c2"], "address": ["c5", "c9"], "shipping": ["c8"]}
HELP_RUN = {
    "refund": ["c2", "c7", "c1"],
    "address": ["c3", "c9", "c4"],
    "shipping": ["c6", "c3", "c1"],
}


@pytest.fixture
def help_centre(make_gold, make_run):
    return per_question(make_gold(HELP_GOLD), make_run(HELP_RUN), ks=[2])


@pytest.mark.parametrize(
    ("qid", "hit", "recall", "rr"),
    [
        ("refund", 1, 1, 1),  # c2 at rank 1
        ("address", 1, 0.5, 0.5),  # c9 at rank 2, c5 never: 1 of 2; RR = 1/2
        ("shipping", 0, 0, 0),  # c8 never retrieved
    ],
)
def test_help_centre_per_question(help_centre, qid, hit, recall, rr):
    row = help_centre.filter(pl.col("qid") == qid).row(0, named=True)
    assert (row["hit@2"], row["recall@2"], row["mrr@2"], row["mrr"]) == pytest.approx(
        (hit, recall, rr, rr), abs=TOL
    )


@pytest.mark.parametrize(
    ("key", "expected", "spec_value"),
    [
        ("hit@2", 2 / 3, 0.67),  # (1 + 1 + 0) / 3
        ("recall@2", 0.5, 0.5),  # (1 + 0.5 + 0) / 3
        ("mrr@2", 0.5, 0.5),  # (1 + 0.5 + 0) / 3
        ("mrr", 0.5, 0.5),  # no gold further down either list
    ],
)
def test_help_centre_means(help_centre, key, expected, spec_value):
    mean = means(help_centre, [key])
    assert mean["n"][0] == 3
    assert mean[key][0] == pytest.approx(expected, abs=TOL)
    assert mean[key][0] == pytest.approx(spec_value, abs=0.005)


# --- Single questions at k = 5 -----------------------------------------------------


@pytest.mark.parametrize(
    ("gold", "ranked", "expected"),
    [
        # Three passages, only the FAQ in the top 5 (rank 1): recall = 1/3 = 0.33,
        # precision = 1/5, RR = 1/1
        pytest.param(
            ["faq", "refunds-policy", "governance-rule"],
            ["faq", "x1", "x2", "x3", "x4"],
            {"hit@5": 1, "recall@5": 1 / 3, "precision@5": 0.2, "mrr@5": 1},
            id="three-passages",
        ),
        # One gold chunk at rank 4: hit 1, recall 1/1, precision 1/5 = 0.2, RR = 1/4
        pytest.param(
            ["g"],
            ["x1", "x2", "x3", "g", "x4"],
            {"hit@5": 1, "recall@5": 1, "precision@5": 0.2, "mrr@5": 0.25},
            id="one-gold-at-rank-4",
        ),
        # The same chunk at rank 1: only RR changes, to 1/1
        pytest.param(
            ["g"],
            ["g", "x1", "x2", "x3", "x4"],
            {"hit@5": 1, "recall@5": 1, "precision@5": 0.2, "mrr@5": 1},
            id="one-gold-at-rank-1",
        ),
    ],
)
def test_single_question_at_5(make_gold, make_run, gold, ranked, expected):
    scores = per_question(make_gold({"q": gold}), make_run({"q": ranked}), ks=[5])
    row = scores.row(0, named=True)
    assert {key: row[key] for key in expected} == pytest.approx(expected, abs=TOL)


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("mrr@2", 0),  # c8 is at rank 3, outside the top 2
        ("mrr@3", 1 / 3),  # 1 / 3
        ("mrr", 1 / 3),  # no cutoff: the same 1 / 3
    ],
)
def test_cutoff_of_reciprocal_rank(make_gold, make_run, key, expected):
    scores = per_question(
        make_gold({"q": ["c8"]}), make_run({"q": ["c1", "c2", "c8", "c4"]}), ks=[2, 3]
    )
    assert scores[key][0] == pytest.approx(expected, abs=TOL)


# --- Rules ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gold", "run", "unanswerable"),
    [
        pytest.param(A_TO_E_GOLD, A_TO_E_RUN, ["E"], id="A-to-E"),
        pytest.param(HELP_GOLD, HELP_RUN, [], id="help-centre"),
    ],
)
def test_at_1_precision_hit_and_rr_agree(make_gold, make_run, gold, run, unanswerable):
    # In the top 1: |G ∩ T_1| / 1 = [rank 1 is gold] = 1 / 1 or 0
    scores = per_question(make_gold(gold, unanswerable=unanswerable), make_run(run), ks=[1])
    assert scores["precision@1"].to_list() == scores["hit@1"].to_list()
    assert scores["mrr@1"].to_list() == scores["hit@1"].to_list()


def test_missing_question_scores_zero_and_is_counted(make_gold, make_run):
    # q2 is in the gold set but not in the run: 0 everywhere, and in the mean.
    # hit@5 mean = (1 + 0) / 2; the run's q9 is not in the gold set and is ignored.
    gold = make_gold({"q1": ["g1"], "q2": ["g2"]})
    run = make_run({"q1": ["g1", "x"], "q9": ["g2"]})
    scores = per_question(gold, run, ks=[5])
    assert scores["qid"].to_list() == ["q1", "q2"]
    missing = scores.filter(pl.col("qid") == "q2").row(0, named=True)
    assert missing["status"] == "missing"
    assert missing["n_retrieved"] == 0
    assert missing["first_relevant_rank"] is None
    assert all(missing[key] == 0 for key in measure_keys([5]))
    mean = means(scores, ["hit@5", "recall@5", "mrr"])
    assert mean.row(0, named=True) == pytest.approx(
        {"n": 2, "hit@5": 0.5, "recall@5": 0.5, "mrr": 0.5}, abs=TOL
    )


def test_repeated_chunk_counts_once_at_its_first_rank(make_gold, make_run):
    # g1 at ranks 1 and 3: counted once, at rank 1. Gold {g1, g2}, g2 at rank 4.
    # recall@5 = 2/2 (not 3/2); precision@5 = 2/5; AP = (1/1 + 2/4) / 2 = 0.75
    gold = make_gold({"q": ["g1", "g2"]})
    run = make_run({"q": ["g1", "x1", "g1", "g2", "x2"]})
    row = per_question(gold, run, ks=[5]).row(0, named=True)
    assert row["n_retrieved"] == 4  # distinct chunks: g1, x1, g2, x2
    assert row["n_relevant_retrieved"] == 2
    assert row["recall@5"] == pytest.approx(1, abs=TOL)
    assert row["precision@5"] == pytest.approx(2 / 5, abs=TOL)
    assert row["ap"] == pytest.approx((1 / 1 + 2 / 4) / 2, abs=TOL)
    # DCG = 1/log2(2) + 1/log2(5); ideal = 1/log2(2) + 1/log2(3)
    assert row["ndcg@5"] == pytest.approx((1 + 1 / log2(5)) / IDCG_C, abs=TOL)


# Gold: h graded 2, m graded 1. Ranked: m, h, x.
# Threshold 2: only h is relevant (at rank 2): RR = 1/2, recall@3 = 1/1, P@3 = 1/3,
#   AP = (1/2) / 1. Threshold 1: both relevant: RR = 1, P@3 = 2/3, AP = (1/1 + 2/2) / 2.
# nDCG@3 takes every positive grade as gain, whatever the threshold:
#   DCG = 1/log2(2) + 2/log2(3); ideal = 2/log2(2) + 1/log2(3)
NDCG_GRADED = (1 + 2 / log2(3)) / (2 + 1 / log2(3))


@pytest.mark.parametrize(
    ("threshold", "expected"),
    [
        (2, {"n_relevant": 1, "mrr": 1 / 2, "recall@3": 1, "precision@3": 1 / 3, "ap": 1 / 2}),
        (1, {"n_relevant": 2, "mrr": 1, "recall@3": 1, "precision@3": 2 / 3, "ap": 1}),
    ],
)
def test_threshold_decides_relevance_but_not_ndcg_gains(make_gold, make_run, threshold, expected):
    gold = make_gold({"q": {"h": 2, "m": 1}})
    row = per_question(gold, make_run({"q": ["m", "h", "x"]}), ks=[3], threshold=threshold).row(
        0, named=True
    )
    assert {key: row[key] for key in expected} == pytest.approx(expected, abs=TOL)
    assert row["ndcg@3"] == pytest.approx(NDCG_GRADED, abs=TOL)  # 0.8597 both times


@pytest.mark.parametrize(
    ("keep_no_relevant", "n", "hit"),
    [
        (False, 1, 1.0),  # only q1 counts: 1 / 1
        (True, 2, 0.5),  # trec_eval's convention: q2 counts at 0: (1 + 0) / 2
    ],
)
def test_keep_no_relevant(make_gold, make_run, keep_no_relevant, n, hit):
    # q2's only judged chunk has grade 0 (nothing relevant); q3 is declared
    # unanswerable and stays out of every mean whatever the option.
    gold = make_gold({"q1": ["g1"], "q2": {"x": 0}}, unanswerable=["q3"])
    run = make_run({"q1": ["g1"], "q2": ["x"], "q3": ["g1"]})
    scores = per_question(gold, run, ks=[1])
    assert dict(zip(scores["qid"], scores["status"], strict=True)) == {
        "q1": "scored",
        "q2": "no_relevant",
        "q3": "unanswerable",
    }
    mean = means(scores, ["hit@1"], keep_no_relevant=keep_no_relevant)
    assert mean.row(0, named=True) == pytest.approx({"n": n, "hit@1": hit}, abs=TOL)


def test_threshold_above_every_grade_leaves_the_question_out(make_gold, make_run):
    # At threshold 2 a question with only grade-1 chunks has nothing relevant.
    gold = make_gold({"q1": {"g": 2}, "q2": {"m": 1}})
    run = make_run({"q1": ["g"], "q2": ["m"]})
    scores = per_question(gold, run, ks=[1], threshold=2)
    assert scores["status"].to_list() == ["scored", "no_relevant"]
    assert means(scores, ["hit@1"]).row(0, named=True) == {"n": 1, "hit@1": 1.0}


def test_means_by_kind(make_gold, make_run):
    # A and B are "table" (1, 1/3); C and D "version" (1, 0); E unanswerable, left out
    gold = make_gold(
        A_TO_E_GOLD,
        unanswerable=["E"],
        kinds={"A": "table", "B": "table", "C": "version", "D": "version", "E": "table"},
    )
    scores = per_question(gold, make_run(A_TO_E_RUN), ks=[3])
    by_kind = means(scores, ["mrr@3"], by="kind")
    assert by_kind["kind"].to_list() == ["table", "version"]
    assert by_kind["n"].to_list() == [2, 2]
    assert by_kind["mrr@3"].to_list() == pytest.approx([(1 + 1 / 3) / 2, (1 + 0) / 2], abs=TOL)


def test_ties_straddling_a_cutoff_are_reported(make_gold, make_scored_run):
    # q1: scores 0.9, 0.5, 0.5: the 2nd and 3rd are tied, so the cutoff at 2 is
    # arbitrary (broken by chunk id descending: "b" before "a"); q2 has no tie.
    run = make_scored_run({"q1": {"a": 0.5, "b": 0.5, "c": 0.9}, "q2": {"a": 0.3, "b": 0.2}})
    assert run.results.filter(pl.col("qid") == "q1")["chunk_id"].to_list() == ["c", "b", "a"]
    assert ties_at_cutoffs(run, [1, 2, 3]) == {2: ["q1"]}
