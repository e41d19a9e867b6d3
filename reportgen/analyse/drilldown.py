"""The failure drill-down: for each failed question, what the model was sent instead.

A reader who sees "retrieval failure" asks next what was retrieved. With chunk text at
hand (a ``text`` column in the chunk map, or the documents under ``--docs``), each
explained question gets its evidence and the chunks sent to the model, in order, with
which of them were relevant and where the evidence lies inside them. Plain values
out; the views cut and format them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

import polars as pl

from reportgen.analyse.attribution import Attribution
from reportgen.core.records import dataclass
from reportgen.measure.scoring import Evaluation, RunScores
from reportgen.schema import Cell

ExplainMode = Literal["failures", "all", "none"]
EXPLAIN_MODES: tuple[ExplainMode, ...] = ("failures", "all", "none")
FAILURE_CELLS = ("retrieved_wrong", "missed_wrong")
"""Generation failures, then retrieval failures: the questions a reader opens first."""
TextOf = Callable[[str], str | None] | None
"""A document's text by its path, when --docs gives the documents."""
CONTEXT_AROUND = 120
"""Characters of the document shown on each side of an evidence passage."""


@dataclass(frozen=True)
class Passage:
    """One merged evidence range, with the document text around it when known."""

    doc: str
    start: int
    end: int
    before: str | None
    text: str | None
    after: str | None
    cut_before: bool = False
    """Whether the document goes on before ``before`` (and after ``after``)."""
    cut_after: bool = False


@dataclass(frozen=True)
class Sent:
    """One chunk sent to the model."""

    rank: int
    chunk_id: str
    score: float | None
    text: str | None
    relevant: bool
    marks: tuple[tuple[int, int], ...]
    """Evidence inside ``text``: ``[start, end)`` offsets into it, sorted."""


@dataclass(frozen=True)
class Explained:
    qid: str
    question: str | None
    cell: Cell | None
    """The question's cell when the verdicts judge this run."""
    evidence: tuple[Passage, ...]
    gold_chunks: tuple[str, ...]
    """Relevant chunk ids (given or derived) of the question on this run's chunking."""
    sent: tuple[Sent, ...]
    first_relevant_rank: int | None
    first_relevant_chunk: str | None
    retrieved: int


@dataclass(frozen=True)
class Drilldown:
    run: str
    mode: ExplainMode
    context_k: int
    questions: tuple[str, ...]
    """Every question the mode explains, in the order shown."""


def choose(
    evaluation: Evaluation, attribution: Attribution | None, mode: ExplainMode
) -> Drilldown | None:
    """Which run and questions to explain; None when there is nothing to show.

    The run is the one the verdicts judge (its failure cells, from ``attribution``),
    else with ``all`` the first run. Only a run whose chunks have text (a chunk map
    with text, or --docs) can be explained.
    """
    if mode == "none" or not evaluation.runs:
        return None
    name = attribution.run if attribution is not None else evaluation.runs[0].name
    result = next(r for r in evaluation.runs if r.name == name)
    if not _has_text(evaluation, result):
        return None
    if mode == "all":
        qids = tuple(result.scores.get_column("qid").to_list())
    elif attribution is None:
        return None
    else:
        order = pl.col("cell").replace_strict(
            {cell: i for i, cell in enumerate(FAILURE_CELLS)}, return_dtype=pl.Int64
        )
        failed = (
            attribution.questions.lazy()
            .filter(pl.col("cell").is_in(FAILURE_CELLS))
            .sort(order, "qid")
            .collect()
        )
        qids = tuple(failed.get_column("qid").to_list())
    return Drilldown(name, mode, evaluation.settings.context_k, qids) if qids else None


def _has_text(evaluation: Evaluation, result: RunScores) -> bool:
    chunkings = evaluation.chunkings
    if result.chunked is None or chunkings is None:
        return False
    return result.chunked.chunk_map.has_text or chunkings.document_text is not None


def explain(
    evaluation: Evaluation,
    attribution: Attribution | None,
    drilldown: Drilldown,
    limit: int,
) -> list[Explained]:
    """The first ``limit`` questions of ``drilldown``, each with its evidence and chunks
    (and its cell, when ``attribution`` judged the same run)."""
    result = next(r for r in evaluation.runs if r.name == drilldown.run)
    chunked = result.chunked
    chunkings = evaluation.chunkings
    if chunked is None or chunkings is None:
        return []
    qids = list(drilldown.questions[:limit])
    wanted = pl.col("qid").is_in(qids)
    threshold = evaluation.settings.threshold
    relevant = chunked.gold.judgments.lazy().filter(wanted & (pl.col("grade") >= threshold))
    chunks_plan = chunked.chunk_map.chunks.lazy().select("chunk_id", "doc", "start", "end", "text")
    results = result.run.results.lazy()
    pieces_plan = chunked.pieces.lazy().filter(wanted)
    cells_plan = (
        attribution.questions.lazy().filter(wanted).select("qid", "cell")
        if attribution is not None and attribution.run == drilldown.run
        else pl.LazyFrame(schema={"qid": pl.String, "cell": pl.String})
    )
    holders_plan = (
        _holders(pieces_plan, chunks_plan)
        if chunked.chunk_map.has_text
        else pl.LazyFrame(schema=HOLDERS_SCHEMA)
    )
    # every frame the panels read, from one collect
    sent, holders, scores, first, questions, cells, spans, gold_chunks, marks = pl.collect_all(
        [
            results.filter(wanted & (pl.col("rank") <= drilldown.context_k))
            .join(chunks_plan, on="chunk_id", how="left")
            .join(
                relevant.select("qid", "chunk_id", pl.lit(True).alias("relevant")),
                on=["qid", "chunk_id"],
                how="left",
            )
            .sort("qid", "rank"),
            holders_plan,
            result.scores.lazy().filter(wanted),
            results.join(relevant.select("qid", "chunk_id"), on=["qid", "chunk_id"])
            .sort("qid", "rank")
            .group_by("qid", maintain_order=True)
            .agg(pl.col("chunk_id").first()),
            evaluation.gold.questions.lazy().filter(wanted).select("qid", "question"),
            cells_plan,
            # sorted as the evidence is shown; each question's rows keep this order
            chunkings.spans.lazy().filter(wanted).sort("doc", "start"),
            relevant.group_by("qid").agg(pl.col("chunk_id").sort()),
            pieces_plan.sort("lo", maintain_order=True)
            .group_by("qid", "chunk_id", maintain_order=True)
            .agg("lo", "hi"),
        ]
    )
    text_of = chunkings.document_text
    first_chunk = dict(first.iter_rows())
    facts = {row["qid"]: row for row in scores.iter_rows(named=True)}
    question_of = dict(questions.iter_rows())
    cell_of: dict[str, Cell] = dict(cells.iter_rows())
    spans_of = _by_question(spans)
    gold_chunks_of = {qid: tuple(ids) for qid, ids in gold_chunks.iter_rows()}
    marks_of = {
        (qid, chunk): tuple(zip(lo, hi, strict=True)) for qid, chunk, lo, hi in marks.iter_rows()
    }
    holders_of: dict[str, dict[tuple[str, int, int], tuple[str, int]]] = {}
    for qid, doc, lo, hi, text, chunk_start in holders.iter_rows():
        holders_of.setdefault(qid, {})[doc, lo, hi] = (text, chunk_start)
    sent_rows = _by_question(sent)
    explained = []
    for qid in qids:
        rows = sent_rows.get(qid, sent.clear())
        explained.append(
            Explained(
                qid=qid,
                question=question_of.get(qid),
                cell=cell_of.get(qid),
                evidence=_passages(
                    spans_of.get(qid, spans.clear()), holders_of.get(qid, {}), text_of
                ),
                gold_chunks=gold_chunks_of.get(qid, ()),
                sent=tuple(
                    _sent(row, marks_of.get((qid, row["chunk_id"]), ()), text_of)
                    for row in rows.iter_rows(named=True)
                ),
                first_relevant_rank=facts[qid]["first_relevant_rank"],
                first_relevant_chunk=first_chunk.get(qid),
                retrieved=facts[qid]["n_retrieved"],
            )
        )
    return explained


def _chunk_text(row: dict[str, Any], text_of: TextOf) -> tuple[str | None, bool]:
    """The chunk's text, and whether it is exactly its document's ``[start, end)``.

    A chunk the map lacks has neither (null start): its id is all there is to show.
    """
    start, end, text = row["start"], row["end"], row["text"]
    if start is None:
        return None, False
    if text is not None:
        return text, len(text) == end - start
    document = None if text_of is None else text_of(row["doc"])
    return (None, False) if document is None else (document[start:end], True)


def _by_question(frame: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """Each question's rows, in their order, split in one pass (a filter per question
    is a collect per question), each keyed by its first row's id: ``as_dict`` would
    select each part's key, a collect per question again."""
    parts = frame.partition_by("qid", maintain_order=True)
    return {part.get_column("qid")[0]: part for part in parts}


def _sent(row: dict[str, Any], inside: tuple[tuple[int, int], ...], text_of: TextOf) -> Sent:
    """A chunk sent, with ``inside`` (the evidence ranges in it, by start) as marks."""
    text, exact = _chunk_text(row, text_of)
    marks: tuple[tuple[int, int], ...] = ()
    if exact:
        start = row["start"]
        marks = tuple((lo - start, hi - start) for lo, hi in inside)
    return Sent(
        rank=row["rank"],
        chunk_id=row["chunk_id"],
        score=row["score"],
        text=text,
        relevant=row["relevant"] is True,
        marks=marks,
    )


def _passages(
    spans: pl.DataFrame, holders: Mapping[tuple[str, int, int], tuple[str, int]], text_of: TextOf
) -> tuple[Passage, ...]:
    """Each evidence range (``spans``, sorted by document and start) with its text, from
    the document or, without it, a chunk that holds it (``holders``: (doc, start, end) ->
    the chunk's text and start)."""
    found = []
    for row in spans.iter_rows(named=True):
        doc, start, end = row["doc"], row["start"], row["end"]
        document = None if text_of is None else text_of(doc)
        offset = 0
        if document is None:
            document, offset = holders.get((doc, start, end), (None, 0))
        if document is None:
            found.append(Passage(doc, start, end, None, None, None))
            continue
        a, b = start - offset, end - offset
        before, after = document[max(0, a - CONTEXT_AROUND) : a], document[b : b + CONTEXT_AROUND]
        cut_before = start - len(before) > 0  # the text shown starts after the document's
        cut_after = b + CONTEXT_AROUND < len(document)
        found.append(Passage(doc, start, end, before, document[a:b], after, cut_before, cut_after))
    return tuple(found)


HOLDERS_SCHEMA = pl.Schema(
    {
        "qid": pl.String,
        "doc": pl.String,
        "lo": pl.Int64,
        "hi": pl.Int64,
        "text": pl.String,
        "chunk_start": pl.Int64,
    }
)


def _holders(pieces: pl.LazyFrame, chunks: pl.LazyFrame) -> pl.LazyFrame:
    """Per question and evidence range (doc, lo, hi), the first chunk (in the pieces'
    order) that holds the whole range and whose text is exactly its document's
    characters: its text and start, for the passages shown without the documents."""
    whole = (pl.col("lo") == pl.col("span_start")) & (pl.col("hi") == pl.col("span_end"))
    return (
        pieces.filter(whole)
        .join(chunks.select("chunk_id", "text"), on="chunk_id", maintain_order="left")
        .filter(pl.col("text").str.len_chars() == pl.col("chunk_end") - pl.col("chunk_start"))
        .group_by("qid", "doc", "lo", "hi", maintain_order=True)
        .agg(pl.col("text").first(), pl.col("chunk_start").first())
    )
