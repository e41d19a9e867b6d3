"""Errors that guess right about ids and argument order: gold and run swapped, and ids
that match only when letter case is ignored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reportgen.api import example_dir, load_runs
from reportgen.errors import InputError, case_hint
from reportgen.load import load_gold
from reportgen.load.inputs.run_files import load_gold_input, load_run_inputs
from reportgen.measure.scoring import Settings, evaluate

EXAMPLE = example_dir()


@pytest.mark.parametrize("run", ["keyword.trec"])
def test_a_run_given_as_the_gold_set_says_so(run: str) -> None:
    with pytest.raises(InputError, match=r"looks like a run.*if the arguments are swapped"):
        load_gold_input(EXAMPLE / "runs" / run, None, None, None)


def test_the_gold_set_given_as_a_run_says_so() -> None:
    gold = load_gold(EXAMPLE / "runs" / "dense.jsonl")  # a JSONL run reads as a gold set
    with pytest.raises(InputError, match=r"looks like a gold set.*the gold set comes first"):
        load_run_inputs([(None, EXAMPLE / "gold.jsonl")], gold)


def test_a_plain_error_gets_no_hint(tmp_path: Path) -> None:
    path = tmp_path / "gold.jsonl"
    path.write_text('{"id": "q1", "gold": "c1"}\n{"id": 2}\n')
    with pytest.raises(InputError) as raised:
        load_gold_input(path, None, None, None)
    assert "swapped" not in str(raised.value)


def test_case_hint_names_a_pair_and_counts() -> None:
    assert case_hint(["Q1", "Q2", "x"], ["q1", "q2"]).startswith(
        " (2 match a gold id when letter case is ignored, e.g. 'Q1' and 'q1'"
    )
    assert case_hint(["x"], ["q1"]) == ""


def test_run_and_verdict_ids_in_another_case(tmp_path: Path) -> None:
    (tmp_path / "g.jsonl").write_text('{"id": "q1", "gold": ["a"]}\n{"id": "q2", "gold": ["b"]}\n')
    (tmp_path / "r.jsonl").write_text(
        "".join(json.dumps({"id": q, "chunks": ["a"]}) + "\n" for q in ("Q1", "Q2"))
    )
    gold = load_gold(tmp_path / "g.jsonl")
    with pytest.raises(InputError, match=r"e\.g\. 'Q1' and 'q1': ids are compared exactly"):
        evaluate(gold, load_runs([str(tmp_path / "r.jsonl")]), Settings())
