"""A/A: two replicates of one system, compared as baseline and head, must be labelled
within noise; better/worse at most alpha of the time (issue 38). A slow simulation:
docs/verdicts.md records the rate measured here."""

from __future__ import annotations

import random

import pytest

import reportgen

QUESTIONS = 100
DRAWS = 60
ALPHA = 0.05


def _replicate(rng: random.Random, chance: dict[str, float]) -> dict[str, list[str]]:
    """One run of a system whose gold chunk lands at a random rank of the top 5 with the
    question's own chance, else is missed: an ANN index rebuilt."""
    run = {}
    for qid, p in chance.items():
        ranked = [f"{qid}-x{i}" for i in range(5)]
        if rng.random() < p:
            ranked.insert(rng.randrange(5), f"{qid}-gold")
        run[qid] = ranked
    return run


@pytest.mark.slow
def test_replicates_compared_as_baseline_and_head_rarely_read_as_a_change() -> None:
    rng = random.Random(38)
    gold = {f"q{i:03d}": [f"q{i:03d}-gold"] for i in range(QUESTIONS)}
    chance = {qid: rng.random() for qid in gold}
    alarms = 0
    for _ in range(DRAWS):
        then = reportgen.evaluate(gold, {"dense": _replicate(rng, chance)}, context_k=5)
        now = reportgen.evaluate(
            gold, {"dense": _replicate(rng, chance)}, context_k=5, baseline=then
        )
        assert now.baseline_section is not None
        (entry,) = now.baseline_section["comparisons"]
        labels = {measure["label"] for measure in entry["measures"].values()}
        alarms += bool(labels & {"better", "worse"})
    rate = alarms / DRAWS
    print(f"A/A false alarms: {alarms} of {DRAWS} draws ({rate:.3f})")
    assert rate <= ALPHA + 0.02
