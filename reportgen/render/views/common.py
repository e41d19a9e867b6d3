"""What every view shares: number formats and the plain table the partials lay out.

Numbers are formatted here, once, so HTML, Markdown and the CLI print the same text.
"""

from __future__ import annotations

from reportgen.core.records import dataclass
from reportgen.schema.numbers import fmt as fmt  # the views' number format, shared with the gate

IDS_INLINE = 8
"""Longest list of question ids a sentence names inline; longer ones are counted only."""


IDS_SHOWN = 10
"""Chunk ids printed per question before "… and N more": TREC-style qrels judge
hundreds of documents per question, and the pages list ids for people to read."""


def listed_ids(ids: list[str], total: int | None = None) -> str:
    """The first IDS_SHOWN ids, then how many more there are (of ``total``, if given)."""
    total = len(ids) if total is None else total
    shown = ", ".join(ids[:IDS_SHOWN])
    more = total - min(len(ids), IDS_SHOWN)
    return f"{shown}, … and {more} more" if more > 0 else shown


def fmt_interval(bounds: list[float] | None) -> str:
    return "" if bounds is None else f"{bounds[0]:.2f}\u2013{bounds[1]:.2f}"


VERDICT_CLASSES = {
    "better": "better",
    "worse": "worse",
    "mixed": "mixed",
    "within noise": "within-noise",
    "too few questions": "too-few",
    "": "none",
}
"""CSS class suffix of each comparison label (report.json's, or the first screen's
``mixed``), so that no class is made from the words a reader sees."""


def verdict_class(label: str, prefix: str = "verdict") -> str:
    """``verdict-worse``: the class that colours a label on the pages."""
    return f"{prefix}-{VERDICT_CLASSES[label]}"


@dataclass(frozen=True)
class Cell:
    text: str
    best: bool = False
    note: str = ""
    """Secondary text printed under the value (the 95% interval)."""
    css: str = ""
    """The cell's class on the page (a verdict's colour); ``best`` marks its own."""

    @property
    def classes(self) -> str:
        return "best" if self.best else self.css

    @property
    def sort_value(self) -> str:
        """What report.js sorts the column by: the number as printed."""
        return self.text


@dataclass(frozen=True)
class Table:
    caption: str
    header: list[str]
    rows: list[list[Cell]]
    css: str = "sortable"
    """The table's class: ``sortable`` tables sort by each cell's text (report.js)."""

    @property
    def sortable(self) -> bool:
        return "sortable" in self.css.split()


def fmt_share(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f}%"


def fmt_score(value: float | None) -> str:
    """Scores come on any scale (BM25 14.2, RRF 0.0295): four significant digits."""
    return "n/a" if value is None else f"{value:.4g}"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``1 question``, ``2 questions``: the count with its noun in the right number."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def change_words(difference: float) -> str:
    """A signed difference in words: ``a rise of 0.295``, ``a drop of 0.295``, ``no change``."""
    if round(difference, 3) == 0:
        return "no change"
    return f"a {'rise' if difference > 0 else 'drop'} of {abs(difference):.3f}"
