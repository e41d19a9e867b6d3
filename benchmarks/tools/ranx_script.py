"""What a ranx user writes: load qrels and run, evaluate every measure, write means.

Usage: python ranx_script.py QRELS KS OUT.json RUN [RUN...]
"""

from __future__ import annotations

import json
import sys

from ranx import Qrels, Run, evaluate


def main() -> None:
    qrels_path, ks, out, *run_paths = sys.argv[1:]
    cutoffs = [int(k) for k in ks.split(",")]
    metrics = [
        f"{name}@{k}"
        for name in ("hit_rate", "recall", "precision", "mrr", "ndcg", "map")
        for k in cutoffs
    ] + ["mrr", "map", "r-precision"]
    qrels = Qrels.from_file(qrels_path, kind="trec")
    means = {}
    for run_path in run_paths:
        run = Run.from_file(run_path, kind="trec")
        scores = evaluate(qrels, run, metrics, make_comparable=True)
        means[run_path] = {name: float(value) for name, value in scores.items()}
    with open(out, "w") as handle:
        json.dump(means, handle, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
