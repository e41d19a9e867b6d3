"""The validated inputs every other module works on, and the schemas of their frames.

Loading produces these; measuring, attributing and comparing read them and never
touch files. Ids are always strings, whatever the file looked like.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

import polars as pl

UNLABELLED_KIND = "unlabelled"

RetrievedRule = Literal["any", "all"]
RETRIEVED_RULES: tuple[RetrievedRule, ...] = ("any", "all")
"""When a question counts as retrieved in the four cells: any of its relevant chunks,
or all of them, among the chunks sent to the model (SPEC.md)."""

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

COSTS_SCHEMA = pl.Schema({"qid": pl.String, "latency_ms": pl.Float64, "cost": pl.Float64})
"""One row per question whose input gives how long retrieval took (milliseconds) or
what answering it cost; a null is a value not given, never 0."""

SENT_SCHEMA = pl.Schema([("qid", pl.String), ("sent", pl.List(pl.String))])
"""One row per question whose trace says which chunks were sent to the model."""

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


EVIDENCE_SCHEMA = pl.Schema(
    {
        "qid": pl.String,
        "doc": pl.String,
        "start": pl.Int64,
        "end": pl.Int64,
        "quote": pl.String,
        "doc_version": pl.String,
        "line": pl.Int64,
    }
)
"""One row per evidence item of a gold question, as written: a character range
(``start``, ``end``) or a ``quote`` to locate in the document (the other pair null).
``doc_version`` is the version of the document the item was read from, when given."""

SPANS_SCHEMA = pl.Schema({"qid": pl.String, "doc": pl.String, "start": pl.Int64, "end": pl.Int64})
"""Located, merged evidence: disjoint ``[start, end)`` character ranges per question and
document, sorted."""

CHUNKS_SCHEMA = pl.Schema(
    {
        "chunk_id": pl.String,
        "doc": pl.String,
        "start": pl.Int64,
        "end": pl.Int64,
        "text": pl.String,
    }
    | {name: dtype for name, dtype in MANIFEST_SCHEMA.items() if name != "chunk_id"}
)
"""One row per chunk of a chunking: where it lies in its document (``[start, end)``
characters), its text when given, and the manifest's metadata."""


def empty_forbidden() -> pl.DataFrame:
    return pl.DataFrame(schema=FORBIDDEN_SCHEMA)


def empty_evidence() -> pl.DataFrame:
    return pl.DataFrame(schema=EVIDENCE_SCHEMA)


ATTRIBUTES_SCHEMA = pl.Schema({"qid": pl.String, "key": pl.String, "value": pl.String})
"""A gold question's own fields that reportgen does not score (``group``, ``source``):
one row per (question, field, value), the value as text (a list field: a row per
item); ``--cluster-by`` and ``--slice-by`` read them."""


def empty_attributes() -> pl.DataFrame:
    return pl.DataFrame(schema=ATTRIBUTES_SCHEMA)


EXAMPLES_SHOWN = 5
"""Question ids a warning names as examples; its count covers them all."""


def examples(ids: Sequence[str]) -> tuple[str, ...]:
    """The ids a warning names: the first EXAMPLES_SHOWN, sorted."""
    return tuple(sorted(ids)[:EXAMPLES_SHOWN])


@dataclass(frozen=True)
class ReportWarning:
    """Something the reader must know before trusting a number.

    Measuring and every check raise them, so the type sits here, below both.
    """

    code: str
    message: str
    count: int
    examples: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "message": self.message,
            "count": self.count,
            "examples": list(self.examples),
        }


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
    evidence: pl.DataFrame = field(default_factory=empty_evidence)
    """Evidence as character ranges or quotes of documents (EVIDENCE_SCHEMA): what
    outlives a re-chunking. Chunk-level judgments are derived from it per chunk map."""
    attributes: pl.DataFrame = field(default_factory=empty_attributes, compare=False)
    """The questions' other fields (ATTRIBUTES_SCHEMA), for ``--cluster-by`` and
    ``--slice-by``; not in the digests (grouping questions changes no question)."""
    nested_fields: frozenset[str] = field(default_factory=frozenset, compare=False)
    """Fields whose value is an object (or a list of objects) somewhere: no slice."""
    unknown_meta_ids: tuple[str, ...] = field(default=(), compare=False)
    """Question ids of the ``--question-meta`` file that the gold set lacks."""

    @cached_property
    def question_digests(self) -> dict[str, str]:
        """A short content hash per question: its text, kind, flag and graded chunks.

        Two gold-set versions share a question when its id and digest are the same in
        both. Forbidden chunks and evidence count only for a question that has some, so
        the digests of sets without any stay what they were. (sha256 has no Polars expression:
        one call per question, on short strings; the texts come from one lazy plan.)
        """
        text = pl.concat_str(
            pl.col("qid"),
            pl.col("question").fill_null("\x00"),
            pl.col("kind"),
            pl.col("unanswerable").cast(pl.String),
            pl.col("joined").fill_null(""),
            separator="\x1d",
        )
        canonical = self.questions.lazy().join(
            _joined_per_question(
                self.judgments, pl.col("chunk_id") + "\x1f" + pl.col("grade").cast(pl.String)
            ),
            on="qid",
            how="left",
        )
        # a part a question lacks adds nothing, not even its separator (and a set without
        # any forbidden chunks or evidence is not joined with nothing)
        for part, frame in (("forbidden", self.forbidden), ("evidence", self.evidence)):
            if frame.height == 0:
                continue
            joined = (
                _joined_per_question(frame, pl.col("chunk_id") + "\x1f" + pl.col("reason"))
                if part == "forbidden"
                else _evidence_per_question(frame)
            )
            canonical = canonical.join(joined.rename({"joined": part}), on="qid", how="left")
            missing = pl.col(part).is_null()
            text = pl.when(missing).then(text).otherwise(text + "\x1d" + pl.col(part))
        texts = canonical.select("qid", text.alias("text")).sort("qid").collect()
        return {
            qid: hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
            for qid, text in texts.iter_rows()
        }

    @cached_property
    def fingerprint(self) -> str:
        """Hash of the content (ids, text, kinds, flags, grades), not of the file's layout.

        Reordering or reformatting the file keeps it; changing any question, gold
        chunk, grade or evidence item changes it; no chunking enters it, so the same
        evidence scored on a new chunk map keeps it. Built from the question digests alone, so the
        shards of a set, measured apart, give back the whole set's fingerprint.
        """
        return fingerprint_of(self.question_digests)


def _joined_per_question(frame: pl.DataFrame, item: pl.Expr) -> pl.LazyFrame:
    """(qid, joined): one question's chunks as one string, in chunk-id order (one sort of
    the whole frame, then a join per group in that order: a sort per group cost twice as
    much)."""
    return (
        frame.lazy()
        .select("qid", "chunk_id", item.alias("_item"))
        .sort("qid", "chunk_id", "_item")
        .group_by("qid", maintain_order=True)
        .agg(joined=pl.col("_item").str.join("\x1e"))
    )


def _evidence_per_question(evidence: pl.DataFrame) -> pl.LazyFrame:
    """(qid, joined): one question's evidence items as written, as one sorted string."""
    parts = [
        pl.col(name).cast(pl.String).fill_null("\x00")
        for name in EVIDENCE_SCHEMA
        if name not in ("qid", "line")
    ]
    return (
        evidence.lazy()
        .select("qid", pl.concat_str(*parts, separator="\x1f").alias("item"))
        .group_by("qid")
        .agg(joined=pl.col("item").sort().str.join("\x1e"))
    )


def fingerprint_of(digests: Mapping[str, str]) -> str:
    """The gold fingerprint of a set of question digests (qid -> digest).

    Order-free, so the union of the shards' digests gives the unsharded fingerprint.
    """
    lines = "".join(f"{qid}\x1f{digests[qid]}\n" for qid in sorted(digests))
    return hashlib.sha256(lines.encode("utf-8", "surrogatepass")).hexdigest()[:16]


@dataclass(frozen=True)
class UnmatchedTrace:
    """A trace with retriever spans that no gold question could be given, and why."""

    trace_id: str
    reason: str
    line: int


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
    repeated_across_hops: int = 0
    """For traces and spans: chunks a later hop found again, dropped without taking a
    rank (counted here, not in ``repeated_chunks``: a multi-hop system does this)."""
    index_version: str | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)
    sent: pl.DataFrame | None = None
    """The chunks a trace says reached the model (SENT_SCHEMA), for the questions whose
    trace says so; the others were sent their top k_ctx. None for runs without traces."""
    sent_unretrieved: tuple[str, ...] = ()
    """Questions whose sent chunks include one the ranked list does not hold."""
    traces: int | None = None
    """For a run read from spans: the traces with a retriever span; None otherwise."""
    unmatched_traces: tuple[UnmatchedTrace, ...] = ()
    """For a run read from spans: the traces no gold question could be given."""
    tied_hops: tuple[str, ...] = ()
    """For a run read from spans: the traces whose retriever spans start at the same
    time, so their hop order was taken from end times, parents and the file."""
    costs: pl.DataFrame | None = None
    """Latency and cost per question (COSTS_SCHEMA), when the input gives any; None
    otherwise."""
    overlapping_hops: tuple[str, ...] = ()
    """For a run read from spans: the traces whose retriever spans overlap in time, so
    that their summed durations exceed the wall time the retrieval took."""
    in_blocks: bool = False
    """Each question's rows are one block in ranking order, no chunk twice in a block:
    what :func:`reportgen.load.inputs.ranking.rank_rows` makes. Measures then read counts off
    block lengths; without it (a hand-built run) they count distinct chunks."""

    @property
    def has_scores(self) -> bool:
        return self.results.height > 0 and self.results["score"].null_count() == 0

    @property
    def row_count(self) -> int:
        """Rows of the ranked lists (each chunk once per list)."""
        return self.results.height

    @property
    def longest_list(self) -> int:
        """The most chunks any question's ranked list holds (0 for an empty run)."""
        if not self.results.height:
            return 0
        if self.in_blocks and not self.repeated_chunks:
            # ranks are each block's positions 1..n: the largest is the longest list,
            # read without grouping a million rows by question (~0.03 s)
            return int(self.results.get_column("rank").max())  # type: ignore[arg-type]
        return int(self.results.group_by("qid").len().get_column("len").max())  # type: ignore[arg-type]


@dataclass(frozen=True)
class SummarisedRun(Run):
    """A run rebuilt from shards (``reportgen merge``): ``results`` holds only the rows
    the analyses and pages read (each question's top k_ctx, and every gold or forbidden
    chunk returned); the whole run's counts are kept beside them."""

    whole_row_count: int = 0
    unscored_rows: int = 0
    """Rows of the whole run without a score."""
    whole_longest_list: int = 0
    """The longest ranked list of the whole run (``results`` keeps the top k_ctx only)."""

    @property
    def has_scores(self) -> bool:
        return self.whole_row_count > 0 and self.unscored_rows == 0

    @property
    def row_count(self) -> int:
        return self.whole_row_count

    @property
    def longest_list(self) -> int:
        return self.whole_longest_list


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
    trials: tuple[VerdictSet, ...] = ()
    """The same answers judged again (``--verdicts`` given several times), in the order
    given; ``rows`` is then their majority (reportgen.load.inputs.trials). Empty for one."""

    @property
    def runs(self) -> list[str]:
        """Run names the file names, sorted; empty when it has no run column."""
        return self.rows.get_column("run").drop_nulls().unique().sort().to_list()


def outcome_word(passed: bool) -> str:
    """A quality gate's or a rule's outcome as every output writes it (report.json's
    messages, the pages, the PR summary, the terminal): a failure in capitals, so that
    it stands out in a log as on a page."""
    return "passed" if passed else "FAILED"


@dataclass(frozen=True)
class StaleEvidence:
    """An evidence item of a changed document that no longer fits it: stale gold."""

    qid: str
    doc: str
    what: str
    """The quote or the range, as a reader recognises it."""


@dataclass(frozen=True)
class ChunkMap:
    """One chunking of the documents: where every chunk lies, and the index it made."""

    chunks: pl.DataFrame
    """CHUNKS_SCHEMA, one row per chunk id."""
    source: str
    index_version: str | None = None

    @property
    def has_text(self) -> bool:
        return self.chunks.height > 0 and self.chunks["text"].null_count() < self.chunks.height

    def manifest(self) -> Manifest:
        """The chunk map as an index manifest: the same ids, metadata and version."""
        return Manifest(
            chunks=self.chunks.select(MANIFEST_SCHEMA.names()),
            source=self.source,
            index_version=self.index_version,
        )
