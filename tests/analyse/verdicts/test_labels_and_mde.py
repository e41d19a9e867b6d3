"""The four labels, the mde and clustered questions (issue 27), on small hand-made data.

The worked example is docs/verdicts.md's: 4 questions, hit@3 and recall@3 fall from
0.750 to 0.000 (3 of 4 questions lost). The exact McNemar p is 2 / 2^3 = 0.25 and even a
change of every question one way gives 2 / 2^4 = 0.125, so nothing is detectable: the
label is "too few questions", never "within noise".
"""

from __future__ import annotations

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
