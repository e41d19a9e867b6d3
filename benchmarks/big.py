"""The 100M-row benchmark (issue #19): one process, bounded memory, and where shards pay.

``python benchmarks/big.py generate DIR [QUESTIONS DEPTH]`` writes, once, graded qrels
and one Parquet run of QUESTIONS x DEPTH rows (default 100,000 x 1,000), cut into
parts of 10,000 questions so that generating it never holds the whole run; the run
is sorted by question, so Parquet's row-group statistics let a reader skip to one
block of questions. Never part of the default test run: it takes minutes and ~3 GB
of disk.
"""

from __future__ import annotations

import json
import resource
import sys
import time
from pathlib import Path

import numpy as np
import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate import SEED, _bases, write_qrels

PART = 10_000


def _part(first: int, bases: np.ndarray, depth: int, seed: int) -> pl.DataFrame:
    """Rows of questions ``first ..``, one per base: ids drawn as generate.run_frame does."""
    questions = bases.size
    rng = np.random.default_rng([seed, first])
    picks = rng.permuted(np.tile(np.arange(2 * depth), (questions, 1)), axis=1)[:, :depth]
    ranks = np.tile(np.arange(1, depth + 1), questions)
    qids = pl.Series("qid", [f"q{i:06d}" for i in range(first, first + questions)])
    return pl.DataFrame(
        {
            "qid": qids.gather(np.repeat(np.arange(questions), depth)),
            "docid": (bases[:, None] + picks).ravel(),
            "rank": ranks,
            "score": (depth - ranks + 1) / 64.0,
        }
    ).with_columns(pl.format("d{}", pl.col("docid").cast(pl.String).str.zfill(8)).alias("docid"))


def generate(folder: Path, questions: int, depth: int, seed: int = SEED) -> tuple[Path, Path]:
    """(qrels, run.parquet), written unless already there."""
    folder.mkdir(parents=True, exist_ok=True)
    qrels = folder / f"qrels-{questions}-{depth}.txt"
    run = folder / f"run-{questions}x{depth}.parquet"
    if not qrels.exists():
        write_qrels(qrels, questions, depth, seed)
    if not run.exists():
        # the qrels' chunk ids start at these bases: the same draw as generate.write_qrels
        bases = _bases(questions, depth, np.random.default_rng(seed))
        parts = []
        for first in range(0, questions, PART):
            part = folder / f".part-{first:07d}.parquet"
            _part(first, bases[first : first + PART], depth, seed).write_parquet(part)
            parts.append(part)
        pl.scan_parquet(parts).sink_parquet(run, row_group_size=1_000_000)
        for part in parts:
            part.unlink()
    return qrels, run


def measure(qrels: Path, run: Path, out: Path, blocks: int) -> dict[str, float]:
    """One process: the run measured in ``blocks`` blocks of questions; time and peak RSS.

    Settings of the 10m scenario: trec_eval's conventions, cutoffs 1, 3, 5, 10, 100.
    """
    from reportgen.measure.scoring import Settings
    from reportgen.scale.blocks import write_in_blocks

    start = time.perf_counter()
    settings = Settings((1, 3, 5, 10, 100), 5, 1, True)
    write_in_blocks(qrels, [f"bench={run}"], out, blocks, settings=settings)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"blocks": blocks, "seconds": round(time.perf_counter() - start, 1), "peak_mb": peak}


def main() -> None:
    """``generate DIR [QUESTIONS DEPTH]`` or ``measure QRELS RUN OUT BLOCKS``."""
    command, *args = sys.argv[1:]
    if command == "generate":
        questions, depth = (int(args[1]), int(args[2])) if len(args) > 1 else (100_000, 1_000)
        qrels, run = generate(Path(args[0]), questions, depth)
        print(qrels, run)
    else:
        qrels, run, out, blocks = args
        print(json.dumps(measure(Path(qrels), Path(run), Path(out), int(blocks))))


if __name__ == "__main__":
    main()
