"""The four labels, the mde and clustered questions (issue 27), on small hand-made data.

The worked example is docs/verdicts.md's: 4 questions, hit@3 and recall@3 fall from
0.750 to 0.000 (3 of 4 questions lost). The exact McNemar p is 2 / 2^3 = 0.25 and even a
change of every question one way gives 2 / 2^4 = 0.125, so nothing is detectable: the
label is "too few questions", never "within noise".
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import polars as pl
import pytest

from reportgen.analyse.compare import Side, apply_holm, cluster_numbers, compare_sides, label
from reportgen.analyse.detectable import (
    fewest,
    mcnemar_mde,
    mcnemar_n_needed,
    mcnemar_power,
    normal_mde,
    normal_n_needed,
)
from reportgen.analyse.gate import audit, needed_for

REPO = Path(__file__).resolve().parents[3]
KEYS = ["hit@3", "recall@3"]


def _side(name: str, hits: list[float], kind: str = "k") -> Side:
    ids = [f"q{i + 1}" for i in range(len(hits))]
    frame = pl.DataFrame({"qid": ids, "kind": [kind] * len(ids), "hit@3": hits, "recall@3": hits})
    return Side(name, frame)


def _worked() -> dict[str, object]:
    (entry,) = compare_sides([(_side("v1", [1, 1, 1, 0]), _side("v2", [0, 0, 0, 0]))], KEYS)
    apply_holm([entry])
    return entry


def test_the_worked_example_is_too_few_questions_not_within_noise() -> None:
    entry = _worked()
    hit = entry["measures"]["hit@3"]  # type: ignore[index]
    # 3 discordant, all one way: exact two-sided p = 2 * (1/2)^3 = 0.25
    assert hit["p_mcnemar"] == 0.25
    assert hit["mde"] is None
    assert hit["label"] == "too few questions"
    # at this discordance (3 of 4), a drop of 0.10 needs hundreds of questions, at the
    # per-test alpha of its family (hit@3 and recall@3: 0.05 / 2)
    assert hit["mde_alpha"] == 0.025
    assert hit["n_needed"] == mcnemar_n_needed(4, 3, 0.025, 0.10) > 100
    recall = entry["measures"]["recall@3"]  # type: ignore[index]
    assert recall["mde"] is None and recall["label"] == "too few questions"


def test_the_docs_give_the_worked_example_numbers() -> None:
    text = (REPO / "docs" / "verdicts.md").read_text()
    hit = _worked()["measures"]["hit@3"]  # type: ignore[index]
    assert "0.750 → 0.000" in text and "3 of 4 questions lost" in text
    assert f"about {hit['n_needed']} would be needed" in text
    assert re.search(r"p = 2 x \(1/2\)\^3 = 0\.25", text)


@pytest.mark.parametrize(
    ("p_holm", "low", "high", "mde", "expected"),
    [
        (0.01, 0.02, 0.10, 0.05, "better"),
        (0.01, -0.10, -0.02, 0.05, "worse"),
        (0.20, -0.10, 0.02, 0.05, "within noise"),
        (0.20, -0.10, 0.02, None, "too few questions"),
        (0.01, -0.10, 0.02, None, "too few questions"),  # interval straddles 0
        (0.01, -0.10, -0.02, None, "worse"),  # significant after all: it showed
    ],
)
def test_four_labels(
    p_holm: float, low: float, high: float, mde: float | None, expected: str
) -> None:
    assert label(p_holm, low, high, mde) == expected


def test_mcnemar_mde_needs_enough_discordant_questions() -> None:
    assert fewest(0.05) == 6  # 2 / 2^5 = 0.0625 >= 0.05, 2 / 2^6 = 0.03125 < 0.05
    assert mcnemar_mde(4, 3, 0.05) is None
    assert mcnemar_mde(5, 0, 0.05) is None
    # nothing changed among 60: a change d makes Binomial(60, d) questions move, all one
    # way, and needs at least 6 of them; P(Binomial(60, d) >= 6) = 0.80 at d = 0.1286
    # (6/60 = 0.10 reaches 6 only about half the time)
    assert mcnemar_mde(60, 0, 0.05) == pytest.approx(0.1286, abs=1e-4)
    found = mcnemar_mde(200, 40, 0.05)
    assert found is not None and 0 < found <= 0.2


def test_normal_mde_is_the_textbook_formula_and_null_beyond_the_range() -> None:
    # (1.959964 + 0.841621) * 0.3 / sqrt(100) = 0.0840476
    assert normal_mde(100, 0.09 / 100, 0.05, 1.0) == pytest.approx(0.0840476, abs=1e-6)
    assert normal_mde(5, 0.01, 0.05, 1.0) is None  # fewer than 6 questions
    assert normal_mde(6, 1.0, 0.05, 1.0) is None  # 2.8 > 1: out of range
    assert normal_mde(6, 1.0, 0.05, None) == pytest.approx(2.8016, abs=1e-4)
    assert normal_n_needed(100, 0.09 / 100, 0.05, 0.0840476) == 100


def test_clusters_of_one_question_change_nothing() -> None:
    before, after = _side("a", [1, 1, 0, 0, 1, 0, 1, 1]), _side("b", [0, 1, 1, 0, 0, 0, 1, 0])
    plain = compare_sides([(before, after)], KEYS)
    alone = compare_sides([(before, after)], KEYS, clusters={f"q{i}": f"c{i}" for i in range(9)})
    assert alone == plain
    assert plain[0]["clusters"] == 8 and plain[0]["design_effect"] == 1.0


def test_clusters_are_numbered_in_order_of_first_appearance() -> None:
    paired = pl.LazyFrame({"qid": ["a", "b", "c", "d", "e"]})
    numbers = cluster_numbers(paired, {"a": "y", "b": "x", "c": "y", "d": "x"}).collect()
    assert numbers.to_series().to_list() == [0, 1, 0, 1, 2]


def test_correlated_clusters_widen_the_interval_and_count_fewer_questions() -> None:
    rng = np.random.default_rng(3)
    shared = np.repeat(rng.random(20) < 0.5, 5)
    hits_after = np.where(rng.random(100) < 0.8, shared, rng.random(100) < 0.5).astype(float)
    before, after = _side("a", [0.5] * 100), _side("b", hits_after.tolist())
    before = Side("a", before.values.with_columns(pl.lit(0.5).alias("hit@3")))
    clusters = {f"q{i + 1}": f"doc{i // 5}" for i in range(100)}
    plain = compare_sides([(before, after)], ["recall@3"])[0]
    grouped = compare_sides([(before, after)], ["recall@3"], clusters=clusters)[0]
    assert grouped["clusters"] == 20
    assert grouped["design_effect"] > 2
    assert grouped["effective_n"] < 50
    width = {
        name: entry["measures"]["recall@3"]["ci_high"] - entry["measures"]["recall@3"]["ci_low"]
        for name, entry in (("plain", plain), ("grouped", grouped))
    }
    assert width["grouped"] > 1.3 * width["plain"]
    assert grouped["measures"]["recall@3"]["mde"] > plain["measures"]["recall@3"]["mde"]


def test_binary_measures_of_clustered_questions_use_the_cluster_randomization_test() -> None:
    before, after = _side("a", [1, 1, 1, 1, 0, 0, 1, 1]), _side("b", [0, 0, 1, 1, 0, 0, 1, 1])
    entry = compare_sides(
        [(before, after)], ["hit@3"], clusters={"q1": "d1", "q2": "d1", "q3": "d2", "q4": "d2"}
    )[0]
    assert entry["measures"]["hit@3"]["test"] == "randomization"
    assert entry["clusters"] == 6


def _rule(threshold: float, mde: float | None, n_needed: int) -> dict[str, object]:
    return {
        "rule": f"--max-drop hit@3={threshold}",
        "type": "max-drop",
        "run": "rerank",
        "measure": "hit@3",
        "kind": None,
        "threshold": threshold,
        "mde": mde,
        "n_needed": n_needed,
        "passed": False,
    }


def test_the_gate_warns_about_rules_below_what_can_be_detected() -> None:
    gate = {
        "significant_only": False,
        "rules": [_rule(0.02, 0.12, 2000), _rule(0.2, 0.12, 30), _rule(0.05, None, 900)],
    }
    (warning,) = audit(gate)
    assert warning.code == "rule_below_detectable"
    assert warning.count == 2
    assert "0.120" in warning.message and "2000 questions" in warning.message
    assert "no change is detectable" in warning.message and "900 questions" in warning.message
    assert "--max-drop hit@3=0.2 " not in warning.message
    assert audit({**gate, "rules": [_rule(0.2, 0.12, 30)]}) == []
    never = audit({**gate, "significant_only": True})[0]
    assert "can never fail" in never.message


def test_questions_needed_for_a_threshold_grow_as_one_over_its_square() -> None:
    measure = {"n_needed": 400, "test": "randomization", "wins": 0, "losses": 0}
    assert needed_for(measure, "recall@3", 0.05, 100) == 1600
    binary = {"n_needed": 0, "test": "mcnemar", "wins": 1, "losses": 9}
    assert needed_for(binary, "hit@3", 0.05, 100) == mcnemar_n_needed(100, 10, 0.05, 0.05)


def test_the_spec_worked_example_of_calibrated_labels() -> None:
    # SPEC.md, "Calibration of labels": 200 questions, discordance 0.25, alpha 0.05.
    # One exact McNemar test detects about 0.10 with 80% power; Holm across m = 9
    # measures that move together needs alpha / 9 per test: 0.128.
    assert mcnemar_mde(200, 50, 0.05) == pytest.approx(0.10, abs=0.002)
    assert mcnemar_mde(200, 50, 0.05 / 9) == pytest.approx(0.128, abs=0.0005)


def _power_by_hand(n: int, rate: float, change: float, alpha: float) -> float:
    """The same power from first principles, in exact integers and fractions: m ~
    Binomial(n, q), gains ~ Binomial(m, 1/2 + d / 2q), rejected when the exact
    two-sided p = 2 P(Binomial(m, 1/2) <= min(gains, losses)) < alpha."""
    q = max(rate, change)
    share = 0.5 + change / (2 * q)
    power = 0.0
    for m in range(n + 1):
        weight = math.comb(n, m) * q**m * (1 - q) ** (n - m)
        for gains in range(m + 1):
            low = min(gains, m - gains)
            p = min(1.0, 2 * sum(math.comb(m, i) for i in range(low + 1)) / 2**m)
            if p < alpha:
                power += weight * math.comb(m, gains) * share**gains * (1 - share) ** (m - gains)
    return power


@pytest.mark.parametrize("seed", range(4))
def test_mcnemar_power_agrees_with_a_direct_sum(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(10, 60))
    rate, alpha = float(rng.uniform(0.05, 0.5)), float(rng.choice([0.05, 0.025, 0.01]))
    change = float(rng.uniform(0.0, rate))
    assert mcnemar_power(n, rate, change, alpha) == pytest.approx(
        _power_by_hand(n, rate, change, alpha),
        abs=1e-7,  # counts beyond 6 s.d. left out
    )
    mde = mcnemar_mde(n, round(rate * n), alpha)
    if mde is not None:  # the mde is where the power reaches 0.80
        assert _power_by_hand(n, round(rate * n) / n, mde, alpha) == pytest.approx(0.80, abs=1e-4)


def test_each_mde_is_at_its_family_s_alpha() -> None:
    # 9 measures in the primary family: hit@3's mde is the one McNemar test at 0.05 / 9
    rng = np.random.default_rng(5)
    hits_before = (rng.random(200) < 0.5).astype(float)
    moved = rng.random(200) < 0.25
    hits_after = np.where(moved, 1 - hits_before, hits_before)
    keys = ["hit@3", *(f"m{i}" for i in range(8))]
    frames = []
    for name, hits in (("a", hits_before), ("b", hits_after)):
        columns = {"qid": [f"q{i:03}" for i in range(200)], "kind": ["k"] * 200, "hit@3": hits}
        columns |= {key: rng.random(200) for key in keys[1:]}
        frames.append(Side(name, pl.DataFrame(columns)))
    (entry,) = compare_sides([(frames[0], frames[1])], keys)
    hit = entry["measures"]["hit@3"]
    assert hit["family"] == "primary" and hit["mde_alpha"] == pytest.approx(0.05 / 9)
    assert hit["mde"] == pytest.approx(mcnemar_mde(200, int(moved.sum()), 0.05 / 9), abs=1e-9)
    # the same measures with 2 in the primary family: those at 0.05 / 2, the rest at 0.05 / 7
    (split,) = compare_sides([(frames[0], frames[1])], keys, primary=[{"hit@3", "m0"}])
    assert split["measures"]["hit@3"]["mde_alpha"] == 0.025
    assert split["measures"]["m5"]["family"] == "exploratory"
    assert split["measures"]["m5"]["mde_alpha"] == pytest.approx(0.05 / 7)
    assert split["measures"]["hit@3"]["mde"] < hit["mde"]
    apply_holm([split])
    # Holm within each family: the primary p-values are multiplied by at most 2
    primary = [m for m in split["measures"].values() if m["family"] == "primary"]
    assert all(m["p_holm"] <= min(1.0, 2 * m["p"]) + 1e-12 for m in primary)
