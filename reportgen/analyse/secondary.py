"""Secondary judgments beside the gold set: what the numbers would be with them, and
how far they agree with the people who made the gold set.

The gold set stays the one source of the gated numbers: secondary judgments (an LLM
judge's output, with its model and prompt hash) never change ``runs``, the gate or a
comparison. They fill only the pairs the gold set does not grade; where both graded a
pair, Cohen's kappa and the confusion matrix say whether the secondary source can be
trusted with the others.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import polars as pl

from reportgen.analyse.compare import round_value
from reportgen.measure.scoring import Evaluation, evaluate, run_means

SHOWN = ("hit", "recall", "precision", "mrr", "ndcg", "judged", "hole")
"""The measures at k_ctx shown side by side, human-only and human + secondary."""


def cohen_kappa(first: pl.Series, second: pl.Series) -> float | None:
    """Cohen's kappa of two raters' labels of the same items (unweighted, as
    ``sklearn.metrics.cohen_kappa_score``); None when chance agreement is total."""
    n = first.len()
    if n == 0:
        return None
    pairs = pl.DataFrame({"a": first, "b": second})
    observed = pairs.select((pl.col("a") == pl.col("b")).mean()).item()
    share_a = pairs.group_by("a").agg(pa=pl.len() / n).rename({"a": "label"})
    share_b = pairs.group_by("b").agg(pb=pl.len() / n).rename({"b": "label"})
    expected = share_a.join(share_b, on="label").select((pl.col("pa") * pl.col("pb")).sum()).item()
    if expected >= 1:
        return None
    return float((observed - expected) / (1 - expected))


def agreement(gold: pl.DataFrame, secondary: pl.DataFrame) -> dict[str, Any]:
    """Kappa and the confusion matrix (rows: the gold set's grade; columns: the
    secondary one) over the pairs both graded."""
    both = secondary.join(gold, on=["qid", "chunk_id"], how="inner", suffix="_gold")
    labels = sorted({*both["grade"].to_list(), *both["grade_gold"].to_list()})
    counts = both.group_by("grade_gold", "grade").len()
    cell = {(a, b): n for a, b, n in counts.iter_rows()}
    kappa = cohen_kappa(both["grade_gold"], both["grade"])
    return {
        "pairs": both.height,
        "kappa": None if kappa is None else round_value(kappa),
        "labels": labels,
        "matrix": [[cell.get((a, b), 0) for b in labels] for a in labels],
    }


def secondary_section(
    evaluation: Evaluation, judgments: pl.DataFrame, source: str
) -> dict[str, Any]:
    """The ``secondary_judgments`` section: each run's means at k_ctx human-only and with
    the secondary judgments added where the gold set has none, and their agreement."""
    gold = evaluation.gold
    settings = evaluation.settings
    in_gold = judgments.join(gold.questions.select("qid"), on="qid", how="semi")
    added = in_gold.join(gold.judgments, on=["qid", "chunk_id"], how="anti")
    widened = dataclasses.replace(
        gold,
        judgments=pl.concat([gold.judgments, added.select(gold.judgments.columns)]),
    )
    keys = [f"{name}@{settings.context_k}" for name in SHOWN]
    runs = [result.run for result in evaluation.runs]
    with_secondary = evaluate(widened, runs, settings)
    means: dict[str, Any] = {}
    for before, after in zip(evaluation.runs, with_secondary.runs, strict=True):
        human = run_means(before.scores, keys, settings.trec_eval).overall
        both = run_means(after.scores, keys, settings.trec_eval).overall
        means[before.name] = {
            "n": human.n,
            "human": {key: _rounded(human.values[key]) for key in keys},
            "with_secondary": {key: _rounded(both.values[key]) for key in keys},
        }
    return {
        "source": source,
        "judgments": judgments.height,
        "outside_gold": judgments.height - in_gold.height,
        "added": added.height,
        "sources": sorted(judgments["source"].drop_nulls().unique().to_list()),
        "models": sorted(judgments["model"].drop_nulls().unique().to_list()),
        "prompt_hashes": sorted(judgments["prompt_hash"].drop_nulls().unique().to_list()),
        "measures": keys,
        "runs": means,
        "agreement": agreement(gold.judgments, judgments.select("qid", "chunk_id", "grade")),
    }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round_value(value)
