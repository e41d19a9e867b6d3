"""The four cells' names and the advice a failure cell carries (SPEC.md, "The four cells").

One source for the pages, the PR summary, the terminal, the charts and the site, so
that a cell is called the same and the same work is advised wherever it is read.
"""

from __future__ import annotations

from reportgen.schema import Cell, Focus

CELL_NAMES: dict[Cell, str] = {
    "retrieved_correct": "working as designed",
    "retrieved_wrong": "generation failure",
    "missed_correct": "answered from memory",
    "missed_wrong": "retrieval failure",
}
"""report.json's attribution cells and the names a reader sees, in the order of SPEC.md's table."""

FOCUS_CELL: dict[Focus, Cell] = {"generation": "retrieved_wrong", "retrieval": "missed_wrong"}
"""The failure cell that report.json's ``focus`` names."""

ADVICE = {
    "generation": "work on the prompt, the chunk count and order, or the model",
    "retrieval": "work on chunking, embeddings, hybrid search or query rewriting",
}
"""Where the next week of work goes when one failure cell is the larger."""


def advice_sentence(focus: str) -> str:
    """:data:`ADVICE` as a sentence of its own: capital first, full stop."""
    text = ADVICE[focus]
    return f"{text[0].upper()}{text[1:]}."
