"""Turn the report into HTML and Markdown: view-models first, then templates.

Python decides every value and formats every number; templates only lay them out.
HTML is autoescaped; Markdown gets its own escape (pipes, backticks, HTML,
@mentions), since GitHub renders both.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
import polars as pl
from markupsafe import Markup

from reportgen.evaluate import Evaluation
from reportgen.measures import CUTOFF_MEASURES, MEASURES, WHOLE_LIST_MEASURES
from reportgen.report import Report

PER_QUESTION_ROWS_SHOWN = 500
"""Past this, the HTML and Markdown point to the per-question file instead of growing:
10,000 questions x 6 runs then stay well under 5 MB of HTML."""

CELL_NAMES = {
    "retrieved_correct": "working as designed",
    "retrieved_wrong": "generation failure",
    "missed_correct": "answered from memory",
    "missed_wrong": "retrieval failure",
}
"""report.json's attribution cells and the names a reader sees (SPEC.md, "The four cells")."""


def templates_dir() -> Path:
    """The wheel ships templates inside the package; a source checkout keeps them beside it."""
    packaged = Path(str(resources.files("reportgen"))) / "templates"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "templates"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")
_MENTION = re.compile(r"(?<![A-Za-z0-9])@(?=[A-Za-z0-9])")
"""An @ that GitHub would read as a mention (of a user or a team): after it, a zero-width
space."""


def markdown_escape(value: object) -> str:
    """Text safe inside a GitHub Markdown table cell: no markup, no HTML, no pings."""
    text = " ".join(str(value).split())
    text = text.replace("&", "&amp;")
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    return _MENTION.sub("@\u200b", text)


def _html_escaped(template_name: str | None) -> bool:
    """Every template is HTML-escaped except Markdown, which the ``md`` filter escapes
    (HTML-escaping it as well would print ``&amp;amp;``)."""
    return not (template_name or "").endswith(".md.j2")


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        autoescape=_html_escaped,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = markdown_escape
    return env


def fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def fmt_interval(bounds: list[float] | None) -> str:
    return "" if bounds is None else f"{bounds[0]:.2f}\u2013{bounds[1]:.2f}"


@dataclass(frozen=True)
class Cell:
    text: str
    best: bool = False
    note: str = ""
    """Secondary text printed under the value (the 95% interval)."""


@dataclass(frozen=True)
class Table:
    caption: str
    header: list[str]
    rows: list[list[Cell]]


def headline(name: str, run: dict[str, Any], context_k: int) -> str:
    """The line a person reads first, e.g. ``rerank, top 5: 52 questions ...``."""
    means = run["means"]
    k = context_k
    parts = [
        f"hit@{k} {fmt(means[f'hit@{k}'])}",
        f"recall@{k} {fmt(means[f'recall@{k}'])}",
        f"precision@{k} {fmt(means[f'precision@{k}'])}",
        f"MRR@{k} {fmt(means[f'mrr@{k}'])}",
    ]
    return f"{name}, top {k}: {run['n']} questions with relevant passages. " + " | ".join(parts)


MeasureRow = tuple[str, list[float | None], list[list[float] | None]]
"""A run's name, its means and their 95% intervals, column by column."""


def _best_marked(rows: list[MeasureRow]) -> list[list[Cell]]:
    columns = list(zip(*(values for _, values, _ in rows), strict=True)) if rows else []
    best = [max((v for v in column if v is not None), default=None) for column in columns]
    several = len(rows) > 1
    return [
        [Cell(name)]
        + [
            Cell(
                fmt(v),
                best=several and v is not None and v == best[i],
                note=fmt_interval(intervals[i]),
            )
            for i, v in enumerate(values)
        ]
        for name, values, intervals in rows
    ]


def _measure_rows(report: Report, keys: list[str]) -> list[MeasureRow]:
    return [
        (
            name,
            [run["means"][key] for key in keys],
            [run.get("intervals", {}).get(key) for key in keys],
        )
        for name, run in report["runs"].items()
    ]


def methods_tables(report: Report) -> list[Table]:
    """One table per cutoff (runs x measures), then the whole-list measures."""
    tables = []
    for k in report["k"]:
        keys = [m.key(k) for m in CUTOFF_MEASURES]
        rows = _measure_rows(report, keys)
        marker = " (chunks sent to the model)" if k == report["context_k"] else ""
        tables.append(
            Table(
                f"Top {k}{marker}",
                ["run", *[m.title.replace("@k", f"@{k}") for m in CUTOFF_MEASURES]],
                _best_marked(rows),
            )
        )
    keys = [m.key() for m in WHOLE_LIST_MEASURES]
    rows = _measure_rows(report, keys)
    tables.append(
        Table("Whole list", ["run", *[m.title for m in WHOLE_LIST_MEASURES]], _best_marked(rows))
    )
    return tables


def kind_tables(report: Report) -> list[Table]:
    k = report["context_k"]
    keys = [f"hit@{k}", f"recall@{k}", f"mrr@{k}", f"ndcg@{k}"]
    tables = []
    for name, run in report["runs"].items():
        rows = [
            [Cell(kind), Cell(str(values["n"])), *[Cell(fmt(values[key])) for key in keys]]
            for kind, values in run["by_kind"].items()
        ]
        header = ["kind", "n", f"hit@{k}", f"recall@{k}", f"MRR@{k}", f"nDCG@{k}"]
        tables.append(Table(name, header, rows))
    return tables


@dataclass(frozen=True)
class RunEvidence:
    """What one run did for one question, as the per-question table shows it."""

    found: str
    outcome: str
    """found, missed or neutral (nothing to find): a CSS class, shown with a symbol too."""
    first_rank: int | None
    top: list[tuple[str, bool]]
    """The top k chunk ids in rank order, each with whether it is gold."""
    cell: str


@dataclass(frozen=True)
class QuestionRow:
    qid: str
    kind: str
    question: str
    gold: str
    status: str
    per_run: list[RunEvidence]


def _cells_by_question(report: Report, run_names: list[str]) -> pl.DataFrame:
    """(qid, run index, cell name) for every run that has verdicts (report["attribution"])."""
    attribution = report.get("attribution", {})
    frames = [
        pl.DataFrame(
            {"qid": ids, "_run": [index] * len(ids), "_cell": [CELL_NAMES[cell]] * len(ids)},
            schema={"qid": pl.String, "_run": pl.Int64, "_cell": pl.String},
        )
        for index, name in enumerate(run_names)
        for cell, ids in attribution.get(name, {}).get("questions", {}).items()
        if cell in CELL_NAMES
    ]
    empty = pl.DataFrame(schema={"qid": pl.String, "_run": pl.Int64, "_cell": pl.String})
    return pl.concat([empty, *frames])


def question_rows(
    report: Report, evaluation: Evaluation, limit: int
) -> tuple[list[QuestionRow], int]:
    """Per-question evidence, first ``limit`` questions by id: gold ids, and per run the
    first gold rank, the top k and the question's cell when the run has verdicts."""
    gold = evaluation.gold
    k = evaluation.settings.context_k
    threshold = evaluation.settings.threshold
    gold_ids = (
        gold.judgments.filter(pl.col("grade") >= threshold)
        .sort("qid", "grade", "chunk_id", descending=[False, True, False])
        .group_by("qid", maintain_order=True)
        .agg(gold=pl.col("chunk_id").str.join(", "))
    )
    table = (
        gold.questions.select("qid", "kind", "question")
        .join(gold_ids, on="qid", how="left")
        .join(evaluation.runs[0].scores.select("qid", "status"), on="qid", how="left")
        .sort("qid")
        .head(limit)
    )
    names = [result.name for result in evaluation.runs]
    cells = _cells_by_question(report, names)
    relevant = gold.judgments.filter(pl.col("grade") >= threshold).select(
        "qid", "chunk_id", pl.lit(True).alias("_gold")
    )
    for index, result in enumerate(evaluation.runs):
        top = (
            result.run.results.filter(pl.col("rank") <= k)
            .join(relevant, on=["qid", "chunk_id"], how="left")
            .sort("qid", "rank")
            .group_by("qid", maintain_order=True)
            .agg(
                pl.col("chunk_id").alias(f"_top{index}"),
                pl.col("_gold").fill_null(False).alias(f"_isgold{index}"),
            )
        )
        first = result.scores.select("qid", pl.col("first_relevant_rank").alias(f"_first{index}"))
        cell = cells.filter(pl.col("_run") == index).select(
            "qid", pl.col("_cell").alias(f"_cell{index}")
        )
        table = (
            table.join(first, on="qid", how="left")
            .join(top, on="qid", how="left")
            .join(cell, on="qid", how="left")
        )
    rows = []
    for row in table.sort("qid").iter_rows(named=True):
        per_run = []
        for index in range(len(evaluation.runs)):
            first_rank = row[f"_first{index}"]
            if first_rank is not None:
                found, outcome = f"gold at rank {first_rank}", "found"
            elif row["status"] in ("unanswerable", "no_relevant"):
                found, outcome = "nothing to find", "neutral"
            else:
                found, outcome = "no gold returned", "missed"
            per_run.append(
                RunEvidence(
                    found=found,
                    outcome=outcome,
                    first_rank=first_rank,
                    top=list(
                        zip(row[f"_top{index}"] or [], row[f"_isgold{index}"] or [], strict=True)
                    ),
                    cell=row[f"_cell{index}"] or "",
                )
            )
        rows.append(
            QuestionRow(
                qid=row["qid"],
                kind=row["kind"],
                question=row["question"] or "",
                gold=row["gold"] or "(none)",
                status=row["status"],
                per_run=per_run,
            )
        )
    return rows, gold.questions.height


GLOSSARY_EXTRA = (
    (
        "k_ctx",
        "the number of chunks sent to the model",
        "The k of the headline line and of the four cells; marked on every chart.",
    ),
    (
        "95% interval",
        "Wilson score interval for hit@k; mean ± 1.96 · s / √n otherwise",
        "How far the mean could plausibly move with other questions of the same kind. "
        "One question in n moves a mean by up to 1/n.",
    ),
    (
        "the four cells",
        "gold retrieved (hit@k_ctx = 1) or not x answer correct or not",
        "working as designed; generation failure (it had the passage and did not use it); "
        "answered from memory (right today, a hallucination when corpus and world "
        "disagree); retrieval failure (no prompt can fix it).",
    ),
)


def glossary() -> list[tuple[str, str, str]]:
    return [(m.title, m.formula, m.description) for m in MEASURES] + list(GLOSSARY_EXTRA)


@dataclass(frozen=True)
class Figure:
    """A chart drawn by charts.render_charts, inlined as SVG in the HTML."""

    stem: str
    svg: Markup
    caption: str


FIGURE_CAPTIONS = {
    "recall_at_k": "How much of the evidence each run delivers as k grows. "
    "The same values are in the methods tables above.",
    "hit_at_k": "How often at least one piece of evidence arrives in the top k.",
}


def figures(charts: Mapping[str, bytes]) -> list[Figure]:
    """The drawn SVG charts, in FIGURE_CAPTIONS' order (vl-convert escapes its text)."""
    return [
        Figure(stem, Markup(charts[f"{stem}.svg"].decode()), caption)
        for stem, caption in FIGURE_CAPTIONS.items()
        if f"{stem}.svg" in charts
    ]


def _asset(name: str) -> str:
    return (templates_dir() / name).read_text(encoding="utf-8")


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


@dataclass(frozen=True)
class PageAssets:
    """Inline CSS and script, and the Content-Security-Policy that allows only them:
    no request can leave the page, and no injected script can run."""

    css: Markup
    script: Markup
    csp: str = field(init=False)

    def __post_init__(self) -> None:
        policy = (
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
            f"script-src 'sha256-{_sha256(str(self.script))}'"
        )
        object.__setattr__(self, "csp", policy)


def page_assets() -> PageAssets:
    return PageAssets(css=Markup(_asset("report.css")), script=Markup(_asset("report.js")))


def facts(report: Report) -> list[tuple[str, str]]:
    gold = report["gold"]
    return [
        ("report version", report["version"]),
        ("gold set", f"{gold['source']} (version {gold['version'] or 'unversioned'})"),
        ("gold fingerprint", gold["fingerprint"]),
        ("index version", gold["index_version"] or "not stated"),
        (
            "questions",
            f"{gold['questions']} ({gold['answerable']} with relevant passages, "
            f"{gold['unanswerable']} unanswerable, {gold['no_relevant']} with none at "
            f"grade ≥ {report['settings']['relevance_threshold']})",
        ),
        ("cutoffs", ", ".join(str(k) for k in report["k"])),
        ("chunks sent to the model", str(report["context_k"])),
        ("tool", f"reportgen {report['tool_version']}"),
        ("created", report["created"]),
    ]


def headlines(report: Report) -> list[str]:
    return [headline(name, run, report["context_k"]) for name, run in report["runs"].items()]


def view_model(
    report: Report,
    evaluation: Evaluation,
    charts: Mapping[str, bytes] | None = None,
    per_question_file: str = "per_question.csv",
) -> dict[str, Any]:
    questions, total = question_rows(report, evaluation, PER_QUESTION_ROWS_SHOWN)
    return {
        "report": report,
        "title": f"Retrieval report {report['version']}",
        "facts": facts(report),
        "warnings": [w["message"] for w in report["warnings"]],
        "headlines": headlines(report),
        "methods": methods_tables(report),
        "figures": figures(charts or {}),
        "kinds": kind_tables(report),
        "run_names": list(report["runs"]),
        "questions": questions,
        "questions_total": total,
        "questions_cut": total > len(questions),
        "has_cells": bool(report.get("attribution")),
        "per_question_file": per_question_file,
        "glossary": glossary(),
        "assets": page_assets(),
    }


def render_html(
    report: Report,
    evaluation: Evaluation,
    charts: Mapping[str, bytes] | None = None,
    per_question_file: str = "per_question.csv",
) -> str:
    context = view_model(report, evaluation, charts, per_question_file)
    return environment().get_template("report.html.j2").render(context)


def render_markdown(
    report: Report,
    evaluation: Evaluation,
    charts: Mapping[str, bytes] | None = None,
    per_question_file: str = "per_question.csv",
) -> str:
    context = view_model(report, evaluation, charts, per_question_file)
    return environment().get_template("report.md.j2").render(context)
