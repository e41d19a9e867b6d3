"""Turn the report into HTML and Markdown: view-models first, then templates.

Python decides every value and formats every number; templates only lay them out.
HTML is autoescaped; Markdown gets its own escape (pipes, backticks, HTML,
@mentions), since GitHub renders both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
import polars as pl

from reportgen.evaluate import Evaluation
from reportgen.measures import CUTOFF_MEASURES, MEASURES, WHOLE_LIST_MEASURES
from reportgen.report import Report

PER_QUESTION_ROWS_SHOWN = 500
"""Past this, the HTML and Markdown point to per_question.csv instead of growing."""


def templates_dir() -> Path:
    """The wheel ships templates inside the package; a source checkout keeps them beside it."""
    packaged = Path(str(resources.files("reportgen"))) / "templates"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "templates"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#+!|~])")


def markdown_escape(value: object) -> str:
    """Text safe inside a GitHub Markdown table cell: no markup, no HTML, no pings."""
    text = " ".join(str(value).split())
    text = text.replace("&", "&amp;")
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    return text.replace("@", "@\u200b")


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        # HTML templates only: Markdown has its own escape (the md filter), and HTML
        # entities in it would show up as text (run &#39;dense&#39;).
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "html.j2"], default=False),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = markdown_escape
    return env


def fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


@dataclass(frozen=True)
class Cell:
    text: str
    best: bool = False


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


def _best_marked(rows: list[tuple[str, list[float | None]]]) -> list[list[Cell]]:
    columns = list(zip(*(values for _, values in rows), strict=True)) if rows else []
    best = [max((v for v in column if v is not None), default=None) for column in columns]
    several = len(rows) > 1
    return [
        [Cell(name)]
        + [
            Cell(fmt(v), best=several and v is not None and v == best[i])
            for i, v in enumerate(values)
        ]
        for name, values in rows
    ]


def methods_tables(report: Report) -> list[Table]:
    """One table per cutoff (runs x measures), then the whole-list measures."""
    runs = report["runs"]
    tables = []
    for k in report["k"]:
        keys = [m.key(k) for m in CUTOFF_MEASURES]
        rows = [(name, [run["means"][key] for key in keys]) for name, run in runs.items()]
        marker = " (chunks sent to the model)" if k == report["context_k"] else ""
        tables.append(
            Table(
                f"Top {k}{marker}",
                ["run", *[m.title.replace("@k", f"@{k}") for m in CUTOFF_MEASURES]],
                _best_marked(rows),
            )
        )
    keys = [m.key() for m in WHOLE_LIST_MEASURES]
    rows = [(name, [run["means"][key] for key in keys]) for name, run in runs.items()]
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
class QuestionRow:
    qid: str
    kind: str
    question: str
    gold: str
    status: str
    per_run: list[str]


def question_rows(evaluation: Evaluation, limit: int) -> tuple[list[QuestionRow], int]:
    """Per-question evidence: gold ids, and for each run the first gold rank and top k."""
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
    )
    for index, result in enumerate(evaluation.runs):
        top = (
            result.run.results.filter(pl.col("rank") <= k)
            .sort("qid", "rank")
            .group_by("qid", maintain_order=True)
            .agg(pl.col("chunk_id").str.join(", ").alias(f"_top{index}"))
        )
        first = result.scores.select("qid", pl.col("first_relevant_rank").alias(f"_first{index}"))
        table = table.join(first, on="qid", how="left").join(top, on="qid", how="left")
    table = table.sort("qid")
    rows = []
    for row in table.head(limit).iter_rows(named=True):
        per_run = []
        for index in range(len(evaluation.runs)):
            first_rank = row[f"_first{index}"]
            found = f"gold at {first_rank}" if first_rank is not None else "no gold"
            per_run.append(f"{found}; top {k}: {row[f'_top{index}'] or '(none)'}")
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
    return rows, table.height


def glossary() -> list[tuple[str, str, str]]:
    return [(m.title, m.formula, m.description) for m in MEASURES]


def view_model(report: Report, evaluation: Evaluation) -> dict[str, Any]:
    questions, total = question_rows(evaluation, PER_QUESTION_ROWS_SHOWN)
    gold = report["gold"]
    return {
        "report": report,
        "title": f"reportgen {report['version']}",
        "facts": [
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
        ],
        "warnings": [w["message"] for w in report["warnings"]],
        "headlines": [
            headline(name, run, report["context_k"]) for name, run in report["runs"].items()
        ],
        "methods": methods_tables(report),
        "kinds": kind_tables(report),
        "run_names": list(report["runs"]),
        "questions": questions,
        "questions_total": total,
        "questions_cut": total > len(questions),
        "glossary": glossary(),
        "hygiene": hygiene_view(report),
    }


def render_html(report: Report, evaluation: Evaluation) -> str:
    return environment().get_template("report.html.j2").render(view_model(report, evaluation))


def render_markdown(report: Report, evaluation: Evaluation) -> str:
    return environment().get_template("report.md.j2").render(view_model(report, evaluation))


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
