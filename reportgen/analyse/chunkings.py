"""What the chunk maps gave: the evidence located, the judgments derived on each run's
chunking, and the span measures fit for a paired comparison.

The span measures themselves sit with every other measure in each run's scores; this
is where the judgments behind them came from (report.json's ``chunkings``).
"""

from __future__ import annotations

from reportgen.core.records import dataclass
from reportgen.measure.scoring import Evaluation
from reportgen.measure.spans import SPAN_MEASURES


@dataclass(frozen=True)
class ChunkMapFacts:
    """One run's chunk map: its file, its size, and what was derived on it."""

    chunk_map: str
    index_version: str | None
    chunks: int
    documents: int
    has_text: bool
    derived_judgments: int
    not_in_map: int
    """Distinct chunks the run returned that its chunk map lacks."""


@dataclass(frozen=True)
class ChunkingFacts:
    """The gold set's evidence, and each run's chunk map (runs without one left out)."""

    min_coverage: float
    evidence_items: int
    evidence_questions: int
    located_ranges: int
    stale_items: int
    runs: dict[str, ChunkMapFacts]


def chunking_facts(evaluation: Evaluation) -> ChunkingFacts | None:
    """None when no run has a chunk map."""
    chunkings = evaluation.chunkings
    if chunkings is None or not chunkings.maps:
        return None
    evidence = evaluation.gold.evidence
    runs = {}
    for result in evaluation.runs:
        chunked = result.chunked
        if chunked is None:
            continue
        chunks = chunked.chunk_map.chunks
        runs[result.name] = ChunkMapFacts(
            chunk_map=chunked.chunk_map.source,
            index_version=chunked.chunk_map.index_version,
            chunks=chunks.height,
            documents=chunks.get_column("doc").n_unique(),
            has_text=chunked.chunk_map.has_text,
            derived_judgments=chunked.derived.height,
            not_in_map=chunked.unmapped,
        )
    return ChunkingFacts(
        min_coverage=evaluation.settings.min_coverage,
        evidence_items=evidence.height,
        evidence_questions=evidence.get_column("qid").n_unique(),
        located_ranges=chunkings.spans.height,
        stale_items=len(chunkings.stale),
        runs=runs,
    )


def span_compare_keys(evaluation: Evaluation) -> list[str]:
    """The span measures at k_ctx, when every run has a chunk map (else a run has no
    span values at all, and there is nothing to pair).

    A question without evidence has no span value: each comparison pairs the span
    measures on the questions with evidence (compare.py), the others on every question.
    """
    settings = evaluation.settings
    if not settings.span_measures or any(r.chunked is None for r in evaluation.runs):
        return []
    return [f"{name}@{settings.context_k}" for name in SPAN_MEASURES if name != "context_chars"]
