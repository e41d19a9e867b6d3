"""Evidence spans against a chunking: derived judgments and the span measures.

Evidence is character ranges of documents; a chunk map says which range each chunk
covers. Everything here is interval arithmetic in Polars: ranges are matched to the
chunks they overlap by a sorted search per document (no Python loop over rows, and
no join of every range with every chunk of its document), then measured per question.
See SPEC.md, "Evidence spans and chunk maps".
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from reportgen.core.model import SPANS_SCHEMA

DEFAULT_MIN_COVERAGE = 0.5
SPAN_MEASURES = ("span_recall", "span_precision", "span_iou", "context_chars")
"""Per-question columns, each at every k: the chunking-neutral measures."""

PIECES_SCHEMA = pl.Schema(
    {
        "qid": pl.String,
        "doc": pl.String,
        "span_start": pl.Int64,
        "span_end": pl.Int64,
        "chunk_id": pl.String,
        "chunk_start": pl.Int64,
        "chunk_end": pl.Int64,
        "lo": pl.Int64,
        "hi": pl.Int64,
    }
)
"""One row per (evidence range, chunk) that overlap: ``[lo, hi)`` is the overlap."""

_DOC_STRIDE = 1 << 40
"""Offsets stay below it (a terabyte of text per document), so (document, offset)
packs into one sortable Int64 key."""


def span_keys(ks: Sequence[int]) -> list[str]:
    """Column names of the span measures, measure by measure, each at every k."""
    return [f"{name}@{k}" for name in SPAN_MEASURES for k in ks]


def merge_ranges(evidence: pl.DataFrame) -> pl.DataFrame:
    """Ranges of one question in one document merged when they overlap or touch.

    ``[100, 200)`` and ``[200, 250)`` become ``[100, 250)``: overlapping evidence
    counts once. Takes and returns (qid, doc, start, end), sorted.
    """
    ordered = evidence.select(SPANS_SCHEMA.names()).sort("qid", "doc", "start", "end")
    group = ["qid", "doc"]
    reach = pl.col("end").cum_max().shift(1).over(group)
    return (
        ordered.with_columns(
            # a range opens a new merged range unless an earlier one reaches its start
            (reach.is_null() | (pl.col("start") > reach)).cum_sum().alias("_merged")
        )
        .group_by("qid", "doc", "_merged", maintain_order=True)
        .agg(pl.col("start").min(), pl.col("end").max())
        .drop("_merged")
        .cast(SPANS_SCHEMA)
    )


def overlaps(spans: pl.DataFrame, chunks: pl.DataFrame) -> pl.DataFrame:
    """Every (evidence range, chunk) pair that shares characters (PIECES_SCHEMA).

    Chunks are sorted by (document, start) once; a range ``[s, e)`` can only meet
    the chunks starting in ``(s - longest chunk of its document, e)``, a contiguous
    block found by binary search. The work is proportional to the pairs found.
    """
    located = chunks.select("chunk_id", "doc", "start", "end")
    docs = (
        located.lazy()
        .group_by("doc")
        .agg((pl.col("end") - pl.col("start")).max().alias("_longest"))
        .sort("doc")
        .with_row_index("_doc", offset=1)
    )
    ordered_plan = (
        located.lazy()
        .join(docs.select("doc", "_doc"), on="doc")
        .with_columns((pl.col("_doc").cast(pl.Int64) * _DOC_STRIDE + pl.col("start")).alias("_key"))
        .sort("_key")
    )
    wanted_plan = (
        spans.lazy()
        .join(docs, on="doc", how="inner")
        .with_columns(base=pl.col("_doc").cast(pl.Int64) * _DOC_STRIDE)
    )
    ordered, wanted = pl.collect_all([ordered_plan, wanted_plan])
    keys = ordered.get_column("_key")
    low = wanted.get_column("base") + (
        wanted.get_column("start") - wanted.get_column("_longest") + 1
    ).clip(lower_bound=0)
    high = wanted.get_column("base") + wanted.get_column("end")
    candidates = (
        wanted.lazy()
        .select("qid", "doc", pl.col("start").alias("span_start"), pl.col("end").alias("span_end"))
        .with_columns(
            _row=pl.int_ranges(
                keys.search_sorted(low, side="left"), keys.search_sorted(high, side="left")
            )
        )
        .explode("_row")
        .drop_nulls("_row")
        .collect()
    )
    rows = candidates.get_column("_row")
    chunk_rows = ordered.lazy().select(
        pl.col("chunk_id").gather(rows),
        pl.col("start").gather(rows).alias("chunk_start"),
        pl.col("end").gather(rows).alias("chunk_end"),
    )
    return (
        pl.concat([candidates.lazy().drop("_row"), chunk_rows], how="horizontal")
        .with_columns(
            lo=pl.max_horizontal("span_start", "chunk_start"),
            hi=pl.min_horizontal("span_end", "chunk_end"),
        )
        .filter(pl.col("hi") > pl.col("lo"))
        .select(PIECES_SCHEMA.names())
        .cast(PIECES_SCHEMA)
        .collect()
    )


def derived_judgments(pieces: pl.DataFrame, min_coverage: float) -> pl.DataFrame:
    """(qid, chunk_id, grade 1) of each chunk that is relevant by its evidence.

    Relevant: it holds at least ``min_coverage`` of one evidence range's characters,
    or at least ``min_coverage`` of its own characters are evidence.
    """
    overlap = pl.col("hi") - pl.col("lo")
    holds_range = overlap >= min_coverage * (pl.col("span_end") - pl.col("span_start"))
    return (
        pieces.group_by("qid", "chunk_id")
        .agg(
            holds_range.any().alias("_holds"),
            overlap.sum().alias("_evidence"),
            (pl.col("chunk_end") - pl.col("chunk_start")).first().alias("_length"),
        )
        .filter(pl.col("_holds") | (pl.col("_evidence") >= min_coverage * pl.col("_length")))
        .select("qid", "chunk_id", pl.lit(1, pl.Int64).alias("grade"))
        .sort("qid", "chunk_id")
    )


def with_derived(judgments: pl.DataFrame, derived: pl.DataFrame) -> pl.DataFrame:
    """The union of given and derived judgments: a chunk id given keeps its grade."""
    new = derived.join(judgments, on=["qid", "chunk_id"], how="anti")
    return pl.concat([judgments, new.select(judgments.columns).cast(judgments.schema)])


def span_scores(
    spans: pl.DataFrame,
    pieces: pl.DataFrame,
    ranked: pl.DataFrame,
    lengths: pl.DataFrame,
    ks: Sequence[int],
) -> pl.DataFrame:
    """span_recall@k, span_precision@k, span_iou@k and context_chars@k per question.

    ``ranked`` is (qid, chunk_id, rank) with each chunk once per question; ``lengths``
    (chunk_id, length) comes from the chunk map, a chunk absent from it has length 0.
    With E the evidence and C1..Ck the top k chunks, covered@k = |E & (C1 | ... | Ck)|;
    recall = covered / |E|, precision = covered / sum |Ci| (overlapping chunks count
    twice, as the model reads them twice), iou = covered / (sum |Ci| + |E| - covered).
    One row per question of ``spans`` and of ``ranked``; questions without evidence
    get null span measures and their context_chars.
    """
    # one lazy plan: the sums are of whole characters, exact in any order
    top = max(ks)
    sent = (
        ranked.lazy()
        .select("qid", "chunk_id", "rank")
        .filter(pl.col("rank") <= top)
        .join(lengths.lazy(), on="chunk_id", how="left")
        .with_columns(pl.col("length").fill_null(0))
    )
    context = sent.group_by("qid").agg(
        pl.col("length").filter(pl.col("rank") <= k).sum().alias(f"context_chars@{k}") for k in ks
    )
    evidence = (
        spans.lazy().group_by("qid").agg((pl.col("end") - pl.col("start")).sum().alias("_evidence"))
    )
    reached = pieces.lazy().join(
        sent.select("qid", "chunk_id", "rank"), on=["qid", "chunk_id"], how="inner"
    )
    covered = [_covered(reached.filter(pl.col("rank") <= k), k) for k in ks]
    frame = evidence.join(context, on="qid", how="full", coalesce=True)
    for part in covered:
        frame = frame.join(part, on="qid", how="left")
    frame = frame.with_columns(
        pl.col("^(context_chars|_covered)@.*$").fill_null(0),
    )
    has_evidence = pl.col("_evidence").is_not_null()
    columns: dict[str, pl.Expr] = {}
    for k in ks:
        got, read, whole = (
            pl.col(f"_covered@{k}"),
            pl.col(f"context_chars@{k}"),
            pl.col("_evidence"),
        )
        columns[f"span_recall@{k}"] = got / whole
        columns[f"span_precision@{k}"] = _ratio(got, read)
        columns[f"span_iou@{k}"] = _ratio(got, read + whole - got)
    measured = frame.with_columns(
        pl.when(has_evidence).then(expr).otherwise(None).alias(name)
        for name, expr in columns.items()
    )
    return measured.select("qid", *span_keys(ks)).sort("qid").collect()


def _ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    return pl.when(denominator > 0).then(numerator / denominator).otherwise(0.0)


def _covered(reached: pl.LazyFrame, k: int) -> pl.LazyFrame:
    """(qid, covered@k): characters of evidence inside the union of the chunks reached.

    Overlaps of one document are sorted by start; each adds what reaches past the
    furthest end before it, so characters two chunks share count once.
    """
    group = ["qid", "doc"]
    before = pl.col("hi").cum_max().shift(1).over(group)
    fresh = (pl.col("hi") - pl.max_horizontal("lo", before.fill_null(pl.col("lo")))).clip(
        lower_bound=0
    )
    return (
        reached.sort("qid", "doc", "lo", "hi")
        .with_columns(fresh.alias("_fresh"))
        .group_by("qid")
        .agg(pl.col("_fresh").sum().alias(f"_covered@{k}"))
    )
