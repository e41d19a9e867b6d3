"""report.json's slice sections, laid out from the slice analysis (analyse/slices.py).

``runs.<run>.by_slice.<field>.<value>``: the slice's questions, ``n``, every mean and
its 95% interval, written exactly as the run's own (rounded the same way), so that a
report on the gold set filtered to the slice has the same numbers.
``attribution.<run>.by_slice``: its four cells, pass rate and unanswerable outcomes.
``slices``: the fields, the missing-value name and each field's comparisons.
"""

from __future__ import annotations

from typing import Any

from reportgen.analyse.run import Findings
from reportgen.analyse.slices import MISSING, SliceNumbers
from reportgen.report.answers import cells_section
from reportgen.schema import rounded


def _numbers(numbers: SliceNumbers) -> dict[str, Any]:
    return {
        "questions": numbers.questions,
        "n": numbers.n,
        "means": {key: rounded(value) for key, value in numbers.means.items()},
        "intervals": {
            key: None if bounds is None else [rounded(bounds[0]), rounded(bounds[1])]
            for key, bounds in numbers.intervals.items()
        },
    }


def run_by_slice(findings: Findings, run: str) -> dict[str, Any]:
    """``runs.<run>.by_slice``: {} without --slice-by (the key is always there)."""
    if findings.slices is None:
        return {}
    return {
        name: {value: _numbers(numbers) for value, numbers in values.items()}
        for name, values in findings.slices.numbers[run].items()
    }


def attribution_by_slice(findings: Findings, run: str) -> dict[str, Any]:
    """``attribution.<run>.by_slice``: the cells of each slice of the judged run."""
    if findings.slices is None or run not in findings.slices.cells:
        return {}
    return {
        name: {
            value: {**cells_section(found["summary"]), "unanswerable": found["unanswerable"]}
            for value, found in values.items()
        }
        for name, values in findings.slices.cells[run].items()
    }


def slices_section(findings: Findings) -> dict[str, Any] | None:
    """``slices``: null without --slice-by."""
    found = findings.slices
    if found is None:
        return None
    slicing = found.slicing
    return {
        "fields": list(slicing.all_fields),
        "missing_value": MISSING,
        "gate_field": slicing.gate,
        "min_slice_n": slicing.min_n,
        "questions": {
            name: {
                value: count
                for value, count in members.group_by("value").len().sort("value").iter_rows()
            }
            for name, members in found.members.items()
        },
        "comparisons": found.comparisons,
        "not_compared": [name for name in slicing.all_fields if name not in found.comparisons],
    }
