"""What a pytrec_eval user writes: read qrels and run into dicts, evaluate, write means.

Usage: python pytrec_eval_script.py QRELS KS OUT.json RUN [RUN...]
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict

import pytrec_eval


def read_qrels(path: str) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = defaultdict(dict)
    with open(path) as handle:
        for line in handle:
            qid, _, docid, grade = line.split()
            qrels[qid][docid] = int(grade)
    return qrels


def read_run(path: str) -> dict[str, dict[str, float]]:
    run: dict[str, dict[str, float]] = defaultdict(dict)
    with open(path) as handle:
        for line in handle:
            qid, _, docid, _, score, _ = line.split()
            run[qid][docid] = float(score)
    return run


def main() -> None:
    qrels_path, ks, out, *run_paths = sys.argv[1:]
    cut = ",".join(ks.split(","))
    measures = {
        f"success.{cut}",
        f"recall.{cut}",
        f"P.{cut}",
        f"ndcg_cut.{cut}",
        f"map_cut.{cut}",
        "recip_rank",
        "map",
        "Rprec",
    }
    evaluator = pytrec_eval.RelevanceEvaluator(read_qrels(qrels_path), measures)
    means = {}
    for run_path in run_paths:
        per_query = evaluator.evaluate(read_run(run_path))
        names = next(iter(per_query.values())).keys()
        means[run_path] = {
            name: pytrec_eval.compute_aggregated_measure(
                name, [q[name] for q in per_query.values()]
            )
            for name in names
        }
    with open(out, "w") as handle:
        json.dump(means, handle, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
