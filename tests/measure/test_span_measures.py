"""Span measures and derived judgments: SPEC.md's worked example, edge cases, and a
differential test against a plain-Python implementation on random chunkings."""

from __future__ import annotations

import dataclasses

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.core.model import CHUNKS_SCHEMA, ChunkMap
from reportgen.measure.chunked import Chunkings, chunk_run
from reportgen.measure.measures import per_question
from reportgen.measure.spans import (
    derived_judgments,
    merge_ranges,
    overlaps,
    span_keys,
    span_scores,
    with_derived,
)

TOL = 1e-9
SPEC_TOL = 5e-5


def chunk_map(chunks: dict[str, tuple[str, int, int]]) -> ChunkMap:
    rows = [
        {"chunk_id": cid, "doc": doc, "start": start, "end": end, "line": i + 2}
        for i, (cid, (doc, start, end)) in enumerate(chunks.items())
    ]
    frame = pl.DataFrame(rows).with_columns(
        *[pl.lit(None).alias(name) for name in CHUNKS_SCHEMA if name not in rows[0]]
    )
    return ChunkMap(chunks=frame.select(CHUNKS_SCHEMA.names()).cast(CHUNKS_SCHEMA), source="<map>")


def spans(rows: list[tuple[str, str, int, int]]) -> pl.DataFrame:
    frame = pl.DataFrame(rows, schema=["qid", "doc", "start", "end"], orient="row")
    return merge_ranges(frame.cast({"start": pl.Int64, "end": pl.Int64}))


def lengths(chunks: ChunkMap) -> pl.DataFrame:
    return chunks.chunks.select("chunk_id", (pl.col("end") - pl.col("start")).alias("length"))


# --- SPEC.md's worked example --------------------------------------------------------

SPEC_MAP = chunk_map(
    {"c1": ("d", 0, 250), "c2": ("d", 250, 500), "c3": ("d", 480, 730), "c4": ("d", 730, 1000)}
)
SPEC_SPANS = spans([("q", "d", 100, 200), ("q", "d", 500, 550)])  # |E| = 150


@pytest.fixture
def spec_scores(make_run):
    run = make_run({"q": ["c2", "c1", "c3"]})
    pieces = overlaps(SPEC_SPANS, SPEC_MAP.chunks)
    return span_scores(SPEC_SPANS, pieces, run.results, lengths(SPEC_MAP), [1, 2, 3]).row(
        0, named=True
    )


@pytest.mark.parametrize(
    ("k", "recall", "precision", "iou", "chars"),
    [
        # c2 [250, 500) holds no evidence: covered 0
        pytest.param(1, 0, 0, 0, 250, id="k=1"),
        # c2, c1: covered = [100, 200) = 100; recall 100/150; precision 100/500; iou 100/550
        pytest.param(2, 100 / 150, 0.2, 100 / 550, 500, id="k=2"),
        # c2, c1, c3: covered 150; sent 750 (c2 and c3 share [480, 500), counted twice);
        # iou = 150 / (750 + 150 - 150) = 0.2
        pytest.param(3, 1, 0.2, 0.2, 750, id="k=3"),
    ],
)
def test_spec_worked_example(spec_scores, k, recall, precision, iou, chars):
    assert spec_scores[f"span_recall@{k}"] == pytest.approx(recall, abs=TOL)
    assert spec_scores[f"span_precision@{k}"] == pytest.approx(precision, abs=TOL)
    assert spec_scores[f"span_iou@{k}"] == pytest.approx(iou, abs=TOL)
    assert spec_scores[f"context_chars@{k}"] == chars


def test_spec_worked_example_rounded_as_printed(spec_scores):
    assert spec_scores["span_recall@2"] == pytest.approx(0.6667, abs=SPEC_TOL)
    assert spec_scores["span_iou@2"] == pytest.approx(0.1818, abs=SPEC_TOL)


def test_spec_derived_judgments_and_chunk_measures(make_gold, make_run):
    # c1 holds all of [100, 200), c3 all of [500, 550); c2 and c4 hold nothing
    pieces = overlaps(SPEC_SPANS, SPEC_MAP.chunks)
    derived = derived_judgments(pieces, 0.5)
    assert derived.rows() == [("q", "c1", 1), ("q", "c3", 1)]
    gold = dataclasses.replace(make_gold({"q": []}), judgments=derived)
    row = per_question(gold, make_run({"q": ["c2", "c1", "c3"]}), ks=[1, 2, 3]).row(0, named=True)
    assert row["hit@1"] == 0 and row["hit@2"] == 1
    assert row["mrr"] == pytest.approx(0.5, abs=TOL)
    assert row["recall@2"] == pytest.approx(0.5, abs=TOL)
    assert row["recall@3"] == pytest.approx(1, abs=TOL)
    assert row["precision@3"] == pytest.approx(2 / 3, abs=TOL)
    # AP@3 = (P@2 + P@3) / 2 = (1/2 + 2/3) / 2
    assert row["ap@3"] == pytest.approx(0.5833, abs=SPEC_TOL)


def test_chunk_run_derives_the_gold_of_its_own_chunking(make_gold, make_run):
    gold = make_gold({"q": []})
    run = make_run({"q": ["c2", "c1", "c3", "zz"]}, name="bm25")
    chunked = chunk_run(gold, run, Chunkings(SPEC_SPANS, {"bm25": SPEC_MAP}), [2, 3])
    assert chunked is not None
    assert chunked.gold.judgments.sort("chunk_id").rows() == [("q", "c1", 1), ("q", "c3", 1)]
    assert chunked.unmapped == 1  # zz is not in the chunk map
    assert (
        chunk_run(gold, make_run({"q": ["c1"]}, name="other"), Chunkings(SPEC_SPANS, {}), [2])
        is None
    )


# --- details that change numbers -----------------------------------------------------


def test_ranges_that_overlap_or_touch_are_merged():
    merged = spans(
        [("q", "d", 200, 250), ("q", "d", 100, 200), ("q", "d", 300, 400), ("q", "d", 320, 350)]
    )
    assert merged.rows() == [("q", "d", 100, 250), ("q", "d", 300, 400)]


def test_ranges_of_other_documents_or_questions_are_not_merged():
    merged = spans([("q", "a", 0, 10), ("q", "b", 5, 20), ("r", "a", 5, 20)])
    assert merged.rows() == [("q", "a", 0, 10), ("q", "b", 5, 20), ("r", "a", 5, 20)]


def test_fewer_than_k_returned_and_none_returned():
    pieces = overlaps(SPEC_SPANS, SPEC_MAP.chunks)
    ranked = pl.DataFrame({"qid": ["q"], "chunk_id": ["c1"], "rank": [1]})
    row = span_scores(SPEC_SPANS, pieces, ranked, lengths(SPEC_MAP), [5]).row(0, named=True)
    # only c1 came back: covered 100 of 150, sent 250
    assert row["span_recall@5"] == pytest.approx(100 / 150)
    assert row["span_precision@5"] == pytest.approx(100 / 250)
    empty = ranked.clear()
    row = span_scores(SPEC_SPANS, pieces, empty, lengths(SPEC_MAP), [5]).row(0, named=True)
    assert [row[key] for key in span_keys([5])] == [0, 0, 0, 0]


def test_a_chunk_missing_from_the_map_has_length_zero():
    pieces = overlaps(SPEC_SPANS, SPEC_MAP.chunks)
    ranked = pl.DataFrame({"qid": ["q", "q"], "chunk_id": ["zz", "c1"], "rank": [1, 2]})
    row = span_scores(SPEC_SPANS, pieces, ranked, lengths(SPEC_MAP), [2]).row(0, named=True)
    assert row["context_chars@2"] == 250
    assert row["span_precision@2"] == pytest.approx(100 / 250)


def test_a_question_without_evidence_has_no_span_measures_but_its_context():
    ranked = pl.DataFrame({"qid": ["other"], "chunk_id": ["c1"], "rank": [1]})
    pieces = overlaps(SPEC_SPANS, SPEC_MAP.chunks)
    frame = span_scores(SPEC_SPANS, pieces, ranked, lengths(SPEC_MAP), [1])
    row = frame.filter(pl.col("qid") == "other").row(0, named=True)
    assert row["span_recall@1"] is None and row["context_chars@1"] == 250


def test_coverage_rules_and_threshold():
    chunks = chunk_map({"a": ("d", 0, 100), "b": ("d", 100, 1000), "c": ("d", 1000, 1040)})
    # evidence [60, 1020): a is 40% evidence and holds 4% of it; b is all evidence;
    # c is half evidence
    evidence = spans([("q", "d", 60, 1020)])
    pieces = overlaps(evidence, chunks.chunks)
    assert derived_judgments(pieces, 0.5).get_column("chunk_id").to_list() == ["b", "c"]
    assert derived_judgments(pieces, 0.4).get_column("chunk_id").to_list() == ["a", "b", "c"]
    assert derived_judgments(pieces, 0.6).get_column("chunk_id").to_list() == ["b"]


def test_given_grades_win_over_derived_ones():
    given_ = pl.DataFrame({"qid": ["q", "q"], "chunk_id": ["c1", "x"], "grade": [2, 1]})
    derived = pl.DataFrame({"qid": ["q", "q"], "chunk_id": ["c1", "c3"], "grade": [1, 1]})
    union = with_derived(given_, derived).sort("chunk_id")
    assert union.rows() == [("q", "c1", 2), ("q", "c3", 1), ("q", "x", 1)]


# --- differential: plain Python on random chunkings ----------------------------------


def plain(case):
    """Characters as sets: the definitions of SPEC.md, with no interval arithmetic."""
    evidence_chars = {(d, c) for d, s, e in case["evidence"] for c in range(s, e)}
    merged = _merged(case["evidence"])
    results = {}
    for k in case["ks"]:
        top = case["ranking"][:k]
        covered_chars = {
            (d, c)
            for cid in top
            if cid in case["chunks"]
            for d, s, e in [case["chunks"][cid]]
            for c in range(s, e)
        } & evidence_chars
        sent = sum(
            case["chunks"][cid][2] - case["chunks"][cid][1] for cid in top if cid in case["chunks"]
        )
        covered = len(covered_chars)
        whole = len(evidence_chars)
        results[k] = (
            covered / whole,
            covered / sent if sent else 0.0,
            covered / (sent + whole - covered) if sent + whole - covered else 0.0,
            sent,
        )
    relevant = set()
    for cid, (d, s, e) in case["chunks"].items():
        inside = [min(e, re_) - max(s, rs) for rd, rs, re_ in merged if rd == d]
        inside = [n for n in inside if n > 0]
        holds = any(
            n >= case["cov"] * (re_ - rs)
            for (rd, rs, re_) in merged
            if rd == d
            for n in [min(e, re_) - max(s, rs)]
            if n > 0
        )
        if inside and (holds or sum(inside) >= case["cov"] * (e - s)):
            relevant.add(cid)
    return results, relevant


def _merged(ranges):
    out = []
    for d, s, e in sorted(ranges):
        if out and out[-1][0] == d and s <= out[-1][2]:
            out[-1] = (d, out[-1][1], max(out[-1][2], e))
        else:
            out.append((d, s, e))
    return out


@st.composite
def chunkings(draw):
    docs = ["a", "b", "c"][: draw(st.integers(1, 3))]
    chunks = {}
    for i in range(draw(st.integers(1, 12))):
        doc = draw(st.sampled_from(docs))
        start = draw(st.integers(0, 80))
        chunks[f"k{i}"] = (doc, start, start + draw(st.integers(1, 40)))
    evidence = []
    for _ in range(draw(st.integers(1, 4))):
        doc = draw(st.sampled_from(docs))
        start = draw(st.integers(0, 100))
        evidence.append((doc, start, start + draw(st.integers(1, 30))))
    pool = [*chunks, "missing1", "missing2"]
    ranking = draw(st.lists(st.sampled_from(pool), unique=True, max_size=8))
    ks = sorted(set(draw(st.lists(st.integers(1, 9), min_size=1, max_size=3))))
    cov = draw(st.sampled_from([0.1, 0.25, 0.5, 0.75, 1.0]))
    return {"chunks": chunks, "evidence": evidence, "ranking": ranking, "ks": ks, "cov": cov}


@settings(deadline=None, max_examples=200)
@given(chunkings())
def test_span_measures_match_a_plain_implementation(case):
    mapped = chunk_map(case["chunks"])
    evidence = spans([("q", d, s, e) for d, s, e in case["evidence"]])
    ranked = pl.DataFrame(
        {
            "qid": ["q"] * len(case["ranking"]),
            "chunk_id": case["ranking"],
            "rank": list(range(1, len(case["ranking"]) + 1)),
        },
        schema={"qid": pl.String, "chunk_id": pl.String, "rank": pl.Int64},
    )
    pieces = overlaps(evidence, mapped.chunks)
    row = span_scores(evidence, pieces, ranked, lengths(mapped), case["ks"]).row(0, named=True)
    expected, relevant = plain(case)
    for k, (recall, precision, iou, sent) in expected.items():
        assert row[f"span_recall@{k}"] == pytest.approx(recall, abs=TOL)
        assert row[f"span_precision@{k}"] == pytest.approx(precision, abs=TOL)
        assert row[f"span_iou@{k}"] == pytest.approx(iou, abs=TOL)
        assert row[f"context_chars@{k}"] == sent
        assert 0 <= row[f"span_recall@{k}"] <= 1
    assert set(derived_judgments(pieces, case["cov"]).get_column("chunk_id")) == relevant
