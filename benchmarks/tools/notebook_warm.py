"""Warm, in one process: reportgen.evaluate on a Polars DataFrame against ranx's evaluate.

Usage: python notebook_warm.py QRELS RUN REPEAT [--profile]

What a notebook does: the run is already a DataFrame (reportgen) or a built Qrels/Run
(ranx: building them from the files is not timed), the first call has warmed every
cache (ranx's numba kernels, Polars' thread pool), and the same measures are asked
for: hit@5, recall@5, precision@5, MRR@5, nDCG@10, AP@100 (trec_eval=True: questions
with nothing relevant count at 0, as ranx counts them). The two alternate, call by call.
Prints JSON: each tool's call times in seconds (wall, and CPU of the whole process:
reportgen's Polars uses both cores, so under load its wall time suffers more than its
CPU time says), and how far their means differ.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

MEASURES = {  # ranx name -> reportgen key
    "hit_rate@5": "hit@5",
    "recall@5": "recall@5",
    "precision@5": "precision@5",
    "mrr@5": "mrr@5",
    "ndcg@10": "ndcg@10",
    "map@100": "ap@100",
}


def trec_frame(path: Path, columns: list[str]) -> pl.DataFrame:
    """A TREC file as the DataFrame a notebook would already hold."""
    schema = dict.fromkeys(columns, pl.String) | {"grade": pl.Int64, "score": pl.Float64}
    schema = {name: schema[name] for name in columns}
    return pl.read_csv(path, separator=" ", has_header=False, schema=schema)


def timed(call: Callable[[], dict[str, float]]) -> tuple[float, float, dict[str, float]]:
    start, cpu = time.perf_counter(), time.process_time()
    value = call()
    return time.perf_counter() - start, time.process_time() - cpu, value


def main() -> None:
    qrels_path, run_path, repeat = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    import reportgen

    gold = trec_frame(qrels_path, ["qid", "iter", "docid", "grade"]).drop("iter")
    run = trec_frame(run_path, ["qid", "q0", "docid", "rank", "score", "tag"])
    run = run.select("qid", "docid", "score")

    def ours() -> dict[str, float]:
        results = reportgen.evaluate(gold, run, k=[5, 10, 100], context_k=5, trec_eval=True)
        row = results.means.row(0, named=True)
        return {key: row[key] for key in MEASURES.values()}

    if "--profile" in sys.argv:
        from pyinstrument import Profiler

        ours()
        with Profiler(interval=0.001) as profiler:
            ours()
        print(profiler.output_text(unicode=False, color=False), file=sys.stderr)
    from ranx import Qrels, Run, evaluate

    qrels = Qrels.from_file(str(qrels_path), kind="trec")
    ranx_run = Run.from_file(str(run_path), kind="trec")

    def theirs() -> dict[str, float]:
        scores = evaluate(qrels, ranx_run, list(MEASURES))
        return {name: float(value) for name, value in scores.items()}

    ours(), theirs()  # first calls: imports, Polars' threads, numba's kernels compiled or loaded
    times: dict[str, list[float]] = {
        "reportgen": [],
        "ranx": [],
        "reportgen_cpu": [],
        "ranx_cpu": [],
    }
    for _ in range(repeat):  # alternating, so that load from elsewhere hits both alike
        seconds, cpu, our_means = timed(ours)
        times["reportgen"].append(seconds)
        times["reportgen_cpu"].append(cpu)
        seconds, cpu, their_means = timed(theirs)
        times["ranx"].append(seconds)
        times["ranx_cpu"].append(cpu)
    diffs = {key: abs(our_means[key] - their_means[name]) for name, key in MEASURES.items()}
    found = times | {"max_abs_diff": max(diffs.values())}
    print(json.dumps(found | {"diffs": diffs}))


if __name__ == "__main__":
    main()
