"""A loaded run's counts and ties read off its blocks (Run.in_blocks) give what counting
distinct chunks and sorting the rows give, repeats and ties included."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.load.inputs.memory import gold_from, runs_from
from reportgen.measure.measures import judge, per_question
from reportgen.measure.ties import ties_at_cutoffs

KS = (1, 2, 3, 5)

questions = st.dictionaries(
    st.sampled_from([f"q{n}" for n in range(6)]),
    # few chunks and few scores: repeats and ties are common
    st.lists(st.tuples(st.sampled_from("abcdef"), st.integers(0, 3)), min_size=1, max_size=9),
    min_size=1,
)


@pytest.mark.slow
@settings(deadline=None, max_examples=150)
@given(lists=questions, scored=st.booleans())
def test_block_lengths_and_ranks_give_what_the_long_way_gives(
    lists: dict[str, list[tuple[str, int]]], scored: bool
) -> None:
    if scored:  # {qid: {chunk: score}}: no repeats, ranked by score
        runs = {q: {chunk: float(score) for chunk, score in ranked} for q, ranked in lists.items()}
    else:  # {qid: [chunk]}: list order ranks, repeats dropped
        runs = {q: [chunk for chunk, _ in ranked] for q, ranked in lists.items()}
    (loaded,) = runs_from(runs)
    hand_built = dataclasses.replace(loaded, in_blocks=False)
    assert loaded.in_blocks
    gold = gold_from({q: [chunk for chunk, _ in ranked[:2]] for q, ranked in lists.items()})
    judged = judge(gold, KS)
    assert per_question(gold, loaded, KS, judged=judged).equals(
        per_question(gold, hand_built, KS, judged=judged)
    )
    assert ties_at_cutoffs(loaded, KS) == ties_at_cutoffs(hand_built, KS)
