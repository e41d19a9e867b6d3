"""A chunk repeated inside a list (by its own score, not at the end), through every way in.

The list formats (TREC, JSON Lines, CSV, Parquet, frames, lists) spell the repeat, and
it takes a rank there, as in trec_eval: they must give the plain report. ranx JSON and
``{qid: {chunk: score}}`` cannot hold a repeat: they give the plain report of the lists
without it. Trace files and span exports follow the trace rule (SPEC.md: each chunk at
its first position, a repeat takes no rank), so they too must give the plain report of
the lists without repeats.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.joins.compare import SECTIONS, difference
from tests.joins.conftest import OPTION_SETS, SEED, SLOW_SEEDS
from tests.joins.dataset import DataSet, draw
from tests.joins.paths import WAYS, plain

SPANS = ("otlp", "otlp-lines", "otlp-genai", "phoenix-jsonl", "phoenix-parquet")
NO_REPEATS = ("ranx-json", "evaluate-dicts", "traces", "traces-context", *SPANS)
"""The ways whose list holds each chunk once."""
DEFAULT_WAYS = ("jsonl", "traces", "ranx-json", "otlp")
SENT = ("cells", "cells_by_kind", "by_coverage")
"""What the chunks sent decide. A trace's ``context`` lists what was sent, a repeat
taking one of its k slots, so these may differ from the list without the repeat."""
_MADE: dict[tuple[int, bool], dict[str, Any]] = {}


def _inside(seed: int) -> DataSet:
    return draw(seed, inside=True)


def _plain(seed: int, repeats: bool, root: Path) -> dict[str, Any]:
    if (seed, repeats) not in _MADE:
        data = _inside(seed) if repeats else _inside(seed).without_repeats()
        outcome = plain(data, root, OPTION_SETS["defaults"])
        assert outcome.report is not None, outcome.output
        _MADE[seed, repeats] = outcome.report
    return _MADE[seed, repeats]


def _cases() -> list[Any]:
    cases = []
    for seed in (SEED, *SLOW_SEEDS):
        for way in WAYS:
            marks = [] if seed == SEED and way in DEFAULT_WAYS else [pytest.mark.slow]
            cases.append(pytest.param(seed, way, marks=marks, id=f"{seed}-{way}"))
    return cases


@pytest.mark.parametrize(("seed", "way"), _cases())
def test_a_repeat_inside_a_list(tmp_path: Path, seed: int, way: str) -> None:
    expected = _plain(seed, way not in NO_REPEATS, tmp_path / "plain")
    spec = WAYS[way]
    got = spec.run(_inside(seed), tmp_path / "way", OPTION_SETS["defaults"])
    assert got.report is not None, got.output
    sent = SENT if way == "traces-context" else ()
    sections = [name for name in SECTIONS if name not in spec.lacks and name not in sent]
    assert difference(expected, got.report, sections, spec.kinds) is None


def test_the_repeats_move_the_numbers(tmp_path: Path) -> None:
    """Else the two references would be one, and the test above could not fail."""
    counts = _plain(SEED, True, tmp_path / "a")["runs"]
    assert all(run["counts"]["repeated_chunks"] > 0 for run in counts.values())
    assert difference(_plain(SEED, True, tmp_path / "a"), _plain(SEED, False, tmp_path / "b"),
                      ["means"]) is not None  # fmt: skip
