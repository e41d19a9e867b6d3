"""One random data set, drawn once from a seed, that every way in must express alike.

The data set is the truth; the writers (:mod:`tests.joins.writers`) only spell it. Each
run's ranked list is kept in the order trec_eval would read its TREC file (score
descending, ties by chunk id descending), so that a format that ranks by list order or
by rank gets the very same list. A repeated chunk is appended at the end of a list,
below every score: it is counted as a repeat, and where it takes a rank or none moves
no number (``draw(seed, inside=True)`` places repeats by their own score, for
test_repeats.py; test_hops.py crafts hops that find a chunk again).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

KINDS = ("how-to", "table", "version")
RUNS = ("bm25", "dense", "hybrid")
JUDGED_RUN = "dense"
"""The run the verdicts judge: the second, so that a path taking the first is caught."""
CHUNK_CHARS = 40
DOCS = ("faq.md", "guide.md", "notes.md")


@dataclass(frozen=True)
class Question:
    qid: str
    text: str
    kind: str
    gold: dict[str, int]
    """Chunk id -> grade (0 is judged, not relevant); empty for an unanswerable question."""
    evidence: tuple[tuple[str, int, int], ...] = ()
    """(doc, start, end) ranges that answer it, beside its chunk ids (chunk map tests)."""

    @property
    def unanswerable(self) -> bool:
        return not self.gold


@dataclass(frozen=True)
class Verdict:
    qid: str
    correct: bool | None
    abstained: bool


@dataclass(frozen=True)
class DataSet:
    seed: int
    questions: tuple[Question, ...]
    runs: dict[str, dict[str, list[tuple[str, float]]]]
    """Run -> question -> ranked (chunk, score), a repeat at the end of some lists; runs
    name two questions the gold set lacks (x-...)."""
    verdicts: tuple[Verdict, ...]
    """For JUDGED_RUN; one names a question the gold set lacks."""
    chunk_map: dict[str, tuple[str, int, int]]
    """Chunk id -> (doc, start, end): consecutive ranges of CHUNK_CHARS characters."""
    docs: dict[str, str]

    @property
    def qids(self) -> list[str]:
        return [q.qid for q in self.questions]

    def ranked(self, run: str, qid: str) -> list[tuple[str, float]]:
        return self.runs[run].get(qid, [])

    def without_repeats(self) -> DataSet:
        """The same lists, each chunk once at its first position (a repeat takes no rank)."""
        runs = {
            name: {qid: _first_of_each(ranked) for qid, ranked in lists.items()}
            for name, lists in self.runs.items()
        }
        return replace(self, runs=runs)


def _first_of_each(ranked: list[tuple[str, float]]) -> list[tuple[str, float]]:
    kept: dict[str, float] = {}
    for chunk, score in ranked:
        kept.setdefault(chunk, score)
    return list(kept.items())


def draw(seed: int, questions: int = 40, inside: bool = False) -> DataSet:
    """Questions with kinds, grades 0-2 and unanswerable ones; three runs with tied scores,
    repeats, missing and extra questions; verdicts (some unknown, some abstained) for the
    second run; a chunk map over three documents and evidence for some questions.
    ``inside``: a repeat takes its place in the list by its own score, not at the end."""
    rng = random.Random(seed)
    pool = [f"c{i:02d}" for i in range(60)]
    chunk_map = {
        chunk: (
            DOCS[i % len(DOCS)],
            (i // len(DOCS)) * CHUNK_CHARS,
            (i // len(DOCS) + 1) * CHUNK_CHARS,
        )
        for i, chunk in enumerate(pool)
    }
    length = (len(pool) // len(DOCS) + 1) * CHUNK_CHARS
    docs = {doc: "".join(rng.choice("abcdefgh ") for _ in range(length)) for doc in DOCS}
    drawn = []
    for n in rng.sample(range(1000), questions):
        qid = f"q{n:03d}"
        gold: dict[str, int] = {}
        if rng.random() > 0.15:
            gold = {
                chunk: rng.choice([0, 1, 1, 2, 2]) for chunk in rng.sample(pool, rng.randint(1, 4))
            }
            if not any(gold.values()):
                gold[next(iter(gold))] = 1
        evidence: tuple[tuple[str, int, int], ...] = ()
        if gold and rng.random() < 0.3:
            doc, start, end = chunk_map[rng.choice(pool)]
            evidence = ((doc, start + 2, end - 2),)  # most of one chunk: derived relevant
        text = f"What does question {qid} ask about {rng.choice(['refunds', 'cables', 'plans'])}?"
        drawn.append(Question(qid, text, rng.choice(KINDS), gold, evidence))
    runs = {name: _run(rng, drawn, pool, inside) for name in RUNS}
    verdicts = tuple(
        Verdict(qid, rng.choice([True, True, False, None]), rng.random() < 0.15)
        for qid in [*(q.qid for q in drawn), "x-unknown"]
        if rng.random() < 0.9
    )
    return DataSet(seed, tuple(drawn), runs, verdicts, chunk_map, docs)


def _run(
    rng: random.Random, questions: list[Question], pool: list[str], inside: bool
) -> dict[str, list[tuple[str, float]]]:
    lists: dict[str, list[tuple[str, float]]] = {}
    for qid, gold in [*((q.qid, q.gold) for q in questions), ("x-1", {}), ("x-2", {})]:
        if rng.random() < 0.12:
            continue  # this run misses the question
        found = [chunk for chunk in gold if rng.random() < 0.55]
        others = rng.sample([c for c in pool if c not in gold], rng.randint(1, 10))
        chunks = [*found, *others]
        rng.shuffle(chunks)
        scored = [(chunk, rng.randint(2, 10) / 10) for chunk in chunks]  # one decimal: ties
        repeat = rng.random() < (0.5 if inside else 0.2)
        if repeat and inside:
            scored.append((rng.choice(chunks), rng.randint(2, 10) / 10))
        ranked = sorted(scored, key=lambda pair: (pair[1], pair[0]), reverse=True)
        if repeat and not inside:
            ranked.append((ranked[0][0], 0.1))  # a repeat, below every other score
        lists[qid] = ranked
    return lists
