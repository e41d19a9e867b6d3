"""The plain report (gold.jsonl and TREC runs through `reportgen report`) of a seed and an
option set, made once per session: every other way in is compared with it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.joins.dataset import DataSet, draw
from tests.joins.paths import Options, plain

SEED = 1
"""The seed of the default run; SLOW_SEEDS run under -m slow."""
SLOW_SEEDS = (2, 3, 4)

OPTION_SETS: dict[str, Options] = {
    "defaults": Options(),
    "verdicts-run-first": Options(verdicts_run=None),
    "retrieved-when-all": Options(retrieved_when="all"),
    "context-k-3": Options(context_k=3),
    "k-1-2-7": Options(k=(1, 2, 7)),
    "threshold-2": Options(threshold=2),
    "chunks": Options(chunks=True),
    "trec-eval": Options(trec_eval=True, threshold=2),
    "combined": Options(
        k=(1, 2, 7), context_k=3, threshold=2, retrieved_when="all", verdicts_run=None
    ),
    "chunks-combined": Options(
        chunks=True, k=(1, 2, 7), context_k=3, threshold=2, retrieved_when="all"
    ),
}
DEFAULT_SETS = ("defaults", "combined", "chunks")
"""Option sets of the default run; every set runs on the slow seeds."""


@pytest.fixture(scope="session")
def plain_report(
    tmp_path_factory: pytest.TempPathFactory,
) -> Callable[[int, str], dict[str, Any]]:
    made: dict[tuple[int, str], dict[str, Any]] = {}

    def report(seed: int, option_set: str) -> dict[str, Any]:
        if (seed, option_set) not in made:
            root = tmp_path_factory.mktemp(f"plain-{seed}-{option_set}")
            outcome = plain(data_set(seed), root, OPTION_SETS[option_set])
            assert outcome.report is not None, outcome.output
            made[seed, option_set] = outcome.report
        return made[seed, option_set]

    return report


_DRAWN: dict[int, DataSet] = {}


def data_set(seed: int) -> DataSet:
    if seed not in _DRAWN:
        _DRAWN[seed] = draw(seed)
    return _DRAWN[seed]
