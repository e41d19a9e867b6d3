"""What changed per question since the baseline: report.json's ``transitions`` worded.

The first screens show one run's matrix (baseline state in rows, this report's in
columns, only the states either side holds) and the questions of its two largest
moves; a section further down folds each moved question's two top-k lists side by
side, gold marked, with each chunk's rank change.
"""

from __future__ import annotations

from typing import Any

from reportgen.core.records import dataclass
from reportgen.render.cells import CELL_NAMES
from reportgen.render.views.common import IDS_INLINE, fmt, plural
from reportgen.schema import Report

ANCHOR = "changed"
TITLE = "What changed per question"
STATE_NAMES: dict[str, str] = {
    **{str(cell): name for cell, name in CELL_NAMES.items()},
    "unanswerable": "unanswerable",
    "no_verdict": "no verdict",
    "tied": "tied (the judge split)",
    "retrieved": "gold in top k",
    "missed": "gold not in top k",
}
"""How a reader sees each state of report.json's ``transitions.<run>.states``."""
MOVES_LISTED = 2
"""The largest moves whose questions the first screen names."""


@dataclass(frozen=True)
class MatrixRow:
    state: str
    label: str
    counts: list[tuple[int, str]]
    """Per column: the count and its class (``same`` on the diagonal, ``moved`` off it
    when not zero)."""
    total: int


@dataclass(frozen=True)
class Move:
    label: str
    """``generation failure → working as designed``."""
    count: int
    ids: str
    """The first IDS_INLINE question ids, then how many more."""
    test: str
    """The exact McNemar test against the opposite move, worded."""
    key: str
    """``from>to``: what the question table's transition filter matches."""
    flaky: str = ""
    """``2 flaky: q3, q7``: its questions whose judge or run disagrees with itself."""


@dataclass(frozen=True)
class RankedChunk:
    chunk_id: str
    gold: bool
    change: str
    """``new``, ``▲2`` (up two ranks), ``▼1``, ``=`` (same rank) or ``out`` (dropped)."""
    text: str = ""
    """The chunk's text, as the drill-down cut it, when the report holds it."""


@dataclass(frozen=True)
class SideBySide:
    qid: str
    question: str
    then: list[RankedChunk] | None
    now: list[RankedChunk]
    dropped: list[RankedChunk]
    """Chunks of the baseline's top k that are not in this report's."""


@dataclass(frozen=True)
class MoveGroup:
    move: Move
    questions: list[SideBySide]


@dataclass(frozen=True)
class TransitionsView:
    run: str
    mode: str
    caption: str
    columns: list[str]
    rows: list[MatrixRow]
    column_totals: list[int]
    summary: str
    moves: list[Move]
    """The two largest moves, for the first screen."""
    groups: list[MoveGroup]
    """Every move with the stored side-by-side of its questions."""
    notes: list[str]
    folded_note: str


def _label(state: str) -> str:
    return STATE_NAMES.get(state, state)


def _ids(ids: list[str]) -> str:
    shown = ", ".join(ids[:IDS_INLINE])
    more = len(ids) - IDS_INLINE
    return f"{shown}, … and {more} more" if more > 0 else shown


def _test_words(entry: dict[str, Any], source: str, target: str) -> str:
    for test in entry["tests"]:
        if {test["a"], test["b"]} == {source, target}:
            there = test["a_to_b"] if test["a"] == source else test["b_to_a"]
            back = test["b_to_a"] if test["a"] == source else test["a_to_b"]
            return f"{there} this way, {back} back: exact McNemar p = {fmt(test['p'])}"
    return ""


def flaky_words(count: int) -> str:
    """What a reader must know of the moved questions whose judge disagreed with itself."""
    if not count:
        return ""
    return (
        f" {plural(count, 'moved question')} {'is' if count == 1 else 'are'} flaky (the "
        "judge's trials or the run's replicates disagree): marked flaky, not regressed."
    )


def _flaky_ids(ids: list[str]) -> str:
    """``2 flaky: q3, q7``; empty when none (or a report written before flaky moves)."""
    return f"{len(ids)} flaky: {_ids(ids)}" if ids else ""


def _moves(entry: dict[str, Any]) -> list[Move]:
    return [
        Move(
            label=f"{_label(move['from'])} → {_label(move['to'])}",
            count=move["count"],
            ids=_ids(move["questions"]),
            test=_test_words(entry, move["from"], move["to"]),
            key=f"{move['from']}>{move['to']}",
            flaky=_flaky_ids(move.get("flaky") or []),
        )
        for move in entry["moves"]
    ]


def _ranked(
    top: list[str], other: list[str] | None, gold: set[str], texts: dict[str, str] | None = None
) -> list[RankedChunk]:
    """Each chunk with its rank change against ``other`` (None: nothing to compare)."""
    chunks = []
    for rank, chunk in enumerate(top, start=1):
        if other is None:
            change = ""
        elif chunk not in other:
            change = "new"
        else:
            step = other.index(chunk) + 1 - rank
            change = "=" if step == 0 else f"▲{step}" if step > 0 else f"▼{-step}"
        chunks.append(RankedChunk(chunk, chunk in gold, change, (texts or {}).get(chunk, "")))
    return chunks


def _side_by_side(
    row: dict[str, Any], questions: dict[str, str], texts: dict[str, dict[str, str]]
) -> SideBySide:
    gold = set(row["relevant"])
    then, now = row["then"], row["now"]
    return SideBySide(
        qid=row["qid"],
        question=questions.get(row["qid"], ""),
        then=None if then is None else _ranked(then, None, gold),
        now=_ranked(now, then, gold, texts.get(row["qid"])),
        dropped=[]
        if then is None
        else [RankedChunk(chunk, chunk in gold, "out") for chunk in then if chunk not in now],
    )


def _rows(entry: dict[str, Any]) -> tuple[list[str], list[MatrixRow], list[int]]:
    """Only the states either side holds: an empty row and column tell nothing."""
    states = [s for s in entry["states"] if entry["then"][s] or entry["now"][s]]
    rows = [
        MatrixRow(
            state=a,
            label=_label(a),
            counts=[
                (
                    entry["matrix"][a][b],
                    "same" if a == b else "moved" if entry["matrix"][a][b] else "",
                )
                for b in states
            ],
            total=entry["then"][a],
        )
        for a in states
    ]
    return states, rows, [entry["now"][b] for b in states]


def _chunk_texts(report: Report, run: str) -> dict[str, dict[str, str]]:
    """Question -> chunk id -> text, from the drill-down's panels when they are ``run``'s."""
    drilldown = report.get("drilldown")
    if not drilldown or drilldown["run"] != run:
        return {}
    return {
        panel["qid"]: {chunk["chunk_id"]: chunk["text"] for chunk in panel["sent"] if chunk["text"]}
        for panel in report.get("pages", {}).get("panels", [])
    }


def transitions_view(report: Report, run: str | None) -> TransitionsView | None:
    """``run``'s transitions (default: the first run that has them); None without a
    baseline."""
    section: dict[str, Any] = dict(report.get("transitions") or {})
    if not section:
        return None
    name = run if run in section else next(iter(section))
    entry = section[name]
    baseline = report.get("baseline")
    then_label = "baseline" if baseline is None else str(baseline["version"])
    states, rows, totals = _rows(entry)
    questions = {
        row["qid"]: row["question"] or "" for row in report.get("pages", {}).get("questions", [])
    }
    moves = _moves(entry)
    texts = _chunk_texts(report, name)
    by_move: dict[str, list[SideBySide]] = {}
    for row in entry["side_by_side"]["questions"]:
        by_move.setdefault(f"{row['from']}>{row['to']}", []).append(
            _side_by_side(row, questions, texts)
        )
    kept = entry["side_by_side"]
    folded = (
        ""
        if kept["available"]
        else "The baseline's report.json holds no top-k lists (it predates top_k): only "
        "this report's lists are shown."
    )
    if len(kept["questions"]) < kept["count"]:
        folded += (
            f" The first {len(kept['questions'])} of {kept['count']} moved questions are "
            "kept, largest moves first."
        ).strip()
    k = entry["k"]
    unit = "cells" if entry["mode"] == "cells" else f"gold in the top {k['now']} or not"
    return TransitionsView(
        run=name,
        mode=entry["mode"],
        caption=f"{name}: {then_label} (rows) → {report['version']} (columns), {unit}",
        columns=[_label(state) for state in states],
        rows=rows,
        column_totals=totals,
        summary=(
            f"{plural(entry['moved'], 'question')} of {entry['questions']} moved, "
            f"{entry['unchanged']} stayed."
            + flaky_words((entry.get("flaky") or {}).get("count", 0))
        ),
        moves=moves[:MOVES_LISTED],
        groups=[MoveGroup(move, by_move.get(move.key, [])) for move in moves],
        notes=list(entry["notes"]),
        folded_note=folded.strip(),
    )
