"""What predicts a right answer: where the gold arrived, which measure tracks the verdict,
and what fixing each stage is worth (SPEC.md, "What predicts the answer").

The four cells say which failure is larger; these say why and how much:

- pass rate by the rank of the first gold chunk among the chunks sent (1..k_ctx, or
  none), with a Cochran-Armitage test for a trend over the ranks: answers that pass at
  0.90 with the gold first and 0.30 with it fifth call for ordering or fewer chunks;
- the AUC of each measure at k_ctx against the verdict (Mann-Whitney, ties counted
  half), with a bootstrap interval: a gate on a measure that does not track the
  answers guards nothing;
- the headroom of each fix, in answers: retrieval failures passing at the rate of the
  retrieved questions, and every generation failure passing.

Pure: the attribution's question frame, the run's rows and scores in; numbers out
(report/predictors.py writes them as report.json, with the sentences).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Literal

import polars as pl

from reportgen.analyse.attribution import Attribution, CellSummary
from reportgen.analyse.intervals import wilson_score
from reportgen.core.model import UNLABELLED_KIND, GoldSet, Run
from reportgen.core.records import dataclass
from reportgen.measure.measures import CUTOFF_MEASURES
from reportgen.measure.scoring import Evaluation
from reportgen.measure.spans import SPAN_MEASURES

NO_GOLD = "none"
"""The rank key of the questions none of whose relevant chunks was sent."""
RESAMPLES = 2_000
"""Bootstrap resamples of the AUCs and the headroom: the intervals move by under 0.01
between seeds at this count, and a measure of 10,000 distinct values stays under 0.1 s."""
SEED = 20_251_206
LEVEL = 0.95
ALPHA = 0.05
"""The trend is called beyond noise when its two-sided p is below this."""
BOOTSTRAP_QUESTIONS = 2_000
"""Up to this many questions an AUC's interval is the bootstrap; above, DeLong's normal
interval, which the bootstrap's approaches there (a measure of 10,000 distinct values
took 1.6 s per measure to resample 2,000 times at 10,000 questions; DeLong takes 1 ms)."""
IntervalMethod = Literal["bootstrap", "delong"]


@dataclass(frozen=True)
class RankRow:
    """The questions whose first gold chunk sat at one rank (or none)."""

    n: int
    correct: int

    @property
    def pass_rate(self) -> float | None:
        return self.correct / self.n if self.n else None

    @property
    def interval(self) -> tuple[float, float] | None:
        """Wilson's 95% score interval of the pass rate (it behaves at 0 and 1)."""
        return wilson(self.correct, self.n)


@dataclass(frozen=True)
class Trend:
    """Cochran-Armitage's test for a linear trend of the pass rate over ranks 1..k."""

    z: float | None
    """Positive when the pass rate rises with rank, negative when it falls."""
    p: float | None
    """Two-sided; None when the test is undefined (``reason``)."""
    reason: str | None = None

    @property
    def falls(self) -> bool:
        """The pass rate falls with rank beyond noise."""
        return self.p is not None and self.z is not None and self.z < 0 and self.p < ALPHA


@dataclass(frozen=True)
class RankTable:
    ranks: dict[str, RankRow]
    """"1".."k" (and any deeper rank a trace's context reached), then "none"."""
    trend: Trend


@dataclass(frozen=True)
class Association:
    """One measure's AUC against the verdict over the questions it has a value for."""

    n: int
    correct: int
    wrong: int
    auc: float | None
    interval: tuple[float, float] | None
    reason: str | None = None
    interval_method: IntervalMethod = "bootstrap"


@dataclass(frozen=True)
class Headroom:
    """What one fix adds, in answers over the questions in the cells."""

    failures: int
    added: float | None
    added_interval: tuple[float, float] | None
    pass_rate_after: float | None
    pass_rate_after_interval: tuple[float, float] | None
    rate: float | None = None
    """Retrieval only: the pass rate of the retrieved questions, the rate a fixed one is
    assumed to pass at."""
    reason: str | None = None


@dataclass(frozen=True)
class HeadroomPair:
    n: int
    pass_rate: float | None
    retrieval: Headroom
    generation: Headroom


@dataclass(frozen=True)
class Predictors:
    """Everything this module finds for one judged run."""

    run: str
    k: int
    basis: str
    """``top_k`` (rank in the run's top k_ctx; for traces and spans, their hops
    concatenated, each chunk once) or ``trace`` (position in a trace's context)."""
    multi_hop: bool
    """The run came from traces or spans, whose hops make one combined context."""
    overall: RankTable
    by_kind: dict[str, RankTable]
    association: dict[str, Association]
    gated: tuple[str, ...]
    gated_from: str
    """``gate`` (the measures the gate rules name) or ``default`` (hit and recall at k_ctx)."""
    headroom: HeadroomPair
    headroom_by_kind: dict[str, HeadroomPair]


def wilson(successes: int, n: int) -> tuple[float, float] | None:
    """Wilson's 95% score interval for ``successes`` out of ``n`` (None when n = 0)."""
    if n == 0:
        return None
    low, high = wilson_score(n, successes / n)
    return max(low, 0.0), min(high, 1.0)


def first_gold_ranks(gold: GoldSet, run: Run, k: int, threshold: int) -> pl.LazyFrame:
    """(qid, first_rank) for every question with a relevant chunk among those sent.

    The chunks sent are the top ``k`` (their rank in the run's list: a repeat within a
    list keeps its slot), or the trace's context (its position there, each chunk once).
    """
    relevant = gold.judgments.lazy().filter(pl.col("grade") >= threshold).select("qid", "chunk_id")
    sent = (
        run.results.lazy()
        .filter(pl.col("rank") <= k)
        .select("qid", "chunk_id", pl.col("rank").cast(pl.Int64))
    )
    if run.sent is not None:
        traced = (
            run.sent.lazy()
            .select("qid", chunk_id=pl.col("sent"))
            .explode("chunk_id")
            .drop_nulls("chunk_id")
            .unique(["qid", "chunk_id"], maintain_order=True)
            .with_columns(rank=pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("qid"))
        )
        asked = run.sent.lazy().select("qid")
        sent = pl.concat([sent.join(asked, on="qid", how="anti"), traced])
    return (
        sent.join(relevant, on=["qid", "chunk_id"], how="semi")
        .group_by("qid")
        .agg(first_rank=pl.col("rank").min())
    )


def cochran_armitage(ranks: Sequence[int], n: Sequence[int], correct: Sequence[int]) -> Trend:
    """The two-sided test of a linear trend in proportions, score = rank.

    T = sum t_i (x_i - n_i p), Var T = p (1 - p) (sum t_i^2 n_i - (sum t_i n_i)^2 / N),
    z = T / sqrt(Var T), p = the mean pass rate. Equal to N r^2 = z^2 with r Pearson's
    correlation of rank and verdict over the questions.
    """
    total = sum(n)
    if sum(1 for count in n if count) < 2:
        return Trend(None, None, "the first gold chunk sat at fewer than two ranks")
    mean = sum(correct) / total
    if mean in (0.0, 1.0):
        return Trend(
            None, None, "every answer with gold sent was " + ("right" if mean else "wrong")
        )
    statistic = sum(t * (x - m * mean) for t, m, x in zip(ranks, n, correct, strict=True))
    spread = sum(t * t * m for t, m in zip(ranks, n, strict=True)) - (
        sum(t * m for t, m in zip(ranks, n, strict=True)) ** 2 / total
    )
    z = statistic / math.sqrt(mean * (1 - mean) * spread)
    return Trend(z + 0.0, math.erfc(abs(z) / math.sqrt(2)))  # + 0.0: no -0.0 in the JSON


RankCounts = Mapping[int | None, tuple[int, int]]
"""First gold rank (None: none sent) -> (questions, right answers)."""


def rank_table(counts: RankCounts, k: int) -> RankTable:
    """The table of ranks 1..k (deeper when a trace's context was) and none, with the
    trend over the ranks."""
    deepest = max([k, *(rank for rank in counts if rank is not None)])
    ranks = list(range(1, deepest + 1))
    rows = {str(rank): RankRow(*counts.get(rank, (0, 0))) for rank in ranks}
    rows[NO_GOLD] = RankRow(*counts.get(None, (0, 0)))
    trend = cochran_armitage(
        ranks, [rows[str(r)].n for r in ranks], [rows[str(r)].correct for r in ranks]
    )
    return RankTable(rows, trend)


def associate(questions: pl.DataFrame, key: str) -> Association:
    """The AUC of ``key`` against the verdict over the questions with a value for it."""
    from reportgen.analyse import auc

    values, correct = auc.valued(questions, key)
    right = int(correct.sum())
    wrong = int(correct.size - right)
    if not right or not wrong:
        reason = (
            f"no question has a value for {key}"
            if not correct.size
            else "every verdict is "
            + ("right" if right else "wrong")
            + ": an AUC needs right and wrong answers"
        )
        return Association(correct.size, right, wrong, None, None, reason)
    if correct.size <= BOOTSTRAP_QUESTIONS:
        interval = auc.auc_interval(values, correct, resamples=RESAMPLES, seed=SEED, level=LEVEL)
        return Association(correct.size, right, wrong, auc.auc(values, correct), interval)
    interval = auc.delong_interval(values, correct)
    return Association(
        correct.size, right, wrong, auc.auc(values, correct), interval, interval_method="delong"
    )


def headroom(summary: CellSummary) -> HeadroomPair:
    """Retrieval: missed_wrong x the retrieved questions' pass rate; generation:
    retrieved_wrong. Intervals: the percentile bootstrap over the questions of the cells."""
    counts, n = summary.counts, summary.n
    found_right, found_wrong = counts["retrieved_correct"], counts["retrieved_wrong"]
    missed_wrong = counts["missed_wrong"]
    right = counts["retrieved_correct"] + counts["missed_correct"]
    if not n:
        empty = Headroom(0, None, None, None, None, reason="no question has a verdict")
        return HeadroomPair(0, None, empty, empty)
    from reportgen.analyse import auc

    cells = auc.headroom_draws(counts, RESAMPLES, SEED)
    rc, rw, mc, _ = cells.T
    retrieval_draws = auc.retrieval_draws(cells)
    generation_draws = rw
    generation = Headroom(
        found_wrong,
        float(found_wrong),
        auc.percentiles(generation_draws, LEVEL),
        (right + found_wrong) / n,
        auc.percentiles((rc + mc + generation_draws) / n, LEVEL),
    )
    if not found_right + found_wrong:
        retrieval = Headroom(
            missed_wrong,
            None,
            None,
            None,
            None,
            reason="no question had its gold sent: there is no pass rate to assume",
        )
    else:
        rate = found_right / (found_right + found_wrong)
        retrieval = Headroom(
            missed_wrong,
            missed_wrong * rate,
            auc.percentiles(retrieval_draws, LEVEL),
            (right + missed_wrong * rate) / n,
            auc.percentiles((rc + mc + retrieval_draws) / n, LEVEL),
            rate=rate,
        )
    return HeadroomPair(n, summary.pass_rate, retrieval, generation)


def association_keys(scores: pl.DataFrame, k: int) -> list[str]:
    """The measures at k_ctx a team could gate on, and the span ones where the run has
    evidence to measure them on (context_chars counts text, not evidence: left out)."""
    spans = [f"{name}@{k}" for name in SPAN_MEASURES if name != "context_chars"]
    valued = [
        key for key in spans if key in scores.columns and scores[key].null_count() < scores.height
    ]
    return [m.key(k) for m in CUTOFF_MEASURES] + valued


def predict(
    attribution: Attribution,
    ranks: pl.LazyFrame,
    scores: pl.DataFrame,
    keys: Sequence[str],
    gated: Sequence[str] = (),
    *,
    multi_hop: bool = False,
) -> Predictors:
    """Every predictor of one judged run over the questions of its four cells.

    ``ranks`` is :func:`first_gold_ranks`; ``scores`` the run's per-question values;
    ``gated`` the measures the gate rules name (default: hit and recall at k_ctx).
    """
    keys = [key for key in keys if key in scores.columns]
    questions = (
        attribution.questions.lazy()
        .filter(pl.col("cell").is_not_null())
        .select("qid", "kind", "correct")
        .join(ranks.lazy(), on="qid", how="left")
        .join(scores.lazy().select("qid", *keys), on="qid", how="left")
        .sort("qid")
    )
    per_rank = questions.group_by("kind", "first_rank").agg(
        n=pl.len(), correct=pl.col("correct").sum()
    )
    counted, grouped = pl.collect_all([questions, per_rank])
    overall: dict[int | None, tuple[int, int]] = {}
    kinds: dict[str, dict[int | None, tuple[int, int]]] = {}
    for kind, rank, n, right in grouped.sort("kind").iter_rows():  # kinds x ranks: a few rows
        kinds.setdefault(kind, {})[rank] = (int(n), int(right))
        total, total_right = overall.get(rank, (0, 0))
        overall[rank] = (total + int(n), total_right + int(right))
    by_kind: dict[str, RankTable] = {}
    if set(attribution.by_kind) != {UNLABELLED_KIND}:
        by_kind = {kind: rank_table(counts, attribution.k) for kind, counts in kinds.items()}
    chosen = [key for key in gated if key in keys]
    defaults = [key for key in (f"hit@{attribution.k}", f"recall@{attribution.k}") if key in keys]
    return Predictors(
        run=attribution.run,
        k=attribution.k,
        basis=attribution.context_source,
        multi_hop=multi_hop,
        overall=rank_table(overall, attribution.k),
        by_kind=by_kind,
        association={key: associate(counted, key) for key in keys},
        gated=tuple(chosen or defaults),
        gated_from="gate" if chosen else "default",
        headroom=headroom(attribution.overall),
        headroom_by_kind={kind: headroom(summary) for kind, summary in attribution.by_kind.items()}
        if by_kind
        else {},
    )


def predictors_of(
    evaluation: Evaluation, attributions: Sequence[Attribution], gated: Sequence[str] = ()
) -> dict[str, Predictors]:
    """The predictors of every judged run, read as attribute_verdicts reads it: a run
    judged through its chunk map has the gold derived there."""
    settings = evaluation.settings
    found = {}
    for attribution in attributions:
        result = next(r for r in evaluation.runs if r.name == attribution.run)
        gold = evaluation.gold if result.chunked is None else result.chunked.gold
        run = result.run
        ranks = first_gold_ranks(gold, run, settings.context_k, settings.threshold)
        multi_hop = run.traces is not None or run.sent is not None or run.repeated_across_hops > 0
        keys = association_keys(result.scores, settings.context_k)
        found[attribution.run] = predict(
            attribution, ranks, result.scores, keys, gated, multi_hop=multi_hop
        )
    return found
