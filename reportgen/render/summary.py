"""summary.md: the report cut to what a pull-request comment or a job summary can hold.

GitHub refuses a comment above 65,536 characters, so the summary keeps strictly under
SUMMARY_BUDGET: lists and the table of pairs are cut (with a count and a link to the
full report), halving until the text fits; if it still does not, the text is cut at
the last block boundary that fits (never inside a code fence, a table or
``<details>``) and ends with a link to the full report. It starts with a hidden
marker so that a CI step can find its previous comment and edit it in place. Charts
are Mermaid (GitHub strips images from data: URIs and inline SVG), one series per
chart since xychart-beta has no legend, with a table beside each for the mobile apps
that do not draw Mermaid.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from reportgen.core.ci import DEFAULT_REPORT_URL
from reportgen.core.records import dataclass
from reportgen.render.cells import ADVICE, CELL_NAMES
from reportgen.render.links import link_target
from reportgen.render.pages import environment, markdown_escape
from reportgen.render.views.attribution import (
    coverage_words,
    marked_ids,
    rule_note,
    sent_words,
    stale_note,
)
from reportgen.render.views.common import Table, fmt, plural
from reportgen.render.views.comparisons import (
    PAIRS_GLANCE,
    ComparisonBlock,
    comparisons_view,
    gate_lines,
    glance_note,
    glance_table,
    measure_titles,
    pair_label,
)
from reportgen.render.views.context import context_k_words, context_notes
from reportgen.render.views.drilldown import ANCHOR as DRILLDOWN_ANCHOR
from reportgen.render.views.drilldown import drilldown_sentence
from reportgen.render.views.first_screen import first_screen, passed_count
from reportgen.render.views.latency import latency_view
from reportgen.render.views.predictors import headroom_line
from reportgen.render.views.replicates import replicates_line
from reportgen.render.views.slices import moved_slice_lines
from reportgen.render.views.transitions import transitions_view
from reportgen.render.views.trials import trials_line
from reportgen.schema import BaselineSection, Cell, Comparison, Report

MARKER = "<!-- reportgen -->"
SUMMARY_BUDGET = 60_000
LIST_LIMIT = 40
"""Longest list printed before halving starts (question ids, warnings)."""
MOVES_SHOWN = 6
"""Moves since the baseline that summary.md lists, largest first."""
CHART_MIN_CUTOFFS = 3
"""Fewer cutoffs draw no curve worth a chart: the table says it all."""
HEADLINE_BUDGET = 40
"""Lines summary.md shows unfolded (outside ``<details>``): a reviewer's glance. Held by
tests/render/test_summary_budget.py on the demo and on a pull-request-style report."""
MERMAID_TITLE = 90

FAILURE_ADVICE = {
    "generation": "generation failures outnumber retrieval failures: the model had the "
    f"passage and did not use it; {ADVICE['generation']}",
    "retrieval": "retrieval failures outnumber generation failures: no prompt can fix "
    f"them; {ADVICE['retrieval']}",
    "tie": "generation and retrieval failures are equal: neither stage is clearly the "
    "bigger problem",
    "none": "no failure: every answer with a verdict was correct",
}
FAILURE_CELLS: tuple[Cell, ...] = ("retrieved_wrong", "missed_wrong", "missed_correct")
"""The cells whose questions summary.md lists: those a team works on."""


@dataclass(frozen=True)
class Listed:
    """A list cut to a limit, and how many items were left out."""

    items: list[str]
    more: int


def cut(items: list[str], limit: int) -> Listed:
    return Listed(items[:limit], max(0, len(items) - limit))


_MERMAID_UNSAFE = re.compile(r"[^\w .:/+@()=,-]")


def mermaid_text(value: object, limit: int | None = None) -> str:
    """User text that cannot close a Mermaid string or the code fence around it."""
    return _MERMAID_UNSAFE.sub("_", str(value))[:limit]


def linkable(url: str) -> bool:
    """Whether ``url`` still leads somewhere from a PR comment or a job summary.

    A relative path (the default ``index.html``) is dead there: GitHub resolves it
    against its own pages, so the summary names the place instead of linking to it.
    """
    return urlsplit(url).scheme.lower() in {"http", "https"}


def report_place(url: str) -> str:
    """Where the full report is, in words, when ``url`` cannot be a link."""
    if url == DEFAULT_REPORT_URL:
        return "index.html in the report folder (in CI, this run's artifacts)"
    return url


@dataclass(frozen=True)
class CurveChart:
    title: str
    x_labels: str
    lines: list[str]
    """One ``line`` series per run, in the table's order: xychart-beta draws no legend."""


def recall_curves(report: Report) -> tuple[list[str], list[list[str]], CurveChart | None]:
    """Header and rows of the recall@k table, and one Mermaid chart with a line per run.

    The table already gives every number; what the chart adds is the shape across runs
    (where the curves cross, how fast each flattens), so there is one chart, and none
    when fewer than three cutoffs make no shape.
    """
    ks = report["k"]
    header = ["run", *[f"recall@{k}" for k in ks]]
    rows = []
    lines = []
    for name, run in report["runs"].items():
        values = [run["means"][f"recall@{k}"] for k in ks]
        rows.append([name, *[fmt(v) for v in values]])
        if all(v is not None for v in values):
            lines.append(", ".join(f"{v:.3f}" for v in values))
    if len(ks) < CHART_MIN_CUTOFFS or not lines:
        return header, rows, None
    names = [name for name, run in report["runs"].items()][: len(lines)]
    return header, rows, CurveChart(curves_title(names), ", ".join(map(str, ks)), lines)


def curves_title(names: list[str]) -> str:
    """The chart's title, whole: the runs' names when they fit, else how many there are
    (a title cut at the limit lost its closing parenthesis)."""
    title = mermaid_text(f"recall@k, one line per run in table order ({', '.join(names)})")
    if len(title) <= MERMAID_TITLE:
        return title
    return f"recall@k, one line per run in table order ({len(names)} runs)"


GLOSSARY_TERMS = {
    "hit": "hit@k: any gold chunk in the top k",
    "recall": "recall@k: share of the gold chunks in the top k",
    "mrr": "MRR: 1 / rank of the first gold chunk",
    "ndcg": "nDCG: graded gain discounted by rank",
    "ap": "AP: precision at each gold rank",
    "span_recall": "span_recall: share of the evidence characters in the top k",
    "span_iou": "span_iou: evidence overlap over the context read (Chroma's)",
    "holm": "Holm: p adjusted for testing many measures at once",
    "mcnemar": "McNemar: exact test of the questions that flipped",
}
"""The one-line meaning of each measure or test summary.md may name."""


def glossary_line(text: str) -> list[str]:
    """The glossary entries of the terms ``text`` names, in GLOSSARY_TERMS' order."""
    lowered = text.lower()
    return [
        line
        for term, line in GLOSSARY_TERMS.items()
        if re.search(rf"(?<![\w-]){term}(?![a-z])", lowered)
    ]


@dataclass(frozen=True)
class CellsRow:
    run: str
    counts: list[str]
    pass_rate: str
    conclusion: str
    stale_note: str | None
    lists: list[tuple[str, Listed]]
    rule_note: str
    coverage: str
    headroom: str | None = None
    """What each fix is worth, in answers (views/predictors.py)."""


def cells_rows(report: Report, limit: int) -> list[CellsRow]:
    """Per run with verdicts: the four cells, the pass rate and where the effort goes."""
    rows = []
    for name, attribution in report["attribution"].items():
        cells = attribution["cells"]
        total = attribution["n"]
        counts = [
            f"{cells[key]} ({cells[key] / total:.0%})" if total else "0" for key in CELL_NAMES
        ]
        questions, stale = attribution["questions"], attribution["stale"]
        rows.append(
            CellsRow(
                run=name,
                counts=counts,
                pass_rate=fmt(attribution["pass_rate"]),
                conclusion=FAILURE_ADVICE.get(attribution["focus"], ""),
                stale_note=stale_note(attribution),
                rule_note=rule_note(attribution),
                coverage=coverage_words(attribution),
                headroom=headroom_line(attribution),
                lists=[
                    (
                        CELL_NAMES[key],
                        cut(marked_ids(sorted(questions[key]), stale[key]), limit),
                    )
                    for key in FAILURE_CELLS
                    if questions[key]
                ],
            )
        )
    return rows


def cells_sent(report: Report) -> str:
    """What the cells' heading says reached the model: ``top 5``, or the traces' chunks."""
    sections = list(report["attribution"].values())
    if any(section["context_source"] == "trace" for section in sections):
        return sent_words(next(s for s in sections if s["context_source"] == "trace"))
    return f"top {report['context_k']}"


@dataclass(frozen=True)
class BaselineBlock:
    """One run against its baseline: the deltas table, the cells, the questions that changed."""

    title: str
    note: str
    table: Table
    cells: Table | None
    cells_note: str | None
    changed: Table
    more: int


def baseline_blocks(blocks: list[ComparisonBlock], limit: int) -> list[BaselineBlock]:
    """Each run against the baseline, its changed questions cut to ``limit``."""
    return [
        BaselineBlock(
            title=block.title,
            note=block.note,
            table=block.table,
            cells=block.cells,
            cells_note=block.cells_note,
            changed=Table(block.changed.caption, block.changed.header, block.changed.rows[:limit]),
            more=max(0, block.changed_total - min(limit, len(block.changed.rows))),
        )
        for block in blocks
    ]


def _pairs_glance(report: Report, limit: int) -> Table | None:
    """The runs of this report against each other, one row per pair, cut to ``limit``."""
    pairs = report["comparisons"]["pairs"]
    if not pairs or limit == 0:
        return None
    table = glance_table(
        [(pair_label(pair), pair) for pair in pairs[:limit]],
        report["context_k"],
        measure_titles(report),
        PAIRS_GLANCE,
    )
    return Table(table.caption, ["runs", *table.header[1:]], table.rows)


def _pairs_note(report: Report, limit: int) -> str:
    pairs = len(report["comparisons"]["pairs"])
    shown = f"the first {limit} of {pairs} pairs are shown; " if pairs > limit else ""
    return glance_note(
        report["comparisons"]["method"],
        f"{shown}the full report has every measure of every pair",
    )


def others_summary(report: Report, run: str) -> str:
    """What the other runs' fold holds: ``hit, recall and MRR at 5 with intervals``."""
    against = " and the change of recall against the baseline" if report["baseline"] else ""
    return f"hit, recall and MRR at {report['context_k']} with 95% intervals{against}"


def beyond_noise(entry: Comparison) -> bool:
    return any(m["label"] in ("better", "worse") for m in entry["measures"].values())


def pairs_summary(report: Report) -> str:
    """What the pairs' fold holds, and how many pairs moved beyond noise."""
    pairs = report["comparisons"]["pairs"]
    moved = sum(beyond_noise(pair) for pair in pairs)
    return (
        f"{plural(len(pairs), 'pair')}, {moved} with a change beyond noise; headline "
        "measures before → after"
    )


def baseline_summary(baseline: BaselineSection) -> str:
    """What the baseline's fold holds: its version, the runs and what moved."""
    entries = baseline["comparisons"]
    moved = sum(beyond_noise(entry) for entry in entries)
    return (
        f"{baseline['version']}, {plural(len(entries), 'run')} compared, {moved} with a "
        "change beyond noise; every measure, the cells then and now, the questions that changed"
    )


def _baseline_view(report: Report, limit: int) -> dict[str, Any]:
    if not report["baseline"]:
        return {"baseline": [], "baseline_facts": [], "baseline_glance": None}
    view = comparisons_view(report)
    return {
        "baseline_summary": baseline_summary(report["baseline"]),
        "baseline": baseline_blocks(view.baseline, limit),
        "baseline_facts": view.baseline_facts,
        "baseline_glance": view.baseline_glance,
        "baseline_note": view.baseline_note,
    }


def summary_view(report: Report, report_url: str, limit: int) -> dict[str, Any]:
    """The first screen of the report (as report.md has it), then the comparisons and
    the curves, every list cut to ``limit``."""
    gold = report["gold"]
    header, rows, chart = recall_curves(report)
    gate_passed, _ = gate_lines(report)
    screen = first_screen(report)
    drops = screen.notes.drops
    return {
        "screen": screen,
        "drops_shown": drops[: screen.drops_inline],
        "drops_folded": drops[screen.drops_inline :],
        "attention_lines": screen.attention,
        "others_summary": others_summary(report, screen.run),
        "pairs_summary": pairs_summary(report),
        "gate_failed": cut(screen.gate.failed if screen.gate else [], limit),
        "gate_passed_rules": cut(screen.gate.passed_rules if screen.gate else [], limit),
        "gate_passed_summary": passed_count(len(screen.gate.passed_rules) if screen.gate else 0),
        "alerts": cut(screen.alerts, limit),
        "slices_moved": moved_slice_lines(report),
        "warning_groups": [
            (group.summary, cut(group.messages, limit)) for group in screen.warning_groups
        ],
        **_baseline_view(report, limit),
        "pairs_glance": _pairs_glance(report, limit),
        "pairs_note": _pairs_note(report, limit),
        "latency": latency_view(report, {}),
        "limit": limit,
        "gate_passed": gate_passed,
        "marker": MARKER,
        "report": report,
        "gold": gold,
        "gold_version": gold["version"] or "unversioned",
        "questions_counted": plural(gold["questions"], "question"),
        "report_url": link_target(report_url) if linkable(report_url) else None,
        "report_place": report_place(report_url),
        "cell_names": list(CELL_NAMES.values()),
        "cells": cells_rows(report, limit),
        "cells_sent": cells_sent(report),
        "judge_trials": trials_line(report["verdicts"]),
        "replicates": replicates_line(report),
        "context_k_words": context_k_words(report),
        "context_notes": context_notes(report),
        "recall_header": header,
        "recall_rows": rows,
        "recall_chart": chart,
        "drilldown": drilldown_sentence(report),
        "transitions": transitions_view(report, screen.run),
        "transitions_moves": min(MOVES_SHOWN, limit),
        "drilldown_url": (
            link_target(f"{report_url}#{DRILLDOWN_ANCHOR}") if linkable(report_url) else None
        ),
        "glossary": [],
        "glossary_url": link_target(f"{report_url}#glossary") if linkable(report_url) else None,
    }


def _rendered(view: dict[str, Any]) -> str:
    """summary.md from its view, with a glossary line for the terms the text names."""
    template = environment().get_template("summary.md.j2")
    text = template.render(view)
    return template.render({**view, "glossary": glossary_line(text)})


def render_summary(report: Report, report_url: str = DEFAULT_REPORT_URL) -> str:
    """summary.md, always strictly under SUMMARY_BUDGET characters, every block closed;
    it links to ``report_url`` when that is an http(s) URL, and names it otherwise."""
    limit = LIST_LIMIT
    text = _rendered(summary_view(report, report_url, limit))
    while length(text) >= SUMMARY_BUDGET and limit > 0:
        limit //= 2
        text = _rendered(summary_view(report, report_url, limit))
    if length(text) >= SUMMARY_BUDGET:
        place = (
            f"[full report]({link_target(report_url)})"
            if linkable(report_url)
            else f"full report ({markdown_escape(report_place(report_url))})"
        )
        note = f"… cut to fit a comment: the rest is in the {place}\n"
        kept = cut_at_block(text, SUMMARY_BUDGET - length(note) - 1) or MARKER + "\n\n"
        text = kept + note
    return text


def length(text: str) -> int:
    """Length as GitHub's limit may count it: UTF-16 code units (an emoji counts 2)."""
    return len(text.encode("utf-16-le")) // 2


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_DETAILS_OPEN = re.compile(r"(?<!\\)<details[\s>]", re.IGNORECASE)
_DETAILS_CLOSE = re.compile(r"(?<!\\)</details\s*>", re.IGNORECASE)
"""HTML tags, not text that markdown_escape made harmless (``\\<details``)."""
_LIST_ITEM = re.compile(r"^((?:> ?)*)[-*] ")
_HEADING = re.compile(r"^ {0,3}#{1,6}(\s|$)")


def block_ends(text: str) -> list[int]:
    """Offsets where the Markdown can stop with every block closed and nothing left hanging.

    That is after a block followed by a blank line, or between two items of a list, but
    never inside a fenced block, a table, ``<details>`` or a paragraph, nor right
    after a heading (it would head nothing).
    """
    lines = text.splitlines(keepends=True)
    ends = []
    offset = 0
    fence = ""
    details = 0
    for number, line in enumerate(lines):
        offset += len(line)
        if fence:
            fence = "" if _closes(fence, line) else fence
        elif opening := _FENCE.match(line):
            fence = opening.group(1)
        else:
            details += len(_DETAILS_OPEN.findall(line)) - len(_DETAILS_CLOSE.findall(line))
        if fence or details > 0 or not line.strip() or _HEADING.match(line):
            continue
        following = lines[number + 1] if number + 1 < len(lines) else ""
        item, next_item = _LIST_ITEM.match(line), _LIST_ITEM.match(following)
        if not following.strip() or (item and next_item and item.group(1) == next_item.group(1)):
            ends.append(offset)
    return ends


def _closes(fence: str, line: str) -> bool:
    """Whether ``line`` closes a code block opened by ``fence`` (CommonMark's rule)."""
    found = _FENCE.match(line)
    return bool(
        found
        and found.group(1)[0] == fence[0]
        and len(found.group(1)) >= len(fence)
        and not line[found.end() :].strip()
    )


def cut_at_block(text: str, budget: int) -> str:
    """The longest start of ``text`` that ends a block and fits ``budget``, then a blank line."""
    ends = block_ends(text)
    low, high = 0, len(ends)  # ends[:low] fit; ends[high:] do not (lengths only grow)
    while low < high:
        middle = (low + high) // 2
        if length(text[: ends[middle]]) + 1 <= budget:
            low = middle + 1
        else:
            high = middle
    return text[: ends[low - 1]].rstrip() + "\n\n" if low else ""
