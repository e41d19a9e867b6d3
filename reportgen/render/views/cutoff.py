"""The unanswerable cutoff per run: what the top-1 scores say, in sentences, facts, a text
histogram (for Markdown) and the chart spec drawn with the other charts (for HTML).

The scores are report.json's ``pages.top_scores``; the facts its ``cutoff`` section."""

from __future__ import annotations

from collections.abc import Mapping

import polars as pl
from markupsafe import Markup

from reportgen.core.records import dataclass
from reportgen.render.charts import cutoff_stem, top_score_frame
from reportgen.render.views.common import IDS_INLINE, Cell, Table, fmt_score, plural
from reportgen.schema import CutoffSection, Report, ScoreRange, TopScores
from reportgen.schema.pages import ANSWERABLE, UNANSWERABLE


@dataclass(frozen=True)
class CutoffView:
    run: str
    summary: list[str]
    facts: list[tuple[str, str]]
    histogram: Table | None


def _cutoff_summary(section: CutoffSection) -> list[str]:
    questions = section["questions"]
    cutoff = fmt_score(section["cutoff"])
    if section["gap"] is not None:
        low, high = section["gap"]
        return [
            f"The top-1 scores of unanswerable questions reach at most {fmt_score(low)}; "
            f"those of answerable ones start at {fmt_score(high)}. A cutoff of {cutoff} "
            "(the middle of the gap) separates them: answer at or above it, decline below."
        ]
    overlap, errors = section["overlap"], section["errors"]
    if overlap is None or errors is None:
        raise ValueError("a cutoff analysis has a gap, or an overlap and the errors it makes")
    low, high = overlap
    inside = questions["in_overlap"]
    named = [*inside["answerable"], *inside["unanswerable"]]
    listed = f": {', '.join(named)}" if len(named) <= IDS_INLINE else ""
    lines = [
        f"No cutoff separates them: answerable top-1 scores go down to {fmt_score(low)} and "
        f"unanswerable ones up to {fmt_score(high)}; {len(inside['answerable'])} answerable "
        f"and {plural(len(inside['unanswerable']), 'unanswerable question')} sit in that "
        f"overlap{listed}.",
        f"The cutoff with the fewest errors is {cutoff}: it answers "
        f"{plural(errors['answered_unanswerable'], 'unanswerable question')}"
        + (
            f" ({', '.join(questions['answered_unanswerable'])})"
            if errors["answered_unanswerable"]
            else ""
        )
        + f" and declines {plural(errors['declined_answerable'], 'answerable one')}"
        + (
            f" ({', '.join(questions['declined_answerable'])})"
            if errors["declined_answerable"]
            else ""
        )
        + ".",
    ]
    if errors["declined_answerable"] == 0:
        lines.append(
            "That means answering everything: these scores do not tell answerable from "
            "unanswerable questions, so a cutoff on them cannot make the system decline."
        )
    return lines


def _cutoff_facts(section: CutoffSection) -> list[tuple[str, str]]:
    def spread(group: ScoreRange) -> str:
        if not group["n"]:
            return "none"
        spread = f"{fmt_score(group['min'])} to {fmt_score(group['max'])}"
        return f"{plural(group['n'], 'question')}, {spread}"

    facts = [
        ("answerable", spread(section["answerable"])),
        ("unanswerable", spread(section["unanswerable"])),
    ]
    if section["gap"] is not None:
        facts.append(("gap", " to ".join(fmt_score(v) for v in section["gap"])))
    if section["overlap"] is not None:
        facts.append(("overlap", " to ".join(fmt_score(v) for v in section["overlap"])))
    if section["cutoff"] is not None:
        facts.append(("cutoff", f"{fmt_score(section['cutoff'])} (answer at or above)"))
    errors = section["errors"]  # null exactly when there is no cutoff
    if errors is not None:
        facts.append(("answered though unanswerable", str(errors["answered_unanswerable"])))
        facts.append(("declined though answerable", str(errors["declined_answerable"])))
    if section["unscored"]:
        facts.append(("without a result", str(section["unscored"])))
    return facts


def _bar(count: int) -> str:
    return f"{'█' * count} {count}" if count else "0"


def histogram(points: pl.DataFrame, bins: int = 10) -> pl.DataFrame:
    """Counts of top-1 scores in ``bins`` equal-width bins: low, high, answerable,
    unanswerable; for text reports, where no chart is shown."""
    if points.height == 0:
        return pl.DataFrame(
            schema={
                "low": pl.Float64,
                "high": pl.Float64,
                ANSWERABLE: pl.UInt32,
                UNANSWERABLE: pl.UInt32,
            }
        )
    low = float(points.get_column("score").min())  # type: ignore[arg-type]
    high = float(points.get_column("score").max())  # type: ignore[arg-type]
    width = (high - low) / bins or 1.0
    index = ((pl.col("score") - low) / width).floor().cast(pl.Int64).clip(0, bins - 1)
    counts = (
        points.lazy()
        .group_by(index.alias("bin"))
        .agg(
            (pl.col("group") == ANSWERABLE).sum().alias(ANSWERABLE),
            (pl.col("group") == UNANSWERABLE).sum().alias(UNANSWERABLE),
        )
    )
    every = pl.LazyFrame({"bin": range(bins)}, schema={"bin": pl.Int64})
    return (
        every.join(counts, on="bin", how="left")
        .with_columns(pl.col(ANSWERABLE, UNANSWERABLE).fill_null(0))
        .sort("bin")
        .select(
            low=low + pl.col("bin") * width,
            high=low + (pl.col("bin") + 1) * width,
            answerable=pl.col(ANSWERABLE),
            unanswerable=pl.col(UNANSWERABLE),
        )
        .collect()
    )


def _histogram_table(run: str, points: TopScores, cutoff: float | None) -> Table:
    rows = []
    for row in histogram(top_score_frame(points)).iter_rows(named=True):
        here = cutoff is not None and row["low"] <= cutoff < row["high"]
        rows.append(
            [
                Cell(
                    f"{fmt_score(row['low'])} to {fmt_score(row['high'])}"
                    + (f" ◀ cutoff {fmt_score(cutoff)}" if here else "")
                ),
                Cell(_bar(row["answerable"])),
                Cell(_bar(row["unanswerable"])),
            ]
        )
    return Table(f"{run}: top-1 scores", ["top-1 score", "answerable", "unanswerable"], rows)


def cutoff_views(report: Report) -> list[CutoffView]:
    """One view per run with a cutoff analysis; runs without one for the same reason
    share a single sentence (a TREC set with no unanswerable question says it once)."""
    top_scores = report["pages"]["top_scores"]
    views: list[CutoffView | str] = []  # a str holds the place of runs skipped for it
    skipped: dict[str, list[str]] = {}
    for run, section in report["cutoff"].items():
        if section["reason"] is not None:
            if section["reason"] not in skipped:
                views.append(section["reason"])
            skipped.setdefault(section["reason"], []).append(run)
            continue
        views.append(
            CutoffView(
                run=run,
                summary=_cutoff_summary(section),
                facts=_cutoff_facts(section),
                histogram=_histogram_table(run, top_scores[run], section["cutoff"]),
            )
        )
    return [
        _without_analysis(skipped[view], view) if isinstance(view, str) else view for view in views
    ]


def _without_analysis(runs: list[str], reason: str) -> CutoffView:
    names = runs[0] if len(runs) == 1 else f"{', '.join(runs[:-1])} and {runs[-1]}"
    return CutoffView(
        run=names, summary=[f"No cutoff analysis for {names}: {reason}."], facts=[], histogram=None
    )


def cutoff_charts(report: Report, charts: Mapping[str, bytes]) -> dict[str, Markup]:
    """Inline SVG of each run's cutoff chart, drawn with the others by render_charts."""
    return {
        run: Markup(charts[f"{cutoff_stem(index)}.svg"].decode())
        for index, run in enumerate(report["cutoff"])
        if f"{cutoff_stem(index)}.svg" in charts
    }
