"""Seeded synthetic TREC inputs for the benchmark: graded qrels and runs of any size.

The same seed gives the same bytes. Each question's run lists ``depth`` distinct
chunk ids, scores strictly decreasing with rank and distinct even as 32-bit floats
(pytrec_eval stores scores as float32), so every tool ranks identically and the
means can be compared across tools. About half of each question's judged chunks
fall inside its list, at random ranks; grades run 0-3 as in TREC Deep Learning.
With ``gold=N`` every question has exactly N judged chunks instead, all relevant
(grades 1-3): the set-ups of issue #28 (12 graded gold each; 5 relevant each).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

SEED = 20261129


@dataclass(frozen=True)
class Inputs:
    qrels: Path
    runs: tuple[Path, ...]


def _qids(questions: int) -> pl.Series:
    return pl.Series("qid", [f"q{i:06d}" for i in range(questions)])


def _bases(questions: int, depth: int, rng: np.random.Generator) -> np.ndarray:
    """Each question's ids are ``base + 0 .. base + 2 * depth - 1``: unique in a list."""
    return rng.integers(0, 9_000_000, size=questions, dtype=np.int64)


def write_qrels(path: Path, questions: int, depth: int, seed: int = SEED) -> None:
    rng = np.random.default_rng(seed)
    bases = _bases(questions, depth, rng)
    per_question = 1 + rng.poisson(7, size=questions)
    owner = np.repeat(np.arange(questions), per_question)
    offsets = rng.integers(0, 2 * depth, size=owner.size)
    grades = rng.choice(4, size=owner.size, p=[0.35, 0.3, 0.23, 0.12])
    frame = (
        pl.DataFrame(
            {
                "qid": _qids(questions).gather(owner),
                "iter": "0",
                "docid": bases[owner] + offsets,
                "grade": grades,
            }
        )
        .unique(["qid", "docid"], keep="first", maintain_order=True)
        .with_columns(pl.format("d{}", pl.col("docid").cast(pl.String).str.zfill(8)).alias("docid"))
    )
    frame.write_csv(path, separator=" ", include_header=False)


def write_gold(path: Path, questions: int, depth: int, gold: int, seed: int = SEED) -> None:
    """Exactly ``gold`` distinct relevant chunks per question, grades 1-3, half in the list."""
    rng = np.random.default_rng(seed)
    bases = _bases(questions, depth, rng)
    picker = np.random.default_rng([seed, 0])
    offsets = picker.permuted(np.tile(np.arange(2 * depth), (questions, 1)), axis=1)[:, :gold]
    grades = picker.choice([1, 2, 3], size=questions * gold, p=[0.45, 0.35, 0.2])
    frame = pl.DataFrame(
        {
            "qid": _qids(questions).gather(np.repeat(np.arange(questions), gold)),
            "iter": "0",
            "docid": (bases[:, None] + offsets).ravel(),
            "grade": grades,
        }
    ).with_columns(pl.format("d{}", pl.col("docid").cast(pl.String).str.zfill(8)).alias("docid"))
    frame.write_csv(path, separator=" ", include_header=False)


def run_frame(questions: int, depth: int, seed: int = SEED, variant: int = 0) -> pl.DataFrame:
    """Long rows qid, docid, rank, score; ``variant`` gives another method's ranking."""
    rng = np.random.default_rng(seed)
    bases = _bases(questions, depth, rng)
    shuffler = np.random.default_rng([seed, variant + 1])
    picks = shuffler.permuted(np.tile(np.arange(2 * depth), (questions, 1)), axis=1)[:, :depth]
    ranks = np.tile(np.arange(1, depth + 1), questions)
    return pl.DataFrame(
        {
            "qid": _qids(questions).gather(np.repeat(np.arange(questions), depth)),
            "docid": (bases[:, None] + picks).ravel(),
            "rank": ranks,
            "score": (depth - ranks + 1) / 64.0,
        }
    ).with_columns(pl.format("d{}", pl.col("docid").cast(pl.String).str.zfill(8)).alias("docid"))


def write_trec(frame: pl.DataFrame, path: Path) -> None:
    frame.select(
        "qid",
        pl.lit("Q0").alias("q0"),
        "docid",
        "rank",
        pl.col("score").round(6),
        pl.lit("bench").alias("tag"),
    ).write_csv(path, separator=" ", include_header=False)


def generate(
    folder: Path,
    questions: int,
    depth: int,
    *,
    runs: int = 1,
    parquet: bool = False,
    seed: int = SEED,
    gold: int | None = None,
) -> Inputs:
    """Write qrels and ``runs`` TREC runs (and Parquet copies) unless already there."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{questions}x{depth}"
    qrels = folder / f"qrels-{questions}-{depth}{'' if gold is None else f'-gold{gold}'}.txt"
    if not qrels.exists():
        if gold is None:
            write_qrels(qrels, questions, depth, seed)
        else:
            write_gold(qrels, questions, depth, gold, seed)
    paths: list[Path] = []
    for variant in range(runs):
        trec = folder / f"run-{stem}-{variant}.trec"
        pq = trec.with_suffix(".parquet")
        if not trec.exists() or (parquet and not pq.exists()):
            frame = run_frame(questions, depth, seed, variant)
            write_trec(frame, trec)
            if parquet:
                frame.write_parquet(pq)
        paths.append(trec)
        if parquet:
            paths.append(pq)
    return Inputs(qrels, tuple(paths))


@dataclass(frozen=True)
class PoolInputs:
    qrels: Path
    run: Path
    gold_parquet: Path
    run_parquet: Path


def pool_inputs(
    folder: Path, questions: int, depth: int, pool: int, relevant: int, graded: bool = False
) -> PoolInputs:
    """The held-out checks' shape: ids like ``q17`` and ``d45`` (questions written in
    numeric order, which is not the ids' sort order), every question's chunks drawn from
    one pool of ``pool`` ids that all questions share, ``relevant`` of them judged
    relevant (grade 1, or 1-3 when ``graded``), random scores. The TREC run lists each
    question best first; the Parquet run (what a notebook holds) keeps the drawn order."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{questions}x{depth}-pool{pool}-rel{relevant}{'-graded' if graded else ''}"
    made = PoolInputs(
        folder / f"qrels-{stem}.txt",
        folder / f"run-{stem}.trec",
        folder / f"gold-{stem}.parquet",
        folder / f"run-{stem}.parquet",
    )
    if all(path.exists() for path in (made.qrels, made.run, made.gold_parquet, made.run_parquet)):
        return made
    rng = np.random.default_rng([SEED, pool, relevant])
    drawn = rng.permuted(np.tile(np.arange(pool), (questions, 1)), axis=1)
    qid = pl.format("q{}", pl.col("q"))
    run = pl.DataFrame(
        {
            "q": np.repeat(np.arange(questions), depth),
            "d": drawn[:, :depth].ravel(),
            # a shuffled rank plus jitter under half a step: distinct within a question
            # even as 32-bit floats (pytrec_eval's scores), in random order
            "score": np.round(
                (
                    rng.permuted(np.tile(np.arange(depth), (questions, 1)), axis=1).ravel()
                    + 0.5 * rng.random(questions * depth)
                    + 1
                )
                / (depth + 1),
                6,
            ),
        }
    ).select(qid.alias("qid"), pl.format("d{}", "d").alias("chunk_id"), "score")
    run.write_parquet(made.run_parquet)
    ranked = run.with_row_index("_order").sort(
        pl.col("_order") // depth, "score", "chunk_id", descending=[False, True, True]
    )
    ranked.select(
        "qid",
        pl.lit("Q0").alias("q0"),
        "chunk_id",
        pl.int_range(1, pl.len() + 1).over(pl.col("_order") // depth).alias("rank"),
        "score",
        pl.lit("pool").alias("tag"),
    ).write_csv(made.run, separator=" ", include_header=False)
    relevant_ids = rng.permuted(drawn, axis=1)[:, :relevant]
    grades = rng.choice([1, 2, 3], size=questions * relevant) if graded else 1
    gold = pl.DataFrame(
        {"q": np.repeat(np.arange(questions), relevant), "d": relevant_ids.ravel()}
    ).select(
        qid.alias("qid"), pl.format("d{}", "d").alias("chunk_id"), pl.lit(grades).alias("grade")
    )
    gold.write_parquet(made.gold_parquet)
    gold.select("qid", pl.lit("0").alias("iter"), "chunk_id", "grade").write_csv(
        made.qrels, separator=" ", include_header=False
    )
    return made


def main() -> None:
    """``python generate.py FOLDER QUESTIONS DEPTH [RUNS] [--parquet] [--gold=N]``: prints
    the paths."""
    args = [a for a in sys.argv[1:] if a != "--parquet" and not a.startswith("--gold=")]
    golds = [int(a.removeprefix("--gold=")) for a in sys.argv[1:] if a.startswith("--gold=")]
    folder, questions, depth, *runs = args
    inputs = generate(
        Path(folder),
        int(questions),
        int(depth),
        runs=int(runs[0]) if runs else 1,
        parquet="--parquet" in sys.argv,
        gold=golds[-1] if golds else None,
    )
    print(json.dumps({"qrels": str(inputs.qrels), "runs": [str(p) for p in inputs.runs]}))


if __name__ == "__main__":
    main()
