"""The per-question table: gold ids, and per run the first gold rank, the top k, the cell.

report.json's ``pages.questions`` holds them (the first PER_QUESTION_ROWS_SHOWN by id, so
the pages stay small); this module words them.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from reportgen.core.records import dataclass
from reportgen.render.cells import CELL_NAMES
from reportgen.render.views.common import IDS_SHOWN
from reportgen.render.views.transitions import STATE_NAMES
from reportgen.schema import QUESTION_ROWS_KEPT, Report, RunRow
from reportgen.schema import QuestionRow as QuestionRowData

EVIDENCE_ONLY = "(evidence spans)"
"""What the gold column says of a question whose gold is evidence spans only: its chunks
depend on each run's chunk map, and "(none)" read as a question with nothing to find."""

PER_QUESTION_ROWS_SHOWN = QUESTION_ROWS_KEPT
"""Past this, the HTML and Markdown point to the per-question file instead of growing:
10,000 questions x 6 runs then stay well under 5 MB of HTML."""


@dataclass(frozen=True)
class RunEvidence:
    """What one run did for one question, as the per-question table shows it."""

    run: str
    found: str
    outcome: str
    """found (a gold chunk in the top k_ctx), missed (none there, even if one comes
    later) or neutral (nothing to find): a CSS class, shown with a symbol too."""
    first_rank: int | None
    top: list[tuple[str, bool]]
    """The top k chunk ids in rank order, each with whether it is gold."""
    cell: str

    @property
    def symbol(self) -> str:
        """The outcome as Markdown shows it (the HTML draws it from the class)."""
        return {"found": "✓", "missed": "✗"}.get(self.outcome, "\u2013")

    @property
    def sort_key(self) -> int:
        """Sorts by the first gold rank; no gold chunk at all sorts last."""
        return self.first_rank if self.first_rank is not None else 9999


def evidence_words(first_rank: int | None, status: str, k: int) -> tuple[str, str]:
    """What a run found for a question, and its outcome class. A gold chunk past k_ctx
    never reached the model: a miss, as the four cells count it, with its rank said."""
    if status in ("unanswerable", "no_relevant"):
        return "nothing to find", "neutral"
    if first_rank is None:
        return "no gold returned", "missed"
    if first_rank > k:
        return f"not in top {k} (gold at rank {first_rank})", "missed"
    return f"gold at rank {first_rank}", "found"


def runs_in_order(run_names: list[str], first: str) -> list[str]:
    """The run names with ``first`` (the run the first screen is about) in front."""
    return [first, *[name for name in run_names if name != first]]


@dataclass(frozen=True)
class QuestionRow:
    qid: str
    kind: str
    question: str
    gold: str
    status: str
    per_run: list[RunEvidence]
    facets: dict[str, str] = field(default_factory=dict)
    """What the table's filters match (``data-*`` attributes): kind, state (the first
    run's cell, else retrieved/missed), move (since the baseline, ``from>to``), change
    (better/worse/mixed on the measures listed), stale ("1"), attention ("1" when the
    question failed or changed: the default view)."""

    @property
    def move(self) -> str:
        """The move since the baseline, as a reader sees it; empty when it stayed."""
        return _move_label(self.facets["move"]) if self.facets.get("move") else ""

    @property
    def status_tag(self) -> str:
        """The status shown beside the gold ids: none for a question that was scored."""
        return "" if self.status == "scored" else self.status


def _gold_text(row: QuestionRowData) -> str:
    """The gold ids shown (the first IDS_SHOWN, then how many more), or why there are none."""
    if row["evidence_only"]:
        return EVIDENCE_ONLY
    if not row["gold"]:
        return "(none)"
    shown = ", ".join(row["gold"][:IDS_SHOWN])
    more = row["gold_count"] - IDS_SHOWN
    return f"{shown}, … and {more} more" if more > 0 else shown


FAILED_STATES = ("retrieved_wrong", "missed_wrong", "missed")
SLICE_SEPARATOR = "|"
"""Between a question's values in its ``data-slice`` (a list field gives several):
report.js matches any of them."""
CHANGE_WORDS = {1: "better", -1: "worse", 0: "mixed"}


def _state(run: RunRow, status: str, k: int) -> str:
    """The first run's state for a question: its cell, else whether gold reached the top k."""
    if run["cell"] is not None:
        return str(run["cell"])
    if status in ("unanswerable", "no_relevant"):
        return "unanswerable"
    first = run["first_rank"]
    return "retrieved" if first is not None and first <= k else "missed"


def _moves(report: Report, run: str) -> dict[str, str]:
    """Question id -> ``from>to`` since the baseline, for ``run`` (else the first run
    the transitions hold)."""
    section: dict[str, Any] = dict(report.get("transitions") or {})
    if not section:
        return {}
    entry = section.get(run) or next(iter(section.values()))
    return {
        qid: f"{move['from']}>{move['to']}" for move in entry["moves"] for qid in move["questions"]
    }


def _changes(report: Report, run: str) -> dict[str, str]:
    """Question id -> better, worse or mixed: how its listed measures moved since the
    baseline (the questions that changed, as the baseline comparison keeps them)."""
    baseline = report.get("baseline")
    if not baseline:
        return {}
    signs: dict[str, set[int]] = {}
    for entry in baseline["comparisons"]:
        if entry.get("run") != run:
            continue
        for rows in (entry.get("changed_questions") or {}).values():
            for row in rows:
                if row["before"] is not None and row["after"] is not None:
                    step = (row["after"] > row["before"]) - (row["after"] < row["before"])
                    signs.setdefault(row["qid"], set()).add(step)
    return {
        qid: CHANGE_WORDS[next(iter(found - {0}))] if len(found - {0}) == 1 else "mixed"
        for qid, found in signs.items()
        if found - {0}
    }


def _stale(report: Report) -> set[str]:
    """Questions with a gold id the index no longer holds (or no run returns)."""
    return set((report["hygiene"]["stale"] or {}).get("questions") or {})


def _answered_unanswerable(report: Report, run: str) -> set[str]:
    section = report["attribution"].get(run)
    return set() if section is None else set(section["unanswerable"]["questions"]["answered"])


def question_rows(
    report: Report, limit: int, first_run: str | None = None
) -> tuple[list[QuestionRow], int]:
    """Per-question evidence, first ``limit`` questions by id (report.json's
    ``pages.questions``): gold ids, and per run the first gold rank, the top k and the
    question's cell when the run has verdicts. Runs in report order, ``first_run`` in
    front (the run the verdicts are for)."""
    pages = report["pages"]
    k = report["context_k"]
    names = list(report["runs"])
    order = runs_in_order(names, first_run or names[0])
    moves, changes = _moves(report, order[0]), _changes(report, order[0])
    stale, answered = _stale(report), _answered_unanswerable(report, order[0])
    rows = []
    for row in pages["questions"][:limit]:
        qid = row["qid"]
        state = _state(row["runs"][order[0]], row["status"], k)
        facets = {
            "kind": row["kind"],
            "state": state,
            "move": moves.get(qid, ""),
            "change": changes.get(qid, ""),
            "stale": "1" if qid in stale else "",
        }
        if "slice" in row:
            facets["slice"] = SLICE_SEPARATOR.join(row["slice"])
        failed = state in FAILED_STATES or qid in answered
        facets["attention"] = "1" if failed or facets["move"] or facets["change"] else ""
        per_run = []
        for name in order:
            run = row["runs"][name]
            found, outcome = evidence_words(run["first_rank"], row["status"], k)
            per_run.append(
                RunEvidence(
                    run=name,
                    found=found,
                    outcome=outcome,
                    first_rank=run["first_rank"],
                    top=list(zip(run["top"], run["relevant"], strict=True)),
                    cell="" if run["cell"] is None else CELL_NAMES[run["cell"]],
                )
            )
        rows.append(
            QuestionRow(
                qid=row["qid"],
                kind=row["kind"],
                question=row["question"] or "",
                gold=_gold_text(row),
                status=row["status"],
                per_run=per_run,
                facets=facets,
            )
        )
    return rows, pages["question_count"]


@dataclass(frozen=True)
class QuestionFilter:
    """One select of the question table's filters: the facet it matches and its choices."""

    name: str
    label: str
    options: list[tuple[str, str]]
    """(value, what the reader sees), after an "any" choice."""


def _state_label(state: str) -> str:
    return STATE_NAMES.get(state, state)


def _move_label(move: str) -> str:
    source, _, target = move.partition(">")
    return f"{_state_label(source)} → {_state_label(target)}"


def question_filters(
    rows: list[QuestionRow], first_run: str, slice_field: str = "slice"
) -> list[QuestionFilter]:
    """The filters worth offering: a facet with at least one value among the rows."""

    def values(facet: str) -> list[str]:
        return sorted({row.facets[facet] for row in rows} - {""})

    slice_values = sorted(
        {v for row in rows for v in row.facets.get("slice", "").split(SLICE_SEPARATOR)} - {""}
    )

    filters = [
        QuestionFilter("kind", "kind", [(v, v) for v in values("kind")]),
        QuestionFilter(
            "state",
            f"{first_run}: cell" if any(r.per_run[0].cell for r in rows) else f"{first_run}",
            [(v, _state_label(v)) for v in values("state")],
        ),
        QuestionFilter("move", "since the baseline", [(v, _move_label(v)) for v in values("move")]),
        QuestionFilter("change", "measures", [(v, v) for v in values("change")]),
        QuestionFilter("stale", "gold", [("1", "stale gold")] if values("stale") else []),
        QuestionFilter("slice", slice_field, [(v, v) for v in slice_values]),
    ]
    return [item for item in filters if item.options]
