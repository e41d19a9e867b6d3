"""The bundled help-centre example: reproducible, well-formed, and telling the story
its README promises. Reads the files with its own small parsers, on purpose: the
example must stay valid whatever reportgen's loaders do."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "reportgen" / "examples" / "helpcentre"
GENERATOR = ROOT / "scripts" / "make_example.py"
FIELDS = {"id", "question", "kind", "gold", "unanswerable", "index_version"}
KINDS = {
    "plain": 19,
    "version": 7,
    "table": 7,
    "exact-code": 9,
    "contradiction": 5,
    "staff-only": 5,
    "outside-kb": 8,
}
CHUNK_ID = re.compile(r"^kb-[a-z0-9-]+-\d{4}$")
DEPTH, K = 20, 5


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def gold() -> dict[str, dict]:
    return {record["id"]: record for record in read_jsonl(EXAMPLE / "gold.jsonl")[1:]}


@pytest.fixture(scope="module")
def runs() -> dict[str, dict[str, list[tuple[str, float]]]]:
    """Every run as {question: [(chunk, score), ...]} in the order the model sees."""
    keyword: dict[str, list[tuple[int, str, float]]] = {}
    for line in (EXAMPLE / "runs" / "keyword.trec").read_text().splitlines():
        qid, q0, chunk, rank, score, _tag = line.split()
        assert q0 == "Q0"
        keyword.setdefault(qid, []).append((int(rank), chunk, float(score)))
    hybrid: dict[str, list[tuple[int, str, float]]] = {}
    with (EXAMPLE / "runs" / "hybrid.csv").open(newline="") as f:
        for row in csv.DictReader(f):
            hybrid.setdefault(row["id"], []).append(
                (int(row["rank"]), row["chunk_id"], float(row["score"]))
            )
    dense = read_jsonl(EXAMPLE / "runs" / "dense.jsonl")
    rerank = read_jsonl(EXAMPLE / "runs" / "rerank.jsonl")
    return {
        "keyword": {q: [(c, s) for _, c, s in sorted(rows)] for q, rows in keyword.items()},
        "dense": {r["id"]: list(zip(r["chunks"], r["scores"], strict=True)) for r in dense},
        "hybrid": {q: [(c, s) for _, c, s in sorted(rows)] for q, rows in hybrid.items()},
        "rerank": {r["id"]: [(x["chunk_id"], x["score"]) for x in r["results"]] for r in rerank},
    }


def manifest() -> list[str]:
    return (EXAMPLE / "manifest.txt").read_text().splitlines()


def test_generator_reproduces_the_committed_files(tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(GENERATOR), "--out", str(tmp_path)], check=True)
    committed = sorted(p.relative_to(EXAMPLE) for p in EXAMPLE.rglob("*") if p.is_file())
    fresh = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert fresh == committed
    for name in committed:
        assert (tmp_path / name).read_bytes() == (EXAMPLE / name).read_bytes(), name


def test_gold_has_the_documented_fields(gold: dict[str, dict]) -> None:
    lines = (EXAMPLE / "gold.jsonl").read_text(encoding="utf-8").splitlines()
    meta = {"version": "2026.11-gold.3", "index_version": "kb-2026-11-02"}
    assert json.loads(lines[0]) == {"_meta": meta}
    assert list(gold) == [f"q{n:03d}" for n in range(1, len(lines))]
    for record in gold.values():
        assert set(record) - {"evidence"} == FIELDS
        assert record["index_version"] == "kb-2026-11-02"
        assert record["question"].strip()
        assert record["unanswerable"] is (record["kind"] == "outside-kb")
        chunks = record["gold"]
        assert (len(chunks) == 0) is record["unanswerable"]
        if isinstance(chunks, dict):
            assert set(chunks.values()) <= {1, 2}
        assert all(CHUNK_ID.match(c) for c in chunks)
        # evidence: a quote of each gold chunk's answer, in that chunk's document
        if "evidence" in record:
            assert [item["doc"] for item in record["evidence"]] == [f"{c[3:-5]}.md" for c in chunks]


def test_gold_counts(gold: dict[str, dict]) -> None:
    assert Counter(r["kind"] for r in gold.values()) == KINDS
    sizes = Counter(len(r["gold"]) for r in gold.values())
    assert sizes[2] + sizes[3] >= 15 and sizes[3] >= 3
    assert sum(isinstance(r["gold"], dict) for r in gold.values()) >= 5
    docs = {c[3:-5] for c in manifest()[1:]}
    assert 35 <= len(docs) <= 45


def test_manifest_misses_exactly_two_gold_ids(gold: dict[str, dict]) -> None:
    lines = manifest()
    assert lines[0] == "# index_version: kb-2026-11-02"
    index = set(lines[1:])
    assert len(index) == len(lines) - 1 and all(CHUNK_ID.match(c) for c in index)
    gold_ids = {c for r in gold.values() for c in r["gold"]}
    assert len(gold_ids - index) == 2


def test_runs_cover_the_documented_questions(gold: dict[str, dict], runs: dict) -> None:
    assert set(runs["keyword"]) == set(gold) | {"q999"}
    missing = set(gold) - set(runs["dense"])
    assert len(missing) == 1 and not gold[missing.pop()]["unanswerable"]
    assert set(runs["dense"]) < set(gold)
    assert set(runs["hybrid"]) == set(gold) == set(runs["rerank"])
    index = set(manifest()[1:])
    for run in runs.values():
        for ranked in run.values():
            assert len(ranked) == DEPTH
            assert {c for c, _ in ranked} <= index


def test_scores_decrease_with_the_documented_exceptions(runs: dict) -> None:
    ties = 0
    for name, run in runs.items():
        for ranked in run.values():
            scores = [s for _, s in ranked]
            ties += sum(a == b for a, b in pairwise(scores))
            assert all(a >= b for a, b in pairwise(scores)), name
            if name != "keyword":
                assert all(a > b for a, b in pairwise(scores)), name
    assert ties == 2
    # The keyword file's rank order is trec_eval's: score descending, ties by id descending.
    for ranked in runs["keyword"].values():
        assert ranked == sorted(ranked, key=lambda cs: (cs[1], cs[0]), reverse=True)
    repeats = sum(DEPTH - len({c for c, _ in r}) for r in runs["hybrid"].values())
    assert repeats == 3
    assert all(
        len({c for c, _ in r}) == DEPTH for n in runs if n != "hybrid" for r in runs[n].values()
    )
    dense = [s for r in runs["dense"].values() for _, s in r]
    assert min(dense) >= 0.2 and max(dense) <= 0.9
    assert all(0 < s < 1 for r in runs["rerank"].values() for _, s in r)


def hit_and_recall(gold: dict[str, dict], run: dict, kind: str | None = None) -> tuple:
    """hit@5 and recall@5 over answerable questions (of one kind), as SPEC.md defines them."""
    hits, recalls = [], []
    for qid, record in gold.items():
        if record["unanswerable"] or kind not in (None, record["kind"]):
            continue
        top = list(dict.fromkeys(c for c, _ in run.get(qid, [])))[:K]
        found = len(set(record["gold"]) & set(top))
        hits.append(found > 0)
        recalls.append(found / len(record["gold"]))
    return sum(hits) / len(hits), sum(recalls) / len(recalls)


def test_quality_profile(gold: dict[str, dict], runs: dict) -> None:
    hit = {name: hit_and_recall(gold, run)[0] for name, run in runs.items()}
    assert hit["keyword"] < hit["dense"] < hit["hybrid"] < hit["rerank"]
    rerank_hit, rerank_recall = hit_and_recall(gold, runs["rerank"])
    assert 0.85 <= rerank_hit <= 0.95 and 0.80 <= rerank_recall <= 0.90
    code = {name: hit_and_recall(gold, run, "exact-code")[0] for name, run in runs.items()}
    plain = {name: hit_and_recall(gold, run, "plain")[0] for name, run in runs.items()}
    assert code["keyword"] > code["dense"] and plain["keyword"] < plain["dense"]


def test_rerank_top_scores_separate_with_a_small_overlap(gold: dict[str, dict], runs: dict):
    top1 = {qid: ranked[0][1] for qid, ranked in runs["rerank"].items()}
    answerable = [top1[q] for q, r in gold.items() if not r["unanswerable"]]
    unanswerable = [top1[q] for q, r in gold.items() if r["unanswerable"]]
    pairs = [a > u for a in answerable for u in unanswerable]
    assert sum(pairs) / len(pairs) > 0.95
    assert min(answerable) < max(unanswerable)


def test_verdicts_tell_the_story(gold: dict[str, dict], runs: dict) -> None:
    verdicts = {v["id"]: v for v in read_jsonl(EXAMPLE / "verdicts.jsonl")}
    assert len(verdicts) == len(gold) - 2 and set(verdicts) < set(gold)
    cells: Counter[tuple[bool, bool]] = Counter()
    for qid, v in verdicts.items():
        assert set(v) == {"id", "run", "correct", "abstained"} and v["run"] == "rerank"
        if gold[qid]["unanswerable"]:
            assert v["correct"] is v["abstained"]
            continue
        top = {c for c, _ in runs["rerank"][qid][:K]}
        cells[bool(top & set(gold[qid]["gold"])), v["correct"]] += 1
    unanswerable = [v for q, v in verdicts.items() if gold[q]["unanswerable"]]
    assert 1 <= sum(not v["abstained"] for v in unanswerable) <= 3
    assert all(cells.values()) and len(cells) == 4
    with_gold = cells[True, True] / (cells[True, True] + cells[True, False])
    assert 0.7 <= with_gold <= 0.86
