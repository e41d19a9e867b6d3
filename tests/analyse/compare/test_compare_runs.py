"""Runs side by side: pairs, Holm family, counts, changed questions, determinism."""

from __future__ import annotations

import polars as pl
import pytest

from reportgen.analyse import paired
from reportgen.analyse.compare import (
    CHANGED_QUESTIONS_KEPT,
    PRIMARY,
    Side,
    compare_runs,
    compare_sides,
    paired_measures,
    pairs_to_compare,
)
from tests.collects import counting_collects


def _frame(values: dict[str, tuple[str, float, float]]) -> pl.DataFrame:
    """qid -> (kind, hit@1, recall@1)."""
    return pl.DataFrame(
        {
            "qid": list(values),
            "kind": [v[0] for v in values.values()],
            "hit@1": [v[1] for v in values.values()],
            "recall@1": [v[2] for v in values.values()],
        }
    )


BEFORE = _frame({"a": ("x", 1, 1.0), "b": ("x", 0, 0.0), "c": ("y", 1, 0.5), "d": ("y", 0, 0.0)})
AFTER = _frame({"a": ("x", 1, 1.0), "b": ("x", 1, 0.5), "c": ("y", 0, 0.0), "d": ("y", 1, 1.0)})


def test_pair_hand_worked() -> None:
    entry = paired_measures(
        Side("old", BEFORE), Side("new", AFTER), ["hit@1", "recall@1"], ["recall@1"]
    )
    assert entry["n"] == 4 and entry["one_question"] == 0.25
    recall = entry["measures"]["recall@1"]
    # before 1, 0, .5, 0 (mean .375); after 1, .5, 0, 1 (mean .625); diffs 0, .5, -.5, 1.
    assert recall["before"] == 0.375 and recall["after"] == 0.625
    assert recall["difference"] == 0.25
    assert (recall["wins"], recall["ties"], recall["losses"]) == (2, 1, 1)
    # 3 questions differ: the 8 sign flips of (.5, -.5, 1) sum to 2, 0, 1, -1, 1, -1, 0, -2;
    # observed 1; P(null >= 1) = 3/8, P(null <= 1) = 7/8 -> p = 2 * 3/8 = 0.75.
    assert recall["p_randomization"] == 0.75 and recall["randomization_exact"]
    hit = entry["measures"]["hit@1"]
    # discordant: c lost, b and d gained: P(X <= 1), X ~ Bin(3, 1/2) = 4/8, doubled = 1.
    assert hit["test"] == "mcnemar" and hit["p_mcnemar"] == 1.0
    assert entry["changed_questions"]["recall@1"] == [
        {"qid": "c", "kind": "y", "before": 0.5, "after": 0.0},
        {"qid": "b", "kind": "x", "before": 0.0, "after": 0.5},
        {"qid": "d", "kind": "y", "before": 0.0, "after": 1.0},
    ]


def test_a_run_compared_with_itself_shows_no_change() -> None:
    entry = paired_measures(Side("a", BEFORE), Side("b", BEFORE), ["hit@1", "recall@1"], ["hit@1"])
    for measure in entry["measures"].values():
        assert measure["difference"] == 0
        assert measure["p"] == 1.0
        assert measure["ci_low"] == 0 and measure["ci_high"] == 0
        assert measure["wins"] == 0 and measure["losses"] == 0
    assert entry["changed_questions"]["hit@1"] == []


def test_question_order_does_not_change_any_number() -> None:
    keys = ["hit@1", "recall@1"]
    first = paired_measures(Side("a", BEFORE), Side("b", AFTER), keys, keys)
    shuffled = paired_measures(
        Side("a", BEFORE.reverse()), Side("b", AFTER.sample(fraction=1.0, seed=3)), keys, keys
    )
    assert first == shuffled


def test_pairs_all_or_against_a_reference() -> None:
    assert pairs_to_compare(["a", "b", "c"], None) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert pairs_to_compare(["a", "b", "c"], "b") == [("b", "a"), ("b", "c")]


def test_clear_gain_is_better_after_holm_and_noise_is_not() -> None:
    n = 40
    zeros = pl.DataFrame({"qid": [f"q{i:02}" for i in range(n)], "kind": ["k"] * n})
    worst = zeros.with_columns(pl.lit(0.0).alias("hit@1"), pl.lit(0.0).alias("recall@1"))
    best = zeros.with_columns(pl.lit(1.0).alias("hit@1"), pl.lit(1.0).alias("recall@1"))
    noisy = zeros.with_columns(
        (pl.int_range(n) % 2).cast(pl.Float64).alias("hit@1"),
        (pl.int_range(n) % 2).cast(pl.Float64).alias("recall@1"),
    )
    result = compare_runs({"worst": worst, "best": best, "noisy": noisy}, ["hit@1", "recall@1"], [])
    assert result["method"]["family_size"] == 6
    assert result["method"]["test"]["resamples"] == 10_000
    assert result["method"]["interval"]["seed"] == result["method"]["test"]["seed"]
    labels = {
        (e["before"], e["after"], key): m["label"]
        for e in result["pairs"]
        for key, m in e["measures"].items()
    }
    assert labels[("worst", "best", "hit@1")] == "better"
    assert labels[("worst", "best", "recall@1")] == "better"
    assert labels[("best", "noisy", "hit@1")] == "worse"
    hit = result["pairs"][0]["measures"]["hit@1"]
    # 40 discordant, all gained: 2 / 2^40, then times 6 (the smallest of the family).
    assert hit["p_mcnemar"] == pytest.approx(2 / 2**40)
    assert hit["p_holm"] == pytest.approx(6 * 2 / 2**40)


def test_same_inputs_give_the_same_p_values() -> None:
    keys = ["hit@1", "recall@1"]
    one = compare_runs({"a": BEFORE, "b": AFTER}, keys, keys)
    two = compare_runs({"a": BEFORE, "b": AFTER}, keys, keys)
    assert one == two


def _random_side(seed: int, n: int) -> pl.DataFrame:
    """n questions with random hit@1 (0/1) and recall@1 (tenths): sampled, not exact, tests."""
    values = pl.DataFrame({"u": range(n)}).select(
        pl.format("q{}", pl.col("u").cast(pl.String).str.zfill(4)).alias("qid"),
        pl.lit("k").alias("kind"),
        (pl.int_range(n).hash(seed) % 2).cast(pl.Float64).alias("hit@1"),
        ((pl.int_range(n).hash(seed + 1) % 11).cast(pl.Float64) / 10).alias("recall@1"),
    )
    return values


@pytest.mark.parametrize("stacked_columns", [1_000, 3])
def test_a_pair_gets_the_same_numbers_alone_or_resampled_with_others(
    stacked_columns: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The draws depend on the seed and n only: pairs sharing n are resampled together,
    # a pair with another n on its own, and nothing moves either pair's numbers.
    keys = ["hit@1", "recall@1"]
    a, b, c = (_random_side(seed, 300) for seed in (1, 2, 3))
    shorter = _random_side(4, 250)
    # 3 columns a batch: each pair of 2 measures is resampled in a batch of its own
    monkeypatch.setattr(paired, "STACKED_COLUMNS", stacked_columns)
    together = compare_sides(
        [
            (Side("a", a), Side("b", b)),
            (Side("a", a), Side("c", c)),
            (Side("a", a), Side("s", shorter)),
        ],
        keys,
        keys,
    )
    # alone, each in the family of all 6 tests, as together (the family sets the mde)
    alone = [
        paired_measures(Side("a", a), Side(name, side), keys, keys, family_sizes={PRIMARY: 6})
        for name, side in (("b", b), ("c", c), ("s", shorter))
    ]
    assert together == alone
    assert together[2]["n"] == 250
    assert not together[0]["measures"]["recall@1"]["randomization_exact"]


def test_changed_questions_are_capped_and_counted() -> None:
    keys = ["hit@1", "recall@1"]
    n = 3 * CHANGED_QUESTIONS_KEPT
    qids = [f"q{i:04}" for i in range(n)]
    zero = pl.DataFrame({"qid": qids, "kind": ["k"] * n, "hit@1": [0.0] * n, "recall@1": [0.0] * n})
    # every question gains recall 0.5; the even ones also gain a hit (and recall 1.0)
    after = (
        zero.with_columns(
            hit=(pl.int_range(n) % 2 == 0).cast(pl.Float64),
        )
        .with_columns(pl.col("hit").alias("hit@1"), (0.5 + 0.5 * pl.col("hit")).alias("recall@1"))
        .drop("hit")
    )
    entry = paired_measures(Side("before", zero), Side("after", after), keys, keys)
    assert entry["changed_total"] == n
    assert entry["changed_counts"] == {"hit@1": n // 2, "recall@1": n}
    listed = entry["changed_questions"]
    # the questions the pages show first: smallest hit gain (the odd ones, +0 -> sorted
    # before +1), then recall, then id: q0001, q0003, ... up to the cap
    kept = {row["qid"] for rows in listed.values() for row in rows}
    assert len(kept) == CHANGED_QUESTIONS_KEPT
    assert sorted(kept) == [f"q{i:04}" for i in range(1, 2 * CHANGED_QUESTIONS_KEPT, 2)]
    assert listed["hit@1"] == []
    assert listed["recall@1"][0] == {"qid": "q0001", "kind": "k", "before": 0.0, "after": 0.5}


def test_a_measure_some_questions_lack_is_paired_on_those_that_have_it() -> None:
    # span_recall@1 has no value for d (no evidence): it is paired on a, b, c alone,
    # with the numbers of a comparison of those three questions; hit@1 on all four
    def with_span(frame: pl.DataFrame, span: list[float | None]) -> pl.DataFrame:
        return frame.with_columns(pl.Series("span_recall@1", span, dtype=pl.Float64))

    before = with_span(BEFORE, [0.5, 0.0, 1.0, None])
    after = with_span(AFTER, [1.0, 0.5, 0.0, None])
    keys = ["hit@1", "span_recall@1"]
    found = paired_measures(Side("old", before), Side("new", after), keys)
    assert found["n"] == 4 and list(found["measures"]) == keys
    span = found["measures"]["span_recall@1"]
    assert span["n"] == 3 and "n" not in found["measures"]["hit@1"]
    two = {PRIMARY: 2}  # the family of the comparison above: its mde_alpha is 0.05 / 2
    alone = paired_measures(
        Side("old", before.head(3)), Side("new", after.head(3)), ["span_recall@1"], family_sizes=two
    )["measures"]["span_recall@1"]
    assert span == {**alone, "n": 3}
    assert span["before"] == pytest.approx(0.5) and span["difference"] == pytest.approx(0.0)
    hit = paired_measures(Side("old", BEFORE), Side("new", AFTER), ["hit@1"], family_sizes=two)
    assert found["measures"]["hit@1"] == hit["measures"]["hit@1"]


def test_comparing_more_runs_does_not_collect_more(monkeypatch: pytest.MonkeyPatch) -> None:
    # every pair joined in one collect, every pair's changed questions and questions
    # with every value (and their clusters) in a second: not a handful of collects per
    # pair and side
    keys = ["hit@1", "recall@1"]
    gappy = _random_side(5, 300).with_columns(
        pl.when(pl.int_range(300) % 7 == 0)
        .then(None)
        .otherwise(pl.col("recall@1"))
        .alias("recall@1")
    )
    sides = {"a": _random_side(1, 300), "b": _random_side(2, 300), "c": gappy}
    with counting_collects(monkeypatch) as two:
        compare_runs(dict(list(sides.items())[:2]), keys, keys)
    with counting_collects(monkeypatch) as three:
        result = compare_runs(sides, keys, keys)
    clusters = {f"q{i:04}": f"c{i // 10}" for i in range(300)}
    with counting_collects(monkeypatch) as clustered:
        grouped = compare_runs(sides, keys, keys, clusters=clusters, cluster_by="doc")
    assert two[0] == three[0] == clustered[0] == 2
    assert result["pairs"][1]["measures"]["recall@1"]["n"] < 300  # the gaps were paired apart
    assert grouped["pairs"][0]["clusters"] == 30


def test_the_primary_family_is_the_headline_and_the_gate_s_measures() -> None:
    from reportgen.analyse.run import primary_keys
    from reportgen.load.inputs.config import GateRules, Rule

    tested = ["hit@5", "recall@5", "precision@5", "mrr@5", "ap"]
    assert primary_keys(5, tested, None) == ["hit@5", "recall@5"]
    gate = GateRules((Rule("max-drop", "mrr@5", 0.05), Rule("min", "hit@1", 0.5)))
    # a drop the gate reads is always primary; a measure not tested adds nothing
    assert primary_keys(5, tested, gate) == ["hit@5", "recall@5", "mrr@5"]


def test_pairs_with_the_primary_run_are_primary_and_the_rest_exploratory() -> None:
    keys = ["hit@1", "recall@1"]
    sides = {name: _random_side(seed, 60) for seed, name in enumerate(("a", "b", "c"))}
    found = compare_runs(sides, keys, [], primary_keys=["hit@1"], primary_run="b")
    families = {
        (pair["before"], pair["after"]): {k: m["family"] for k, m in pair["measures"].items()}
        for pair in found["pairs"]
    }
    assert families == {
        ("a", "b"): {"hit@1": "primary", "recall@1": "exploratory"},
        ("a", "c"): {"hit@1": "exploratory", "recall@1": "exploratory"},
        ("b", "c"): {"hit@1": "primary", "recall@1": "exploratory"},
    }
    method = found["method"]
    assert method["families"]["primary"]["tests"] == 2
    assert method["families"]["primary"]["mde_alpha"] == 0.025
    assert method["families"]["exploratory"]["tests"] == 4
    assert "Holm-corrected across those 2 tests only" in method["families_text"]
    # without a reference, the all-pairs table is exploratory, and says so
    alone = compare_runs(sides, keys, [])
    assert {m["family"] for p in alone["pairs"] for m in p["measures"].values()} == {"exploratory"}
    assert alone["method"]["families_text"].startswith("Every label here is exploratory")


def test_more_measures_to_look_at_never_move_a_primary_label() -> None:
    # the primary family (hit@1 of a -> b) reads the same whatever is explored beside it
    a, b = _random_side(11, 80), _random_side(12, 80)
    extra = {f"m{i}": pl.col("recall@1").shuffle(seed=i) for i in range(6)}
    a, b = a.with_columns(**extra), b.with_columns(**extra)
    few = compare_runs({"a": a, "b": b}, ["hit@1"], [], reference="a", primary_keys=["hit@1"])
    many = compare_runs(
        {"a": a, "b": b}, ["hit@1", "recall@1", *extra], [], reference="a", primary_keys=["hit@1"]
    )
    assert few["pairs"][0]["measures"]["hit@1"] == many["pairs"][0]["measures"]["hit@1"]
