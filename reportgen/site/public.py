"""What ``publish --public`` puts on a site: ids and numbers, no question or chunk text.

GitHub Pages sites are public even for most private repositories, and a report's pages
quote the gold set's questions and the chunks sent to the model. A public version is
rebuilt from a copy of report.json with every question text and chunk text left out
(and any other string that quotes one), the pages rendered again from that copy, and
the per-question file cut to its ids and numbers. It stays a baseline: comparisons
read ids and numbers only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import polars as pl

from reportgen.load.previous.per_question import read_per_question
from reportgen.render.output import per_question_bytes, report_json
from reportgen.render.page_files import page_files
from reportgen.schema import Report

LEFT_OUT = "[left out: published with --public]"
KEY_COLUMNS = ("run", "qid", "kind", "status")
SHORTEST_QUOTED = 8
"""Texts shorter than this are not searched for in other strings (a question "Why?"
would otherwise blank every word of the report)."""
PAGE_FORMATS = {"html": ("index.html",), "md": ("report.md", "summary.md")}


def public_files(report_dir: Path, report: dict[str, Any]) -> dict[str, bytes]:
    """The files of a public version, by path relative to its folder."""
    texts = _texts(report)
    public = _scrubbed(_without_texts(report), texts)
    files = {"report.json": report_json(cast(Report, public)).encode()}
    per_question = None
    for fmt in ("parquet", "csv"):
        source = report_dir / f"per_question.{fmt}"
        if source.is_file():
            per_question = source.name
            files[source.name] = per_question_bytes(_numbers_only(source), fmt)
            break
    formats = [
        fmt
        for fmt, names in PAGE_FORMATS.items()
        if any((report_dir / name).is_file() for name in names)
    ]
    if formats and per_question is not None and isinstance(public.get("pages"), dict):
        chart_png = any((report_dir / "charts").glob("*.png"))
        files |= page_files(cast(Report, public), formats, per_question, chart_png=chart_png)
    return files


def _texts(report: dict[str, Any]) -> set[str]:
    """Every question and chunk text report.json holds (the pages' rows and panels)."""
    pages = report.get("pages")
    if not isinstance(pages, dict):
        return set()
    texts = {row.get("question") for row in pages.get("questions") or []}
    for panel in pages.get("panels") or []:
        texts.add(panel.get("question"))
        texts |= {chunk.get("text") for chunk in panel.get("sent") or []}
        for passage in panel.get("evidence") or []:
            texts |= {passage.get(key) for key in ("before", "text", "after")}
    return {text for text in texts if isinstance(text, str) and text.strip()}


def _without_texts(report: dict[str, Any]) -> dict[str, Any]:
    """report.json with the text fields of the pages' rows and panels set to null."""
    pages = report.get("pages")
    if not isinstance(pages, dict):
        return report
    panels = [
        {
            **panel,
            "question": None,
            "sent": [{**chunk, "text": None, "marks": []} for chunk in panel.get("sent") or []],
            "evidence": [
                {**passage, "before": None, "text": None, "after": None}
                for passage in panel.get("evidence") or []
            ],
        }
        for panel in pages.get("panels") or []
    ]
    questions = [{**row, "question": None} for row in pages.get("questions") or []]
    return {**report, "pages": {**pages, "questions": questions, "panels": panels}}


def _scrubbed(value: Any, texts: set[str]) -> Any:
    """``value`` with every string that quotes one of ``texts`` replaced by a note."""
    if isinstance(value, dict):
        return {key: _scrubbed(item, texts) for key, item in value.items()}
    if isinstance(value, list):
        return [_scrubbed(item, texts) for item in value]
    if isinstance(value, str) and any(
        text in value for text in texts if len(text) >= SHORTEST_QUOTED or text == value
    ):
        return LEFT_OUT
    return value


def _numbers_only(source: Path) -> pl.DataFrame:
    """The per-question rows with their ids, kinds, statuses and numbers, no text column."""
    frame = read_per_question(source, "publish the folder that `reportgen report` wrote")
    return frame.select(
        name
        for name, dtype in frame.schema.items()
        if name in KEY_COLUMNS or dtype.is_numeric() or dtype == pl.Boolean
    )
