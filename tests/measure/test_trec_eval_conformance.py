"""trec_eval's own expected outputs, reproduced number by number.

Each ``out.*`` file in ``tests/fixtures/trec_eval/`` is what trec_eval printed
(``measure<TAB>query<TAB>value``, 4 decimals). The files are read through the
loaders, scored with trec_eval's conventions (questions with nothing relevant kept
at 0, a missing question scored 0), and every value whose measure reportgen has is
compared, per query and for ``all``.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import NamedTuple

import polars as pl
import pytest

from reportgen.core.model import Run
from reportgen.measure.measures import MEASURES, in_means, means, measure_keys, per_question

TOL = 0.00005
"""trec_eval prints 4 decimals."""

CUTOFF_NAMES = {
    "P": "precision",
    "recall": "recall",
    "success": "hit",
    "ndcg_cut": "ndcg",
    "map_cut": "ap",
}
"""trec_eval's measures with a cutoff (``P_5``) and reportgen's name for each."""

WHOLE_LIST_NAMES = {"map": "ap", "recip_rank": "mrr", "Rprec": "r-precision"}
COUNT_NAMES = {
    "num_rel": "n_relevant",
    "num_rel_ret": "n_relevant_retrieved",
    "num_ret": "n_retrieved",
}
"""Per query a count; for ``all`` trec_eval prints their sum, not their mean."""

CUTOFF_PATTERN = re.compile(rf"^({'|'.join(CUTOFF_NAMES)})_(\d+)$")


class Expected(NamedTuple):
    measure: str
    """trec_eval's name."""
    key: str
    """reportgen's column, or ``n`` for num_q."""
    qid: str
    value: float


def to_reportgen(measure: str) -> str | None:
    """reportgen's column for a trec_eval measure name, or None when it has none."""
    if match := CUTOFF_PATTERN.match(measure):
        return f"{CUTOFF_NAMES[match[1]]}@{int(match[2])}"
    if measure == "num_q":
        return "n"
    return WHOLE_LIST_NAMES.get(measure) or COUNT_NAMES.get(measure)


def read_expected(path: Path) -> list[Expected]:
    """The values of ``path`` whose measure reportgen computes."""
    expected = []
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        measure, qid, value = (field.strip() for field in line.split("\t"))
        key = to_reportgen(measure)
        if key is not None:
            expected.append(Expected(measure, key, qid, float(value)))
    return expected


def cutoffs(expected: list[Expected]) -> list[int]:
    return sorted({int(e.key.split("@")[1]) for e in expected if "@" in e.key})


class Case(NamedTuple):
    expected: str
    qrels: str
    results: str
    threshold: int = 1
    max_per_question: int | None = None
    """trec_eval's -M: each ranked list cut to this depth."""


CASES = [
    # trec_eval qrels.test results.test
    pytest.param(Case("out.test", "qrels.test", "results.test"), id="out.test"),
    pytest.param(
        Case("out.test", "qrels.test.with-comments", "results.test"), id="out.test-comments"
    ),
    # -m all_trec
    pytest.param(Case("out.test.a", "qrels.test", "results.test"), id="out.test.a"),
    # -m all_trec -q: per query, then all
    pytest.param(Case("out.test.aq", "qrels.test", "results.test"), id="out.test.aq"),
    # -q -c: topic 302 absent from the run, scored 0 and counted
    pytest.param(Case("out.test.aqc", "qrels.test", "results.trunc"), id="out.test.aqc"),
    # -q -c -M100
    pytest.param(
        Case("out.test.aqcM", "qrels.test", "results.trunc", max_per_question=100),
        id="out.test.aqcM",
    ),
    # -q -l2: relevant = grade >= 2, nDCG still gains from every positive grade
    pytest.param(
        Case("out.test.aql", "qrels.rel_level", "results.test", threshold=2), id="out.test.aql"
    ),
    # TREC RAG 2024-style: 301 run topics of which 31 judged, one with nothing relevant
    pytest.param(
        Case("out.comment.test", "qrels.comment.test", "results.comment.test"),
        id="out.comment.test",
    ),
]


@pytest.fixture(scope="module")
def conformance_dir(trec_eval_dir: Path) -> Path:
    return trec_eval_dir


@pytest.fixture(scope="module")
def loaders():
    load = pytest.importorskip("reportgen.load", reason="the loaders (reportgen.load) are absent")
    if not (hasattr(load, "load_gold") and hasattr(load, "load_run")):
        pytest.skip("reportgen.load does not offer load_gold and load_run yet")
    return load


def cut(run: Run, depth: int | None) -> Run:
    if depth is None:
        return run
    return dataclasses.replace(run, results=run.results.filter(pl.col("rank") <= depth))


@pytest.mark.parametrize("case", CASES)
def test_every_value_matches_trec_eval(conformance_dir: Path, loaders, case: Case) -> None:
    expected = read_expected(conformance_dir / case.expected)
    gold = loaders.load_gold(conformance_dir / case.qrels, fmt="qrels")
    run = cut(loaders.load_run(conformance_dir / case.results, fmt="trec"), case.max_per_question)
    ks = cutoffs(expected)
    scores = per_question(gold, run, ks, threshold=case.threshold)
    counted = scores.filter(in_means(keep_no_relevant=True))
    keys = measure_keys(ks)
    mean = means(scores, keys, keep_no_relevant=True).row(0, named=True)
    totals = counted.select(pl.col(list(COUNT_NAMES.values())).sum()).row(0, named=True)
    by_qid = {row["qid"]: row for row in counted.iter_rows(named=True)}

    per_query_qids = {e.qid for e in expected if e.qid != "all"}
    if per_query_qids:
        # trec_eval -q prints every question it counts, and no other
        assert set(by_qid) == per_query_qids

    mismatches = []
    for e in expected:
        if e.qid == "all":
            got = totals[e.key] if e.key in totals else mean[e.key]
        else:
            got = by_qid[e.qid][e.key]
        if got is None or abs(got - e.value) > TOL:
            mismatches.append(f"{e.measure} {e.qid}: trec_eval {e.value}, reportgen {got}")
    assert not mismatches, "\n".join(mismatches)

    # guard against a silently empty comparison: every mapped measure was seen
    compared = {e.measure for e in expected}
    assert {"num_q", "map", "P_5", "num_ret"} <= compared
    if case.expected.startswith("out.test."):  # -m all_trec
        assert {"ndcg_cut_10", "recip_rank", "Rprec", "success_1", "map_cut_1000"} <= compared


def test_measure_registry_names_trec_eval_as_the_conformance_does() -> None:
    # MEASURES carries each measure's trec_eval name: it must map back to the same key
    for measure in MEASURES:
        if measure.trec_eval is None:
            continue
        k = 10 if measure.cutoff else None
        assert to_reportgen(measure.trec_eval.format(k=k)) == measure.key(k)
