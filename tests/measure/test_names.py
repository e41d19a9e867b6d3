"""Measure names as typed: known ones pass, a typo gets the closest, bounds per measure."""

from __future__ import annotations

import pytest

from reportgen.errors import UsageError
from reportgen.measure.names import check_measure, family, is_bounded, suggest_measure


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("recal@3", "recall@3"),  # the cutoff typed is kept, not a default
        ("ndgc@10", "ndcg@10"),
        ("precison@5", "precision@5"),
        ("r-precison", "r-precision"),
        ("hits@1", "hit@1"),
    ],
)
def test_a_typo_gets_the_closest_measure(typed: str, meant: str) -> None:
    assert suggest_measure(typed) == meant
    with pytest.raises(UsageError, match=f"did you mean {meant}\\?"):
        check_measure(typed, f"--min {typed}=0.5")


def test_nothing_close_lists_the_measures() -> None:
    with pytest.raises(UsageError, match=r"'zzz' is not a measure\. Fix: the measures are hit@K"):
        check_measure("zzz", "--min zzz=1")


@pytest.mark.parametrize("name", ["hit@1", "recall@100", "mrr", "ap", "r-precision", "span_iou@5"])
def test_known_measures_pass(name: str) -> None:
    check_measure(name, "--min")
    assert family(name) is not None


@pytest.mark.parametrize("name", ["recall@0", "recall", "mrr@", "@5"])
def test_half_names_are_refused(name: str) -> None:
    assert family(name) is None


def test_shares_are_bounded_and_characters_are_not() -> None:
    assert is_bounded("recall@5") and is_bounded("r-precision") and is_bounded("span_iou@3")
    assert not is_bounded("context_chars@5")
