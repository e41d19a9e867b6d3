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
from markupsafe import Markup

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


def markdown_escape(value: object) -> Markup:
    """Text safe inside a GitHub Markdown table cell: no markup, no HTML, no pings."""
    text = " ".join(str(value).split())
    text = text.replace("&", "&amp;")
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    # Markup: the text is already safe, so autoescaping (on for *.j2) must not escape it again.
    return Markup(text.replace("@", "@\u200b"))


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir()),
        autoescape=jinja2.select_autoescape(["html", "htm", "xml", "j2"]),
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
        "comparisons": comparisons_view(report),
    }


def render_html(report: Report, evaluation: Evaluation) -> str:
    return environment().get_template("report.html.j2").render(view_model(report, evaluation))


def render_markdown(report: Report, evaluation: Evaluation) -> str:
    return environment().get_template("report.md.j2").render(view_model(report, evaluation))


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
    return Table(f"{entry['before']} → {entry['after']}", header, rows)


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
