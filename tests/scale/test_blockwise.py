"""One process, bounded memory: a Parquet run measured block by block of questions
gives the numbers of one report over every question."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from reportgen.api import ReportInputs, ReportOutputs, ReportRequest, ReportSettings, make_report
from reportgen.errors import InputError, UsageError
from reportgen.load import load_gold, load_run
from reportgen.load.inputs.runs import in_range
from reportgen.measure.scoring import Settings
from reportgen.scale.blocks import measure_in_blocks, question_ranges, write_in_blocks


def inputs(folder: Path) -> tuple[Path, Path]:
    """40 questions, one unanswerable; the run misses q05, answers q99 (not in the gold
    set) and lists a chunk twice; rows shuffled, so blocks are not contiguous in the file."""
    gold = folder / "gold.jsonl"
    lines = [
        f'{{"id": "q{i:02d}", "gold": {{"c{i}": {1 + i % 3}, "c{i + 1}": 1}}}}' for i in range(40)
    ]
    lines[7] = '{"id": "q07", "unanswerable": true}'
    gold.write_text("\n".join(lines) + "\n")
    rows = [
        (f"q{i:02d}", f"c{(i * 7 + j) % 45}", j + 1, 5.0 - j)
        for i in [*range(40), 99]
        if i != 5
        for j in range(5)
    ]
    rows.append(("q10", "c25", 6, 0.1))  # a repeat: counted once, at its first rank
    frame = pl.DataFrame(rows, schema=["id", "chunk_id", "rank", "score"], orient="row")
    run = folder / "run.parquet"
    frame.sample(fraction=1.0, shuffle=True, seed=7).write_parquet(run, row_group_size=16)
    return gold, run


@pytest.mark.parametrize("blocks", [1, 3, 8, 39])
def test_blocks_give_the_whole_reports_numbers(tmp_path: Path, blocks: int) -> None:
    gold, run = inputs(tmp_path)
    scoring = Settings((1, 3, 5), 3, 1, False)
    outputs = ReportOutputs(tmp_path / "whole", formats=(), per_question_format="parquet")
    request = ReportRequest(
        ReportInputs(gold, [f"bm25={run}"]), outputs, ReportSettings(scoring=scoring)
    )
    whole = make_report(request).report
    report, rows = measure_in_blocks(gold, [f"bm25={run}"], blocks, settings=scoring)
    assert report["gold"]["fingerprint"] == whole["gold"]["fingerprint"]
    assert report["gold"]["questions"] == whole["gold"]["questions"] == 40
    mine, theirs = report["runs"]["bm25"], whole["runs"]["bm25"]
    assert mine["means"] == pytest.approx(theirs["means"], abs=1e-9)
    assert mine["counts"] == theirs["counts"]
    assert mine["counts"]["extra_questions"] == 1
    assert mine["counts"]["repeated_chunks"] == 1
    expected = pl.read_parquet(tmp_path / "whole" / "per_question.parquet").sort("qid")
    assert_frame_equal(rows.sort("qid"), expected, abs_tol=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.text("abq0123456789", min_size=1, max_size=5), min_size=1, unique=True),
       st.integers(1, 6), st.text("abq0123456789", max_size=5))  # fmt: skip
def test_the_ranges_hold_every_id_once(qids: list[str], blocks: int, other: str) -> None:
    """Each gold id, and any other id, falls in exactly one block."""
    from reportgen.core.model import JUDGMENTS_SCHEMA, QUESTIONS_SCHEMA, GoldSet

    blocks = min(blocks, len(qids))
    questions = pl.DataFrame(
        [(q, None, "k", False, None) for q in qids], schema=QUESTIONS_SCHEMA, orient="row"
    )
    gold = GoldSet(questions, pl.DataFrame(schema=JUDGMENTS_SCHEMA), "test")
    ranges = question_ranges(gold, blocks)
    assert len(ranges) == blocks
    for qid in [*qids, other]:
        hits = [r for r in ranges if pl.select(in_range(pl.lit(qid), r)).item()]
        assert len(hits) == 1, (qid, ranges)


def test_a_block_reads_only_its_questions_rows(tmp_path: Path) -> None:
    _, run = inputs(tmp_path)
    part = load_run(run, block=("q10", "q20"))
    assert set(part.results["qid"]) == {f"q{i}" for i in range(10, 20)}
    assert part.repeated_chunks == 1
    whole = load_run(run).results.filter(pl.col("qid").is_between(pl.lit("q10"), pl.lit("q19")))
    assert part.results.sort("qid", "rank").equals(whole.sort("qid", "rank"))


def test_a_text_run_and_too_many_blocks_are_refused(tmp_path: Path) -> None:
    gold, _ = inputs(tmp_path)
    trec = tmp_path / "run.trec"
    trec.write_text("q01 Q0 c1 1 1.0 t\n")
    with pytest.raises(InputError, match="one block of questions at a time"):
        measure_in_blocks(gold, [trec], 2)
    with pytest.raises(UsageError, match="--blocks 41 for a gold set of 40"):
        question_ranges(load_gold(gold), 41)


def test_the_files_are_written(tmp_path: Path) -> None:
    gold, run = inputs(tmp_path)
    written = write_in_blocks(gold, [run], tmp_path / "out", 4)
    assert sorted(path.name for path in written) == ["per_question.parquet", "report.json"]
