"""report.json's ``pages``: what the HTML and Markdown pages show beyond the sections
above (question rows, top-1 scores, the drill-down's text, what each measure means),
so that ``reportgen render`` rebuilds the pages from report.json alone.

Bounded like the pages: QUESTION_ROWS_KEPT rows, PANELS_KEPT panels, chunk text cut at
CHUNK_TEXT_KEPT characters, GOLD_IDS_KEPT gold ids a row.
"""

from typing import NotRequired, TypedDict

from reportgen.schema.sections import Cell

QUESTION_ROWS_KEPT = 500
"""Question rows the pages show (the first by id); the per-question file has them all."""
GOLD_IDS_KEPT = 10
"""Gold ids kept per question row; ``gold_count`` says how many there are."""
PANELS_KEPT = 200
"""Drill-down panels kept: as many as the HTML report shows."""
CHUNK_TEXT_KEPT = 600
"""Characters of a chunk's text kept in a panel; ``chars`` says how long it was."""


class RunRow(TypedDict):
    """What one run did for one question."""

    first_rank: int | None
    """The rank of the first relevant chunk (any depth), null when none came back."""
    top: list[str]
    """The chunk ids of the top k_ctx, in rank order."""
    relevant: list[bool]
    """For each of ``top``: whether it is relevant (through the run's chunk map, if any)."""
    cell: Cell | None
    """The question's cell when the verdicts judge the run."""


class QuestionRow(TypedDict):
    qid: str
    kind: str
    question: str | None
    gold: list[str]
    """The first GOLD_IDS_KEPT relevant chunk ids, highest grade first."""
    gold_count: int
    evidence_only: bool
    """The gold is evidence spans only: its chunks depend on each run's chunk map."""
    status: str
    """The first run's status for the question (scored, unanswerable, no_relevant, ...)."""
    runs: dict[str, RunRow]
    slice: NotRequired[list[str]]
    """With --slice-by: the question's values of the compared field (the gated one, else
    the first), which the question table filters by."""


ANSWERABLE, UNANSWERABLE = "answerable", "unanswerable"
"""The two groups of a cutoff analysis's questions, as its charts and tables name them."""


class TopScores(TypedDict):
    """One run's top-1 scores, as its cutoff analysis read them."""

    scores: dict[str, float]
    """Question id -> its top-1 score, in the order the cutoff chart draws them."""
    unanswerable: list[str]
    """The questions among them declared unanswerable; the others are answerable."""


class PanelPassage(TypedDict):
    doc: str
    start: int
    end: int
    before: str | None
    text: str | None
    after: str | None
    cut_before: bool
    cut_after: bool


class PanelChunk(TypedDict):
    rank: int
    chunk_id: str
    score: float | None
    text: str | None
    """The first CHUNK_TEXT_KEPT characters; null without the chunk's text."""
    chars: int
    """The length of the whole text."""
    relevant: bool
    marks: list[list[int]]
    """Evidence inside ``text``: [start, end) offsets, sorted."""


class Panel(TypedDict):
    qid: str
    question: str | None
    cell: Cell | None
    evidence: list[PanelPassage]
    gold_chunks: list[str]
    sent: list[PanelChunk]
    first_relevant_rank: int | None
    first_relevant_chunk: str | None
    retrieved: int


class MeasureDefinition(TypedDict):
    name: str
    title: str
    formula: str
    description: str
    cutoff: bool


class PagesSection(TypedDict):
    questions: list[QuestionRow]
    """The first QUESTION_ROWS_KEPT questions by id (numeric ids by value)."""
    question_count: int
    top_scores: dict[str, TopScores]
    """Run (with a cutoff analysis) -> the top-1 score of each question it read."""
    panels: list[Panel]
    """The drill-down's first PANELS_KEPT questions (``drilldown``), with their text."""
    measures: list[MeasureDefinition]
    """Every measure reportgen knows, in the order the pages list them."""
    stale_shallow: bool
    """Most gold ids are returned by no run: the runs are shallower than the judgments."""
