"""The per-question table: gold ids, and per run the first gold rank, the top k, the cell.

report.json's ``pages.questions`` holds them (the first PER_QUESTION_ROWS_SHOWN by id, so
the pages stay small); this module words them.
"""

from __future__ import annotations

from dataclasses import dataclass

from reportgen.render.cells import CELL_NAMES
from reportgen.render.views.common import IDS_SHOWN
from reportgen.schema import QUESTION_ROWS_KEPT, Report
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
    rows = []
    for row in pages["questions"][:limit]:
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
            )
        )
    return rows, pages["question_count"]
