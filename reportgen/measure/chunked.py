"""One run scored through its chunk map: judgments derived from evidence, span measures.

The gold set's evidence is located once (load/evidence.py); each run may come from its
own chunking, so the chunk-level judgments are derived per run, and every chunk-id
measure, the four cells and the comparisons then read them as if the gold set had
named those chunks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import field

import polars as pl

from reportgen.core.model import (
    EXAMPLES_SHOWN,
    ChunkMap,
    GoldSet,
    ReportWarning,
    Run,
    StaleEvidence,
)
from reportgen.core.records import dataclass
from reportgen.errors import UsageError
from reportgen.measure.measures import Judged, judge
from reportgen.measure.spans import (
    DEFAULT_MIN_COVERAGE,
    derived_judgments,
    overlaps,
    span_scores,
    with_derived,
)


@dataclass(frozen=True)
class Chunkings:
    """The located evidence and the chunk map of each run that has one."""

    spans: pl.DataFrame
    """SPANS_SCHEMA: merged evidence ranges per question and document."""
    maps: Mapping[str, ChunkMap]
    """Run name -> its chunk map."""
    stale: tuple[StaleEvidence, ...] = ()
    """Evidence left out because its document changed (a warning, not an error)."""
    document_text: Callable[[str], str | None] | None = None
    """A document's text by its path (--docs), for the drill-down; None without."""
    derived_golds: dict[tuple[int, int, float], DerivedGold] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )
    """What :func:`derived_gold` found, by (gold set, chunk map, min coverage): it does
    not depend on the run, so runs that share a chunk map share it (kept here because
    both live as long as these chunkings)."""


@dataclass(frozen=True)
class DerivedGold:
    """A gold set's evidence on one chunking: the same for every run of that chunking."""

    pieces: pl.DataFrame
    """Overlaps of evidence and chunks (measure.spans.PIECES_SCHEMA)."""
    derived: pl.DataFrame
    """(qid, chunk_id, grade) of the judgments derived from evidence."""
    gold: GoldSet
    """The gold set with the derived judgments (given ones kept)."""
    given: GoldSet = field(compare=False, repr=False)
    chunk_map: ChunkMap = field(compare=False, repr=False)
    """What it was derived from: held, so that their ids, its key, stay theirs."""
    judged: dict[tuple[tuple[int, ...], int], Judged] = field(
        default_factory=dict, compare=False, repr=False
    )
    """:func:`~reportgen.measure.measures.judge` of ``gold``, by (cutoffs, threshold)."""

    def judge(self, ks: Sequence[int], threshold: int) -> Judged:
        """What every run of this chunking is measured against, computed once."""
        key = (tuple(ks), threshold)
        if key not in self.judged:
            self.judged[key] = judge(self.gold, ks, threshold)
        return self.judged[key]


def derived_gold(
    gold: GoldSet, chunk_map: ChunkMap, chunkings: Chunkings, min_coverage: float
) -> DerivedGold:
    """The chunk-level judgments ``chunk_map`` gives the gold set's evidence, once per
    (gold set, chunk map, min coverage) of these chunkings."""
    key = (id(gold), id(chunk_map), min_coverage)
    found = chunkings.derived_golds.get(key)
    if found is None or found.given is not gold or found.chunk_map is not chunk_map:
        pieces = overlaps(chunkings.spans, chunk_map.chunks)
        derived = derived_judgments(pieces, min_coverage)
        judged = dataclasses.replace(gold, judgments=with_derived(gold.judgments, derived))
        found = DerivedGold(pieces, derived, judged, gold, chunk_map)
        chunkings.derived_golds[key] = found
    return found


@dataclass(frozen=True)
class ChunkedRun:
    """What a run's chunk map adds to its scoring."""

    run_name: str
    chunk_map: ChunkMap
    shared: DerivedGold
    """The judgments this chunking gives the evidence, shared with its other runs."""
    span_scores: pl.DataFrame
    """qid, then span_recall@k, span_precision@k, span_iou@k, context_chars@k."""
    unmapped: int
    """Distinct chunks the run returned that the chunk map lacks: length 0, never relevant."""

    @property
    def gold(self) -> GoldSet:
        """The gold set with the judgments derived on this chunking (given ones kept)."""
        return self.shared.gold

    @property
    def derived(self) -> pl.DataFrame:
        """(qid, chunk_id, grade) of the judgments derived from evidence."""
        return self.shared.derived

    @property
    def pieces(self) -> pl.DataFrame:
        """Overlaps of evidence and chunks (PIECES_SCHEMA), for highlighting."""
        return self.shared.pieces


def chunk_lengths(chunk_map: ChunkMap) -> pl.DataFrame:
    return chunk_map.chunks.select("chunk_id", (pl.col("end") - pl.col("start")).alias("length"))


def chunk_run(
    gold: GoldSet,
    run: Run,
    chunkings: Chunkings,
    ks: Sequence[int],
    min_coverage: float = DEFAULT_MIN_COVERAGE,
) -> ChunkedRun | None:
    """The run's derived gold set and span measures, or None when it has no chunk map."""
    chunk_map = chunkings.maps.get(run.name)
    if chunk_map is None:
        return None
    shared = derived_gold(gold, chunk_map, chunkings, min_coverage)
    ranked = run.results.select("qid", "chunk_id", "rank")
    gold_ids = gold.questions.get_column("qid").implode()
    unmapped = (
        ranked.filter(pl.col("qid").is_in(gold_ids))
        .join(chunk_map.chunks.select("chunk_id"), on="chunk_id", how="anti")
        .get_column("chunk_id")
        .n_unique()
    )
    scores = span_scores(chunkings.spans, shared.pieces, ranked, chunk_lengths(chunk_map), ks)
    return ChunkedRun(
        run_name=run.name,
        chunk_map=chunk_map,
        shared=shared,
        span_scores=scores,
        unmapped=unmapped,
    )


def refuse_unmapped_evidence(
    gold: GoldSet, run_names: Sequence[str], chunkings: Chunkings | None
) -> None:
    """A question with evidence and no chunk id can only be judged through a chunk map."""
    if gold.evidence.height == 0:  # most gold sets: nothing to look up
        return
    named = gold.judgments.get_column("qid").implode()
    spans_only = gold.evidence.filter(~pl.col("qid").is_in(named)).get_column("qid")
    if spans_only.len() == 0:
        return
    maps = {} if chunkings is None else chunkings.maps
    unmapped = [name for name in run_names if name not in maps]
    if unmapped:
        raise UsageError(
            f"question {spans_only.sort()[0]} has evidence spans and no chunk ids, and run "
            f"{unmapped[0]!r} has no chunk map to judge them on",
            "pass --chunks PATH (every run) or --chunks NAME=PATH (one run)",
        )


def chunk_warnings(
    chunked: Sequence[ChunkedRun], chunkings: Chunkings | None
) -> list[ReportWarning]:
    """Evidence gone stale with its document, and returned chunks no chunk map lists."""
    found: list[ReportWarning] = []
    if chunkings is not None and chunkings.stale:
        stale = chunkings.stale
        listed = "; ".join(f"{s.qid}: {s.what} in {s.doc}" for s in stale[:EXAMPLES_SHOWN])
        docs = tuple(sorted({s.doc for s in stale})[:EXAMPLES_SHOWN])
        found.append(
            ReportWarning(
                "stale_evidence",
                f"{len(stale)} evidence item(s) no longer fit their document, which changed "
                f"since the gold set was written ({listed}); they are left out",
                len(stale),
                docs,
            )
        )
    for run in chunked:
        if run.unmapped:
            found.append(
                ReportWarning(
                    "chunks_not_in_map",
                    f"run {run.run_name!r} returned {run.unmapped} chunk(s) that its chunk map "
                    f"({run.chunk_map.source}) lacks; they count as not relevant and 0 "
                    "characters long",
                    run.unmapped,
                    (),
                )
            )
    return found
