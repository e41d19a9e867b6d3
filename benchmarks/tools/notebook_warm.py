"""Warm, in one process: reportgen.evaluate on a Polars DataFrame against ranx's evaluate.

Usage: python notebook_warm.py QRELS RUN REPEAT [--profile]

What a notebook does: the run is already a DataFrame (reportgen) or a built Qrels/Run
(ranx: building them from the files is not timed), the first call has warmed every
cache (ranx's numba kernels, Polars' thread pool), and the same measures are asked
for: hit@5, recall@5, precision@5, MRR@5, nDCG@10, AP@100. Prints JSON: each tool's
call times in seconds and the largest difference between their means.
"""

from __future__ import annotations

import json
import sys
import time
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


def timed(call: object, repeat: int) -> tuple[list[float], object]:
    times, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = call()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return times, value


def main() -> None:
    qrels_path, run_path, repeat = Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3])
    import reportgen

    gold = trec_frame(qrels_path, ["qid", "iter", "docid", "grade"]).drop("iter")
    run = trec_frame(run_path, ["qid", "q0", "docid", "rank", "score", "tag"])
    run = run.select("qid", "docid", "score")

    def ours() -> dict[str, float]:
        row = reportgen.evaluate(gold, run, k=[5, 10, 100], context_k=5).means.row(0, named=True)
        return {key: row[key] for key in MEASURES.values()}

    if "--profile" in sys.argv:
        from pyinstrument import Profiler

        ours()
        with Profiler(interval=0.001) as profiler:
            ours()
        print(profiler.output_text(unicode=False, color=False), file=sys.stderr)
    ours()  # the first call: imports and caches
    our_times, our_means = timed(ours, repeat)

    from ranx import Qrels, Run, evaluate

    qrels = Qrels.from_file(str(qrels_path), kind="trec")
    ranx_run = Run.from_file(str(run_path), kind="trec")
    evaluate(qrels, ranx_run, list(MEASURES))  # compiles (or loads) numba's kernels
    ranx_times, their_means = timed(lambda: evaluate(qrels, ranx_run, list(MEASURES)), repeat)
    assert isinstance(our_means, dict) and isinstance(their_means, dict)
    diff = max(abs(our_means[key] - float(their_means[name])) for name, key in MEASURES.items())
    print(json.dumps({"reportgen": our_times, "ranx": ranx_times, "max_abs_diff": diff}))


if __name__ == "__main__":
    main()
