"""The published site's history per slice of the gated field (``--slice-gate``): each
history.jsonl line keeps the slices' headline means, and the front page draws a trend
per run and slice, so a regression confined to one language shows across versions too."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportgen.render.chart_engine import Spec
from reportgen.render.charts import trend_spec

TRENDED_SLICES = 12
"""Series the slices' trend draws at most (run x slice, in the newest version's order)."""


def slices_entry(report: dict[str, Any], measures: Sequence[str]) -> dict[str, Any] | None:
    """history.jsonl's ``slices``: the gated field and, per run and slice, its ``n`` and
    headline means at k_ctx; None without --slice-gate."""
    section = report.get("slices")
    if not isinstance(section, dict) or not isinstance(section.get("gate_field"), str):
        return None
    name = section["gate_field"]
    k = report["context_k"]
    runs = {}
    for run, found in report["runs"].items():
        values = (found.get("by_slice") or {}).get(name) or {}
        runs[run] = {
            value: {"n": numbers["n"], **{m: numbers["means"].get(f"{m}@{k}") for m in measures}}
            for value, numbers in values.items()
        }
    return {"field": name, "runs": runs}


def slices_trend_specs(
    entries: Sequence[dict[str, Any]],
    segments: Sequence[int],
    changes: list[str],
    key: str,
) -> dict[str, Spec]:
    """``key``@k_ctx of each run and slice of the gated field across versions (the
    newest version's field), broken where the gold set changes (``segments``, one per
    entry); none when no version gated slices."""
    sliced = [
        (entry, segment)
        for entry, segment in zip(entries, segments, strict=True)
        if isinstance(entry.get("slices"), dict)
    ]
    if not sliced:
        return {}
    name = sliced[-1][0]["slices"]["field"]
    versions = [entry["version"] for entry in entries]
    rows = [
        {
            "version": entry["version"],
            "run": f"{run} {name}={value}",
            "value": numbers[key],
            "segment": segment,
        }
        for entry, segment in sliced
        if entry["slices"]["field"] == name
        for run, values in entry["slices"]["runs"].items()
        for value, numbers in values.items()
        if numbers.get(key) is not None
    ]
    kept = list(dict.fromkeys(row["run"] for row in reversed(rows)))[:TRENDED_SLICES]
    rows = [row for row in rows if row["run"] in kept]
    if not rows:
        return {}
    return {"trend_slices": trend_spec(rows, versions, f"{key}@k_ctx per slice of {name}", changes)}
