"""The runs measured side by side: headlines, methods and kind tables, figures, glossary."""

from __future__ import annotations

from collections.abc import Mapping

from markupsafe import Markup

from reportgen.core.records import dataclass
from reportgen.render.views.common import Cell, Table, fmt, fmt_interval, plural
from reportgen.schema import MeasureDefinition, Report, RunSection


def headline(name: str, run: RunSection, context_k: int) -> str:
    """The line a person reads first, e.g. ``rerank, top 5: 52 questions ...``."""
    means = run["means"]
    k = context_k
    parts = [
        f"hit@{k} {fmt(means[f'hit@{k}'])}",
        f"recall@{k} {fmt(means[f'recall@{k}'])}",
        f"precision@{k} {fmt(means[f'precision@{k}'])}",
        f"MRR@{k} {fmt(means[f'mrr@{k}'])}",
    ]
    counted = plural(run["n"], "question")
    return f"{name}, top {k}: {counted} with relevant passages. " + " | ".join(parts)


MeasureRow = tuple[str, list[float | None], list[list[float] | None]]
"""A run's name, its means and their 95% intervals, column by column."""


def _best_marked(rows: list[MeasureRow]) -> list[list[Cell]]:
    columns = list(zip(*(values for _, values, _ in rows), strict=True)) if rows else []
    best = [max((v for v in column if v is not None), default=None) for column in columns]
    several = len(rows) > 1
    return [
        [Cell(name)]
        + [
            Cell(
                fmt(v),
                best=several and v is not None and v == best[i],
                note=fmt_interval(intervals[i]),
            )
            for i, v in enumerate(values)
        ]
        for name, values, intervals in rows
    ]


def _measure_rows(report: Report, keys: list[str]) -> list[MeasureRow]:
    return [
        (
            name,
            [run["means"][key] for key in keys],
            [run.get("intervals", {}).get(key) for key in keys],
        )
        for name, run in report["runs"].items()
    ]


def methods_tables(report: Report) -> list[Table]:
    """One table per cutoff (runs x measures), then the whole-list measures."""
    measures = report["pages"]["measures"]
    cutoff = [m for m in measures if m["cutoff"]]
    whole_list = [m for m in measures if not m["cutoff"]]
    tables = []
    for k in report["k"]:
        keys = [f"{m['name']}@{k}" for m in cutoff]
        rows = _measure_rows(report, keys)
        marker = " (chunks sent to the model)" if k == report["context_k"] else ""
        tables.append(
            Table(
                f"Top {k}{marker}",
                ["run", *[m["title"].replace("@k", f"@{k}") for m in cutoff]],
                _best_marked(rows),
            )
        )
    keys = [m["name"] for m in whole_list]
    rows = _measure_rows(report, keys)
    tables.append(
        Table("Whole list", ["run", *[m["title"] for m in whole_list]], _best_marked(rows))
    )
    return tables


def kind_tables(report: Report) -> list[Table]:
    k = report["context_k"]
    keys = [f"hit@{k}", f"recall@{k}", f"mrr@{k}", f"ndcg@{k}"]
    tables = []
    for name, run in report["runs"].items():
        rows = [
            [Cell(kind), Cell(str(values["n"])), *[Cell(fmt(values[key])) for key in keys]]
            for kind, values in run["by_kind"].items()
        ]
        header = ["kind", "n", f"hit@{k}", f"recall@{k}", f"MRR@{k}", f"nDCG@{k}"]
        tables.append(Table(name, header, rows))
    return tables


def headlines(report: Report) -> list[str]:
    return [headline(name, run, report["context_k"]) for name, run in report["runs"].items()]


GLOSSARY_EXTRA = (
    (
        "k_ctx",
        "the number of chunks sent to the model",
        "The k of the headline line and of the four cells; marked on every chart.",
    ),
    (
        "95% interval",
        "Wilson score interval for hit@k; mean ± 1.96 · s / √n otherwise",
        "How far the mean could plausibly move with other questions of the same kind. "
        "One question in n moves a mean by up to 1/n.",
    ),
    (
        "the four cells",
        "gold retrieved (hit@k_ctx = 1) or not x answer correct or not",
        "working as designed; generation failure (it had the passage and did not use it); "
        "answered from memory (right today, a hallucination when corpus and world "
        "disagree); retrieval failure (no prompt can fix it).",
    ),
)


def glossary(measures: list[MeasureDefinition]) -> list[tuple[str, str, str]]:
    """Every measure report.json defines (``pages.measures``), then the other terms."""
    return [(m["title"], m["formula"], m["description"]) for m in measures] + list(GLOSSARY_EXTRA)


@dataclass(frozen=True)
class Figure:
    """A chart drawn by chart_engine.render_charts, inlined as SVG in the HTML."""

    stem: str
    svg: Markup
    caption: str


FIGURE_CAPTIONS = {
    "recall_at_k": "How much of the evidence each run delivers as k grows. "
    "The same values are in the methods tables above.",
    "hit_at_k": "How often at least one piece of evidence arrives in the top k.",
}


def figures(charts: Mapping[str, bytes]) -> list[Figure]:
    """The drawn SVG charts, in FIGURE_CAPTIONS' order (vl-convert escapes its text)."""
    return [
        Figure(stem, Markup(charts[f"{stem}.svg"].decode()), caption)
        for stem, caption in FIGURE_CAPTIONS.items()
        if f"{stem}.svg" in charts
    ]
