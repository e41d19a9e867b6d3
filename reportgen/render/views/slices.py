"""Slices where people look: the worst slice on the first screen, a slice x run table on
the pages, the slices that moved in summary.md, read from report.json's ``slices``,
``runs.<run>.by_slice`` and the gate's per-slice rules (``--slice-by``, ``--slice-gate``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from reportgen.core.records import dataclass
from reportgen.render.views.common import Cell, Table, fmt, fmt_interval
from reportgen.schema import Report

MOVED_SHOWN = 5
"""Slices summary.md lists, a line each (the ones labelled better or worse, worst first):
the PR comment grows by five lines at most."""
MOVED = ("worse", "better")
CHART = "slices"
"""The chart's file stem: charts/slices.svg."""


def compared_field(report: Report) -> str | None:
    """The field whose slices are compared, charted and filtered: the gated one, else
    the first (analyse/slices.py's ``compared_fields``)."""
    section: Any = report.get("slices")
    if not section or not section["fields"]:
        return None
    return str(section.get("gate_field") or section["fields"][0])


def _recall(report: Report) -> str:
    return f"recall@{report['context_k']}"


def _slice_changes(report: Report) -> list[dict[str, Any]]:
    """Every slice comparison on recall at k_ctx, with its field, worst change first."""
    section: Any = report.get("slices") or {}
    key = _recall(report)
    found = []
    for name, compared in (section.get("comparisons") or {}).items():
        for entry in compared["slices"]:
            measure = entry["measures"].get(key)
            if measure is not None:
                found.append({"field": name, **entry, "measure": measure})
    return sorted(found, key=lambda e: (e["measure"]["difference"], e["field"], e["value"]))


def _change_text(entry: dict[str, Any], key: str) -> str:
    measure = entry["measure"]
    against = "the baseline" if entry["against"] == "baseline" else f"run {entry['against']}"
    return (
        f"{entry['field']}={entry['value']}: {key} {fmt(measure['before'])} -> "
        f"{fmt(measure['after'])} ({measure['difference']:+.3f}, {measure['label']}) on run "
        f"{entry['run']} against {against}, {entry['n']} questions"
    )


def worst_slice_alerts(report: Report) -> list[str]:
    """The first screen's line on slices: the worst failed slice rule, else the worst
    slice whose change is labelled worse; none when no slice failed or regressed."""
    gate: Any = report.get("gate") or {}
    failed = [rule for rule in gate.get("rules") or [] if rule.get("slice") and not rule["passed"]]
    if failed:
        worst = max(failed, key=lambda rule: rule.get("drop") or 0.0)
        more = f" ({len(failed) - 1} more slice rules failed)" if len(failed) > 1 else ""
        return [f"Worst slice: {worst['message']}{more}"]
    worse = [entry for entry in _slice_changes(report) if entry["measure"]["label"] == "worse"]
    if worse:
        return [f"Worst slice: {_change_text(worse[0], _recall(report))}"]
    return []


def moved_slice_lines(report: Report) -> list[str]:
    """summary.md's slices that moved (better or worse, labelled so), worst first."""
    key = _recall(report)
    moved = [entry for entry in _slice_changes(report) if entry["measure"]["label"] in MOVED]
    return [_change_text(entry, key) for entry in moved[:MOVED_SHOWN]]


def slice_order(report: Report, field: str) -> list[str]:
    """A field's values as the table and the chart show them: the largest drop (of any
    run, against the baseline or the run compared) first; uncompared ones after, by name."""
    section: Any = report.get("slices") or {}
    values = list(section.get("questions", {}).get(field, {}))
    worst: dict[str, float] = {}
    for entry in _slice_changes(report):
        if entry["field"] == field:
            worst.setdefault(entry["value"], entry["measure"]["difference"])
    return sorted(values, key=lambda value: worst.get(value, 0.0))


@dataclass(frozen=True)
class SlicesView:
    intro: str
    tables: list[Table]
    not_gated: str
    svg: Markup | None = None
    chart_stem: str = CHART

    @property
    def caption(self) -> str:
        return "Recall at k_ctx per slice and run, with 95% intervals; the largest drop first."


def slices_view(report: Report, charts: Mapping[str, bytes]) -> SlicesView | None:
    """One table per field: a row per slice, a column per run (recall at k_ctx with its
    interval), and the change against the baseline (or the first run) with its label;
    rows sorted by that change, worst first."""
    section = report.get("slices")
    if not section:
        return None
    key = _recall(report)
    runs = list(report["runs"])
    changes = {
        (entry["field"], entry["value"], entry["run"]): entry for entry in _slice_changes(report)
    }
    tables = []
    for name in section["fields"]:
        values = list(section["questions"][name])
        header = ["slice", "questions", *(f"{run} {key}" for run in runs), "change (worst)"]
        rows: list[tuple[float, list[Cell]]] = []
        for value in values:
            cells = [Cell(f"{name}={value}"), Cell(str(section["questions"][name][value]))]
            for run in runs:
                numbers = report["runs"][run].get("by_slice", {}).get(name, {}).get(value)
                cells.append(
                    Cell("n/a")
                    if numbers is None
                    else Cell(
                        fmt(numbers["means"].get(key)),
                        note=fmt_interval(numbers["intervals"].get(key)),
                    )
                )
            moved = [changes[(name, value, run)] for run in runs if (name, value, run) in changes]
            worst = min(moved, key=lambda e: e["measure"]["difference"], default=None)
            if worst is None:
                cells.append(Cell(""))
                rows.append((0.0, cells))
                continue
            measure = worst["measure"]
            cells.append(Cell(f"{measure['difference']:+.3f} {measure['label']} ({worst['run']})"))
            rows.append((measure["difference"], cells))
        rows.sort(key=lambda row: row[0])
        tables.append(Table(f"Slices by {name}", header, [cells for _, cells in rows]))
    whole: Any = report.get("gate") or {}
    gate = whole.get("slices")
    not_gated = ""
    if gate and gate["not_gated"]:
        listed = ", ".join(f"{gate['field']}={s['value']} ({s['n']})" for s in gate["not_gated"])
        not_gated = f"Not gated (fewer than {gate['min_n']} questions): {listed}."
    compared = section.get("comparisons") or {}
    correction = next(iter(compared.values()))["correction"] if compared else ""
    intro = (
        f"Every number per slice of the questions ({', '.join(section['fields'])}); "
        f"a question without a value is in {section['missing_value']}. Changes on {key}: "
        f"{correction}."
        if correction
        else "Every number per slice of the questions."
    )
    svg = charts.get(f"{CHART}.svg")
    return SlicesView(intro, tables, not_gated, None if svg is None else Markup(svg.decode()))
