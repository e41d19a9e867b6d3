"""What predicts the answer (SPEC.md): the AUC's worked example and a direct pairwise
count on random data, Cochran-Armitage against its correlation form and scipy, Wilson
against scipy, the headroom of the 31/9/4/6 cells, and what is undefined when every
verdict agrees."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from scipy import stats

from reportgen.analyse.attribution import CellSummary
from reportgen.analyse.auc import auc, auc_interval, delong_interval
from reportgen.analyse.predictors import (
    BOOTSTRAP_QUESTIONS,
    LEVEL,
    RESAMPLES,
    SEED,
    associate,
    cochran_armitage,
    headroom,
    rank_table,
    wilson,
)
from reportgen.report.predictors import answers, headroom_sentence
from tests.analyse.attribution.test_four_cells import evaluated, write_case

SETTINGS = {"resamples": RESAMPLES, "seed": SEED, "level": LEVEL}


def pairwise_auc(right: list[float], wrong: list[float]) -> float:
    """The definition, pair by pair: a win counts 1, a tie a half."""
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in right for b in wrong)
    return wins / (len(right) * len(wrong))


def test_spec_worked_auc_is_0_875() -> None:
    # correct (1, 0.5), wrong (0.5, 0): 1>0.5, 1>0, 0.5=0.5, 0.5>0 -> (3 + 0.5) / 4
    values = np.array([1.0, 0.5, 0.5, 0.0])
    correct = np.array([True, True, False, False])
    assert auc(values, correct) == pytest.approx(0.875, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_auc_equals_the_pairwise_count_on_random_data(seed: int) -> None:
    generator = np.random.default_rng(seed)
    n = int(generator.integers(2, 120))
    # few distinct values, so that ties are common (recall@5 of questions with 1-3 gold)
    values = generator.choice([0.0, 1 / 3, 0.5, 2 / 3, 1.0], size=n)
    correct = generator.random(n) < 0.6
    correct[0], correct[1] = True, False
    expected = pairwise_auc(list(values[correct]), list(values[~correct]))
    assert auc(values, correct) == pytest.approx(expected, abs=1e-9)
    u = stats.mannwhitneyu(values[correct], values[~correct]).statistic
    assert auc(values, correct) == pytest.approx(u / (correct.sum() * (~correct).sum()), abs=1e-9)


def test_auc_interval_is_deterministic_and_holds_the_estimate() -> None:
    generator = np.random.default_rng(3)
    values = generator.random(200)
    correct = generator.random(200) < values  # higher values pass more often
    first, again = (
        auc_interval(values, correct, **SETTINGS),
        auc_interval(values, correct, **SETTINGS),
    )
    assert first == again and first is not None
    estimate = auc(values, correct)
    assert estimate is not None and first[0] < estimate < first[1]
    assert first[0] > 0.5  # a measure that tracks the verdict: the interval excludes 0.5


def test_auc_is_undefined_when_every_verdict_agrees() -> None:
    frame = pl.DataFrame({"qid": ["a", "b"], "correct": [True, True], "recall@5": [1.0, 0.0]})
    found = associate(frame, "recall@5")
    assert found.auc is None and found.interval is None
    assert found.reason is not None and "every verdict is right" in found.reason


def expanded(ranks: list[int], n: list[int], correct: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """One row per question: its rank and its verdict."""
    rank = np.repeat(ranks, n)
    verdict = np.concatenate([[1] * x + [0] * (m - x) for m, x in zip(n, correct, strict=True)])
    return rank.astype(float), verdict.astype(float)


@pytest.mark.parametrize("seed", range(5))
def test_cochran_armitage_is_n_r_squared_on_random_counts(seed: int) -> None:
    generator = np.random.default_rng(seed)
    ranks = [1, 2, 3, 4, 5]
    n = [int(x) for x in generator.integers(3, 40, size=5)]
    correct = [int(generator.integers(0, m + 1)) for m in n]
    trend = cochran_armitage(ranks, n, correct)
    rank, verdict = expanded(ranks, n, correct)
    r = np.corrcoef(rank, verdict)[0, 1]
    # the trend statistic is N r^2 (chi-square, 1 df); its sign is the sign of r
    assert trend.z is not None and trend.p is not None
    assert trend.z**2 == pytest.approx(len(rank) * r**2, rel=1e-9)
    assert math.copysign(1, trend.z) == math.copysign(1, r)
    assert trend.p == pytest.approx(stats.chi2.sf(len(rank) * r**2, 1), rel=1e-9)


def test_cochran_armitage_is_undefined_without_two_ranks_or_mixed_verdicts() -> None:
    assert cochran_armitage([1, 2], [4, 0], [2, 0]).p is None
    all_right = cochran_armitage([1, 2], [3, 3], [3, 3])
    assert all_right.p is None and all_right.reason is not None


@pytest.mark.parametrize(("successes", "n"), [(0, 5), (3, 5), (5, 5), (15, 18), (1, 1)])
def test_wilson_matches_scipy(successes: int, n: int) -> None:
    expected = stats.binomtest(successes, n).proportion_ci(method="wilson")
    assert wilson(successes, n) == pytest.approx((expected.low, expected.high), abs=1e-9)


def test_rank_table_counts_every_rank_and_none() -> None:
    # a, b at rank 1 (right), c at 3 (wrong), d none (wrong), e at 7 (a trace's context
    # longer than k; right)
    table = rank_table({1: (2, 2), 3: (1, 0), None: (1, 0), 7: (1, 1)}, 5)
    assert list(table.ranks) == ["1", "2", "3", "4", "5", "6", "7", "none"]
    assert [(row.n, row.correct) for row in table.ranks.values()] == [
        (2, 2), (0, 0), (1, 0), (0, 0), (0, 0), (0, 0), (1, 1), (1, 0)
    ]  # fmt: skip
    assert table.ranks["2"].pass_rate is None and table.ranks["2"].interval is None


def test_headroom_of_the_spec_cells_31_9_4_6() -> None:
    # retrieved pass rate 31 / 40 = 0.775; retrieval: 6 x 0.775 = 4.65 answers,
    # (35 + 4.65) / 50 = 0.793; generation: +9, (35 + 9) / 50 = 0.88
    cells = {"retrieved_correct": 31, "retrieved_wrong": 9, "missed_correct": 4, "missed_wrong": 6}
    pair = headroom(CellSummary(cells, {cell: [] for cell in cells}))
    assert pair.retrieval.rate == pytest.approx(0.775)
    assert pair.retrieval.added == pytest.approx(4.65)
    assert pair.retrieval.pass_rate_after == pytest.approx(0.793)
    assert pair.generation.added == 9 and pair.generation.pass_rate_after == pytest.approx(0.88)
    for fix in (pair.retrieval, pair.generation):
        assert fix.added_interval is not None and fix.pass_rate_after_interval is not None
        assert fix.added_interval[0] <= fix.added <= fix.added_interval[1]  # type: ignore[operator]
    assert headroom_sentence(pair) == (
        "fixing retrieval: up to +4.7 answers; fixing generation: up to +9"
    )
    assert answers(9.0) == "9" and answers(4.65) == "4.7"


def test_headroom_without_a_retrieved_question_has_no_retrieval_estimate() -> None:
    cells = {"retrieved_correct": 0, "retrieved_wrong": 0, "missed_correct": 2, "missed_wrong": 3}
    pair = headroom(CellSummary(cells, {cell: [] for cell in cells}))
    assert pair.retrieval.added is None and pair.retrieval.reason is not None
    assert pair.generation.added == 0


def test_the_spec_case_in_report_json(tmp_path: Path) -> None:
    """The 31/9/4/6 questions of test_four_cells: gold at rank 1 for 31 right answers,
    rank 5 for 9 wrong ones, outside the top 5 for the rest (4 right, 6 wrong)."""
    from reportgen.report.assemble import assemble

    section = assemble(evaluated(write_case(tmp_path)))["attribution"]["rag"]
    ranks = section["by_first_gold_rank"]
    counts = {rank: (row["n"], row["correct"]) for rank, row in ranks.items()}
    assert counts == {"1": (31, 31), "2": (0, 0), "3": (0, 0), "4": (0, 0), "5": (9, 0),
                      "none": (10, 4)}  # fmt: skip
    trend = section["first_gold_rank"]["trend"]
    assert trend["falls"] and trend["z"] < 0 and trend["p"] < 0.05
    sentence = section["first_gold_rank"]["sentence"]
    assert sentence.startswith("Answers pass less often the lower the first gold chunk sits")
    assert "1.00 at rank 1, 0.00 at rank 5" in sentence
    headroom_section = section["headroom"]
    assert headroom_section["retrieval"]["added"] == pytest.approx(4.65)
    assert headroom_section["generation"]["added"] == 9
    # every right answer had recall 1 or came from memory; mrr@5 separates rank 1 from 5
    association = section["association"]
    right = [1.0] * 31 + [0.0] * 4
    wrong = [0.2] * 9 + [0.0] * 6
    assert association["measures"]["mrr@5"]["auc"] == pytest.approx(
        pairwise_auc(right, wrong), abs=1e-9
    )
    assert association["best"] == "mrr@5"


def test_pairwise_helper_agrees_with_itertools() -> None:
    """The reference itself, against a second spelling of the definition."""
    right, wrong = [0.1, 0.5, 0.5], [0.5, 0.0]
    pairs = list(itertools.product(right, wrong))
    direct = (sum(a > b for a, b in pairs) + 0.5 * sum(a == b for a, b in pairs)) / len(pairs)
    assert pairwise_auc(right, wrong) == direct


def direct_delong(right: np.ndarray, wrong: np.ndarray) -> tuple[float, float]:
    """DeLong's interval from the pair matrix itself (psi = 1, 0.5, 0)."""
    psi = (right[:, None] > wrong[None, :]) + 0.5 * (right[:, None] == wrong[None, :])
    estimate = psi.mean()
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    se = math.sqrt(v10.var(ddof=1) / right.size + v01.var(ddof=1) / wrong.size)
    return max(estimate - 1.959963984540054 * se, 0.0), min(estimate + 1.959963984540054 * se, 1.0)


@pytest.mark.parametrize("seed", range(4))
def test_delong_matches_the_pair_matrix_on_random_data(seed: int) -> None:
    generator = np.random.default_rng(seed)
    n = int(generator.integers(10, 300))
    values = np.round(generator.random(n), int(generator.integers(1, 4)))  # ties too
    correct = generator.random(n) < 0.3 + 0.4 * values
    found = delong_interval(values, correct)
    assert found == pytest.approx(direct_delong(values[correct], values[~correct]), abs=1e-12)


def test_both_bootstrap_paths_agree_with_delong_at_many_questions() -> None:
    """Few distinct values resample counts (multinomial), many resample questions: both
    are the bootstrap, and at 1,500 questions both sit near DeLong's normal interval."""
    generator = np.random.default_rng(11)
    continuous = generator.random(1_500)
    correct = generator.random(1_500) < 0.3 + 0.4 * continuous
    for values in (continuous, np.round(continuous, 1)):
        boot, normal = auc_interval(values, correct, **SETTINGS), delong_interval(values, correct)
        assert boot is not None and normal is not None
        assert boot == pytest.approx(normal, abs=0.01)


def test_above_the_bootstrap_limit_the_interval_is_delong_s() -> None:
    generator = np.random.default_rng(5)
    n = BOOTSTRAP_QUESTIONS + 1
    frame = pl.DataFrame({"correct": generator.random(n) < 0.6, "ndcg@5": generator.random(n)})
    found = associate(frame, "ndcg@5")
    assert found.interval_method == "delong"
    values = frame["ndcg@5"].to_numpy()
    assert found.interval == delong_interval(values, frame["correct"].to_numpy())
    assert associate(frame.head(100), "ndcg@5").interval_method == "bootstrap"
