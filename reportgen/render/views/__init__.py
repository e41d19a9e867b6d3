"""View-models: the report turned into the plain values the templates print.

Python decides every value and formats every number here; the templates only lay them
out. One module per section of the report, assembled by view_model().
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from reportgen.render.views.attribution import attribution_view
from reportgen.render.views.chunkings import ANCHOR as CHUNKINGS_ANCHOR
from reportgen.render.views.chunkings import chunkings_view
from reportgen.render.views.common import plural
from reportgen.render.views.comparisons import comparisons_view
from reportgen.render.views.context import context_k_words, context_notes
from reportgen.render.views.cutoff import cutoff_charts, cutoff_views
from reportgen.render.views.drilldown import ANCHOR as DRILLDOWN_ANCHOR
from reportgen.render.views.drilldown import drilldown_title, drilldown_view
from reportgen.render.views.first_screen import first_screen
from reportgen.render.views.hygiene import hygiene_view
from reportgen.render.views.latency import ANCHOR as LATENCY_ANCHOR
from reportgen.render.views.latency import latency_view
from reportgen.render.views.methods import figures, glossary, headlines, kind_tables, methods_tables
from reportgen.render.views.predictors import ANCHOR as PREDICTORS_ANCHOR
from reportgen.render.views.predictors import TITLE as PREDICTORS_TITLE
from reportgen.render.views.predictors import predictors_view
from reportgen.render.views.questions import (
    PER_QUESTION_ROWS_SHOWN,
    QuestionRow,
    question_filters,
    question_rows,
    runs_in_order,
)
from reportgen.render.views.secondary import ANCHOR as SECONDARY_ANCHOR
from reportgen.render.views.secondary import secondary_view
from reportgen.render.views.slices import compared_field, slices_view
from reportgen.render.views.transitions import ANCHOR as CHANGED_ANCHOR
from reportgen.render.views.transitions import TITLE as CHANGED_TITLE
from reportgen.render.views.transitions import transitions_view
from reportgen.schema import Report


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


def subtitle(report: Report) -> str:
    """The facts a reviewer needs beside the numbers, on one line under the title."""
    gold = report["gold"]
    return (
        f"Gold set {gold['version'] or 'unversioned'}: {plural(gold['questions'], 'question')} "
        f"({gold['answerable']} with relevant passages, {gold['unanswerable']} unanswerable) · "
        f"{context_k_words(report)} · {report['created']}"
    )


CUTOFF_TITLE = 'When to say "I could not find this"'
METHODS_TITLE = "Measures per run"


def sections(report: Report) -> list[tuple[str, str]]:
    """The navigation: (anchor, the title of the section it leads to), in page order.

    The first screen sits right under the navigation and needs no link.
    """
    listed = []
    if report.get("baseline"):
        listed.append(("baseline", "Against the baseline"))
    listed += [
        ("methods", METHODS_TITLE),
        ("curves", "Curves over k"),
        ("kinds", f"By kind, top {report['context_k']}"),
    ]
    predicted = predictors_view(report, {})
    if predicted is not None:  # the section's own title, which names the judged run
        listed.append((PREDICTORS_ANCHOR, f"{PREDICTORS_TITLE} ({predicted.run})"))
    listed.append(("cutoff", CUTOFF_TITLE))
    if report.get("chunkings"):
        listed.append((CHUNKINGS_ANCHOR, "Chunkings"))
    if any("latency" in run or "cost" in run for run in report["runs"].values()):
        listed.append((LATENCY_ANCHOR, "Latency and cost"))
    if report.get("secondary_judgments"):
        listed.append((SECONDARY_ANCHOR, "Secondary judgments"))
    if report["comparisons"]["pairs"]:
        listed.append(("comparisons", "Runs compared"))
    drilldown = report.get("drilldown")
    if drilldown:
        listed.append((DRILLDOWN_ANCHOR, drilldown_title(drilldown["mode"])))
    if any(entry["moves"] for entry in (report.get("transitions") or {}).values()):
        listed.append((CHANGED_ANCHOR, CHANGED_TITLE))
    listed += [
        ("questions", "Questions"),
        ("inputs", "Inputs and hygiene"),
        ("glossary", "Glossary"),
    ]
    return listed


def first_run_note(run_names: list[str], first: str, why: str) -> str:
    """Which run the question table shows first, and why when there is a choice."""
    return f"{first} comes first: {why}" if len(run_names) > 1 else f"{first} comes first"


def chart_format(charts: Mapping[str, bytes]) -> str:
    """What report.md links: the PNGs when they were drawn (--chart-png), else the SVGs."""
    return "png" if any(name.endswith(".png") for name in charts) else "svg"


def _methods(report: Report) -> dict[str, Any]:
    """The table at k_ctx, and the other cutoffs and the whole list folded: the page
    stays short, every number one click away."""
    marked = f"Top {report['context_k']} "
    tables = methods_tables(report)
    shown = [table for table in tables if table.caption.startswith(marked)]
    folded = [t for t in tables if t not in shown]
    return {"methods": shown, "methods_folded": folded, "methods_all": tables}


def _kinds(report: Report, first: str) -> dict[str, Any]:
    """By kind: the run the first screen is about, the others folded."""
    tables = kind_tables(report)
    shown = [table for table in tables if table.caption == first][:1] or tables[:1]
    folded = [t for t in tables if t not in shown]
    return {"kinds": shown, "kinds_folded": folded, "kinds_all": tables}


def _cutoffs(report: Report, first: str) -> dict[str, Any]:
    """The cutoff of the run the first screen is about, the others folded."""
    views = cutoff_views(report)
    shown = [view for view in views if view.run == first][:1] or views[:1]
    folded = [v for v in views if v not in shown]
    return {"cutoffs": shown, "cutoffs_folded": folded, "cutoffs_all": views}


def _attention(rows: list[QuestionRow]) -> dict[str, Any]:
    """How many questions failed or changed, and the table's default view: those, or
    every question when none did."""
    count = sum(1 for row in rows if row.facets["attention"])
    return {"questions_attention": count, "questions_default": "attention" if count else "all"}


def view_model(
    report: Report,
    charts: Mapping[str, bytes] | None = None,
    per_question_file: str = "per_question.csv",
) -> dict[str, Any]:
    """Everything report.html.j2 and report.md.j2 print, by template variable: built once
    from report.json (and the charts drawn from it) for both pages."""
    screen = first_screen(report)
    questions, total = question_rows(report, PER_QUESTION_ROWS_SHOWN, screen.run)
    return {
        "report": report,
        "title": f"Retrieval report {report['version']}",
        "subtitle": subtitle(report),
        "context_notes": context_notes(report),
        "sections": sections(report),
        "cutoff_title": CUTOFF_TITLE,
        "methods_title": METHODS_TITLE,
        "first_screen": screen,
        "question_runs": runs_in_order(list(report["runs"]), screen.run),
        "first_run_note": first_run_note(list(report["runs"]), screen.run, screen.why),
        "facts": facts(report),
        "warnings": [w["message"] for w in report["warnings"]],
        "headlines": headlines(report),
        **_methods(report),
        "figures": figures(charts or {}),
        "chart_format": chart_format(charts or {}),
        **_kinds(report, screen.run),
        "run_names": list(report["runs"]),
        "questions": questions,
        "question_filters": question_filters(
            questions, screen.run, compared_field(report) or "slice"
        ),
        **_attention(questions),
        "questions_total": total,
        "questions_counted": plural(total, "question"),
        "questions_cut": total > len(questions),
        "has_cells": bool(report.get("attribution")),
        "per_question_file": per_question_file,
        "glossary": glossary(report["pages"]["measures"]),
        "cutoff_charts": cutoff_charts(report, charts or {}),
        "comparisons": comparisons_view(report),
        "attribution": attribution_view(report),
        "predictors": predictors_view(report, charts or {}),
        **_cutoffs(report, screen.run),
        "hygiene": hygiene_view(report),
        "drilldown": drilldown_view(report),
        "chunkings": chunkings_view(report, charts or {}),
        "latency": latency_view(report, charts or {}),
        "slices": slices_view(report, charts or {}),
        "transitions": transitions_view(report, screen.run),
        "anchor_changed": CHANGED_ANCHOR,
        "title_changed": CHANGED_TITLE,
        "secondary": secondary_view(report),
    }
