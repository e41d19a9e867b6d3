"""The validated inputs every other module works on, and the schemas of their frames.

Loading produces these; measuring, attributing and comparing read them and never
touch files. Ids are always strings, whatever the file looked like.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

import polars as pl

UNLABELLED_KIND = "unlabelled"

QUESTIONS_SCHEMA = pl.Schema(
    {
        "qid": pl.String,
        "question": pl.String,
        "kind": pl.String,
        "unanswerable": pl.Boolean,
        "index_version": pl.String,
    }
)
"""One row per question of the gold set. ``kind`` is never null (UNLABELLED_KIND)."""

JUDGMENTS_SCHEMA = pl.Schema({"qid": pl.String, "chunk_id": pl.String, "grade": pl.Int64})
"""One row per (question, judged chunk). Grades below 1 are judged non-relevant."""

RESULTS_SCHEMA = pl.Schema(
    {"qid": pl.String, "chunk_id": pl.String, "rank": pl.Int64, "score": pl.Float64}
)
"""One row per (question, retrieved chunk): ``rank`` is the 1-based position the model
sees, unique per question; ``score`` may be null when the run has none."""

FORBIDDEN_SCHEMA = pl.Schema({"qid": pl.String, "chunk_id": pl.String, "reason": pl.String})
"""One row per (question, chunk that must never reach the model for it), with why."""

MANIFEST_SCHEMA = pl.Schema(
    {
        "chunk_id": pl.String,
        "audience": pl.String,
        "doc_version": pl.String,
        "valid_from": pl.Date,
        "valid_to": pl.Date,
        "line": pl.Int64,
    }
)
"""One row per chunk of the current index; metadata columns are null when not given.
``line`` is where the chunk was declared, for messages."""


def empty_forbidden() -> pl.DataFrame:
    return pl.DataFrame(schema=FORBIDDEN_SCHEMA)


PER_QUESTION_KEYS = ("run", "qid", "kind", "status")
"""The first columns of the per-question output (per_question.csv / .parquet): one row
per run and question, then a column per measure. Baselines and shards read it back."""


@dataclass(frozen=True)
class MisspeltKey:
    """A key of an input record that reportgen ignores, and the known key it resembles."""

    key: str
    closest: str
    line: int
    """The first line that has it."""
    count: int
    """How many records have it."""


@dataclass(frozen=True)
class GoldSet:
    """Questions and the chunks that answer them, with the set's provenance."""

    questions: pl.DataFrame
    judgments: pl.DataFrame
    source: str
    version: str | None = None
    index_version: str | None = None
    forbidden: pl.DataFrame = field(default_factory=empty_forbidden)
    """Chunks that must never be shown for a question (FORBIDDEN_SCHEMA); not scored."""
    misspelt_keys: tuple[MisspeltKey, ...] = ()
    """Keys of the file that reportgen does not read but that look like one it does."""

    @cached_property
    def fingerprint(self) -> str:
        """Hash of the content (ids, text, kinds, flags, grades), not of the file's layout.

        Reordering or reformatting the file keeps it; changing any question, gold
        chunk or grade changes it.
        """
        questions = self.questions.select("qid", "question", "kind", "unanswerable").sort("qid")
        judgments = self.judgments.sort("qid", "chunk_id")
        frames = [questions, judgments]
        if self.forbidden.height:  # only then, so sets without any keep their fingerprint
            frames.append(self.forbidden.sort("qid", "chunk_id"))
        digest = hashlib.sha256()
        for frame in frames:
            digest.update(frame.write_csv(null_value="\x00").encode())
            digest.update(b"\x1e")
        return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Run:
    """One retrieval method's ranked lists, already in the order the model sees."""

    name: str
    results: pl.DataFrame
    source: str
    order: Literal["rank", "score", "list"]
    """Where the ranking came from: an explicit rank field, scores (ties broken by
    chunk id descending, as trec_eval does), or the order of a list."""
    repeated_chunks: int = 0
    """Rows dropped because the chunk already stood higher in the same list."""
    index_version: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def has_scores(self) -> bool:
        return self.results.height > 0 and self.results["score"].null_count() == 0


@dataclass(frozen=True)
class Manifest:
    """The chunks that exist in the current index, and that index's version."""

    chunks: pl.DataFrame
    source: str
    index_version: str | None = None

    def has(self, column: str) -> bool:
        """Whether any chunk carries this metadata (audience, valid_to, ...)."""
        return self.chunks.height > 0 and self.chunks[column].null_count() < self.chunks.height


VERDICTS_SCHEMA = pl.Schema(
    {
        "qid": pl.String,
        "question": pl.String,
        "run": pl.String,
        "correct": pl.Boolean,
        "abstained": pl.Boolean,
        "line": pl.Int64,
    }
)
"""One row per end-to-end verdict. ``qid`` is null only when the file has no id and
is joined by question text; ``correct`` null means the judgment is unknown (e.g. the
eval errored); ``run`` null means the row serves whichever run the verdicts are for;
``line`` is where the row was read (a record's position for JSON documents)."""


@dataclass(frozen=True)
class VerdictSet:
    """End-to-end verdicts as read, before they are joined to the gold set."""

    rows: pl.DataFrame
    source: str
    format: str
    join_on: Literal["id", "question"] = "id"
    """How rows meet gold questions: by id, or by question text when the file has no id."""
    metric: str | None = None
    threshold: float | None = None

    @property
    def runs(self) -> list[str]:
        """Run names the file names, sorted; empty when it has no run column."""
        return self.rows.get_column("run").drop_nulls().unique().sort().to_list()
