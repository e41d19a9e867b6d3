"""Read what reportgen wrote before: a report folder, and a site's history.

``publish`` copies a report folder into a site; it reads report.json to learn the
version and the headline numbers, and history.jsonl to draw the trends.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from reportgen.errors import InputError

REPORT_KEYS = ("format_version", "version", "created", "context_k", "gold", "runs")


def load_report_dir(report_dir: Path) -> dict[str, Any]:
    """report.json of a folder written by ``reportgen report`` or ``reportgen demo``."""
    path = report_dir / "report.json"
    if not path.is_file():
        raise InputError(
            path,
            "no report.json in this folder",
            "give the folder that `reportgen report --out` or `reportgen demo --out` wrote",
        )
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        line = getattr(error, "lineno", None)
        raise InputError(path, f"not valid JSON ({error})", "re-run reportgen", line) from None
    missing = [key for key in REPORT_KEYS if not isinstance(report, dict) or key not in report]
    if missing:
        raise InputError(
            path,
            f"not a reportgen report (no {missing[0]!r})",
            "give the folder that `reportgen report --out` wrote",
        )
    return dict(report)


def load_history(path: Path) -> list[dict[str, Any]]:
    """Every line of a site's history.jsonl (empty when the site is new)."""
    if not path.is_file():
        return []
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as error:
            raise InputError(
                path,
                f"line is not valid JSON ({error.msg})",
                "restore history.jsonl from version control; it is append-only",
                number,
            ) from None
        if not isinstance(entry, dict) or "version" not in entry or "created" not in entry:
            raise InputError(
                path,
                "entry lacks 'version' or 'created'",
                "restore history.jsonl from version control; it is append-only",
                number,
            )
        entries.append(entry)
    return entries
