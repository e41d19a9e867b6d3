"""The versioned site: one folder per report version, an index with trends, a history.

``publish`` copies a report folder to ``SITE/<version>/``, appends one line to
``SITE/history.jsonl`` and rebuilds ``SITE/index.html`` from that history. Everything
is built in a staging folder inside SITE first; the version folder is then swapped in
by rename, history and index are replaced by rename, so a failure or a kill leaves the
previous site readable. Re-publishing a version replaces that folder only.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from markupsafe import Markup

from reportgen.charts import CELL_KEYS, Spec, cells_trend_spec, render_charts, trend_spec
from reportgen.errors import UsageError
from reportgen.labels import check_version_label
from reportgen.load.published import load_history, load_report_dir
from reportgen.output import atomic_write
from reportgen.render import Figure, environment, fmt, page_assets
from reportgen.report import Report, created_at

HISTORY = "history.jsonl"
INDEX = "index.html"
HEADLINE_MEASURES = (
    ("hit", "hit"),
    ("recall", "recall"),
    ("precision", "precision"),
    ("mrr", "MRR"),
)
"""The measures of the headline line, at each version's k_ctx: (key, title)."""

PUBLISHED_FILES = re.compile(
    r"^(index\.html|report\.md|summary\.md|report\.json|per_question\.(csv|parquet)"
    r"|charts/[\w.-]+\.(svg|png))$"
)
"""What a report folder holds that belongs on the site; anything else there is left."""


def history_entry(report: Report, published: str) -> dict[str, Any]:
    """The line history.jsonl keeps for one publication: enough to draw the trends."""
    k = report["context_k"]
    gold = report["gold"]
    return {
        "version": report["version"],
        "created": report["created"],
        "published": published,
        "tool_version": report.get("tool_version"),
        "gold": {
            "version": gold.get("version"),
            "fingerprint": gold.get("fingerprint"),
            "questions": gold.get("questions"),
        },
        "context_k": k,
        "runs": {
            name: {
                "n": run.get("n"),
                **{key: run["means"].get(f"{key}@{k}") for key, _ in HEADLINE_MEASURES},
            }
            for name, run in report["runs"].items()
        },
        "cells": {
            name: attribution["cells"]
            for name, attribution in report.get("attribution", {}).items()
        },
    }


def latest_by_version(history: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last publication of each version, oldest first by creation time.

    Time, not label text: labels sorted as text put v10 before v2.
    """
    latest = {}
    for position, entry in enumerate(history):
        latest[entry["version"]] = (entry["created"], position, entry)
    return [entry for _, _, entry in sorted(latest.values(), key=lambda item: item[:2])]


def trend_specs(entries: Sequence[dict[str, Any]]) -> dict[str, Spec]:
    """Headline measures and the four cells across versions (oldest first)."""
    versions = [entry["version"] for entry in entries]
    specs = {}
    for key, title in HEADLINE_MEASURES:
        rows = [
            {"version": entry["version"], "run": name, "value": values[key]}
            for entry in entries
            for name, values in entry["runs"].items()
            if values.get(key) is not None
        ]
        specs[f"trend_{key}"] = trend_spec(rows, versions, f"{title}@k_ctx")
    for name in dict.fromkeys(run for entry in entries for run in entry.get("cells", {})):
        rows = [
            {"version": entry["version"], "cell": label, "count": cells.get(key, 0), "order": i}
            for entry in entries
            if (cells := entry.get("cells", {}).get(name))
            for i, (key, label) in enumerate(CELL_KEYS.items())
        ]
        spec = cells_trend_spec(rows, versions)
        spec["title"]["text"] = f"{name}: the four cells across versions"
        specs[f"cells_{len(specs)}"] = spec
    return specs


@dataclass(frozen=True)
class VersionRow:
    version: str
    created: str
    gold: str
    headline: list[str]
    links: list[tuple[str, str]]


def version_rows(
    entries: Sequence[dict[str, Any]], folders: Mapping[str, Path]
) -> list[VersionRow]:
    """Newest first; links only to the files that the version folder holds."""
    rows = []
    for entry in reversed(entries):
        version = entry["version"]
        k = entry["context_k"]
        gold = entry["gold"]
        names = (("HTML", INDEX), ("Markdown", "report.md"), ("JSON", "report.json"))
        rows.append(
            VersionRow(
                version=version,
                created=entry["created"],
                gold=f"{gold.get('version') or 'unversioned'} ({gold.get('fingerprint')})",
                headline=[
                    f"{name}: "
                    + " | ".join(
                        f"{title}@{k} {fmt(values.get(key))}" for key, title in HEADLINE_MEASURES
                    )
                    for name, values in entry["runs"].items()
                ],
                links=[
                    (label, f"{version}/{file}")
                    for label, file in names
                    if (folders[version] / file).is_file()
                ],
            )
        )
    return rows


def render_index(history: Sequence[dict[str, Any]], folders: Mapping[str, Path]) -> str:
    """The site's front page, from the history of the versions that have a folder."""
    entries = [entry for entry in latest_by_version(history) if entry["version"] in folders]
    charts = render_charts(trend_specs(entries)) if entries else {}
    figures = [
        Figure(name.removesuffix(".svg"), Markup(data.decode()), "")
        for name, data in charts.items()
    ]
    return (
        environment()
        .get_template("site_index.html.j2")
        .render(
            title="Retrieval reports",
            versions=version_rows(entries, folders),
            figures=figures,
            assets=page_assets(),
        )
    )


@dataclass(frozen=True)
class Published:
    version: str
    folder: Path
    index: Path


def _report_files(report_dir: Path) -> list[Path]:
    return sorted(
        path.relative_to(report_dir)
        for path in report_dir.rglob("*")
        if path.is_file() and PUBLISHED_FILES.match(path.relative_to(report_dir).as_posix())
    )


def publish(report_dir: str | Path, site: str | Path) -> Published:
    """Put the report of ``report_dir`` at ``site/<version>/`` and rebuild the index."""
    report_dir, site = Path(report_dir), Path(site)
    report = load_report_dir(report_dir)
    version = check_version_label(str(report["version"]))
    if site.exists() and not site.is_dir():
        raise UsageError(f"--site {site} is a file", "give a folder (created when missing)")
    site.mkdir(parents=True, exist_ok=True)
    history_path = site / HISTORY
    history = load_history(history_path)
    entry = history_entry(report, created_at().strftime("%Y-%m-%dT%H:%M:%SZ"))
    line = json.dumps(entry, ensure_ascii=False) + "\n"
    staging = Path(tempfile.mkdtemp(prefix=".publish-", dir=site))
    try:
        staged = staging / version
        for relative in _report_files(report_dir):
            (staged / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(report_dir / relative, staged / relative)
        folders = {
            item["version"]: site / item["version"]
            for item in history
            if (site / item["version"]).is_dir()
        }
        index = render_index([*history, entry], {**folders, version: staged}).encode()
        old = history_path.read_bytes() if history_path.is_file() else b""
        _swap_in(staged, site / version, staging / "previous")
        atomic_write(history_path, old + line.encode())
        atomic_write(site / INDEX, index)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return Published(version=version, folder=site / version, index=site / INDEX)


def _swap_in(staged: Path, target: Path, aside: Path) -> None:
    """Replace ``target`` with ``staged`` by two renames; put the old one back on failure."""
    had_previous = target.exists()
    if had_previous:
        target.rename(aside)
    try:
        staged.rename(target)
    except BaseException:
        if had_previous:
            aside.rename(target)
        raise
