"""Run.longest_list: read off the ranks of a loaded run, counted for any other."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.load.inputs.runs import load_run

lists = st.dictionaries(
    st.sampled_from(["q1", "q2", "q10", "q3"]),
    st.lists(st.sampled_from(["a", "b", "c", "d", "e"]), min_size=1, max_size=8),
    min_size=1,
)


@settings(max_examples=40, deadline=None)
@given(lists)
def test_longest_list_is_the_most_rows_of_a_question(tmp_path_factory, ranked) -> None:
    """Repeats (dropped, their rank slot kept) included: the count, not the last rank."""
    path: Path = tmp_path_factory.mktemp("run") / "run.trec"
    lines = [
        f"{qid} Q0 {chunk} {rank} {100 - rank} t"
        for qid, chunks in ranked.items()
        for rank, chunk in enumerate(chunks, 1)
    ]
    path.write_text("\n".join(lines) + "\n")
    run = load_run(path)
    counted = max(len(dict.fromkeys(chunks)) for chunks in ranked.values())
    assert run.longest_list == counted
    assert dataclasses.replace(run, in_blocks=False).longest_list == counted
