"""Time each stage of scoring evidence spans against a chunk map, in one process.

    python benchmarks/generate_spans.py WORK 10000 1000000 100
    python benchmarks/tools/span_stages.py WORK

WORK holds gold.jsonl, chunks.parquet and run.parquet; prints one line per stage.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import polars as pl

from reportgen.load import load_gold, load_run
from reportgen.load.evidence.chunks import load_chunk_map
from reportgen.load.evidence.spans import locate
from reportgen.measure.chunked import chunk_lengths
from reportgen.measure.spans import derived_judgments, overlaps, span_scores

Result = TypeVar("Result")


def timed(stage: str, work: Callable[[], Result]) -> Result:
    start = time.perf_counter()
    result = work()
    print(f"{stage}: {time.perf_counter() - start:.2f} s")
    return result


def main(folder: Path) -> None:
    chunk_map = timed(
        "read and validate the chunk map", lambda: load_chunk_map(folder / "chunks.parquet")
    )
    gold = timed("read the gold set", lambda: load_gold(folder / "gold.jsonl"))
    ends = dict(chunk_map.chunks.group_by("doc").agg(pl.col("end").max()).iter_rows())
    located = timed("locate the evidence", lambda: locate(gold, None, ends, {}))
    pieces = timed("evidence-to-chunk overlap", lambda: overlaps(located.spans, chunk_map.chunks))
    print(f"  {located.spans.height:,} merged ranges, {pieces.height:,} pairs")
    timed("derived judgments", lambda: derived_judgments(pieces, 0.5))
    run = timed("read the run", lambda: load_run(folder / "run.parquet", name="run"))
    ranked = run.results.select("qid", "chunk_id", "rank")
    lengths = chunk_lengths(chunk_map)
    timed(
        "span measures", lambda: span_scores(located.spans, pieces, ranked, lengths, (1, 3, 5, 10))
    )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
