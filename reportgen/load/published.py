"""Read what reportgen wrote before: a report folder, and a site's history.

``publish`` copies a report folder into a site; it reads report.json to learn the
version and the headline numbers, and history.jsonl to draw the trends.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reportgen.errors import InputError
from reportgen.labels import LABEL_FIX, label_problem
from reportgen.load.text import UnreadableJSON, decode, json_document, read_bytes, strict_loads

REPORT_KEYS = ("format_version", "version", "created", "context_k", "gold", "runs")


def read_report(path: Path, required: Sequence[str], fix: str) -> dict[str, Any]:
    """A report.json that reportgen wrote, holding every ``required`` key.

    A dotted key (``gold.fingerprint``) names a key inside an object. Baselines,
    shards and ``publish`` all read reports through here, so a broken one reads the
    same whichever command finds it.
    """
    report = json_document(path, fix)
    if not isinstance(report, dict):
        raise InputError(path, "not a reportgen report (no JSON object)", fix)
    for key in required:
        value: Any = report
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is None:
            raise InputError(path, f"not a reportgen report (no {key!r})", fix)
    return report


def load_report_dir(report_dir: Path) -> dict[str, Any]:
    """report.json of a folder written by ``reportgen report`` or ``reportgen demo``."""
    path = report_dir / "report.json"
    fix = "give the folder that `reportgen report --out` or `reportgen demo --out` wrote"
    if not path.is_file():
        raise InputError(path, "no report.json in this folder", fix)
    return read_report(path, REPORT_KEYS, fix)


HISTORY_FIX = "restore history.jsonl from version control; it is append-only"


def history_entries(path: Path, required: Sequence[str]) -> list[tuple[int, dict[str, Any]]]:
    """history.jsonl's entries with their line numbers; each must hold ``required``.

    A label that could not name a folder (``../x``, ``CON``) is refused here, so that
    nothing read from a history ever builds a path outside the site.
    """
    entries = []
    for number, line in enumerate(decode(path, read_bytes(path)).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = strict_loads(line)
        except json.JSONDecodeError as error:
            raise InputError(path, f"not JSON ({error.msg})", HISTORY_FIX, number) from None
        except UnreadableJSON as error:
            raise InputError(path, error.problem, HISTORY_FIX, number) from None
        missing = [key for key in required if not isinstance(entry, dict) or key not in entry]
        if missing:
            raise InputError(
                path,
                f"the entry lacks {', '.join(repr(key) for key in missing)}",
                HISTORY_FIX,
                number,
            )
        if "version" in required:
            version = entry["version"]
            problem = (
                label_problem(version) if isinstance(version, str) else "the version is not text"
            )
            if problem is not None:
                raise InputError(path, problem, f"{HISTORY_FIX}; {LABEL_FIX}", number)
        entries.append((number, entry))
    return entries


def load_history(path: Path) -> list[dict[str, Any]]:
    """Every entry of a site's history.jsonl (empty when the site is new)."""
    if not path.is_file():
        return []
    return [entry for _, entry in history_entries(path, ("version", "created"))]
