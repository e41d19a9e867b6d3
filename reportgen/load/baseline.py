"""A previous report to compare against: its report.json and its per-question values.

The baseline may be given as the report.json itself, the folder it sits in, or a
published site folder: then its latest version is the one ``history.jsonl`` names
last by ``created`` (one JSON object per line with ``version``, ``created`` and
``path``), or, without a history, the newest ``*/report.json`` by ``created``.
Comparisons are paired by question, so the per-question file written beside
report.json (per_question.parquet or per_question.csv) is required.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from reportgen.errors import InputError
from reportgen.load.per_question import read_per_question
from reportgen.load.published import history_entries, read_report

REQUIRED_KEYS = ("version", "created", "settings", "gold", "runs", "gold.fingerprint")
BASELINE_FIX = "give a previous report's folder (report.json with per_question.csv beside it)"


@dataclass(frozen=True)
class Baseline:
    """A previous report: the dict it wrote and its per-question values."""

    path: Path
    """The report.json that was read."""
    report: dict[str, Any]
    per_question: pl.DataFrame


def load_baseline(path: str | Path) -> Baseline:
    report_path = find_report(Path(path))
    report = _read_report(report_path)
    return Baseline(report_path, report, _read_per_question(report_path.parent))


def find_report(path: Path) -> Path:
    """The report.json that ``path`` stands for (file, report folder or site folder)."""
    if path.is_file():
        return path
    if not path.exists():
        raise InputError(path, "no such file or folder", BASELINE_FIX)
    if (path / "report.json").is_file():
        return path / "report.json"
    if (path / "history.jsonl").is_file():
        return _latest_in_history(path, path / "history.jsonl")
    candidates = sorted(path.glob("*/report.json"))
    if not candidates:
        raise InputError(
            path,
            "no report.json here, nor a published site (history.jsonl or */report.json)",
            BASELINE_FIX,
        )
    return max(candidates, key=lambda p: (str(_read_report(p)["created"]), str(p)))


def _latest_in_history(site: Path, history: Path) -> Path:
    entries = [
        (str(entry["created"]), number, site / str(entry["path"]))
        for number, entry in history_entries(history, ("version", "created", "path"))
    ]
    if not entries:
        raise InputError(history, "the history is empty", "publish a version first")
    _, number, target = max(entries)
    report = target / "report.json" if target.is_dir() else target
    if not report.is_file():
        raise InputError(
            history,
            f"the latest version's report is missing ({report})",
            "republish the site, or give that version's folder with --baseline",
            number,
        )
    return report


def _read_report(path: Path) -> dict[str, Any]:
    return read_report(path, REQUIRED_KEYS, BASELINE_FIX)


def _read_per_question(folder: Path) -> pl.DataFrame:
    parquet, csv = folder / "per_question.parquet", folder / "per_question.csv"
    source = parquet if parquet.is_file() else csv
    if not source.is_file():
        raise InputError(
            csv,
            "the baseline's per-question values are missing; comparisons are paired by "
            "question and need them",
            "keep per_question.csv (or .parquet) beside report.json when you publish",
        )
    return read_per_question(source, BASELINE_FIX)
