"""The sections of report.json every way in must agree on, and the first place two differ."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

Report = dict[str, Any]

_CELLS = ("k", "rule", "n", "cells", "shares", "focus", "pass_rate", "questions")


def _per_run(section: str, keys: Iterable[str] | None = None) -> Callable[[Report], Any]:
    def pick(report: Report) -> Any:
        found = report.get(section) or {}
        if keys is None:
            return found
        return {run: {key: value.get(key) for key in keys} for run, value in found.items()}

    return pick


SECTIONS: dict[str, Callable[[Report], Any]] = {
    "means": _per_run("runs", ("n", "means")),
    "by_kind": _per_run("runs", ("by_kind",)),
    "cells": _per_run("attribution", _CELLS),
    "by_coverage": _per_run("attribution", ("by_coverage",)),
    "cells_by_kind": _per_run("attribution", ("by_kind",)),
    "unanswerable": _per_run("attribution", ("unanswerable",)),
    "cutoff": lambda report: report.get("cutoff"),
    "comparisons": lambda report: report.get("comparisons"),
}
"""What a number-changing option moves: the means, the four cells and the pass rate by
coverage, the cutoff on top-1 scores and the paired comparisons (bootstrap seeded)."""


def first_difference(expected: Any, got: Any, path: str = "") -> str | None:
    """The first key path where ``got`` differs from ``expected``, with both values."""
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in sorted(set(expected) | set(got), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in expected or key not in got:
                side = "got" if key in got else "expected"
                return f"{where}: only in {side} ({(got if key in got else expected)[key]!r:.100})"
            if (found := first_difference(expected[key], got[key], where)) is not None:
                return found
        return None
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        for i, (a, b) in enumerate(zip(expected, got, strict=True)):
            if (found := first_difference(a, b, f"{path}[{i}]")) is not None:
                return found
        return None
    if type(expected) is type(got) and expected == got:
        return None
    return f"{path}: expected {expected!r:.120}, got {got!r:.120}"


def without(value: Any, key: str) -> Any:
    """``value`` with ``key`` dropped at every depth (a path that cannot carry it)."""
    if isinstance(value, dict):
        return {k: without(v, key) for k, v in value.items() if k != key}
    if isinstance(value, list):
        return [without(v, key) for v in value]
    return value


def difference(
    expected: Report, got: Report, sections: Iterable[str], kinds: bool = True
) -> str | None:
    """The first difference over ``sections``, named by section, key path and both values;
    ``kinds`` False leaves out the kind each changed question is listed with."""
    for name in sections:
        first, second = SECTIONS[name](expected), SECTIONS[name](got)
        if not kinds:
            first, second = without(first, "kind"), without(second, "kind")
        if (found := first_difference(first, second)) is not None:
            return f"{name}: {found}"
    return None
