"""Seeded inputs for the span benchmark: a chunk map, a gold set of evidence, one run.

    python benchmarks/generate_spans.py DIR QUESTIONS CHUNKS DEPTH

Documents of 50 chunks of 500 characters overlapping by 50 (the common "500/50"
setting); each question has one or two evidence ranges of 40 to 800 characters, so
some fall inside a chunk and some straddle two or three. The run ranks the chunks
holding the evidence among DEPTH - 2 random ones, at a random depth. Prints the paths
as JSON. Same seed, same bytes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import polars as pl

SEED = 20261201
PER_DOC = 50
SIZE, STEP = 500, 450


def main(folder: Path, questions: int, chunks: int, depth: int) -> dict[str, str]:
    rng = np.random.default_rng(SEED)
    folder.mkdir(parents=True, exist_ok=True)
    docs = chunks // PER_DOC
    doc = np.repeat(np.arange(docs), PER_DOC)
    position = np.tile(np.arange(PER_DOC), docs)
    chunk_map = pl.DataFrame(
        {
            "chunk_id": [f"c{i:07d}" for i in range(docs * PER_DOC)],
            "doc": [f"docs/d{d:06d}.md" for d in doc],
            "start": position * STEP,
            "end": position * STEP + SIZE,
        }
    )
    chunk_map.write_parquet(folder / "chunks.parquet")

    evidence_doc = rng.integers(0, docs, questions)
    length = STEP * (PER_DOC - 1) + SIZE
    two = rng.random(questions) < 0.3
    gold = folder / "gold.jsonl"
    starts = rng.integers(0, length - 800, (questions, 2))
    lengths = rng.integers(40, 800, (questions, 2))
    lines = []
    for q in range(questions):
        items = [
            {"doc": f"docs/d{evidence_doc[q]:06d}.md", "start": int(s), "end": int(s + n)}
            for s, n in zip(starts[q][: 1 + two[q]], lengths[q][: 1 + two[q]], strict=True)
        ]
        lines.append(json.dumps({"id": f"q{q:05d}", "evidence": items}))
    gold.write_text("\n".join(lines) + "\n")

    # the chunks that hold the first evidence range, then random ones, shuffled
    first = starts[:, 0] // STEP
    holding = evidence_doc * PER_DOC + np.minimum(first, PER_DOC - 1)
    noise = rng.integers(0, docs * PER_DOC, (questions, depth))
    noise[:, 0] = holding
    order = rng.permuted(np.tile(np.arange(depth), (questions, 1)), axis=1)
    ranked = np.take_along_axis(noise, order, axis=1)
    run = pl.DataFrame(
        {
            "id": np.repeat([f"q{q:05d}" for q in range(questions)], depth),
            "chunk_id": [f"c{i:07d}" for i in ranked.ravel()],
            "rank": np.tile(np.arange(1, depth + 1), questions),
        }
    )
    run.write_parquet(folder / "run.parquet")
    return {
        "gold": str(gold),
        "chunks": str(folder / "chunks.parquet"),
        "run": str(folder / "run.parquet"),
    }


if __name__ == "__main__":
    out = Path(sys.argv[1])
    print(json.dumps(main(out, int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))))
