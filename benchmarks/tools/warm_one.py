"""One tool's warm evaluate, in a process of its own (issues #28 and #44).

Usage: python warm_one.py reportgen|ranx QRELS RUN REPEAT [GOLD.parquet RUN.parquet]

reportgen: the run and the gold set as Polars DataFrames (what a notebook holds): read
from the TREC files, ``reportgen.evaluate(gold, run, k=(5, 10, 100), trec_eval=True)``;
given the Parquet files, read from them and ``reportgen.evaluate(gold, run)`` with the
default arguments. ranx: a built Qrels and Run from the TREC files (building them is not
timed), ``evaluate`` of hit_rate@5, recall@5, precision@5, mrr@5, ndcg@10 and map@100,
numba's kernels compiled. One untimed call first, then REPEAT timed calls on the same
objects. Prints JSON: each call's wall and CPU seconds (the process's, every thread), and
the means (reportgen's default cutoffs have no map@100: that one is left out).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from notebook_warm import MEASURES, trec_frame


def reportgen_call(qrels: Path, run_path: Path) -> Callable[[], dict[str, float]]:
    import reportgen

    gold = trec_frame(qrels, ["qid", "iter", "docid", "grade"]).drop("iter")
    run = trec_frame(run_path, ["qid", "q0", "docid", "rank", "score", "tag"])
    run = run.select("qid", "docid", "score")

    def call() -> dict[str, float]:
        row = reportgen.evaluate(gold, run, k=(5, 10, 100), trec_eval=True).means.row(0, named=True)
        return {name: row[key] for name, key in MEASURES.items()}

    return call


def reportgen_frames_call(gold_path: Path, run_path: Path) -> Callable[[], dict[str, float]]:
    import polars as pl

    import reportgen

    gold, run = pl.read_parquet(gold_path), pl.read_parquet(run_path)

    def call() -> dict[str, float]:
        row = reportgen.evaluate(gold, run).means.row(0, named=True)
        return {name: row[key] for name, key in MEASURES.items() if key in row}

    return call


def ranx_call(qrels_path: Path, run_path: Path) -> Callable[[], dict[str, float]]:
    from ranx import Qrels, Run, evaluate

    qrels = Qrels.from_file(str(qrels_path), kind="trec")
    run = Run.from_file(str(run_path), kind="trec")

    def call() -> dict[str, float]:
        return {name: float(value) for name, value in evaluate(qrels, run, list(MEASURES)).items()}

    return call


def main() -> None:
    tool, qrels, run, repeat = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), int(sys.argv[4])
    frames = [Path(arg) for arg in sys.argv[5:7]]
    if tool == "reportgen" and frames:
        call = reportgen_frames_call(*frames)
    else:
        call = {"reportgen": reportgen_call, "ranx": ranx_call}[tool](qrels, run)
    means = call()  # the first: Polars' thread pool, numba's kernels loaded or compiled
    seconds, cpu = [], []
    for _ in range(repeat):
        start, used = time.perf_counter(), time.process_time()
        means = call()
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "means": means}))


if __name__ == "__main__":
    main()
