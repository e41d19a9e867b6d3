"""A random gold set with a string field (lang), a list field (tags) and a number
field (level), some questions without them, some unanswerable, and two runs."""

from __future__ import annotations

import json
import random
from pathlib import Path

LANGS = ("en", "de", "fr")
TAGS = ("billing", "refunds", "shipping", "account")


def write_slice_data(folder: Path, seed: int = 7, questions: int = 90) -> dict[str, Path]:
    """gold.jsonl, a.jsonl, b.jsonl in ``folder``; b loses the German questions' first
    gold chunk, which a always finds."""
    rng = random.Random(seed)
    gold, runs = [], {"a": [], "b": []}
    for i in range(questions):
        qid = f"q{i:03d}"
        record: dict[str, object] = {"id": qid, "gold": {f"c{i}": 2, f"c{i}x": 1}}
        if i % 4:
            record["lang"] = LANGS[i % 3]
        if i % 7:
            record["tags"] = rng.sample(TAGS, rng.randint(0, 2))
        record["level"] = i % 2 + 1
        if i % 23 == 0:
            record = {"id": qid, "unanswerable": True, "lang": "de"}
        gold.append(record)
        for name, rows in runs.items():
            chunks = [f"c{rng.randint(0, questions + 10)}" for _ in range(8)]
            lost = name == "b" and record.get("lang") == "de"
            german = record.get("lang") == "de"  # run a always finds those: b regresses
            if not lost and (rng.random() < 0.7 or german):
                chunks.insert(0 if german else rng.randint(0, 6), f"c{i}")
            if rng.random() < 0.3:
                chunks.insert(rng.randint(0, 8), f"c{i}x")
            rows.append({"id": qid, "chunks": list(dict.fromkeys(chunks))})
    paths = {"gold": folder / "gold.jsonl"}
    paths["gold"].write_text("".join(json.dumps(g) + "\n" for g in gold))
    for name, rows in runs.items():
        paths[name] = folder / f"{name}.jsonl"
        paths[name].write_text("".join(json.dumps(r) + "\n" for r in rows))
    return paths


def filtered_gold(gold: Path, out: Path, field: str, value: str) -> int:
    """The gold file with only the questions of one slice; how many it keeps."""
    kept = []
    for line in gold.read_text().splitlines():
        record = json.loads(line)
        found = record.get(field)
        values = found if isinstance(found, list) else [] if found is None else [found]
        values = [str(v) for v in values]
        if (value == "(missing)" and not values) or value in values:
            kept.append(line)
    out.write_text("".join(line + "\n" for line in kept))
    return len(kept)
