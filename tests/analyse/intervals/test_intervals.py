"""The 95% intervals of each run's means: a measure null for some questions (span_*@k,
null without evidence) is taken over the questions it has a value for, as its mean is."""

from __future__ import annotations

import math

import polars as pl
import pytest

from reportgen.analyse.intervals import Z, mean_intervals

KEYS = ["hit@5", "span_recall@5"]


def _scores(span: list[float | None]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "status": ["scored"] * len(span),
            "hit@5": [1.0, 0.0, 1.0, 1.0][: len(span)],
            "span_recall@5": span,
        },
        schema={"status": pl.String, "hit@5": pl.Float64, "span_recall@5": pl.Float64},
    )


@pytest.mark.parametrize("span", [[None] * 4, [0.5, None, None, None]])
def test_a_measure_with_fewer_than_two_values_has_no_interval(span: list[float | None]) -> None:
    """null as a whole (as its mean is null with none), never (null, null)."""
    intervals = mean_intervals(_scores(span), KEYS)
    assert intervals["span_recall@5"] is None
    assert intervals["hit@5"] is not None and None not in intervals["hit@5"]


def test_a_measure_is_taken_over_the_questions_with_a_value() -> None:
    intervals = mean_intervals(_scores([0.2, 0.6, None, None]), KEYS)
    half = Z * math.sqrt(0.08) / math.sqrt(2)  # s of (0.2, 0.6) over sqrt(2), not sqrt(4)
    assert intervals["span_recall@5"] == pytest.approx((max(0.4 - half, 0.0), min(0.4 + half, 1)))


def test_fewer_than_two_questions_have_no_intervals() -> None:
    assert mean_intervals(_scores([0.5]), KEYS) == dict.fromkeys(KEYS)


def test_characters_sent_are_not_clipped_to_one() -> None:
    """context_chars@k counts characters: its interval sits around its mean, not at [1, 1]."""
    scores = pl.DataFrame({"status": ["scored"] * 3, "context_chars@5": [100.0, 200.0, 300.0]})
    low, high = mean_intervals(scores, ["context_chars@5"])["context_chars@5"] or (0, 0)
    half = Z * 100 / math.sqrt(3)
    assert (low, high) == pytest.approx((200 - half, 200 + half))


def test_the_bounds_are_the_bits_polars_arithmetic_gave() -> None:
    """The bounds moved from Polars expressions to Python floats (faster): report.json
    keeps its bytes only if every bound is the same float, not merely close."""
    values = [0.0, 0.25, 1.0, 1 / 3, 0.7, 0.9, 0.11, 1.0, 0.0, 0.5, 0.62]
    hits = [float(i % 3 == 0) for i in range(len(values))]
    scores = pl.DataFrame({"status": ["scored"] * len(values), "hit@5": hits, "recall@5": values})
    n = pl.col("recall@5").count().cast(pl.Float64)
    p = pl.col("hit@5").mean()
    denominator = 1 + Z**2 / n
    centre = (p + Z**2 / (2 * n)) / denominator
    wilson = Z / denominator * (p * (1 - p) / n + Z**2 / (4 * n**2)).sqrt()
    half = Z * pl.col("recall@5").std() / n.sqrt()
    mean = pl.col("recall@5").mean()
    bounds = [centre - wilson, centre + wilson, (mean - half).clip(0, 1), (mean + half).clip(0, 1)]
    expected = scores.select(bound.alias(str(i)) for i, bound in enumerate(bounds)).row(0)
    found = mean_intervals(scores, ["hit@5", "recall@5"])
    assert (*(found["hit@5"] or ()), *(found["recall@5"] or ())) == expected
