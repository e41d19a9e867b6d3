"""Ties at a cutoff are found whatever order the run's rows are stored in."""

from __future__ import annotations

import random

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.core.model import Run
from reportgen.measure.ties import ties_at_cutoffs


def run_of(rows: list[tuple[str, str, int, float]]) -> Run:
    results = pl.DataFrame(
        rows,
        schema={"qid": pl.String, "chunk_id": pl.String, "rank": pl.Int64, "score": pl.Float64},
        orient="row",
    )
    return Run(name="r", results=results, source="<test>", order="score")


# q1: 0.9, 0.5, 0.5 -> positions 2 and 3 tie: a tie across k = 2.
# q2: 0.8, 0.8, 0.1 -> positions 1 and 2 tie: a tie across k = 1.
# q3: one result, nothing after it to tie with.
ROWS = [
    ("q1", "a", 1, 0.9),
    ("q1", "b", 2, 0.5),
    ("q1", "c", 3, 0.5),
    ("q2", "d", 1, 0.8),
    ("q2", "e", 2, 0.8),
    ("q2", "f", 3, 0.1),
    ("q3", "g", 1, 0.7),
]
EXPECTED = {1: ["q2"], 2: ["q1"]}


def test_rows_in_rank_order():
    assert ties_at_cutoffs(run_of(ROWS), [1, 2, 3]) == EXPECTED


def test_rows_shuffled_and_questions_split():
    # q1's rows apart from each other and out of rank order: sorted before reading
    shuffled = [ROWS[2], ROWS[3], ROWS[0], ROWS[6], ROWS[5], ROWS[1], ROWS[4]]
    assert ties_at_cutoffs(run_of(shuffled), [1, 2, 3]) == EXPECTED


def test_question_blocks_in_order_but_one_question_twice():
    # each row follows the one before in rank, but q1 comes back after q2
    split = [ROWS[0], ROWS[1], ROWS[3], ROWS[4], ROWS[5], ROWS[2], ROWS[6]]
    assert ties_at_cutoffs(run_of(split), [1, 2, 3]) == EXPECTED


def test_ranks_with_gaps_use_positions():
    # a repeat was dropped at rank 2: the scores at positions 2 and 3 (ranks 3, 4) tie
    rows = [("q1", "a", 1, 0.9), ("q1", "c", 3, 0.4), ("q1", "d", 4, 0.4)]
    assert ties_at_cutoffs(run_of(rows), [2]) == {2: ["q1"]}


def test_first_rank_missing_is_read_by_position():
    # ranks 2, 3 (no rank 1): positions 1 and 2 tie, so the tie is across k = 1
    rows = [("q1", "a", 2, 0.5), ("q1", "b", 3, 0.5), ("q2", "c", 1, 0.9)]
    assert ties_at_cutoffs(run_of(rows), [1, 2]) == {1: ["q1"]}


def test_tie_needs_a_row_after_k():
    # q1 has 2 results: nothing at position 3 for position 2 to tie with, even though
    # the next row (q2's first) has the same score
    rows = [("q1", "a", 1, 0.9), ("q1", "b", 2, 0.5), ("q2", "c", 1, 0.5), ("q2", "d", 2, 0.1)]
    assert ties_at_cutoffs(run_of(rows), [1, 2]) == {}


@settings(deadline=None, max_examples=100)
@given(
    lists=st.lists(st.lists(st.integers(0, 3), min_size=1, max_size=8), min_size=1, max_size=6),
    seed=st.integers(0, 2**32 - 1),
)
def test_same_ties_in_block_order_and_shuffled(lists, seed):
    # Scores from few values, so ties are common. In block order the positions are the
    # ranks; shuffled, the rows are sorted first: both must find the same ties, and
    # they must be the ones a plain reading of each list finds.
    ranked = [sorted(scores, reverse=True) for scores in lists]
    rows = [
        (f"q{q}", f"c{i}", i + 1, float(score))
        for q, scores in enumerate(ranked)
        for i, score in enumerate(scores)
    ]
    ks = [1, 2, 3, 5]
    expected = {}
    for k in ks:
        qids = sorted(f"q{q}" for q, s in enumerate(ranked) if len(s) > k and s[k - 1] == s[k])
        if qids:
            expected[k] = qids
    shuffled = random.Random(seed).sample(rows, len(rows))
    assert ties_at_cutoffs(run_of(rows), ks) == expected
    assert ties_at_cutoffs(run_of(shuffled), ks) == expected


def test_one_warning_per_run_names_every_cutoff_with_ties(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from reportgen.load import load_gold, load_run
    from reportgen.measure.scoring import Settings, evaluate

    gold = tmp_path / "qrels.txt"
    gold.write_text("q1 0 a 1\nq2 0 b 1\nq3 0 c 1\n")
    run = tmp_path / "run.trec"
    # q1 ties across rank 1, q2 across rank 1 and 2, q3 across rank 2
    run.write_text(
        "q1 Q0 a 1 2.0 r\nq1 Q0 x 2 2.0 r\nq1 Q0 y 3 1.0 r\n"
        "q2 Q0 b 1 2.0 r\nq2 Q0 x 2 2.0 r\nq2 Q0 y 3 2.0 r\n"
        "q3 Q0 c 1 3.0 r\nq3 Q0 x 2 2.0 r\nq3 Q0 y 3 2.0 r\n"
    )
    evaluation = evaluate(load_gold(gold), [load_run(run, name="r")], Settings((1, 2), 2))
    (warning,) = [w for w in evaluation.warnings if w.code == "ties_at_cutoff"]
    assert warning.message == (
        "run 'r': 3 question(s) have tied scores across a cutoff: k=1 (2), k=2 (2); "
        "measures at those k depend on the tie-break (chunk id descending)"
    )
    assert warning.count == 3 and warning.examples == ("q1", "q2", "q3")
    single = evaluate(load_gold(gold), [load_run(run, name="r")], Settings((2,), 2))
    (warning,) = [w for w in single.warnings if w.code == "ties_at_cutoff"]
    assert warning.message.startswith("run 'r': 2 question(s) have tied scores across rank 2;")
