"""Chunkings side by side: span recall at k_ctx against the characters sent, per run.

A chunk size is a trade: larger chunks cover more of the evidence and send more text.
The table gives both for every run with a chunk map; the chart (charts/chunkings.svg)
puts each run at (characters sent, span recall), so the better trade is up and left.
"""

from __future__ import annotations

from collections.abc import Mapping

from markupsafe import Markup

from reportgen.core.records import dataclass
from reportgen.render.views.common import Cell, Table, fmt, plural
from reportgen.schema import Report

CHART = "chunkings"
ANCHOR = "chunkings"


@dataclass(frozen=True)
class ChunkingsView:
    intro: str
    table: Table
    svg: Markup | None
    caption: str
    chart_stem: str


def chunkings_view(report: Report, charts: Mapping[str, bytes]) -> ChunkingsView | None:
    """The table (and chart, once drawn) of the runs with a chunk map; None without."""
    section = report.get("chunkings")
    if not section or not section["runs"]:
        return None
    k = report["context_k"]
    header = [
        "run", "chunk map", "chunks", f"span recall@{k}", f"span precision@{k}",
        f"span IoU@{k}", f"characters sent@{k}",
    ]  # fmt: skip
    rows = []
    for name, facts in section["runs"].items():
        means = report["runs"][name]["means"]
        chars = means[f"context_chars@{k}"]
        rows.append(
            [
                Cell(name),
                Cell(facts["chunk_map"]),
                Cell(f"{facts['chunks']:,}"),
                *[
                    Cell(fmt(means[f"{m}@{k}"]))
                    for m in ("span_recall", "span_precision", "span_iou")
                ],
                Cell("n/a" if chars is None else f"{chars:,.0f}"),
            ]
        )
    evidence = section["evidence"]
    intro = (
        f"Judged on the evidence spans of {plural(evidence['questions'], 'question')} "
        f"({plural(evidence['located_ranges'], 'located range')}), whatever the chunking: "
        f"a chunk counts as relevant when it holds at least {section['min_coverage']:g} of "
        "an evidence range, or that share of it is evidence. Span recall is the share of "
        "the evidence's characters inside the chunks sent; characters sent is what the "
        "model reads (overlapping chunks counted twice). Chunk-id measures (hit, recall, "
        "...) also count the chunk ids a gold set names, which another chunking does not "
        "have: compare chunkings on these span measures."
    )
    svg = charts.get(f"{CHART}.svg")
    return ChunkingsView(
        intro=intro,
        table=Table(f"Chunkings at the top {k} (chunks sent to the model)", header, rows),
        svg=None if svg is None else Markup(svg.decode()),
        caption=f"Span recall@{k} against the characters sent@{k}, one point per run: "
        "up is more of the evidence, left is less to read.",
        chart_stem=CHART,
    )
