"""The sharded way in: `reportgen shard` (2 and 3 shards), each shard measured with every
option, `reportgen merge` with and without --merge-data, against the plain report.

Shards without merge/ carry per-question values only: their merge is held to the means.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.joins import writers as w
from tests.joins.compare import SECTIONS, difference
from tests.joins.conftest import OPTION_SETS, SEED, SLOW_SEEDS, data_set
from tests.joins.dataset import RUNS
from tests.joins.paths import Options, plain
from tests.joins.sharding import RUN_WRITERS, Sharding, reportgen, sharded
from tests.report_schema import report_problems

PlainReport = Callable[[int, str], dict[str, Any]]

SHARDINGS = {
    "2": Sharding(2),
    "3": Sharding(3),
    "3-parquet": Sharding(3, per_question="parquet"),
    "3-values": Sharding(3, merge_data=False),
}
DEFAULT_CASES = {
    ("defaults", "2"): Sharding(2, subprocess=True),
    ("defaults", "3-values"): Sharding(3, merge_data=False),
    ("combined", "3-parquet"): Sharding(3, per_question="parquet"),
    ("chunks", "2"): Sharding(2, runs="parquet"),
}
"""The default run's: one through real processes, the rest in-process (click's runner)."""


SLOW_SEED_SETS = ("defaults", "combined", "trec-eval")
"""The option sets the slow seeds are sharded with (every set but chunks-combined runs on
SEED: test_a_shard_without_evidence_writes_a_valid_report is that set's case)."""


def _cases() -> list[Any]:
    cases = []
    for seed in (SEED, *SLOW_SEEDS):
        sets = [name for name in OPTION_SETS if name != "chunks-combined"]
        for option_set in sets if seed == SEED else SLOW_SEED_SETS:
            for name, how in SHARDINGS.items():
                default = DEFAULT_CASES.get((option_set, name)) if seed == SEED else None
                marks = [] if default else [pytest.mark.slow]
                cases.append(pytest.param(seed, option_set, default or how, marks=marks,
                                          id=f"{seed}-{option_set}-{name}"))  # fmt: skip
    for runs in RUN_WRITERS:
        for option_set in ("defaults", "combined"):
            how = Sharding(3, runs=runs)
            cases.append(pytest.param(SEED, option_set, how, marks=[pytest.mark.slow],
                                      id=f"{SEED}-{option_set}-3-{runs}"))  # fmt: skip
    return cases


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "option_set", "how"), _cases())
def test_sharded_and_merged_is_the_plain_report(
    tmp_path: Path, plain_report: PlainReport, seed: int, option_set: str, how: Sharding
) -> None:
    got = sharded(data_set(seed), tmp_path, OPTION_SETS[option_set], how)
    assert got.report is not None, got.output
    assert [entry["questions"] for entry in got.report["merged_from"]]
    sections = list(SECTIONS) if how.merge_data else ["means"]
    assert difference(plain_report(seed, option_set), got.report, sections) is None


def test_merge_keeps_the_run_the_shards_were_told(
    tmp_path: Path, plain_report: PlainReport
) -> None:
    how = Sharding(shards=2, verdicts_run_on_merge=False)
    got = sharded(data_set(SEED), tmp_path, OPTION_SETS["defaults"], how)
    assert got.report is not None, got.output
    expected = plain_report(SEED, "defaults")
    assert difference(expected, got.report, ["cells", "by_coverage"]) is None


def _refused(output: str, *words: str) -> bool:
    lines = output.strip().splitlines()
    return len(lines) == 1 and "Fix:" in lines[0] and all(word in lines[0] for word in words)


def test_a_missing_shard_is_refused(tmp_path: Path) -> None:
    how = Sharding(shards=3, measured=(0, 1))
    got = sharded(data_set(SEED), tmp_path, OPTION_SETS["defaults"], how)
    assert got.code == 2 and _refused(got.output, "shard"), got.output


def test_merge_through_another_chunk_map_is_refused_or_counted(
    tmp_path: Path,
) -> None:
    data = data_set(SEED)
    other = Options(chunks=True, chunk_every=2)
    (tmp_path / "plain").mkdir()
    expected = plain(data, tmp_path / "plain", other).report
    assert expected is not None
    missing = {run: v["not_in_map"] for run, v in expected["chunkings"]["runs"].items()}
    assert all(missing.values())  # the other map does lack chunks the runs return
    how = Sharding(shards=2, merge_chunk_every=2)
    got = sharded(data, tmp_path / "sharded", OPTION_SETS["chunks"], how)
    if got.report is None:
        assert got.code == 2 and _refused(got.output, "--chunks"), got.output
    else:
        runs = got.report["chunkings"]["runs"]
        assert {run: v["not_in_map"] for run, v in runs.items()} == missing


def test_merging_values_only_refuses_verdicts_run(tmp_path: Path) -> None:
    """Shards without merge/ hold no verdicts: --verdicts-run cannot be carried."""
    how = Sharding(shards=2, merge_data=False, merge_extra=("--verdicts-run", "dense"))
    got = sharded(data_set(SEED), tmp_path, OPTION_SETS["defaults"], how)
    assert got.code == 2, got.output
    assert _refused(got.output, "--verdicts-run needs the whole report", "--merge-data")


def test_merging_values_only_refuses_chunks(tmp_path: Path) -> None:
    how = Sharding(
        shards=2, merge_data=False, merge_extra=("--chunks", "chunks.csv", "--docs", "docs")
    )
    got = sharded(data_set(SEED), tmp_path, OPTION_SETS["chunks"], how)
    assert got.code == 2 and _refused(got.output, "--chunks"), got.output


DIFFERENT = {
    "retrieved-when": ("--retrieved-when", "all"),
    "context-k": ("--context-k", "3"),
    "threshold": ("--relevance-threshold", "2"),
    "trec-eval": ("--trec-eval",),
    "k": ("--k", "1,2,7"),
}


@pytest.mark.parametrize(
    "option",
    [pytest.param(name, marks=[] if name == "retrieved-when" else [pytest.mark.slow])
     for name in DIFFERENT],
)  # fmt: skip
def test_shards_measured_differently_are_refused(tmp_path: Path, option: str) -> None:
    how = Sharding(shards=2, last_shard_extra=DIFFERENT[option])
    got = sharded(data_set(SEED), tmp_path, OPTION_SETS["defaults"], how)
    assert got.code == 2, got.output
    assert _refused(got.output, "shards were measured differently", "same options")


def test_shards_judging_different_runs_are_refused(tmp_path: Path) -> None:
    how = Sharding(2, last_shard_extra=("--verdicts-run", "bm25"), verdicts_run_on_merge=False)
    got = sharded(data_set(SEED), tmp_path, OPTION_SETS["defaults"], how)
    assert got.code == 2 and _refused(got.output, "--verdicts-run"), got.output


def test_context_k_given_or_assumed_merges(tmp_path: Path, plain_report: PlainReport) -> None:
    how = Sharding(shards=2, last_shard_extra=("--context-k", "5"))
    options = Options(context_k=None)
    got = sharded(data_set(SEED), tmp_path, options, how)
    assert got.report is not None, got.output
    assert difference(plain_report(SEED, "defaults"), got.report, list(SECTIONS)) is None


@pytest.mark.parametrize("suffix", ["traces.jsonl", *w.SPAN_WRITERS])
def test_shard_refuses_traces_and_spans(tmp_path: Path, suffix: str) -> None:
    """A trace file or a span export is read with its gold set: it is no ranked list to cut."""
    data = data_set(SEED)
    gold = w.gold_jsonl(data, tmp_path / "gold.jsonl")
    run = tmp_path / f"bm25.{suffix}"
    if suffix == "traces.jsonl":
        w.trace_file(data, RUNS[0], run, verdicts=False)
    else:
        w.SPAN_WRITERS[suffix](w.span_traces(data, RUNS[0]), run)
    code, output = reportgen(["shard", gold.name, f"bm25={run.name}", "--shards", "2",
                              "--out", "shards"], tmp_path, subprocess_=False)  # fmt: skip
    assert code == 2 and _refused(output, run.name, "holds more than a ranked list"), output
    assert not (tmp_path / "shards").exists()


def test_a_shard_without_evidence_writes_a_valid_report(
    tmp_path: Path, plain_report: PlainReport
) -> None:
    got = sharded(data_set(SEED), tmp_path, OPTION_SETS["chunks-combined"], Sharding(3))
    assert got.report is not None, got.output
    assert difference(plain_report(SEED, "chunks-combined"), got.report, list(SECTIONS)) is None
    shards = sorted((tmp_path / "outs").glob("*/report.json"))
    assert [report_problems(json.loads(path.read_text())) for path in shards] == [[]] * 3
