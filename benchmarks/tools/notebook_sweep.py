"""docs/python-api.md's parameter sweep at scale, timed in one process.

Usage: python notebook_sweep.py QRELS RUN_A RUN_B REPEAT

Two runs of 10,000 questions x 100 as Polars DataFrames, scores normalised per
question, fused with a weight from 0 to 1 in 21 steps, each step evaluated (nDCG@10,
recall@5 and the rest at k = 5, 10). Prints JSON: the seconds of each whole sweep (the
first one, which warms the caches, not counted) and the best weight by nDCG@10.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import polars as pl
from notebook_warm import trec_frame

import reportgen

WEIGHTS = [step / 20 for step in range(21)]


def normalised(run: pl.DataFrame) -> pl.DataFrame:
    low, high = pl.col("score").min().over("qid"), pl.col("score").max().over("qid")
    score = ((pl.col("score") - low) / (high - low)).fill_nan(1.0)
    return run.select("qid", "docid", score=score)


def sweep(gold: pl.DataFrame, both: pl.DataFrame) -> pl.DataFrame:
    steps = []
    for weight in WEIGHTS:
        mixed = weight * pl.col("score") + (1 - weight) * pl.col("score_b")
        fused = both.select("qid", "docid", score=mixed)
        means = reportgen.evaluate(gold, fused, k=[5, 10]).means
        steps.append(means.with_columns(weight=pl.lit(weight)))
    return pl.concat(steps)


def main() -> None:
    qrels, first, second = (Path(arg) for arg in sys.argv[1:4])
    repeat = int(sys.argv[4])
    gold = trec_frame(qrels, ["qid", "iter", "docid", "grade"]).drop("iter")
    runs = [
        trec_frame(path, ["qid", "q0", "docid", "rank", "score", "tag"]) for path in (first, second)
    ]
    both = (
        normalised(runs[0])
        .join(normalised(runs[1]), on=["qid", "docid"], how="full", coalesce=True, suffix="_b")
        .fill_null(0.0)
    )
    sweep(gold, both)  # warms the caches
    seconds, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = sweep(gold, both)
        seconds.append(time.perf_counter() - start)
    assert result is not None
    best = result.sort("ndcg@10", "weight", descending=[True, False]).row(0, named=True)
    print(json.dumps({"seconds": seconds, "best": f"{best['weight']:.2f}"}))


if __name__ == "__main__":
    main()
