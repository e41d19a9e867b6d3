"""The facts that change a verdict, named where a reviewer looks.

A count ("2 gold chunk ids are not in the index manifest") sends the reader elsewhere;
the ids themselves let them act from the PR comment. Each function returns one line (or
None when there is nothing to say); summary.md, the terminal and the HTML's first
screen print the same lines, in the same order (`attention_lines`).
"""

from __future__ import annotations

from reportgen.core.records import dataclass
from reportgen.render.views.common import plural
from reportgen.render.views.transitions import STATE_NAMES
from reportgen.schema import Report

IDS_NAMED = 10
"""Ids a line names before it says how many more there are."""
MOVES_NAMED = 2
"""The largest moves since the baseline a line names (each with its first ids)."""
IDS_PER_MOVE = 5


def named(items: list[str], limit: int = IDS_NAMED) -> str:
    """``a, b, c`` up to ``limit``, then ``+N more``."""
    shown = ", ".join(items[:limit])
    more = len(items) - limit
    return f"{shown}, +{more} more" if more > 0 else shown


def stale_ids_line(report: Report) -> str | None:
    """The stale gold ids by question: ``q047: kb-gift-cards-0009, ...``."""
    stale = report["hygiene"]["stale"]
    questions = stale["questions"]
    warned = {w["code"] for w in report["warnings"]} & {"stale_gold", "possibly_stale_gold"}
    if not questions or not warned:  # one run finding nothing proves little: no warning
        return None
    pairs = [f"{qid} ({', '.join(chunks)})" for qid, chunks in sorted(questions.items())]
    if stale["basis"] == "manifest":
        return f"Stale gold ids, not in the index manifest: {named(pairs)}"
    return f"Possibly stale gold ids, returned by no run: {named(pairs)}"


def answered_unanswerable_line(report: Report) -> str | None:
    """The unanswerable questions the run with verdicts answered instead of declining."""
    for run, section in report["attribution"].items():
        outcomes = section.get("unanswerable")  # a report.json written before it has none
        answered = sorted(outcomes["questions"]["answered"]) if outcomes else []
        if answered:
            total = len(answered)
            return f"Unanswerable questions {run} answered anyway ({total}): {named(answered)}"
    return None


def largest_moves_line(report: Report, run: str | None = None) -> str | None:
    """The largest moves between the cells since the baseline, their first ids named."""
    section = report.get("transitions") or {}
    if not section:
        return None
    name = run if run in section else next(iter(section))
    moves = section[name]["moves"]
    if not moves:
        return None
    words = "; ".join(
        f"{STATE_NAMES.get(move['from'], move['from'])} → {STATE_NAMES.get(move['to'], move['to'])}"
        f" ({move['count']}): {named(list(move['questions']), IDS_PER_MOVE)}"
        for move in moves[:MOVES_NAMED]
    )
    more = len(moves) - MOVES_NAMED
    rest = f"; {plural(more, 'smaller move')}" if more > 0 else ""
    return f"Largest moves since the baseline ({name}): {words}{rest}"


@dataclass(frozen=True)
class Attention:
    """The lines that change what a reviewer concludes, each None when it says nothing."""

    stale: str | None
    answered_unanswerable: str | None
    moves: str | None

    @property
    def lines(self) -> list[str]:
        return [line for line in (self.moves, self.stale, self.answered_unanswerable) if line]


def attention(report: Report, run: str | None = None) -> Attention:
    return Attention(
        stale=stale_ids_line(report),
        answered_unanswerable=answered_unanswerable_line(report),
        moves=largest_moves_line(report, run),
    )
