"""Measure runs too large for memory in one process, one block of questions at a time.

The gold set's question ids are cut into ``blocks`` ranges; each block reads only its
rows of every run (for Parquet, a lazy scan whose filter the row-group statistics
answer, so a run sorted by question is read about once over all the blocks), is
measured on its own, and the blocks are merged as shards are
(:mod:`reportgen.report.merge`): the numbers are those of one report over every
question, and memory is that of one block.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from pathlib import Path

import polars as pl

from reportgen.analyse.run import run_analyses
from reportgen.core.labels import created_at
from reportgen.core.model import GoldSet
from reportgen.core.progress import track
from reportgen.errors import InputError, UsageError
from reportgen.load import load_gold, load_run, parse_run_spec
from reportgen.load.inputs.runs import QidRange, in_range
from reportgen.load.previous.shards import Shard
from reportgen.measure.scoring import Settings, evaluate
from reportgen.render.output import per_question_bytes, report_json, write_files
from reportgen.report.assemble import assemble, per_question_rows
from reportgen.report.merge import merge_shards
from reportgen.schema import MergedReport

RunSpec = str | Path | tuple[str | None, str | Path]


def question_ranges(gold: GoldSet, blocks: int) -> list[QidRange]:
    """``blocks`` ranges over the sorted ids, holding as many gold questions each as can be.

    Together they cover every id, in the gold set or not, so a question the gold set
    lacks falls in exactly one block and is counted once.
    """
    qids = gold.questions["qid"].sort()
    if not 1 <= blocks <= qids.len():
        raise UsageError(
            f"--blocks {blocks} for a gold set of {qids.len()} questions",
            "pass a number of blocks from 1 to the number of questions",
        )
    starts: list[str | None] = [qids[i * qids.len() // blocks] for i in range(1, blocks)]
    bounds = [None, *starts, None]
    return list(itertools.pairwise(bounds))


def gold_block(gold: GoldSet, block: QidRange) -> GoldSet:
    """The gold set's questions in ``block``; chunks forbidden for everyone stay."""
    mine = in_range(pl.col("qid"), block)
    return dataclasses.replace(
        gold,
        questions=gold.questions.filter(mine),
        judgments=gold.judgments.filter(mine),
        forbidden=gold.forbidden.filter(pl.col("qid").is_null() | mine),
        misspelt_keys=gold.misspelt_keys if block[0] is None else (),
    )


def measure_in_blocks(
    gold: str | Path,
    runs: Sequence[RunSpec],
    blocks: int,
    *,
    settings: Settings | None = None,
    gold_format: str | None = None,
    run_format: str | None = None,
    version: str | None = None,
) -> tuple[MergedReport, pl.DataFrame]:
    """report.json and the per-question rows of every question, measured block by block."""
    settings = settings or Settings()
    gold_set = load_gold(gold, gold_format)
    specs = [
        (None, spec) if isinstance(spec, Path) else parse_run_spec(spec) if isinstance(spec, str)
        else spec
        for spec in runs
    ]  # fmt: skip
    shards = []
    shared: dict[str, bool] = {}
    for number, block in enumerate(track(question_ranges(gold_set, blocks), "Measuring blocks")):
        part = gold_block(gold_set, block)
        loaded = [load_run(path, name, run_format, block=block) for name, path in specs]
        evaluation = evaluate(part, loaded, settings, part=True)
        for result in evaluation.runs:
            returned = result.scores["n_retrieved"].sum() > 0
            shared[result.name] = shared.get(result.name, False) or returned
        # merged as shards of per-question values are: no pages, so no page data
        block_report = assemble(run_analyses(evaluation), pages=False)
        shards.append(Shard(f"block {number}", per_question_rows(evaluation), block_report))
    report, rows = merge_shards(shards, version=version, created=created_at())
    for run in loaded:
        if not shared[run.name]:
            raise InputError(
                run.source,
                f"run {run.name!r} shares no question with the gold set ({gold_set.source})",
                "check that both use the same question ids (e.g. q001 vs 1)",
            )
    report["gold"]["source"] = gold_set.source
    return report, rows


def write_in_blocks(
    gold: str | Path,
    runs: Sequence[RunSpec],
    out_dir: str | Path,
    blocks: int,
    *,
    settings: Settings | None = None,
    per_question_format: str = "parquet",
) -> list[Path]:
    """:func:`measure_in_blocks`, its report.json and per-question file written to ``out_dir``."""
    report, rows = measure_in_blocks(gold, runs, blocks, settings=settings)
    files = {
        "report.json": report_json(report).encode(),
        f"per_question.{per_question_format}": per_question_bytes(rows, per_question_format),
    }
    return write_files(Path(out_dir), files, record="replace")
