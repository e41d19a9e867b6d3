"""Vega-Lite specs as plain dicts: pure functions of values already computed.

Rendering them (vl-convert, once per process) is the renderer's job; a spec here
never reads a file or computes a measure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json"


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
                    "scale": {"domain": groups, "range": ["#4c78a8", "#e45756"]},
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
        "title": {"text": f"{run}: top-1 score per question", "anchor": "start"},
        "width": 560,
        "height": 110,
        "data": {"values": [dict(point) for point in points]},
        "layer": layers,
        "padding": {"left": 16, "right": 8, "top": 4, "bottom": 4},
        "config": {"view": {"stroke": None}},
    }
