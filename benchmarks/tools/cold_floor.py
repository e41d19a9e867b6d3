"""The floor of the `cold` figure (issue #28): the least a Polars program can do for it.

Usage: python cold_floor.py QRELS KS OUT.json RUN

Reads the qrels and the TREC run with Polars' CSV reader and computes the means
pytrec_eval_script.py computes (success, recall, P, ndcg_cut, map_cut at KS; recip_rank,
map, Rprec), trec_eval's way (score descending, ties by document id descending), in one
lazy plan, and writes them in that script's layout so that the benchmark checks they
agree. Nothing else: no check of the files (it trusts them to be clean, as these are),
no per-question file, no report. What this takes against pytrec_eval is the lowest
ratio the `cold` figure can reach with Python and Polars on the machine that runs it.
"""

from __future__ import annotations

import json
import sys

import polars as pl


def means(qrels_path: str, run_path: str, ks: list[int]) -> dict[str, float]:
    read = {"separator": " ", "has_header": False, "quote_char": None}
    qrels = pl.scan_csv(qrels_path, **read, new_columns=["qid", "_", "doc", "grade"])
    relevant = qrels.select("qid", "doc", "grade").filter(pl.col("grade") >= 1)
    run = (
        pl.scan_csv(run_path, **read, new_columns=["qid", "_q", "doc", "_r", "score", "_t"])
        .select("qid", "doc", "score")
        .sort("qid", "score", "doc", descending=[False, True, True])
        .with_columns(rank=pl.int_range(1, pl.len() + 1).over("qid"))
    )
    counts = relevant.group_by("qid").agg(n=pl.len())
    ideal = relevant.sort("qid", "grade", descending=[False, True]).with_columns(
        at=pl.int_range(1, pl.len() + 1).over("qid")
    )
    ideal_gain = pl.col("grade") / (pl.col("at") + 1).log(2)
    ideals = ideal.group_by("qid").agg(
        [ideal_gain.filter(pl.col("at") <= k).sum().alias(f"idcg{k}") for k in ks]
    )
    rank = pl.col("rank")
    gain = pl.col("grade") / (rank + 1).log(2)
    precision_at_hit = pl.int_range(1, pl.len() + 1) / rank
    per_hit = []
    for k in ks:
        top = rank <= k
        per_hit += [
            rank.filter(top).len().alias(f"hits{k}"),
            gain.filter(top).sum().alias(f"dcg{k}"),
            precision_at_hit.filter(top).sum().alias(f"ap{k}"),
        ]
    hits = (
        run.join(relevant, on=["qid", "doc"], how="inner")
        .join(counts, on="qid")
        .sort("qid", "rank")
        .group_by("qid")
        .agg(
            *per_hit,
            (1 / rank.min()).alias("recip_rank"),
            precision_at_hit.sum().alias("ap"),
            (rank <= pl.col("n")).sum().alias("rhits"),
        )
    )
    asked = run.select("qid").unique()
    n = pl.col("n")
    measures = [
        (pl.col("ap") / n).alias("map"),
        (pl.col("rhits") / n).alias("Rprec"),
        pl.col("recip_rank"),
    ]
    for k in ks:
        measures += [
            (pl.col(f"hits{k}") > 0).cast(pl.Float64).alias(f"success_{k}"),
            (pl.col(f"hits{k}") / n).alias(f"recall_{k}"),
            (pl.col(f"hits{k}") / k).alias(f"P_{k}"),
            (pl.col(f"dcg{k}") / pl.col(f"idcg{k}")).alias(f"ndcg_cut_{k}"),
            (pl.col(f"ap{k}") / n).alias(f"map_cut_{k}"),
        ]
    per_question = (
        counts.join(asked, on="qid", how="semi")
        .join(ideals, on="qid", how="left")
        .join(hits, on="qid", how="left")
        .fill_null(0)
        .select(measures)
    )
    return per_question.mean().collect().row(0, named=True)


def main() -> None:
    qrels_path, ks, out, run_path = sys.argv[1:]
    found = means(qrels_path, run_path, [int(k) for k in ks.split(",")])
    with open(out, "w") as handle:
        json.dump({run_path: found}, handle, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
