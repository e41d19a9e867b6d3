"""Ties inside the top k: flagged for MRR@k, nDCG@k and AP@k only when reordering the
tied block would change the value (checked by trying every order)."""

from __future__ import annotations

import dataclasses
import itertools
import math

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.core.model import JUDGMENTS_SCHEMA, QUESTIONS_SCHEMA, RESULTS_SCHEMA, GoldSet, Run
from reportgen.measure.ties import ties_within_top_k


def _gold(grades: dict[str, dict[str, int]]) -> GoldSet:
    questions = pl.DataFrame(
        [(q, None, "x", False, None) for q in grades], schema=QUESTIONS_SCHEMA, orient="row"
    )
    judgments = pl.DataFrame(
        [(q, c, g) for q, chunks in grades.items() for c, g in chunks.items()],
        schema=JUDGMENTS_SCHEMA,
        orient="row",
    )
    return GoldSet(questions, judgments, "g")


def _run(lists: dict[str, list[tuple[str, float]]]) -> Run:
    """Each list already in trec_eval's order (score descending, chunk id descending)."""
    rows = [
        (q, chunk, rank, score)
        for q, ranked in lists.items()
        for rank, (chunk, score) in enumerate(ranked, start=1)
    ]
    return Run("r", pl.DataFrame(rows, schema=RESULTS_SCHEMA, orient="row"), "r", "score")


def test_the_issue_example_a_tie_at_ranks_1_to_3() -> None:
    # q1: x9, a1, x1 tied at 0.5 (trec_eval puts x9 first); a1 relevant -> RR 1/2 could
    # be 1 or 1/3; AP and nDCG move too. q2: three relevant chunks tied: nothing moves.
    # q3: c1 (relevant) at rank 1, then x2 (unjudged) and c2 (grade 2) tied: AP and nDCG
    # move, RR cannot (c1 stands above the tie).
    gold = _gold({"q1": {"a1": 1}, "q2": {"b1": 1, "b2": 1, "b3": 1}, "q3": {"c1": 1, "c2": 2}})
    run = _run(
        {
            "q1": [("x9", 0.5), ("a1", 0.5), ("x1", 0.5), ("x0", 0.1)],
            "q2": [("b3", 0.9), ("b2", 0.9), ("b1", 0.9)],
            "q3": [("c1", 0.9), ("x2", 0.4), ("c2", 0.4)],
        }
    )
    found = ties_within_top_k(run, gold, [1, 3])
    # at k=1 no block lies inside the top 1; at 3: q1 everywhere, q3 not for RR (c1 above)
    assert found == {"mrr@3": ["q1"], "ndcg@3": ["q1", "q3"], "ap@3": ["q1", "q3"]}


def test_runs_in_an_explicit_order_have_no_tie_break() -> None:
    gold = _gold({"q1": {"a1": 1}})
    run = _run({"q1": [("x9", 0.5), ("a1", 0.5)]})
    listed = Run(run.name, run.results, run.source, "list")
    assert ties_within_top_k(listed, gold, [2]) == {}
    assert ties_within_top_k(run, gold, [2]) == {"mrr@2": ["q1"], "ndcg@2": ["q1"], "ap@2": ["q1"]}


def _values(order: list[str], grades: dict[str, int], k: int, threshold: int) -> tuple[float, ...]:
    """RR@k, nDCG@k, AP@k of one ordering, straight from SPEC.md's definitions."""
    top = order[:k]
    relevant = {c for c, g in grades.items() if g >= threshold}
    ranks = [r for r, c in enumerate(top, start=1) if c in relevant]
    rr = 1 / ranks[0] if ranks else 0.0
    ap = sum(n / r for n, r in enumerate(ranks, start=1)) / len(relevant) if relevant else 0.0
    dcg = sum(max(grades.get(c, 0), 0) / math.log2(r + 1) for r, c in enumerate(top, start=1))
    ideal = sorted((max(g, 0) for g in grades.values()), reverse=True)[:k]
    idcg = sum(g / math.log2(r + 1) for r, g in enumerate(ideal, start=1))
    return rr, (dcg / idcg if idcg else 0.0), ap


def _orders(ranked: list[tuple[str, float]], k: int) -> list[list[str]]:
    """Every ordering of the tied blocks that lie wholly inside the top k."""
    blocks = [list(group) for _, group in itertools.groupby(ranked, key=lambda item: item[1])]
    choices = []
    end = 0
    for block in blocks:
        end += len(block)
        ids = [c for c, _ in block]
        choices.append(list(itertools.permutations(ids)) if end <= k else [tuple(ids)])
    return [[c for part in combo for c in part] for combo in itertools.product(*choices)]


@settings(max_examples=200, deadline=None)
@given(
    scores=st.lists(st.sampled_from([0.1, 0.5, 0.9]), min_size=1, max_size=6),
    grades=st.lists(st.integers(-1, 2), min_size=6, max_size=6),
    k=st.integers(1, 6),
    threshold=st.integers(1, 2),
)
def test_flags_match_trying_every_order(
    scores: list[float], grades: list[int], k: int, threshold: int
) -> None:
    chunks = [f"c{i}" for i in range(len(scores))]
    # trec_eval's order: score descending, ties by chunk id descending (c0..c5 sort as text)
    ranked = sorted(
        zip(chunks, scores, strict=True), key=lambda p: (-p[1], [-ord(ch) for ch in p[0]])
    )
    judged = {c: g for c, g in zip(chunks, grades, strict=False) if g != 0}
    if not any(g >= threshold for g in judged.values()):
        judged["gold"] = threshold  # an answerable question
    found = ties_within_top_k(_run({"q": ranked}), _gold({"q": judged}), [k], threshold)
    # a loaded run (rows in blocks, in ranking order) finds its ties side by side: the same
    in_blocks = dataclasses.replace(_run({"q": ranked}), in_blocks=True)
    assert ties_within_top_k(in_blocks, _gold({"q": judged}), [k], threshold) == found
    values = {
        tuple(round(v, 12) for v in _values(o, judged, k, threshold)) for o in _orders(ranked, k)
    }
    for index, name in enumerate(("mrr", "ndcg", "ap")):
        varies = len({v[index] for v in values}) > 1
        assert (f"{name}@{k}" in found) == varies, (name, ranked, judged, values)


def test_equal_scores_in_two_lists_are_no_tie() -> None:
    """A list's last score equal to the next list's first is not a tie (in blocks too)."""
    run = _run({"q1": [("a", 2.0), ("b", 1.0)], "q2": [("c", 1.0), ("d", 0.5)]})
    gold = _gold({"q1": {"b": 1}, "q2": {"d": 1}})
    for loaded in (False, True):
        assert ties_within_top_k(dataclasses.replace(run, in_blocks=loaded), gold, [2]) == {}
    tied = _run({"q1": [("a", 2.0), ("b", 1.0)], "q2": [("d", 1.0), ("c", 1.0)]})
    for loaded in (False, True):
        found = ties_within_top_k(dataclasses.replace(tied, in_blocks=loaded), gold, [2])
        assert found == {"mrr@2": ["q2"], "ap@2": ["q2"], "ndcg@2": ["q2"]}
