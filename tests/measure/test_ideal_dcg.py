"""judge's per-question half, against a plain rebuild of it: n_relevant per question and
per judgment, and ideal DCGs equal to the last bit.

Ideal DCGs are read off per-question counts of each grade, never by sorting every
judgment; their floats must add up as the sort and group_by that came before added
them, or report.json changes in the last digit. That is Kahan's compensated sum of the
first k gains in rank order, except at a cutoff that no question's list reaches past:
there Polars summed each question's gains as a slice, what ``Series.sum`` gives. The
sort and group_by are still how gold sets of many distinct grades are judged, and are
held to the same rebuild here.
"""

from __future__ import annotations

import math
import random

import polars as pl
import pytest

from reportgen.core.model import JUDGMENTS_SCHEMA, QUESTIONS_SCHEMA, UNLABELLED_KIND, GoldSet
from reportgen.measure.measures import MAX_GRADES, judge

CUTOFFS = [(1, 3, 5, 10), (5, 10, 100), (1,), (3, 1000), (2, 7, 64, 128, 129, 200), (4, 300)]
GRADES = {
    "binary": [1],
    "zeros": [0, 1],
    "graded": [0, 1, 2, 3],
    "odd": [-1, 0, 1, 2, 3, 7, 100],
    "huge": [5, 2**40],
    "many": list(range(MAX_GRADES + 5)),
}


def _kahan(terms: list[float]) -> float:
    total = lost = 0.0
    for term in terms:
        step = term - lost
        added = total + step
        lost = (added - total) - step
        total = added
    return total


def _gold(seed: int, grades: list[int], shuffled: bool, longest: int) -> GoldSet:
    rng = random.Random(seed)
    qids = sorted({f"q{rng.randrange(10**6)}" for _ in range(150)})
    rows = []
    for qid in qids:
        # none at all, fewer than, as many as and more than the cutoffs; ties in grade
        size = rng.choice([0, 0, 1, 2, 3, 5, 10, 11, 127, 128, 129, rng.randint(0, longest)])
        for chunk in rng.sample(range(2000), min(size, longest)):
            rows.append((qid, f"d{chunk}", rng.choice(grades)))
    unanswerable = [rng.random() < 0.05 for _ in qids]
    if shuffled:
        rng.shuffle(rows)
    questions = pl.DataFrame(
        {
            "qid": qids,
            "question": [None] * len(qids),
            "kind": [UNLABELLED_KIND] * len(qids),
            "unanswerable": unanswerable,
            "index_version": [None] * len(qids),
        },
        schema=QUESTIONS_SCHEMA,
    )
    judgments = pl.DataFrame(rows, schema=JUDGMENTS_SCHEMA, orient="row")
    return GoldSet(questions=questions, judgments=judgments, source="<test>")


def _expected(gold: GoldSet, ks: tuple[int, ...], threshold: int) -> pl.DataFrame:
    """Judged.questions, from the judgments as Python tuples."""
    positive: dict[str, list[int]] = {}
    relevant: dict[str, int] = {}
    for qid, _, grade in gold.judgments.iter_rows():
        relevant[qid] = relevant.get(qid, 0) + (grade >= threshold)
        if grade > 0:
            positive.setdefault(qid, []).append(grade)
    longest = max(map(len, positive.values()), default=0)
    rows = []
    for qid, kind, unanswerable in gold.questions.select("qid", "kind", "unanswerable").iter_rows():
        best = sorted(positive.get(qid, []), reverse=True)
        gains = [grade / math.log(rank + 1, 2) for rank, grade in enumerate(best, start=1)]
        ideal = [
            pl.Series(gains, dtype=pl.Float64).sum() if k >= longest else _kahan(gains[:k])
            for k in ks
        ]
        rows.append((qid, kind, unanswerable, relevant.get(qid, 0), *ideal))
    schema = {"qid": pl.String, "kind": pl.String, "unanswerable": pl.Boolean}
    schema |= {"n_relevant": pl.Int64} | {f"_idcg@{k}": pl.Float64 for k in ks}
    return pl.DataFrame(rows, schema=schema, orient="row")


@pytest.mark.parametrize("seed", range(24))
def test_judge_gives_what_a_plain_rebuild_gives_to_the_last_bit(seed: int) -> None:
    rng = random.Random(seed)
    name = list(GRADES)[seed % len(GRADES)]
    ks = CUTOFFS[seed % len(CUTOFFS)]
    threshold = rng.choice([1, 2, 3])
    gold = _gold(seed, GRADES[name], shuffled=seed % 4 >= 2, longest=rng.choice([12, 40, 300]))

    judged = judge(gold, ks, threshold)

    expected = _expected(gold, ks, threshold)
    assert judged.questions.columns == expected.columns
    assert judged.questions.sort("qid").equals(expected.sort("qid"))
    n_relevant = dict(expected.select("qid", "n_relevant").iter_rows())
    graded = gold.judgments.with_columns(
        n_relevant=pl.col("qid").replace_strict(n_relevant, return_dtype=pl.Int64)
    )
    pairs = ["qid", "chunk_id"]
    assert judged.judgments.sort(pairs).equals(graded.sort(pairs))
    assert judged.positive.sort(pairs).equals(graded.filter(pl.col("grade") > 0).sort(pairs))


def test_row_order_changes_nothing() -> None:
    """Judgments in one block per question and the same judgments shuffled: the block
    path and the hashed path give the same frames."""
    blocks = _gold(7, GRADES["graded"], shuffled=False, longest=300)
    shuffled = _gold(7, GRADES["graded"], shuffled=True, longest=300)
    for ks in CUTOFFS:
        one, other = judge(blocks, ks), judge(shuffled, ks)
        assert one.questions.sort("qid").equals(other.questions.sort("qid"))
        pairs = ["qid", "chunk_id"]
        assert one.judgments.sort(pairs).equals(other.judgments.sort(pairs))
