"""The failure drill-down's panels: every sentence and text piece the templates print.

Bounded so that a large gold set keeps a light page: chunk text is cut to
CHUNK_TEXT_SHOWN characters, the page holds at most PANELS_SHOWN panels and report.md
the first MARKDOWN_PANELS; a note says how many were left out. The text is handed to
the templates as (text, is_evidence) segments: Jinja escapes each one.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from reportgen.core.records import dataclass
from reportgen.render.cells import CELL_NAMES
from reportgen.render.views.common import fmt_score, plural
from reportgen.schema import CHUNK_TEXT_KEPT, PANELS_KEPT, Report
from reportgen.schema import Panel as PanelData
from reportgen.schema import PanelChunk as Sent

PANELS_SHOWN = PANELS_KEPT
MARKDOWN_PANELS = 20
CHUNK_TEXT_SHOWN = CHUNK_TEXT_KEPT
ANCHOR = "drilldown"

Segment = tuple[str, bool]
"""A piece of text, and whether it is evidence (highlighted)."""


@dataclass(frozen=True)
class ChunkRow:
    rank: str
    score: str
    chunk_id: str
    segments: list[Segment]
    relevant: bool
    relevance: str
    css: str
    """The row's class on the page: ``relevant`` or ``noise``."""
    cut: str
    """Empty, or how many characters were cut off the end of the text."""


@dataclass(frozen=True)
class Panel:
    qid: str
    summary: str
    """The id, the cell and the question's text: what a folded panel shows."""
    evidence: list[tuple[str, list[Segment]]]
    """(where, segments): each evidence passage, highlighted within its context."""
    chunks: list[ChunkRow]
    landed: str
    """Where the first relevant chunk landed, when not among those sent; else empty."""

    @property
    def markdown_summary(self) -> str:
        """The summary inside report.md's ``<summary>``: HTML there, so only ``& < >``
        escaped (an escaped apostrophe would show as ``&#39;``)."""
        return html.escape(self.summary, quote=False)


@dataclass(frozen=True)
class DrilldownView:
    title: str
    intro: str
    panels: list[Panel]
    note: str
    """How many questions were left out, when some were; else empty."""
    markdown_note: str
    caption: str = "Chunks sent to the model, in rank order"
    header: tuple[str, ...] = ("rank", "score", "chunk", "relevant", "text")
    no_evidence: str = "(no evidence given)"
    nothing_sent: str = "(nothing was sent)"

    @property
    def markdown_panels(self) -> list[Panel]:
        return self.panels[:MARKDOWN_PANELS]


def drilldown_view(report: Report) -> DrilldownView | None:
    """The panels of the questions the analyses chose to explain (report.json's
    ``drilldown`` and ``pages.panels``), or None without any."""
    chosen = report["drilldown"]
    if chosen is None:
        return None
    panels = [_panel(item, chosen["context_k"]) for item in report["pages"]["panels"]]
    total = chosen["count"]
    which = "every question" if chosen["mode"] == "all" else "each generation and retrieval failure"
    intro = (
        f"For {which} of {chosen['run']}: its evidence (highlighted), then the "
        f"{plural(chosen['context_k'], 'chunk')} sent to the model in rank order, each marked "
        "relevant or not. Chunk text is cut at "
        f"{CHUNK_TEXT_SHOWN} characters; open a question to read it."
    )
    left = total - len(panels)
    note = (
        f"{plural(left, 'more question')} left out: the page shows the first "
        f"{len(panels)} of {total}."
        if left > 0
        else ""
    )
    shown_md = min(MARKDOWN_PANELS, len(panels))
    markdown_note = (
        f"The first {shown_md} of {total} questions; the HTML report shows "
        f"{'them all' if total <= PANELS_SHOWN else f'the first {PANELS_SHOWN}'}."
        if total > shown_md
        else ""
    )
    return DrilldownView(drilldown_title(chosen["mode"]), intro, panels, note, markdown_note)


def drilldown_title(mode: str) -> str:
    """The section's title, which the navigation repeats."""
    if mode == "all":
        return "Every question: what the model was sent"
    return "Failed questions: what the model was sent"


def drilldown_sentence(report: Report) -> str | None:
    """What summary.md says the full report's drill-down holds, or None without one."""
    section = report.get("drilldown")
    if not section:
        return None
    which = "question" if section["mode"] == "all" else "failed question"
    return (
        f"The text of the chunks sent to the model for {plural(section['count'], which)} "
        f"of {section['run']}, evidence highlighted"
    )


def _panel(item: PanelData, context_k: int) -> Panel:
    cell = "" if item["cell"] is None else CELL_NAMES[item["cell"]]
    summary = " · ".join(part for part in (item["qid"], cell, item["question"] or "") if part)
    evidence: list[tuple[str, list[Segment]]] = []
    for passage in item["evidence"]:
        where = f"{passage['doc']}, characters {passage['start']}-{passage['end']}"
        if passage["text"] is None:
            evidence.append((where, []))
            continue
        segments: list[Segment] = [
            (("…" if passage["cut_before"] else "") + (passage["before"] or ""), False),
            (passage["text"], True),
            ((passage["after"] or "") + ("…" if passage["cut_after"] else ""), False),
        ]
        evidence.append((where, [s for s in segments if s[0]]))
    if not item["evidence"] and item["gold_chunks"]:
        evidence.append((f"gold chunks: {', '.join(item['gold_chunks'])}", []))
    return Panel(
        qid=item["qid"],
        summary=summary,
        evidence=evidence,
        chunks=[_row(sent) for sent in item["sent"]],
        landed=_landed(item, context_k),
    )


def _row(sent: Sent) -> ChunkRow:
    text = sent["text"]
    shown = (text or "")[:CHUNK_TEXT_SHOWN]
    cut = sent["chars"] - len(shown)
    segments = (
        _segments(shown, sent["marks"])
        if text is not None
        else [("(no text for this chunk)", False)]
    )
    return ChunkRow(
        rank=str(sent["rank"]),
        score=fmt_score(sent["score"]) if sent["score"] is not None else "",
        chunk_id=sent["chunk_id"],
        segments=segments,
        relevant=sent["relevant"],
        relevance="relevant" if sent["relevant"] else "not relevant",
        css="relevant" if sent["relevant"] else "noise",
        cut=f"… {cut:,} more characters" if cut > 0 else "",
    )


def _segments(text: str, marks: Sequence[Sequence[int]]) -> list[Segment]:
    """``text`` split at the evidence marks (clipped to it), evidence flagged."""
    found: list[Segment] = []
    at = 0
    for start, end in marks:
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        if start > at:
            found.append((text[at:start], False))
        found.append((text[start:end], True))
        at = end
    if at < len(text):
        found.append((text[at:], False))
    return found


def _landed(item: PanelData, context_k: int) -> str:
    rank = item["first_relevant_rank"]
    if rank is not None and rank <= context_k:
        return ""
    if rank is not None:
        return (
            f"The first relevant chunk, {item['first_relevant_chunk']}, came at rank {rank}: "
            f"beyond the {context_k} sent."
        )
    if not item["gold_chunks"]:
        return "No chunk of this run's chunking holds enough of the evidence to count as relevant."
    return f"No relevant chunk in any of the run's {plural(item['retrieved'], 'result')}."
