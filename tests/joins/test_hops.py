"""Hops: a trace's ranked list is its retriever spans in start order, each chunk once at
its first position, a repeat taking no rank; spans that start together (to the
millisecond) are ordered by end time, then parent before child, then file order.

Each case is a span export against the plain report of the list the rule makes, in
every span format.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.joins import writers as w
from tests.joins.compare import SECTIONS, difference
from tests.joins.conftest import OPTION_SETS, SEED, data_set
from tests.joins.dataset import DataSet, Question
from tests.joins.paths import run_cli, spans

PlainReport = Callable[[int, str], dict[str, Any]]
DEFAULT_FORMATS = ("otlp.json", "phoenix.parquet")
FORMATS = [
    pytest.param(suffix, marks=[] if suffix in DEFAULT_FORMATS else [pytest.mark.slow])
    for suffix in w.SPAN_WRITERS
]
MS = 1_000_000
TEXT = "Which river flows through the capital of the country where the Eiffel Tower stands?"


def _means_of(gold: Path, run: str, root: Path) -> dict[str, Any]:
    outcome = run_cli(["report", str(gold), run, "--format", "json", "--out", str(root)])
    assert outcome.report is not None, outcome.output
    means: dict[str, Any] = outcome.report["runs"]["hops"]["means"]
    return means


def _crafted(tmp_path: Path, suffix: str, hops: list[w.Hop], expected: list[str]) -> None:
    """The span export of one trace against a JSON Lines run of ``expected``."""
    question = Question("h1", TEXT, "bridge", {"c41": 1, "c1": 1})
    data = DataSet(0, (question,), {}, (), {}, {})
    gold = w.gold_jsonl(data, tmp_path / "gold.jsonl")
    listed = w.lines(tmp_path / "hops.jsonl", [{"id": "h1", "chunks": expected}])
    exported = w.SPAN_WRITERS[suffix]([w.SpanTrace("h1", TEXT, hops)], tmp_path / f"s.{suffix}")
    want = _means_of(gold, f"hops={listed}", tmp_path / "plain")
    got = _means_of(gold, f"hops={exported}", tmp_path / "spans")
    assert difference({"runs": {"hops": {"means": want}}}, {"runs": {"hops": {"means": got}}},
                      ["means"]) is None  # fmt: skip


T = w.T0 + 7 * MS


@pytest.mark.parametrize("suffix", FORMATS)
def test_a_chunk_found_again_takes_no_rank(tmp_path: Path, suffix: str) -> None:
    hops = [w.Hop([("x9", 0.9), ("x10", 0.8)], T, T + MS),
            w.Hop([("x10", 0.7), ("c41", 0.6)], T + 2 * MS, T + 3 * MS)]  # fmt: skip
    _crafted(tmp_path, suffix, hops, ["x9", "x10", "c41"])


@pytest.mark.parametrize("suffix", FORMATS)
def test_tied_starts_go_by_end_time(tmp_path: Path, suffix: str) -> None:
    hops = [w.Hop([("x1", 0.9)], T, T + 5 * MS), w.Hop([("c1", 0.8)], T, T + 2 * MS)]
    _crafted(tmp_path, suffix, hops, ["c1", "x1"])


@pytest.mark.parametrize("suffix", FORMATS)
def test_tied_hops_go_parent_first(tmp_path: Path, suffix: str) -> None:
    hops = [w.Hop([("x1", 0.9)], T, T + MS, parent=1), w.Hop([("c1", 0.8)], T, T + MS)]
    _crafted(tmp_path, suffix, hops, ["c1", "x1"])


@pytest.mark.parametrize("suffix", FORMATS)
def test_hops_tied_in_every_way_keep_file_order(tmp_path: Path, suffix: str) -> None:
    hops = [w.Hop([("x1", 0.9)], T, T + MS), w.Hop([("c1", 0.8)], T, T + MS)]
    _crafted(tmp_path, suffix, hops, ["x1", "c1"])


@pytest.mark.parametrize("suffix", FORMATS)
def test_hops_in_start_order_whatever_the_file_order(tmp_path: Path, suffix: str) -> None:
    hops = [w.Hop([("x1", 0.9)], T + MS, T + 2 * MS), w.Hop([("c1", 0.8)], T, T + 3 * MS)]
    _crafted(tmp_path, suffix, hops, ["c1", "x1"])


@pytest.mark.parametrize("suffix", FORMATS)
def test_random_hops_that_find_a_chunk_again(
    tmp_path: Path, plain_report: PlainReport, suffix: str
) -> None:
    key = suffix != "phoenix.jsonl"
    got = spans(suffix, key, overlap=True)(data_set(SEED), tmp_path, OPTION_SETS["defaults"])
    assert got.report is not None, got.output
    assert difference(plain_report(SEED, "defaults"), got.report, list(SECTIONS)) is None
