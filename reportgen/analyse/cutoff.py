"""Where to set "I could not find this": the top-1 score of answerable vs unanswerable.

A system should decline when nothing relevant came back. With a score on its results,
the simplest rule is a cutoff on the top-1 score: answer at or above it, decline below.
If every answerable question's top score is above every unanswerable one's, there is
a gap and the cutoff goes in its middle (SPEC.md). If not, no cutoff separates them:
the overlap is shown and the cutoff with the fewest errors is given, with both counts.

Pure: a run's results and per-question statuses in, plain values out.
"""

from __future__ import annotations

import polars as pl

from reportgen.core.model import Run
from reportgen.core.records import dataclass
from reportgen.measure.measures import IN_MEANS
from reportgen.schema.pages import ANSWERABLE, UNANSWERABLE


@dataclass(frozen=True)
class CutoffAnalysis:
    """One run's top-1 scores by group, and the cutoff they allow (or why there is none)."""

    run: str
    top_scores: pl.DataFrame
    """qid, kind, group (answerable / unanswerable), score: one row per question that
    the run answered and that is answerable or declared unanswerable."""
    reason: str | None = None
    """Why there is no analysis (no scores, no unanswerable questions, ...); else None."""
    gap: tuple[float, float] | None = None
    overlap: tuple[float, float] | None = None
    cutoff: float | None = None
    answered_unanswerable: tuple[str, ...] = ()
    """Unanswerable questions whose top score reaches the cutoff: answered anyway."""
    declined_answerable: tuple[str, ...] = ()
    """Answerable questions whose top score is below the cutoff: declined wrongly."""
    unscored: int = 0
    """Answerable or unanswerable questions the run returned nothing for."""

    # Series operations, not frame queries: the analysis, its section (built twice with
    # charts) and the pages ask for the groups 10 times a run, on a few rows each.
    def group(self, name: str) -> pl.Series:
        return self.top_scores.get_column("score").filter(self._in(name))

    def in_overlap(self, name: str) -> list[str]:
        """Questions of a group whose top score lies inside the overlap."""
        if self.overlap is None:
            return []
        low, high = self.overlap
        score = self.top_scores.get_column("score")
        inside = self._in(name) & (score >= low) & (score <= high)
        return self.top_scores.get_column("qid").filter(inside).sort().to_list()

    def _in(self, name: str) -> pl.Series:
        return self.top_scores.get_column("group") == name


def top_scores(run: Run, scores: pl.DataFrame) -> pl.DataFrame:
    """Each question's rank-1 score, labelled answerable or unanswerable."""
    group = (
        pl.when(pl.col("status") == "unanswerable")
        .then(pl.lit(UNANSWERABLE))
        .when(pl.col("status").is_in(list(IN_MEANS)))
        .then(pl.lit(ANSWERABLE))
    )
    first = run.results.lazy().filter(pl.col("rank") == 1).select("qid", "score")
    return (
        scores.lazy()
        .select("qid", "kind", group=group)
        .filter(pl.col("group").is_not_null())
        .join(first, on="qid", how="left")
        .sort("qid")
        .collect()
    )


def best_cutoff(points: pl.DataFrame) -> float:
    """The cutoff with the fewest errors: fewer answered unanswerable questions on a tie
    (a confident wrong answer costs more than a decline), then the lowest cutoff.

    Candidates are the midpoints between neighbouring distinct scores, and the lowest
    score (answer everything). Declining everything is not offered: it is not a cutoff
    but switching the system off.
    """
    is_answerable = pl.col("group") == ANSWERABLE
    unanswerable_total = int((points.get_column("group") != ANSWERABLE).sum())
    levels = (
        points.lazy()
        .group_by("score")
        .agg(answerable=is_answerable.sum(), unanswerable=(~is_answerable).sum())
        .sort("score")
        .with_columns(
            declined_answerable=pl.col("answerable").cum_sum(),
            answered_unanswerable=unanswerable_total - pl.col("unanswerable").cum_sum(),
            cutoff=(pl.col("score") + pl.col("score").shift(-1)) / 2,
        )
        .filter(pl.col("cutoff").is_not_null())
        .select("cutoff", "declined_answerable", "answered_unanswerable")
    )
    answer_all = pl.DataFrame(
        {
            "cutoff": [points.get_column("score").min()],
            "declined_answerable": [0],
            "answered_unanswerable": [unanswerable_total],
        },
        schema=levels.collect_schema(),
    )
    ranked = pl.concat([answer_all.lazy(), levels]).sort(
        pl.col("declined_answerable") + pl.col("answered_unanswerable"),
        "answered_unanswerable",
        "cutoff",
    )
    return float(ranked.first().collect().item(0, "cutoff"))


def analyse(run: Run, scores: pl.DataFrame) -> CutoffAnalysis:
    """The gap and its midpoint, or the overlap and the cutoff with the fewest errors."""
    points = top_scores(run, scores)
    unscored = points.get_column("score").null_count()
    points = points.filter(pl.col("score").is_not_null())
    base = CutoffAnalysis(run=run.name, top_scores=points, unscored=unscored)
    if not run.has_scores:
        return _without(
            base, f"run {run.name} has no scores, so there is no top-1 score to set a cutoff on"
        )
    answerable = base.group(ANSWERABLE)
    unanswerable = base.group(UNANSWERABLE)
    if unanswerable.len() == 0:
        return _without(
            base,
            "the gold set has no unanswerable question that the run answered, so a "
            "cutoff cannot be tested; add questions the index cannot answer",
        )
    if answerable.len() == 0:
        return _without(base, f"run {run.name} returned nothing for any answerable question")
    lowest_answerable = float(answerable.min())  # type: ignore[arg-type]
    highest_unanswerable = float(unanswerable.max())  # type: ignore[arg-type]
    if lowest_answerable > highest_unanswerable:
        gap = (highest_unanswerable, lowest_answerable)
        return _with(base, points, (gap[0] + gap[1]) / 2, gap=gap)
    overlap = (lowest_answerable, highest_unanswerable)
    return _with(base, points, best_cutoff(points), overlap=overlap)


def _without(base: CutoffAnalysis, reason: str) -> CutoffAnalysis:
    return CutoffAnalysis(
        run=base.run, top_scores=base.top_scores, reason=reason, unscored=base.unscored
    )


def _with(
    base: CutoffAnalysis,
    points: pl.DataFrame,
    cutoff: float,
    gap: tuple[float, float] | None = None,
    overlap: tuple[float, float] | None = None,
) -> CutoffAnalysis:
    # Series masks: two lists of a few questions, no query
    qid, group, score = (points.get_column(name) for name in ("qid", "group", "score"))
    answered = (group == UNANSWERABLE) & (score >= cutoff)
    declined = (group == ANSWERABLE) & (score < cutoff)
    return CutoffAnalysis(
        run=base.run,
        top_scores=base.top_scores,
        gap=gap,
        overlap=overlap,
        cutoff=cutoff,
        answered_unanswerable=tuple(qid.filter(answered).to_list()),
        declined_answerable=tuple(qid.filter(declined).to_list()),
        unscored=base.unscored,
    )
