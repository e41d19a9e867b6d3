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

from reportgen.charts import cutoff_chart_spec
from reportgen.cutoff import CutoffAnalysis, histogram
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


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#+|~])")
"""Characters that start Markdown or HTML in running text. Parentheses and ! are left
alone: with [ and ] escaped they cannot form a link or an image, and the raw Markdown
pasted into a review stays readable."""
_MENTION = re.compile(r"(?<![A-Za-z0-9])@(?=[A-Za-z0-9])")
"""An @ that GitHub would read as a mention (of a user or a team): after it, a zero-width
space."""


def markdown_escape(value: object) -> str:
    """Text safe inside a GitHub Markdown table cell: no markup, no HTML, no pings."""
    text = " ".join(str(value).split())
    text = text.replace("&", "&amp;")
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    return _MENTION.sub("@\u200b", text)


def html_autoescape(name: str | None) -> bool:
    """HTML templates (``*.html.j2`` too) are escaped; Markdown ones use the ``md`` filter.

    Escaping Markdown as HTML would show ``&#39;`` for every apostrophe on GitHub.
    """
    return name is None or not name.endswith((".md.j2", ".md"))


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        autoescape=html_autoescape,
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
        "cutoff_charts": cutoff_charts(report, charts or {}),
        "comparisons": comparisons_view(report),
        **diagnosis_view(report, evaluation),
        "hygiene": hygiene_view(report),
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


# --- The four cells and the unanswerable cutoff (SPEC.md, "The four cells") ---

CELL_LABELS = {
    "retrieved_correct": "working as designed",
    "retrieved_wrong": "generation failure",
    "missed_correct": "answered from memory",
    "missed_wrong": "retrieval failure",
}
CELL_MEANINGS = {
    "retrieved_correct": "the passage arrived and the answer was right",
    "retrieved_wrong": "it had the passage; work on the prompt, chunk count, order, model",
    "missed_correct": "right today, a hallucination when corpus and world disagree",
    "missed_wrong": "no prompt can fix it; work on chunking, embeddings, hybrid, rewriting",
}
FOCUS_CELL = {"generation": "retrieved_wrong", "retrieval": "missed_wrong"}
IDS_INLINE = 8
"""Cells with more ids than this fold them into a <details> in HTML."""


def fmt_share(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def fmt_score(value: float | None) -> str:
    """Scores come on any scale (BM25 14.2, RRF 0.0295): four significant digits."""
    return "n/a" if value is None else f"{value:.4g}"


def conclusion(summary: dict[str, Any]) -> str:
    """The plain sentence that says where the next week of work goes (SPEC.md)."""
    cells = summary["cells"]
    generation, retrieval = cells["retrieved_wrong"], cells["missed_wrong"]
    focus = summary["focus"]
    if summary["n"] == 0:
        return "No answerable question has a verdict, so no failure can be located."
    if focus == "generation":
        return (
            f"Generation failures are the larger failure cell ({generation} vs {retrieval} "
            "retrieval failures): the model had the passage and did not use it. "
            "Work on the prompt, the chunk count and order, or the model."
        )
    if focus == "retrieval":
        return (
            f"Retrieval failures are the larger failure cell ({retrieval} vs {generation} "
            "generation failures): the evidence never reached the model, and no prompt can "
            "fix that. Work on chunking, embeddings, hybrid search or query rewriting."
        )
    if focus == "tie":
        return (
            f"Generation and retrieval failures are tied ({generation} each): neither stage "
            "is the clear culprit; look at the questions of both cells before choosing."
        )
    return "No judged answer is wrong: neither stage shows a failure on these questions."


def pass_rate_note(summary: dict[str, Any]) -> str:
    cells = summary["cells"]
    right = cells["retrieved_correct"] + cells["missed_correct"]
    return (
        f"End-to-end pass rate {fmt(summary['pass_rate'])} ({right} of {summary['n']}). "
        "It counts right answers whichever stage did the work, so it cannot tell the "
        f"{cells['retrieved_wrong']} generation failure(s) from the "
        f"{cells['missed_wrong']} retrieval failure(s)."
    )


@dataclass(frozen=True)
class CellView:
    key: str
    label: str
    meaning: str
    count: str
    share: str
    ids: list[str]
    focus: bool
    """The larger failure cell: labelled in text, not only by colour."""

    @property
    def folded(self) -> bool:
        return len(self.ids) > IDS_INLINE


@dataclass(frozen=True)
class AttributionView:
    run: str
    k: int
    rows: list[tuple[str, list[CellView]]]
    """The 2x2: (row header, [correct cell, wrong cell])."""
    pass_rate: str
    conclusion: str
    kinds: Table
    unanswerable: Table
    join: list[str]


def _cell_views(section: dict[str, Any]) -> dict[str, CellView]:
    focus_cell = FOCUS_CELL.get(section["focus"])
    return {
        key: CellView(
            key=key,
            label=CELL_LABELS[key],
            meaning=CELL_MEANINGS[key],
            count=str(section["cells"][key]),
            share=fmt_share(section["shares"][key]),
            ids=section["questions"][key],
            focus=key == focus_cell,
        )
        for key in CELL_LABELS
    }


def _kinds_table(section: dict[str, Any]) -> Table:
    header = ["kind", "n", *CELL_LABELS.values(), "pass rate", "larger failure"]
    rows = [
        [
            Cell(kind),
            Cell(str(values["n"])),
            *[Cell(str(values["cells"][key])) for key in CELL_LABELS],
            Cell(fmt(values["pass_rate"])),
            Cell(values["focus"]),
        ]
        for kind, values in section["by_kind"].items()
    ]
    return Table(f"By kind, top {section['k']}", header, rows)


def _unanswerable_table(section: dict[str, Any]) -> Table:
    outcomes = section["unanswerable"]
    labels = {
        "declined": "declined correctly",
        "answered": "answered anyway (wrong)",
        "unknown": "unknown",
    }
    rows = [
        [Cell(label), Cell(str(outcomes[key])), Cell(", ".join(outcomes["questions"][key]))]
        for key, label in labels.items()
        if key != "unknown" or outcomes[key]
    ]
    return Table("Unanswerable questions (not in the cells)", ["outcome", "n", "questions"], rows)


def _join_lines(verdicts: dict[str, Any], section: dict[str, Any]) -> list[str]:
    joined = (
        "by question id"
        if verdicts["joined_on"] == "id"
        else "by question text (the file has no id column)"
    )
    lines = [
        f"Verdicts: {verdicts['source']} ({verdicts['format']}), for run {verdicts['run']} "
        f"with its top {verdicts['k']} chunks sent to the model; joined {joined}.",
    ]
    if verdicts["metric"] is not None:
        rule = f"{verdicts['metric']}"
        if verdicts["threshold"] is not None:
            rule += f" ≥ {verdicts['threshold']:g} counts as correct"
        else:
            rule += "'s own success counts as correct"
        lines.append(f"Verdict rule: {rule}.")
    lines.append(
        f"{verdicts['questions_with_verdict']} gold question(s) have a verdict "
        f"({section['n']} answerable ones in the cells, "
        f"{sum(section['unanswerable'][k] for k in ('declined', 'answered', 'unknown'))} "
        "unanswerable)."
    )
    for key, text in (
        ("gold_without_verdict", "gold question(s) without a verdict"),
        ("unknown_verdicts", "verdict(s) unknown (the eval errored or left them empty)"),
        ("unknown_questions", "verdict(s) for questions not in the gold set (ignored)"),
    ):
        listed = verdicts[key]
        ids = f": {', '.join(listed['ids'])}" if listed["ids"] else ""
        lines.append(f"{listed['count']} {text}{ids}.")
    if verdicts["other_runs"]:
        lines.append(f"The file also judges run(s) {', '.join(verdicts['other_runs'])}: not shown.")
    return lines


def attribution_view(report: Report) -> AttributionView | None:
    if not report["attribution"] or report["verdicts"] is None:
        return None
    run, section = next(iter(report["attribution"].items()))
    cells = _cell_views(section)
    k = section["k"]
    return AttributionView(
        run=run,
        k=k,
        rows=[
            (
                f"gold retrieved (hit@{k} = 1)",
                [cells["retrieved_correct"], cells["retrieved_wrong"]],
            ),
            ("gold not retrieved", [cells["missed_correct"], cells["missed_wrong"]]),
        ],
        pass_rate=pass_rate_note(section),
        conclusion=conclusion(section),
        kinds=_kinds_table(section),
        unanswerable=_unanswerable_table(section),
        join=_join_lines(report["verdicts"], section),
    )


def attribution_lines(report: Report) -> list[str]:
    """The four cells in a few terminal lines, for the CLI's summary."""
    view = attribution_view(report)
    if view is None:
        return []
    counts = ", ".join(f"{cell.label} {cell.count}" for _, row in view.rows for cell in row)
    return [f"{view.run}, four cells at top {view.k}: {counts}.", view.conclusion, ""]


@dataclass(frozen=True)
class CutoffView:
    run: str
    summary: list[str]
    facts: list[tuple[str, str]]
    histogram: Table | None


def _cutoff_summary(run: str, section: dict[str, Any]) -> list[str]:
    if section["reason"] is not None:
        return [f"No cutoff analysis for {run}: {section['reason']}."]
    errors = section["errors"]
    questions = section["questions"]
    cutoff = fmt_score(section["cutoff"])
    if section["gap"] is not None:
        low, high = section["gap"]
        return [
            f"The top-1 scores of unanswerable questions reach at most {fmt_score(low)}; "
            f"those of answerable ones start at {fmt_score(high)}. A cutoff of {cutoff} "
            "(the middle of the gap) separates them: answer at or above it, decline below."
        ]
    low, high = section["overlap"]
    inside = questions["in_overlap"]
    counts = {group: len(ids) for group, ids in inside.items()}
    named = [*inside["answerable"], *inside["unanswerable"]]
    listed = f": {', '.join(named)}" if len(named) <= IDS_INLINE else ""
    lines = [
        f"No cutoff separates them: answerable top-1 scores go down to {fmt_score(low)} and "
        f"unanswerable ones up to {fmt_score(high)}; {counts['answerable']} answerable and "
        f"{counts['unanswerable']} unanswerable question(s) sit in that overlap{listed}.",
        f"The cutoff with the fewest errors is {cutoff}: it answers "
        f"{errors['answered_unanswerable']} unanswerable question(s)"
        + (
            f" ({', '.join(questions['answered_unanswerable'])})"
            if errors["answered_unanswerable"]
            else ""
        )
        + f" and declines {errors['declined_answerable']} answerable one(s)"
        + (
            f" ({', '.join(questions['declined_answerable'])})"
            if errors["declined_answerable"]
            else ""
        )
        + ".",
    ]
    if errors["declined_answerable"] == 0:
        lines.append(
            "That means answering everything: these scores do not tell answerable from "
            "unanswerable questions, so a cutoff on them cannot make the system decline."
        )
    return lines


def _cutoff_facts(section: dict[str, Any]) -> list[tuple[str, str]]:
    def spread(group: dict[str, Any]) -> str:
        if not group["n"]:
            return "none"
        return f"{group['n']} questions, {fmt_score(group['min'])} to {fmt_score(group['max'])}"

    facts = [
        ("answerable", spread(section["answerable"])),
        ("unanswerable", spread(section["unanswerable"])),
    ]
    if section["gap"] is not None:
        facts.append(("gap", " to ".join(fmt_score(v) for v in section["gap"])))
    if section["overlap"] is not None:
        facts.append(("overlap", " to ".join(fmt_score(v) for v in section["overlap"])))
    if section["cutoff"] is not None:
        facts.append(("cutoff", f"{fmt_score(section['cutoff'])} (answer at or above)"))
        errors = section["errors"]
        facts.append(("answered though unanswerable", str(errors["answered_unanswerable"])))
        facts.append(("declined though answerable", str(errors["declined_answerable"])))
    if section["unscored"]:
        facts.append(("without a result", str(section["unscored"])))
    return facts


def _bar(count: int) -> str:
    return f"{'█' * count} {count}" if count else "0"


def _histogram_table(run: str, analysis: CutoffAnalysis, cutoff: float | None) -> Table:
    rows = []
    for row in histogram(analysis.top_scores).iter_rows(named=True):
        here = cutoff is not None and row["low"] <= cutoff < row["high"]
        rows.append(
            [
                Cell(
                    f"{fmt_score(row['low'])} to {fmt_score(row['high'])}"
                    + (f" ◀ cutoff {fmt_score(cutoff)}" if here else "")
                ),
                Cell(_bar(row["answerable"])),
                Cell(_bar(row["unanswerable"])),
            ]
        )
    return Table(f"{run}: top-1 scores", ["top-1 score", "answerable", "unanswerable"], rows)


def cutoff_views(report: Report, evaluation: Evaluation) -> list[CutoffView]:
    analyses = {analysis.run: analysis for analysis in evaluation.cutoffs}
    views = []
    for run, section in report["cutoff"].items():
        analysis = analyses[run]
        views.append(
            CutoffView(
                run=run,
                summary=_cutoff_summary(run, section),
                facts=_cutoff_facts(section) if section["reason"] is None else [],
                histogram=None
                if section["reason"] is not None
                else _histogram_table(run, analysis, section["cutoff"]),
            )
        )
    return views


def diagnosis_view(report: Report, evaluation: Evaluation) -> dict[str, Any]:
    """What the attribution and cutoff partials print (both HTML and Markdown)."""
    return {
        "attribution": attribution_view(report),
        "cutoffs": cutoff_views(report, evaluation),
    }


def cutoff_stem(index: int) -> str:
    """File stem of the cutoff chart of the index-th run in report["cutoff"]."""
    return f"cutoff_{index}"


def cutoff_chart_specs(report: Report, evaluation: Evaluation) -> dict[str, dict[str, Any]]:
    """The cutoff chart spec of every run that has a cutoff analysis, by file stem."""
    analyses = {analysis.run: analysis for analysis in evaluation.cutoffs}
    specs = {}
    for index, (run, section) in enumerate(report.get("cutoff", {}).items()):
        if section["reason"] is not None or run not in analyses:
            continue
        band = section["gap"] or section["overlap"]
        specs[cutoff_stem(index)] = cutoff_chart_spec(
            run,
            analyses[run].top_scores.select("qid", "group", "score").to_dicts(),
            section["cutoff"],
            None if band is None else (band[0], band[1]),
            "gap" if section["gap"] else "overlap",
        )
    return specs


def cutoff_charts(report: Report, charts: Mapping[str, bytes]) -> dict[str, Markup]:
    """Inline SVG of each run's cutoff chart, drawn with the others by render_charts."""
    return {
        run: Markup(charts[f"{cutoff_stem(index)}.svg"].decode())
        for index, run in enumerate(report.get("cutoff", {}))
        if f"{cutoff_stem(index)}.svg" in charts
    }


# --- Input hygiene: stale gold ids, index provenance, leaks (partials _hygiene.*.j2) ---


@dataclass(frozen=True)
class HygieneView:
    """What the hygiene partials print; every sentence decided here."""

    provenance: str
    stale_title: str
    stale_note: str
    stale_rows: list[tuple[str, str]]
    without_stale: list[str]
    leaks: list[str]


def provenance_line(provenance: dict[str, Any]) -> str:
    """``gold set kb-1 · manifest kb-1 · run 'dense' kb-2 · ...`` (not stated when unknown)."""
    parts = [f"gold set {provenance['gold'] or 'not stated'}"]
    if provenance["manifest"] is not None:
        parts.append(f"manifest {provenance['manifest']}")
    runs = provenance["runs"]
    if all(version is None for version in runs.values()):
        parts.append("runs: not stated")
    else:
        parts += [f"run {name} {version or 'not stated'}" for name, version in runs.items()]
    return " · ".join(parts)


def _stale_texts(hygiene: dict[str, Any]) -> tuple[str, str]:
    stale = hygiene["stale"]
    n, questions = stale["chunks"], len(stale["questions"])
    if stale["basis"] == "manifest":
        manifest = hygiene["manifest"]
        where = manifest["index_version"] or manifest["source"]
        if not n:
            return "Gold ids", f"Every gold id is in the index manifest ({where})."
        return (
            "Stale gold ids",
            f"{n} gold id(s) in {questions} question(s) are not in the index manifest "
            f"({where}). These questions miss them whatever the run does: a stale gold "
            "set, not a regression.",
        )
    return (
        "Possibly stale gold ids",
        f"{n} gold id(s) in {questions} question(s) are returned by no run at any depth. "
        "They may no longer exist; without a manifest (--manifest) this cannot be confirmed.",
    )


def without_stale_lines(report: Report) -> list[str]:
    """Per run, the headline measures with and without the stale questions."""
    section = report["hygiene"]["stale"]["means_without_stale"]
    if not section:
        return []
    k = report["context_k"]
    lines = []
    for name, run in report["runs"].items():
        clean = section[name]
        lines.append(
            f"{name}: hit@{k} {fmt(clean[f'hit@{k}'])} and recall@{k} "
            f"{fmt(clean[f'recall@{k}'])} over the {clean['n']} questions with current gold "
            f"ids ({fmt(run['means'][f'hit@{k}'])} and {fmt(run['means'][f'recall@{k}'])} "
            f"over all {run['n']})"
        )
    return lines


def leak_lines(report: Report) -> list[str]:
    """``rerank, top 5: staff passages shown to a public audience: 0 | ...`` per run."""
    hygiene = report["hygiene"]
    phrases = hygiene["forbidden"]["reasons"]
    if not phrases:
        return []
    k = str(report["context_k"])
    lines = []
    for name, run in report["runs"].items():
        counts = run["leaks"]["at"][k]["by_reason"]
        listed = " | ".join(f"{phrases[r]}: {n}" for r, n in counts.items())
        lines.append(f"{name}, top {k}: {listed}")
    return lines


def hygiene_view(report: Report) -> HygieneView | None:
    """None when there is nothing to say: no manifest, no suspect ids, no forbidden chunks."""
    hygiene = report.get("hygiene")
    if hygiene is None:
        return None
    stale = hygiene["stale"]
    leaks = leak_lines(report)
    if hygiene["manifest"] is None and not stale["chunks"] and not leaks:
        return None
    title, note = _stale_texts(hygiene)
    return HygieneView(
        provenance=provenance_line(hygiene["provenance"]),
        stale_title=title,
        stale_note=note,
        stale_rows=[(qid, ", ".join(ids)) for qid, ids in stale["questions"].items()],
        without_stale=without_stale_lines(report),
        leaks=leaks,
    )


# --- Comparisons: runs side by side and against a baseline (report["comparisons"],
# report["baseline"], report["gate"]); laid out by _comparisons.html.j2 / .md.j2.

CHANGED_ROWS_SHOWN = 50
"""Questions that changed, per comparison, before the pages point to report.json."""


@dataclass(frozen=True)
class ComparisonBlock:
    title: str
    note: str
    table: Table
    changed: Table
    changed_total: int
    cells: Table | None = None


@dataclass(frozen=True)
class ComparisonsView:
    method: str
    gold: str
    pairs: list[ComparisonBlock]
    baseline_facts: list[str]
    baseline: list[ComparisonBlock]
    gate_passed: bool | None
    gate: list[tuple[bool, str]]


def _signed(value: float) -> str:
    return f"{value:+.3f}"


def _measure_title(key: str) -> str:
    name, _, k = key.partition("@")
    titles = {m.name: m.title for m in MEASURES if m.cutoff == bool(k)}
    title = titles.get(name, key)
    return title.replace("@k", f"@{k}") if k else title


def _comparison_table(entry: dict[str, Any]) -> Table:
    rows = []
    for key, m in entry["measures"].items():
        test = "McNemar" if m["test"] == "mcnemar" else "randomization"
        rows.append(
            [
                Cell(_measure_title(key)),
                Cell(fmt(m["before"])),
                Cell(fmt(m["after"])),
                Cell(
                    f"{_signed(m['difference'])} [{_signed(m['ci_low'])}, {_signed(m['ci_high'])}]"
                ),
                Cell(f"{m['p']:.3g} ({test}) / {m['p_holm']:.3g}"),
                Cell(f"{m['wins']} / {m['ties']} / {m['losses']}"),
                Cell(m["label"]),
            ]
        )
    header = [
        "measure",
        "before",
        "after",
        "difference [95% CI]",
        "p / Holm p",
        "wins / ties / losses",
        "verdict",
    ]
    return Table("Per measure (after - before)", header, rows)


def _changed_table(entry: dict[str, Any]) -> tuple[Table, int]:
    """Questions whose values at k_ctx moved, one row each: largest losses first."""
    changed = entry["changed_questions"]
    keys = list(changed)
    found: dict[str, dict[str, Any]] = {}
    for key in keys:
        for row in changed[key]:
            item = found.setdefault(row["qid"], {"kind": row["kind"], "delta": {}})
            item[key] = f"{fmt(row['before'])} → {fmt(row['after'])}"
            item["delta"][key] = row["after"] - row["before"]
    order = sorted(
        found, key=lambda qid: (*(found[qid]["delta"].get(key, 0.0) for key in keys), qid)
    )
    rows = [
        [Cell(qid), Cell(found[qid]["kind"]), *[Cell(found[qid].get(key, "=")) for key in keys]]
        for qid in order[:CHANGED_ROWS_SHOWN]
    ]
    header = ["question", "kind", *[_measure_title(key) for key in keys]]
    return Table("Questions that changed (= unchanged)", header, rows), len(order)


def _cells_table(cells: dict[str, Any] | None) -> Table | None:
    if (
        not cells
        or not isinstance(cells.get("then"), dict)
        or not isinstance(cells.get("now"), dict)
    ):
        return None
    names = list(dict.fromkeys([*cells["then"], *cells["now"]]))
    rows = [
        [
            Cell(name),
            Cell(str(cells["then"].get(name, "n/a"))),
            Cell(str(cells["now"].get(name, "n/a"))),
        ]
        for name in names
    ]
    rates = cells.get("pass_rate") or {}
    if rates:
        rows.append([Cell("pass rate"), Cell(fmt(rates.get("then"))), Cell(fmt(rates.get("now")))])
    return Table("The four cells, then and now", ["cell", "then", "now"], rows)


def _blocks(entries: list[dict[str, Any]]) -> list[ComparisonBlock]:
    blocks = []
    for entry in entries:
        changed, total = _changed_table(entry)
        moves = fmt(entry["one_question"])
        blocks.append(
            ComparisonBlock(
                title=f"{entry['before']} → {entry['after']}",
                note=f"{entry['n']} paired questions; one question moves a mean by {moves} (1/n).",
                table=_comparison_table(entry),
                changed=changed,
                changed_total=total,
                cells=_cells_table(entry.get("cells")),
            )
        )
    return blocks


def _method_text(method: dict[str, Any]) -> str:
    return (
        f"Differences are after - before, paired by question. Intervals: 95% percentile "
        f"bootstrap ({method['interval']['resamples']:,} resamples, seed "
        f"{method['interval']['seed']}). p: two-sided paired randomization test "
        f"(sign flips, {method['test']['resamples']:,}, exact when few questions differ); "
        f"exact McNemar for hit@k. Holm's correction across all "
        f"{method['family_size']} differences. A difference is called better or worse only "
        f"when the Holm-adjusted p < {method['alpha']} and the interval excludes 0; "
        "otherwise it is within noise."
    )


def _baseline_facts(report: Report) -> list[str]:
    baseline = report["baseline"]
    if not baseline:
        return []
    gold = baseline["gold"]
    facts = [
        f"Baseline {baseline['version']} ({baseline['created']}), read from {baseline['source']}; "
        f"gold set {gold['version'] or 'unversioned'}, fingerprint {gold['fingerprint']}.",
    ]
    change = baseline["gold_change"]
    if change:
        left = "; ".join(
            f"{part['count']} {part['why']}"
            for part in change["left_out"].values()
            if part["count"]
        )
        facts.append(
            f"The gold set changed (fingerprint {change['baseline_fingerprint']} → "
            f"{change['fingerprint']}): both sides are measured on the "
            f"{change['shared_questions']} questions the two sets share. Left out: "
            f"{left or 'none'}."
        )
        if change["note"]:
            facts.append(f"Note: {change['note']}.")
    if baseline["runs_not_in_baseline"]:
        facts.append("Not in the baseline: " + ", ".join(baseline["runs_not_in_baseline"]) + ".")
    if baseline["baseline_runs_not_here"]:
        facts.append("Only in the baseline: " + ", ".join(baseline["baseline_runs_not_here"]) + ".")
    return facts


def comparisons_view(report: Report) -> ComparisonsView:
    """Every comparison of the report, formatted: runs, baseline, gate."""
    comparisons = report["comparisons"]
    gold = report["gold"]
    gate = report.get("gate")
    return ComparisonsView(
        method=_method_text(comparisons["method"]),
        gold=f"Measured on gold set {gold['version'] or 'unversioned'}, fingerprint "
        f"{gold['fingerprint']}.",
        pairs=_blocks(comparisons["pairs"]),
        baseline_facts=_baseline_facts(report),
        baseline=_blocks(report["baseline"]["comparisons"]) if report.get("baseline") else [],
        gate_passed=None if not gate else bool(gate["passed"]),
        gate=[(rule["passed"], rule["message"]) for rule in gate["rules"]] if gate else [],
    )
