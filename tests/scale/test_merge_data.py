"""merge/ written by each shard and read back gives the evaluation of all the questions:
the analyses on it lay out the same report.json as on the evaluation measured at once.

Inputs the command line does not reach yet (a trace's context, several runs with
verdicts, --retrieved-when all) go through the Python API here; the commands are tested
in test_merge_whole.py. A broken or foreign merge/ is refused with its file.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest

from reportgen.analyse.run import AnalysisOptions, run_analyses
from reportgen.core.model import GoldSet, Run, VerdictSet
from reportgen.errors import InputError, UsageError
from reportgen.load.inputs.traces import load_trace
from reportgen.load.previous.merge_data import read_merge_data
from reportgen.measure.scoring import Settings, evaluate
from reportgen.report.assemble import assemble
from reportgen.report.merge_data import merge_data_files
from reportgen.scale.rebuild import merged_evaluation, merged_verdicts
from reportgen.scale.shard import shard_of

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CREATED = datetime(2026, 12, 1, tzinfo=UTC)


def part(gold: GoldSet, runs: list[Run], verdicts: VerdictSet, qids: set[str]) -> tuple:
    mine = pl.col("qid").is_in(list(qids))
    gold_part = dataclasses.replace(
        gold, questions=gold.questions.filter(mine), judgments=gold.judgments.filter(mine)
    )
    runs_part = [
        dataclasses.replace(
            run,
            results=run.results.filter(mine),
            sent=None if run.sent is None else run.sent.filter(mine),
            sent_unretrieved=tuple(q for q in run.sent_unretrieved if q in qids),
        )
        for run in runs
    ]
    return gold_part, runs_part, dataclasses.replace(verdicts, rows=verdicts.rows.filter(mine))


def write_shards(tmp_path: Path, gold: GoldSet, runs: list[Run], verdicts: VerdictSet,
                 settings: Settings, shards: int = 2) -> list[Path]:  # fmt: skip
    folders = []
    qids = gold.questions["qid"].to_list()
    for number in range(shards):
        mine = {q for q in qids if shard_of(q, shards) == number}
        gold_part, runs_part, verdicts_part = part(gold, runs, verdicts, mine)
        evaluation = evaluate(gold_part, runs_part, settings, part=True)
        findings = run_analyses(evaluation, AnalysisOptions(verdicts=verdicts_part),
                                version="v1", created=CREATED)  # fmt: skip
        folder = tmp_path / f"shard-{number}"
        for name, data in merge_data_files(findings).items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        folders.append(folder)
    return folders


@pytest.mark.parametrize("rule", ["any", "all"])
def test_a_traced_run_and_a_second_run_with_verdicts_merge_to_the_whole(tmp_path, rule):
    trace = load_trace(FIXTURES / "traces" / "multihop.jsonl")
    assert trace.run.sent is not None and trace.verdicts is not None
    # a second run: the trace's ranked lists reversed, judged by the same verdicts
    reversed_run = dataclasses.replace(
        trace.run,
        name="reversed",
        results=trace.run.results.with_columns(
            (pl.col("rank").max().over("qid") + 1 - pl.col("rank")).alias("rank")
        ).sort("qid", "rank"),
        sent=None,
    )
    again = trace.verdicts.rows.with_columns(pl.lit("reversed").alias("run"))
    verdicts = dataclasses.replace(trace.verdicts, rows=pl.concat([trace.verdicts.rows, again]))
    settings = Settings((1, 2, 3), 2, retrieved_when=rule)
    runs = [trace.run, reversed_run]
    whole = run_analyses(evaluate(trace.gold, runs, settings), AnalysisOptions(verdicts=verdicts),
                         version="v1", created=CREATED)  # fmt: skip
    shards = [read_merge_data(folder) for folder in
              write_shards(tmp_path, trace.gold, runs, verdicts, settings)]  # fmt: skip
    merged = run_analyses(merged_evaluation(shards),
                          AnalysisOptions(verdicts=merged_verdicts(shards)),
                          version="v1", created=CREATED)  # fmt: skip
    expected, found = assemble(whole), assemble(merged)
    assert [a["context_source"] for a in found["attribution"].values()] == ["trace", "top_k"]
    assert found == expected


def test_a_foreign_or_newer_merge_folder_is_refused(tmp_path: Path) -> None:
    trace = load_trace(FIXTURES / "traces" / "multihop.jsonl")
    assert trace.verdicts is not None
    (folder,) = write_shards(tmp_path, trace.gold, [trace.run], trace.verdicts, Settings(), 1)
    meta_path = folder / "merge" / "shard.json"
    meta = json.loads(meta_path.read_text())
    meta_path.write_text(json.dumps({**meta, "merge_data_format": 99}))
    with pytest.raises(InputError, match="merge data format 99"):
        read_merge_data(folder)
    meta_path.write_text(json.dumps({"runs": {}}))
    with pytest.raises(InputError, match=r"not a merge/shard\.json reportgen wrote"):
        read_merge_data(folder)
    meta_path.write_text(json.dumps(meta))
    (folder / "merge" / "questions.parquet").write_bytes(b"not parquet")
    with pytest.raises(InputError, match=r"questions\.parquet.*not a readable merge/ file"):
        read_merge_data(folder)


def test_shards_measured_differently_or_overlapping_are_refused(tmp_path: Path) -> None:
    trace = load_trace(FIXTURES / "traces" / "multihop.jsonl")
    assert trace.verdicts is not None
    one = write_shards(tmp_path / "a", trace.gold, [trace.run], trace.verdicts, Settings())
    other = write_shards(tmp_path / "b", trace.gold, [trace.run], trace.verdicts,
                         Settings(context_k=3))  # fmt: skip
    named = r"measured differently: the settings' context_k \(--context-k\) is 5 in .* and 3 in"
    with pytest.raises(UsageError, match=named):
        merged_evaluation([read_merge_data(one[0]), read_merge_data(other[1])])
    # --context-k 5 given or left to its default 5: the same numbers, merged
    assumed = write_shards(tmp_path / "c", trace.gold, [trace.run], trace.verdicts,
                           Settings(context_k_assumed=True))  # fmt: skip
    given_and_assumed = [read_merge_data(one[0]), read_merge_data(assumed[1])]
    assert not merged_evaluation(given_and_assumed).settings.context_k_assumed
    both_assumed = [read_merge_data(folder) for folder in assumed]
    assert merged_evaluation(both_assumed).settings.context_k_assumed
    with pytest.raises(UsageError, match="shards overlap: question"):
        merged_evaluation([read_merge_data(one[0]), read_merge_data(one[0])])
