"""What each run's quality costs: latency, cost and context size beside recall.

A reranker or a hybrid search buys recall with time and with text sent to the model.
The table gives each run's summaries (over the questions that have a value; the others
are counted as missing, never as 0) and its paired difference against the reference
run; the chart (charts/trade_off.svg) puts each run at (p95 latency, recall@k_ctx), or
at the characters sent when no run has a latency, the Pareto front marked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from reportgen.core.records import dataclass
from reportgen.render.charts import trade_off_axis, trade_off_points
from reportgen.render.views.common import Cell, Table, plural
from reportgen.schema import Report

CHART = "trade_off"
ANCHOR = "latency"
QUANTITIES = (
    ("latency", "latency (ms)"),
    ("cost", "cost"),
    ("context_size", "characters sent"),
    ("context_words", "words sent"),
)


@dataclass(frozen=True)
class LatencyView:
    intro: str
    tables: list[Table]
    notes: list[str]
    svg: Markup | None
    caption: str
    chart_stem: str


def _number(value: float | None, unit: str) -> str:
    if value is None:
        return "n/a"
    if unit in ("characters", "words"):
        return f"{value:,.0f}"
    return f"{value:,.1f}" if unit == "ms" else f"{value:.4g}"


def _versus(entry: Mapping[str, Any] | None, unit: str) -> Cell:
    """The paired difference, with its interval under it."""
    if entry is None or entry["difference"] is None:
        return Cell("")
    low, high = entry["ci_low"], entry["ci_high"]
    note = "" if low is None else f"95% CI {_number(low, unit)} to {_number(high, unit)}"
    shown = _number(entry["difference"], unit)
    sign = "+" if entry["difference"] > 0 else ""
    return Cell(f"{sign}{shown} vs {entry['against']}", note=note)


def _table(report: Report, key: str, title: str) -> Table | None:
    rows = []
    unit = ""
    for name, run in report["runs"].items():
        section: Any = run.get(key)
        if section is None:
            continue
        unit = section["unit"]
        rows.append(
            [
                Cell(name),
                Cell(f"{section['count']:,}"),
                Cell(f"{section['missing']:,}"),
                *[Cell(_number(section[s], unit)) for s in ("mean", "p50", "p90", "p95", "p99")],
                _versus(section["versus_run"], unit),
                _versus(section["versus_baseline"], unit),
            ]
        )
    if not rows:
        return None
    header = [
        "run", "questions with a value", "missing", "mean", "p50", "p90", "p95", "p99",
        "against the reference run", "against the baseline",
    ]  # fmt: skip
    return Table(f"{title[0].upper()}{title[1:]} per question", header, rows)


def latency_view(report: Report, charts: Mapping[str, bytes]) -> LatencyView | None:
    """The tables (and chart, once drawn) of latency, cost and context size; None when
    no run has a latency or a cost."""
    runs = report["runs"].values()
    if not any("latency" in run or "cost" in run for run in runs):
        return None
    tables = [t for key, title in QUANTITIES if (t := _table(report, key, title)) is not None]
    notes = []
    for name, run in report["runs"].items():
        latency: Any = run.get("latency")
        if latency is None:
            continue
        if latency["missing"]:
            notes.append(
                f"{name}: {plural(latency['missing'], 'question')} without a latency, left "
                "out of its numbers (not read as 0)."
            )
        if latency.get("hops"):
            overlapping = latency.get("overlapping_hops") or 0
            parallel = (
                f"; {plural(overlapping, 'trace')} ran hops in parallel, so the sum exceeds "
                "the wall time there"
                if overlapping
                else ""
            )
            notes.append(f"{name}: latency is the {latency['hops']}{parallel}.")
        if latency.get("baseline_note"):
            notes.append(f"{name}: {latency['baseline_note']}.")
    k = report["context_k"]
    intro = (
        "What each run's recall costs. Percentiles are over the questions with a value, by "
        "linear interpolation between the closest ranks (numpy's default); differences are "
        "paired by question, with a 95% bootstrap interval."
    )
    axis = trade_off_axis(report)
    points = trade_off_points(report)
    front = ", ".join(str(p["run"]) for p in points if p["front"])
    svg = charts.get(f"{CHART}.svg")
    caption = (
        f"Recall@{k} against {axis[1] if axis else 'cost'}, one point per run; filled points "
        f"are on the Pareto front ({front or 'none'}): no other run is both cheaper and better."
    )
    return LatencyView(
        intro=intro,
        tables=tables,
        notes=notes,
        svg=None if svg is None else Markup(svg.decode()),
        caption=caption,
        chart_stem=CHART,
    )
