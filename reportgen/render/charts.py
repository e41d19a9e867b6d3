"""Charts: pure functions that return Vega-Lite specs; chart_engine.py draws them.

Every ``*_spec`` function takes plain values (the report dict, the site history) and
returns a Vega-Lite dict; nothing here computes a measure or calls vl-convert.

Charts carry a title and a description (read by screen readers), use the Okabe-Ito
palette (safe for colour-blind readers) and tell runs apart by point shape and dash as
well as colour.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, cast

import polars as pl

from reportgen.render.cells import CELL_NAMES
from reportgen.render.chart_engine import Spec
from reportgen.schema import Report, TopScores
from reportgen.schema.pages import ANSWERABLE, UNANSWERABLE

SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000")
"""Okabe-Ito: distinguishable with every common colour-vision deficiency."""

SHAPES = ("circle", "square", "triangle-up", "diamond", "cross", "triangle-down", "stroke")
DASHES = ([1, 0], [6, 3], [2, 2], [8, 3, 2, 3], [4, 4], [1, 3], [10, 2])

CELL_COLOURS = {
    "retrieved_correct": "#009E73",
    "retrieved_wrong": "#E69F00",
    "missed_correct": "#56B4E9",
    "missed_wrong": "#D55E00",
}

WIDTH = 340
HEIGHT = 220
"""Small enough that a chart and its legend fit a 400 px wide phone at full size."""

CUTOFF_WIDTH = 300
"""The cutoff strip with its axis and labels stays under a phone's 360 px of text width."""

LEGEND = {
    "labelFontSize": 12,
    "titleFontSize": 12,
    "orient": "bottom",
    "columns": 2,
    "columnPadding": 28,
    "labelLimit": 400,
}
"""Two columns with room between them: a browser's sans-serif can be wider than the
font vl-convert measured with, and on one row a label then ran into the next symbol
("working as designec"); labelLimit above any label, so none is cut with an ellipsis."""


def _base(title: str, description: str, values: list[dict[str, Any]]) -> Spec:
    return {
        "$schema": SCHEMA,
        "title": {"text": title, "anchor": "start", "fontSize": 14},
        "description": description,
        "width": WIDTH,
        "height": HEIGHT,
        "background": "white",
        "data": {"values": values},
        "config": {
            "font": "sans-serif",
            # ticks stay at least 11 px when a phone scales the widest chart by 0.8
            "axis": {"labelFontSize": 14, "titleFontSize": 13},
            "legend": LEGEND,
            "text": {"fontSize": 13},
        },
        "padding": {"left": 5, "top": 5, "bottom": 5, "right": 24},
    }


def _series(names: Sequence[str], field: str, title: str) -> dict[str, Any]:
    """Colour, shape and dash for one series each, in the given order."""
    n = len(names)
    scale = {"domain": list(names)}
    return {
        "color": {
            "field": field,
            "type": "nominal",
            "title": title,
            "sort": list(names),
            "scale": {**scale, "range": [PALETTE[i % len(PALETTE)] for i in range(n)]},
        },
        "shape": {
            "field": field,
            "type": "nominal",
            "title": title,
            "sort": list(names),
            "scale": {**scale, "range": [SHAPES[i % len(SHAPES)] for i in range(n)]},
        },
        "strokeDash": {
            "field": field,
            "type": "nominal",
            "title": title,
            "sort": list(names),
            "scale": {**scale, "range": [DASHES[i % len(DASHES)] for i in range(n)]},
        },
    }


LOG_SPAN = 20
"""Cutoffs spanning this factor or more (1 to 100, TREC's 1 to 1000) are drawn on a log
axis; on a linear one the small k, where the model's context sits, bunch together."""


def at_k_curve_spec(report: Report, measure: str, title: str) -> Spec:
    """One line per run of ``measure@k`` against k, with k_ctx marked by a rule."""
    ks = report["k"]
    runs = list(report["runs"])
    values = [
        {"run": name, "k": k, "value": run["means"][f"{measure}@{k}"]}
        for name, run in report["runs"].items()
        for k in ks
        if run["means"][f"{measure}@{k}"] is not None
    ]
    context_k = report["context_k"]
    label_y, side = _label_place(values, ks, context_k)
    spec = _base(
        f"{title} by cutoff k",
        f"{title} of each run at k = {', '.join(map(str, ks))}; the dashed rule marks "
        f"k = {context_k}, the chunks sent to the model.",
        values,
    )
    x = {
        "field": "k",
        "type": "quantitative",
        "title": "k (results kept)",
        "scale": {"domain": [0, max(ks) + 0.5], "nice": False},
        "axis": {"values": ks, "format": "d"},
    }
    if max(ks) >= LOG_SPAN * min(ks):
        x["title"] = "k (results kept, log scale)"
        x["scale"] = {"type": "log", "domain": [min(ks) * 0.8, max(ks) * 1.25], "nice": False}
    spec["layer"] = [
        {
            "mark": {"type": "line", "point": {"filled": True, "size": 70}, "strokeWidth": 2},
            "encoding": {
                "x": x,
                "y": {
                    "field": "value",
                    "type": "quantitative",
                    "title": title,
                    "scale": {"domain": [0, 1]},
                },
                **_series(runs, "run", "run"),
                "tooltip": [
                    {"field": "run", "type": "nominal"},
                    {"field": "k", "type": "quantitative"},
                    {"field": "value", "type": "quantitative", "format": ".3f"},
                ],
            },
        },
        {
            "data": {"values": [{"k": context_k, "label": f"k_ctx = {context_k}"}]},
            "mark": {"type": "rule", "strokeDash": [4, 4], "color": "#57606a"},
            "encoding": {"x": {"field": "k", "type": "quantitative"}},
        },
        {
            "data": {"values": [{"k": context_k, "label": f"k_ctx = {context_k}"}]},
            "mark": {
                "type": "text",
                "align": "left" if side > 0 else "right",
                "dx": 4 * side,
                "baseline": "middle",
                "color": "#57606a",
            },
            "encoding": {
                "x": {"field": "k", "type": "quantitative"},
                "y": {"datum": label_y, "type": "quantitative"},
                "text": {"field": "label"},
            },
        },
    ]
    return spec


LABEL_HEIGHT = 0.08
"""A text label's height in units of a [0, 1] axis of HEIGHT pixels (about 17 px)."""


def free_height(segments: Sequence[tuple[float, float]], height: float = LABEL_HEIGHT) -> float:
    """The middle of the widest gap in [0, 1] that no segment (low, high) covers: where a
    label beside a rule crosses no line. The top of the chart when nothing is free."""
    edges = sorted((max(0.0, low), min(1.0, high)) for low, high in segments)
    gaps = []
    floor = 0.0
    for low, high in edges:
        if low > floor:
            gaps.append((floor, low))
        floor = max(floor, high)
    if floor < 1.0:
        gaps.append((floor, 1.0))
    if not gaps:
        return 1.0 - height / 2
    low, high = max(gaps, key=lambda gap: gap[1] - gap[0])
    middle = (low + high) / 2
    return min(max(middle, height / 2), 1.0 - height / 2)


def _label_place(
    values: Sequence[Mapping[str, Any]], ks: Sequence[int], context_k: int
) -> tuple[float, int]:
    """Where the ``k_ctx`` label goes: beside the rule, on the side with a next cutoff
    (right, unless k_ctx is the last), at the height no run's line crosses there."""
    later = [k for k in ks if k > context_k]
    earlier = [k for k in ks if k < context_k]
    side, other = (
        (-1, max(earlier)) if earlier and not later else (1, min(later, default=context_k))
    )
    at: dict[str, dict[int, float]] = {}
    for row in values:
        at.setdefault(row["run"], {})[row["k"]] = row["value"]
    segments = []
    for points in at.values():
        ends = [points[k] for k in (context_k, other) if k in points]
        if ends:
            segments.append((min(ends) - LABEL_HEIGHT / 2, max(ends) + LABEL_HEIGHT / 2))
    return free_height(segments), side


def chunkings_spec(report: Report) -> Spec | None:
    """Each run with a chunk map at (mean characters sent, mean span recall) at k_ctx."""
    section = report.get("chunkings")
    if not section or not section["runs"]:
        return None
    k = report["context_k"]
    names = list(section["runs"])
    values = [
        {
            "run": name,
            "chars": report["runs"][name]["means"][f"context_chars@{k}"],
            "recall": report["runs"][name]["means"][f"span_recall@{k}"],
        }
        for name in names
    ]
    values = [v for v in values if v["chars"] is not None and v["recall"] is not None]
    spec = _base(
        f"span recall@{k} against characters sent",
        f"For each run with a chunk map: the mean characters of its top {k} chunks (x) and "
        f"the mean share of the evidence they cover (y).",
        values,
    )
    series = _series(names, "run", "run")
    spec["layer"] = [
        {
            "mark": {"type": "point", "filled": True, "size": 120},
            "encoding": {
                "x": {
                    "field": "chars",
                    "type": "quantitative",
                    "title": f"characters sent@{k} (mean)",
                    "scale": {"zero": True},
                },
                "y": {
                    "field": "recall",
                    "type": "quantitative",
                    "title": f"span recall@{k}",
                    "scale": {"domain": [0, 1]},
                },
                "color": series["color"],
                "shape": series["shape"],
                "tooltip": [
                    {"field": "run", "type": "nominal"},
                    {"field": "chars", "type": "quantitative", "format": ",.0f"},
                    {"field": "recall", "type": "quantitative", "format": ".3f"},
                ],
            },
        },
        {
            "mark": {"type": "text", "align": "left", "dx": 9, "dy": -6, "fontSize": 12},
            "encoding": {
                "x": {"field": "chars", "type": "quantitative"},
                "y": {"field": "recall", "type": "quantitative"},
                "text": {"field": "run"},
            },
        },
    ]
    return spec


FIRST_GOLD_RANK = "first_gold_rank"


def first_gold_rank_spec(report: Report) -> Spec | None:
    """The pass rate by the rank of the first gold chunk sent (and none), with each
    rank's Wilson interval, for the run the verdicts judge; None without verdicts."""
    judged = next(iter((report.get("attribution") or {}).items()), None)
    if judged is None or "by_first_gold_rank" not in judged[1]:
        return None
    run, section = judged
    ranks = section["by_first_gold_rank"]
    values = [
        {
            "rank": rank,
            "pass_rate": row["pass_rate"],
            "low": row["interval"][0] if row["interval"] else None,
            "high": row["interval"][1] if row["interval"] else None,
            "n": f"n={row['n']}",
        }
        for rank, row in ranks.items()
    ]
    spec = _base(
        f"Pass rate by first gold rank ({run})",
        "For each rank at which the first relevant chunk reached the model (and none "
        "reached it): the share of right answers, with its 95% interval, and the questions.",
        values,
    )
    x = {
        "field": "rank",
        "type": "ordinal",
        "sort": list(ranks),
        "title": "rank of the first gold chunk sent",
        "axis": {"labelAngle": 0},
    }
    y_scale = {"domain": [0, 1]}
    spec["layer"] = [
        {
            "mark": {"type": "bar", "color": PALETTE[4]},  # light: the counts on it stay legible
            "encoding": {
                "x": x,
                "y": {
                    "field": "pass_rate",
                    "type": "quantitative",
                    "title": "pass rate",
                    "scale": y_scale,
                },
                "tooltip": [
                    {"field": "rank", "type": "ordinal"},
                    {"field": "pass_rate", "type": "quantitative", "format": ".2f"},
                    {"field": "n", "type": "nominal"},
                ],
            },
        },
        {
            "mark": {"type": "rule", "color": "#000000", "strokeWidth": 1.5},
            "encoding": {
                "x": x,
                "y": {"field": "low", "type": "quantitative", "scale": y_scale},
                "y2": {"field": "high"},
            },
        },
        {
            "mark": {"type": "text", "dy": -6, "baseline": "bottom", "fontSize": 11},
            "encoding": {
                "x": x,
                "y": {"datum": 0, "type": "quantitative", "scale": y_scale},
                "text": {"field": "n"},
            },
        },
    ]
    return spec


SLICES_SHOWN = 20
"""Slices the chart draws (the table lists them all): the first field's, worst first."""


def slices_spec(report: Report) -> Spec | None:
    """The slices of the first --slice-by field side by side: recall@k_ctx per run as a
    point with its 95% interval, one row per slice, in the table's order (worst first)."""
    from reportgen.render.views.slices import compared_field, slice_order

    field = compared_field(report)
    if field is None:
        return None
    key = f"recall@{report['context_k']}"
    names = list(report["runs"])
    order = slice_order(report, field)[:SLICES_SHOWN]
    values = []
    for value in order:
        for name in names:
            found = report["runs"][name].get("by_slice", {}).get(field, {}).get(value)
            if found is None or found["means"].get(key) is None:
                continue
            bounds = found["intervals"].get(key)
            low_high = (None, None) if bounds is None else (bounds[0], bounds[1])
            values.append(
                {
                    "slice": f"{field}={value}",
                    "run": name,
                    "mean": found["means"][key],
                    "low": low_high[0],
                    "high": low_high[1],
                    "n": found["n"],
                }
            )
    if not values:
        return None
    spec = _base(
        f"{key} per slice of {field}",
        f"For each slice of {field} (rows, the largest drop first) and each run (colour "
        f"and shape): the mean {key} as a point and its 95% interval as a line.",
        values,
    )
    spec["height"] = max(HEIGHT, 22 * len(order) * max(1, len(names)) // 2)
    series = _series(names, "run", "run")
    slices = [f"{field}={value}" for value in order]
    y = {"field": "slice", "type": "nominal", "sort": slices, "title": None}
    offset = {"field": "run", "type": "nominal", "sort": names}
    x = {"type": "quantitative", "scale": {"domain": [0, 1]}}
    spec["layer"] = [
        {
            "mark": {"type": "rule", "strokeWidth": 2},
            "encoding": {
                "y": y,
                "yOffset": offset,
                "x": {**x, "field": "low", "title": f"{key} (95% interval)"},
                "x2": {"field": "high"},
                "color": series["color"],
            },
        },
        {
            "mark": {"type": "point", "filled": True, "size": 90},
            "encoding": {
                "y": y,
                "yOffset": offset,
                "x": {**x, "field": "mean"},
                "color": series["color"],
                "shape": series["shape"],
                "tooltip": [
                    {"field": "slice", "type": "nominal"},
                    {"field": "run", "type": "nominal"},
                    {"field": "mean", "type": "quantitative", "format": ".3f"},
                    {"field": "n", "type": "quantitative"},
                ],
            },
        },
    ]
    return spec


REPORT_CHART_STEMS = (
    *("recall_at_k", "hit_at_k", "chunkings", "trade_off"),
    *(FIRST_GOLD_RANK, "slices"),
)
"""The file stems of :func:`report_chart_specs`'s charts: with :data:`CUTOFF_STEM`'s,
every chart file reportgen writes (``render.manifest`` removes no other)."""


def report_chart_specs(report: Report) -> dict[str, Spec]:
    """Every chart of one report, by file stem (``charts/<stem>.svg``)."""
    recall, hit, chunkings_stem, trade_off_stem, ranks_stem, slices_stem = REPORT_CHART_STEMS
    specs = {
        recall: at_k_curve_spec(report, "recall", "recall@k"),
        hit: at_k_curve_spec(report, "hit", "hit@k"),
    }
    chunkings = chunkings_spec(report)
    if chunkings is not None:
        specs[chunkings_stem] = chunkings
    trade = trade_off_spec(report)
    if trade is not None:
        specs[trade_off_stem] = trade
    ranks = first_gold_rank_spec(report)
    if ranks is not None:
        specs[ranks_stem] = ranks
    sliced = slices_spec(report)
    if sliced is not None:
        specs[slices_stem] = sliced
    return specs


def trade_off_axis(report: Report) -> tuple[str, str] | None:
    """What quality is set against: (report key, axis title): p95 latency when some
    run has one, else (a report with costs but no latency) the mean characters sent at
    k_ctx; None without latency or cost (chunkings have their own chart)."""
    k = report["context_k"]
    runs = report["runs"].values()
    if not any("latency" in run or "cost" in run for run in runs):
        return None
    if any(run.get("latency", {}).get("p95") is not None for run in runs):
        return "latency", "p95 latency (ms)"
    if any(run["means"].get(f"context_chars@{k}") is not None for run in runs):
        return f"context_chars@{k}", f"characters sent@{k} (mean)"
    return None


def on_front(points: Mapping[str, tuple[float, float]]) -> set[str]:
    """The runs no other run beats: none has at most their cost and at least their
    quality, with one of the two strictly better (the Pareto front)."""
    return {
        name
        for name, (cost, quality) in points.items()
        if not any(
            other_cost <= cost
            and other_quality >= quality
            and (other_cost, other_quality) != (cost, quality)
            for other, (other_cost, other_quality) in points.items()
            if other != name
        )
    }


def trade_off_points(report: Report) -> list[dict[str, Any]]:
    """Per run with both values: its cost (x), quality (y: recall@k_ctx) and whether it
    is on the Pareto front."""
    axis = trade_off_axis(report)
    if axis is None:
        return []
    key, _ = axis
    k = report["context_k"]
    points: dict[str, tuple[float, float]] = {}
    for name, run in report["runs"].items():
        cost = run.get("latency", {}).get("p95") if key == "latency" else run["means"].get(key)
        quality = run["means"].get(f"recall@{k}")
        if cost is not None and quality is not None:
            points[name] = (float(cost), float(quality))
    front = on_front(points)
    return [
        {"run": name, "cost": cost, "quality": quality, "front": name in front}
        for name, (cost, quality) in points.items()
    ]


def trade_off_spec(report: Report) -> Spec | None:
    """recall@k_ctx against p95 latency (or characters sent), one point per run, the
    Pareto front joined by a line: the runs no other run beats on both."""
    axis = trade_off_axis(report)
    values = trade_off_points(report)
    if axis is None or not values:
        return None
    _, x_title = axis
    k = report["context_k"]
    names = [str(value["run"]) for value in values]
    spec = _base(
        f"recall@{k} against {x_title.split(' (')[0]}",
        f"For each run: {x_title} (x) and mean recall@{k} (y). Runs on the Pareto front "
        "(no other run is both cheaper and better) are filled and joined by a line.",
        values,
    )
    series = _series(names, "run", "run")
    x = {"field": "cost", "type": "quantitative", "title": x_title, "scale": {"zero": True}}
    y = {
        "field": "quality",
        "type": "quantitative",
        "title": f"recall@{k}",
        "scale": {"domain": [0, 1]},
    }
    spec["layer"] = [
        {
            "transform": [{"filter": "datum.front"}],
            "mark": {"type": "line", "color": "#57606a", "strokeDash": [4, 3]},
            "encoding": {"x": x, "y": y, "order": {"field": "cost", "type": "quantitative"}},
        },
        {
            "mark": {"type": "point", "size": 120, "strokeWidth": 2},
            "encoding": {
                "x": x,
                "y": y,
                "color": series["color"],
                "shape": series["shape"],
                "fillOpacity": {
                    "field": "front",
                    "type": "nominal",
                    "scale": {"domain": [True, False], "range": [1, 0]},
                    "title": "on the Pareto front",
                },
                "fill": series["color"],
                "tooltip": [
                    {"field": "run", "type": "nominal"},
                    {"field": "cost", "type": "quantitative", "format": ",.1f", "title": x_title},
                    {"field": "quality", "type": "quantitative", "format": ".3f"},
                    {"field": "front", "type": "nominal", "title": "Pareto front"},
                ],
            },
        },
        {
            "mark": {"type": "text", "align": "left", "dx": 9, "dy": -6, "fontSize": 12},
            "encoding": {"x": x, "y": y, "text": {"field": "run"}},
        },
    ]
    return spec


def trend_spec(
    rows: Sequence[Mapping[str, Any]],
    versions: Sequence[str],
    measure: str,
    gold_changes: Sequence[str] = (),
) -> Spec:
    """One measure across published versions, one line per run.

    ``rows`` are ``{"version", "run", "value", "segment"}``; ``versions`` gives the time
    order, since labels sorted as text put v10 before v2. ``gold_changes`` are the
    versions measured on another gold set than the one before: each line breaks there
    (one line per run and segment) and a rule marks the change, since numbers on
    different gold sets are not comparable.
    """
    runs = list(dict.fromkeys(str(row["run"]) for row in rows))
    spec = _base(
        f"{measure} across versions",
        f"{measure} of each run for every published version, oldest on the left.",
        [dict(row) for row in rows],
    )
    spec["mark"] = {"type": "line", "point": {"filled": True, "size": 70}, "strokeWidth": 2}
    spec["encoding"] = {
        "x": {
            "field": "version",
            "type": "ordinal",
            "sort": list(versions),
            "scale": {"domain": list(versions)},
            "title": "version (oldest to newest)",
            "axis": {"labelAngle": -30, "labelLimit": 140},
        },
        "y": {
            "field": "value",
            "type": "quantitative",
            "title": measure,
            "scale": {"domain": [0, 1]},
        },
        **_series(runs, "run", "run"),
        "tooltip": [
            {"field": "version", "type": "ordinal"},
            {"field": "run", "type": "nominal"},
            {"field": "value", "type": "quantitative", "format": ".3f"},
        ],
    }
    if gold_changes:
        spec["encoding"]["detail"] = {"field": "segment", "type": "ordinal"}
        _mark_gold_changes(spec, versions, gold_changes)
    return spec


def integer_ticks(largest: float, most: int = 6) -> list[int]:
    """Ticks for a count axis: whole numbers only (a count of 0.5 questions means
    nothing), 1, 2 or 5 times a power of ten apart, at most ``most`` steps, up to the
    first tick at or above ``largest``."""
    steps = (factor * 10**power for power in range(12) for factor in (1, 2, 5))
    step = next(step for step in steps if largest / step <= most)
    top = max(step, -(-int(largest) // step) * step)
    return list(range(0, top + 1, step))


def _largest_stack(rows: Sequence[Mapping[str, Any]]) -> float:
    """The tallest version's total count."""
    totals: dict[str, float] = {}
    for row in rows:
        totals[str(row["version"])] = totals.get(str(row["version"]), 0) + row["count"]
    return max(totals.values(), default=0)


BAR_GAP = 0.4
"""The versions' bars leave this share of each step empty: a gold-change rule fits there."""


def _mark_gold_changes(
    spec: Spec, versions: Sequence[str], gold_changes: Sequence[str], bars: bool = False
) -> None:
    """Layer a dashed rule and a label at each version where the gold set changed.

    On bars the rule stands in the gap before the version's bar, not over it, and the
    label sits above the plot, where no bar reaches."""
    spec["description"] += (
        f" The gold set changed at {', '.join(gold_changes)}: the lines break there."
    )
    x: dict[str, Any] = {"field": "version", "type": "ordinal", "sort": list(versions)}
    rule: dict[str, Any] = {"type": "rule", "strokeDash": [4, 4], "color": "#57606a"}
    label: dict[str, Any] = {"type": "text", "align": "left", "dx": 4, "y": 8}
    if bars:
        step = WIDTH / max(len(versions), 1)
        x = {**x, "bandPosition": 0}
        rule["xOffset"] = -step * BAR_GAP / 2
        label = {"type": "text", "align": "left", "dx": 2 - step * BAR_GAP / 2, "y": -6}
    marks = {"values": [{"version": version, "label": "new gold set"} for version in gold_changes]}
    spec["layer"] = [
        {"mark": spec.pop("mark"), "encoding": spec.pop("encoding")},
        {"data": marks, "mark": rule, "encoding": {"x": x}},
        {
            "data": marks,
            "mark": {**label, "baseline": "bottom", "color": "#57606a"}
            if bars
            else {
                **label,
                "color": "#57606a",
            },
            "encoding": {"x": x, "text": {"field": "label"}},
        },
    ]


def cells_trend_spec(
    rows: Sequence[Mapping[str, Any]], versions: Sequence[str], gold_changes: Sequence[str] = ()
) -> Spec:
    """The four cells of each version as stacked bars (``{"version", "cell", "count"}``),
    a rule where the gold set changed."""
    names = list(CELL_NAMES.values())
    ticks = integer_ticks(_largest_stack(rows))
    spec = _base(
        "The four cells across versions",
        "Questions in each of the four cells (retrieval x answer) for every published "
        "version, oldest on the left.",
        [dict(row) for row in rows],
    )
    spec["mark"] = {"type": "bar", "stroke": "white", "strokeWidth": 1}
    spec["encoding"] = {
        "x": {
            "field": "version",
            "type": "ordinal",
            "sort": list(versions),
            "scale": {
                "domain": list(versions),
                "paddingInner": BAR_GAP,
                "paddingOuter": BAR_GAP / 2,
            },
            "title": "version (oldest to newest)",
            "axis": {"labelAngle": -30, "labelLimit": 140},
        },
        "y": {
            "field": "count",
            "type": "quantitative",
            "title": "questions",
            "stack": True,
            "scale": {"domain": [0, ticks[-1]]},
            "axis": {"values": ticks, "format": "d"},
        },
        "color": {
            "field": "cell",
            "type": "nominal",
            "title": "cell",
            "sort": names,
            "scale": {"domain": names, "range": [CELL_COLOURS[key] for key in CELL_NAMES]},
        },
        "order": {"field": "order", "type": "quantitative"},
        "tooltip": [
            {"field": "version", "type": "ordinal"},
            {"field": "cell", "type": "nominal"},
            {"field": "count", "type": "quantitative"},
        ],
    }
    if gold_changes:
        _mark_gold_changes(spec, versions, gold_changes, bars=True)
    return spec


def cutoff_chart_spec(
    run: str,
    points: Sequence[dict[str, Any]],
    cutoff: float | None,
    band: tuple[float, float] | None = None,
    band_label: str = "",
) -> dict[str, Any]:
    """Top-1 score of each question, answerable above unanswerable, cutoff drawn.

    ``points`` are ``{"qid", "group", "score"}`` records, group ``answerable`` or
    ``unanswerable``; ``band`` shades the gap or the overlap. Groups are named on the
    axis, so colour is never the only cue.
    """
    groups = ["answerable", "unanswerable"]
    layers: list[dict[str, Any]] = []
    if band is not None:
        layers.append(
            {
                "data": {"values": [{"low": band[0], "high": band[1], "label": band_label}]},
                "mark": {"type": "rect", "color": "#bbbbbb", "opacity": 0.35},
                "encoding": {
                    "x": {"field": "low", "type": "quantitative"},
                    "x2": {"field": "high"},
                },
            }
        )
    layers.append(
        {
            "mark": {"type": "tick", "thickness": 2, "size": 26, "opacity": 0.8},
            "encoding": {
                "x": {
                    "field": "score",
                    "type": "quantitative",
                    "title": "top-1 score",
                    "scale": {"zero": False, "nice": True},
                    "axis": {"tickCount": 8},
                },
                "y": {"field": "group", "type": "nominal", "title": None, "sort": groups},
                "color": {
                    "field": "group",
                    "type": "nominal",
                    "scale": {"domain": groups, "range": [PALETTE[0], PALETTE[5]]},
                    "legend": None,
                },
            },
        }
    )
    if cutoff is not None:
        rule = {"data": {"values": [{"cutoff": cutoff, "label": f"cutoff {cutoff:.4g}"}]}}
        x = {"field": "cutoff", "type": "quantitative"}
        layers.append(
            rule
            | {
                "mark": {"type": "rule", "color": "#222222", "strokeDash": [5, 3]},
                "encoding": {"x": x},
            }
        )
        layers.append(
            rule
            | {
                "mark": {"type": "text", "align": "left", "dx": 4, "dy": -2, "baseline": "top"},
                "encoding": {"x": x, "y": {"value": 0}, "text": {"field": "label"}},
            }
        )
    return {
        "$schema": SCHEMA,
        "title": {"text": f"{run}: top-1 score per question", "anchor": "start", "fontSize": 14},
        "width": CUTOFF_WIDTH,
        "height": 110,
        "data": {"values": [dict(point) for point in points]},
        "layer": layers,
        "padding": {"left": 16, "right": 8, "top": 4, "bottom": 4},
        # ticks readable when a phone scales the chart down (at least 11 px on screen)
        "config": {
            "view": {"stroke": None},
            "axis": {"labelFontSize": 14, "titleFontSize": 13},
            "legend": {"labelFontSize": 13, "titleFontSize": 13},
            "text": {"fontSize": 13},
        },
    }


def top_score_frame(points: TopScores) -> pl.DataFrame:
    """A run's top-1 scores (``pages.top_scores``) as a frame: qid, group, score."""
    unanswerable = pl.lit(pl.Series(points["unanswerable"], dtype=pl.String)).implode()
    return pl.DataFrame(
        {"qid": list(points["scores"]), "score": list(points["scores"].values())},
        schema={"qid": pl.String, "score": pl.Float64},
    ).select(
        "qid",
        group=pl.when(pl.col("qid").is_in(unanswerable))
        .then(pl.lit(UNANSWERABLE))
        .otherwise(pl.lit(ANSWERABLE)),
        score="score",
    )


CUTOFF_STEM = re.compile(r"cutoff_(?:0|[1-9][0-9]{0,5})")
"""Every stem :func:`cutoff_stem` gives (for up to a million runs)."""


def cutoff_stem(index: int) -> str:
    """File stem of the cutoff chart of the index-th run in report["cutoff"]."""
    return f"cutoff_{index}"


def cutoff_chart_specs(report: Report) -> dict[str, dict[str, Any]]:
    """The cutoff chart spec of every run that has a cutoff analysis, by file stem."""
    analyses = report["pages"]["top_scores"]
    specs = {}
    for index, (run, section) in enumerate(report["cutoff"].items()):
        if section["reason"] is not None or run not in analyses:
            continue
        band = section["gap"] or section["overlap"]
        specs[cutoff_stem(index)] = cutoff_chart_spec(
            run,
            top_score_frame(analyses[run]).to_dicts(),
            section["cutoff"],
            None if band is None else (band[0], band[1]),
            "gap" if section["gap"] else "overlap",
        )
    return specs


def warm_up_specs() -> list[Spec]:
    """Small charts of a report's kinds, from made-up values (a curve by k, a cutoff
    strip, the chunkings' points), that the chart worker draws while it waits for the
    report's: each kind's first chart costs vl-convert up to twice a later one."""
    ks = [1, 3, 5, 10]
    means = {f"recall@{k}": k / 10 for k in ks} | {"context_chars@5": 900, "span_recall@5": 0.5}
    runs = {"bm25": {"means": means}, "dense": {"means": means}}
    report = cast(Report, {"k": ks, "context_k": 5, "runs": runs, "chunkings": {"runs": runs}})
    points = [
        {"qid": f"q{i}", "group": (ANSWERABLE, UNANSWERABLE)[i % 2], "score": i / 10}
        for i in range(10)
    ]
    return [
        at_k_curve_spec(report, "recall", "recall@k"),
        cutoff_chart_spec("bm25", points, 0.45, (0.4, 0.5), "gap"),
        *filter(None, [chunkings_spec(report)]),
    ]


def page_chart_specs(report: Report) -> dict[str, Spec]:
    """Every chart a report's pages show, by file stem: the report's and the cutoffs'."""
    return report_chart_specs(report) | cutoff_chart_specs(report)
