"""Runs in every format: ordering rules, repeats, ranks, and the spec parser."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from reportgen.core.model import RESULTS_SCHEMA, Run
from reportgen.load import RUN_FORMATS, load_run, parse_run_spec
from tests.load.conftest import Write


def ranked(run: Run) -> list[tuple[str, str, int, float | None]]:
    assert run.results.schema == RESULTS_SCHEMA
    return run.results.rows()


def test_formats_are_the_public_five_and_the_trace_formats() -> None:
    assert RUN_FORMATS == ("trec", "jsonl", "csv", "parquet", "json", "trace", "otlp", "phoenix")


def test_trec_orders_by_score_then_docid_descending(write: Write) -> None:
    # The rank column (9, 1, 5, 2) is ignored; c2 and c3 tie on 0.5: c3 first.
    path = write(
        "bm25.trec",
        "# run\n"
        "q1 Q0 c1 9 0.9 tag\n"
        "q1 Q0 c2 1 0.5 tag extra columns\n"
        "\n"
        "q1\tQ0\tc3\t5\t  0.5\ttag\n"
        "q2 Q0 d1 2 1e-3 tag\n",
    )
    run = load_run(path)
    assert (run.name, run.order, run.repeated_chunks, run.source) == ("bm25", "score", 0, str(path))
    assert ranked(run) == [
        ("q1", "c1", 1, 0.9),
        ("q1", "c3", 2, 0.5),
        ("q1", "c2", 3, 0.5),
        ("q2", "d1", 1, 0.001),
    ]
    assert run.has_scores and run.index_version is None


def test_repeated_chunk_kept_once_at_best_position_without_renumbering(write: Write) -> None:
    path = write(
        "r.trec",
        "q1 Q0 a 1 0.9 t\nq1 Q0 b 2 0.8 t\nq1 Q0 a 3 0.7 t\nq1 Q0 c 4 0.6 t\nq1 Q0 b 5 0.1 t\n",
    )
    run = load_run(path, name="hybrid")
    assert run.name == "hybrid"
    assert run.repeated_chunks == 2
    assert ranked(run) == [("q1", "a", 1, 0.9), ("q1", "b", 2, 0.8), ("q1", "c", 4, 0.6)]


def test_jsonl_list_order_scores_and_results_form(write: Write) -> None:
    path = write(
        "dense.jsonl",
        '{"_meta": {"index_version": "2026-10-01"}}\n'
        '{"id": "q1", "chunks": ["c2", "c7", "c2"], "scores": [0.4, 0.91, 0.1]}\n'
        '{"qid": 3, "results": [{"chunk_id": "c5", "score": 2}, {"doc_id": 6, "score": 1.5},'
        ' {"id": "c1", "score": 1}, {"docid": "c0", "score": 0}]}\n'
        '{"question_id": "q4", "chunks": []}\n',
    )
    run = load_run(path)
    assert (run.order, run.repeated_chunks, run.index_version) == ("list", 1, "2026-10-01")
    assert ranked(run) == [
        ("q1", "c2", 1, 0.4),
        ("q1", "c7", 2, 0.91),
        ("3", "c5", 1, 2.0),
        ("3", "6", 2, 1.5),
        ("3", "c1", 3, 1.0),
        ("3", "c0", 4, 0.0),
    ]


def test_jsonl_without_scores_has_null_scores(write: Write) -> None:
    run = load_run(write("r.jsonl", '{"id": "q1", "chunks": ["b", "a"]}\n'))
    assert ranked(run) == [("q1", "b", 1, None), ("q1", "a", 2, None)]
    assert not run.has_scores


def test_csv_with_rank_sorts_and_renumbers_densely(write: Write) -> None:
    path = write("r2.csv", "qid,docid,rank\nq1,c9,10\nq1,c1,3\nq2,d1,1\nq1,c5,7\nq1,c1,8\n")
    run = load_run(path)
    assert (run.order, run.repeated_chunks) == ("rank", 1)
    assert ranked(run) == [
        ("q1", "c1", 1, None),
        ("q1", "c5", 2, None),
        ("q1", "c9", 4, None),
        ("q2", "d1", 1, None),
    ]


def test_csv_with_score_only_orders_by_score(write: Write) -> None:
    path = write("r.csv", "id,chunk_id,score\nq1,a,0.5\nq1,b,0.9\nq1,c,0.5\n")
    run = load_run(path)
    assert run.order == "score"
    assert ranked(run) == [("q1", "b", 1, 0.9), ("q1", "c", 2, 0.5), ("q1", "a", 3, 0.5)]


def test_csv_without_rank_or_score_keeps_file_order(write: Write) -> None:
    run = load_run(write("r.csv", "question_id,doc_id\nq2,z\nq1,b\nq2,a\n"))
    assert run.order == "list"
    assert ranked(run) == [("q2", "z", 1, None), ("q2", "a", 2, None), ("q1", "b", 1, None)]


def test_csv_with_quotes_goes_through_the_csv_module(write: Write) -> None:
    run = load_run(write("r.csv", 'id,chunk_id,score\n"q,1","c ""x""",0.5\n"q,1","c,2",1\n'))
    assert ranked(run) == [("q,1", "c,2", 1, 1.0), ("q,1", 'c "x"', 2, 0.5)]


def test_parquet_with_numeric_ids(tmp_path: Path) -> None:
    path = tmp_path / "r.parquet"
    pl.DataFrame(
        {"QID": [1, 1, 2], "chunk_id": ["a", "b", "c"], "rank": [2, 1, 5], "score": [0.1, 0.2, 3]}
    ).write_parquet(path)
    run = load_run(path)
    assert run.order == "rank"
    assert ranked(run) == [("1", "b", 1, 0.2), ("1", "a", 2, 0.1), ("2", "c", 1, 3.0)]


def test_ranx_json_orders_by_score(write: Write) -> None:
    run = load_run(write("r.json", '{"q1": {"c2": 0.91, "c7": 0.4, "c9": 0.91}, "q2": {}}'))
    assert run.order == "score"
    assert ranked(run) == [("q1", "c9", 1, 0.91), ("q1", "c2", 2, 0.91), ("q1", "c7", 3, 0.4)]


@pytest.mark.parametrize(
    ("content", "order"),
    [
        ("q1 Q0 c1 1 0.5 tag\n", "score"),
        ('{"id": "q1", "chunks": ["c1"], "scores": [0.5]}\n', "list"),
        ('{"q1": {"c1": 0.5}}', "score"),
        ('{\n  "q1": {\n    "c1": 0.5\n  }\n}\n', "score"),
        ("id,chunk_id,score\nq1,c1,0.5\n", "score"),
    ],
)
def test_format_is_sniffed_without_extension(write: Write, content: str, order: str) -> None:
    run = load_run(write("run", content))
    assert (run.order, ranked(run)) == (order, [("q1", "c1", 1, 0.5)])


def test_parquet_is_sniffed_by_magic(tmp_path: Path) -> None:
    path = tmp_path / "run"
    pl.DataFrame({"id": ["q1"], "chunk_id": ["c1"]}).write_parquet(path)
    assert ranked(load_run(path)) == [("q1", "c1", 1, None)]


def test_forced_format_beats_the_extension(write: Write) -> None:
    run = load_run(write("run.txt", "id,chunk_id\nq1,c1\n"), fmt="csv")
    assert ranked(run) == [("q1", "c1", 1, None)]


def test_parse_run_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse_run_spec("bm25=runs/x.trec") == ("bm25", Path("runs/x.trec"))
    assert parse_run_spec("runs/x.trec") == (None, Path("runs/x.trec"))
    monkeypatch.chdir(tmp_path)
    Path("a=b.trec").write_text("q1 Q0 c 1 1 t\n")
    assert parse_run_spec("a=b.trec") == (None, Path("a=b.trec"))
    assert parse_run_spec("x=a=b.trec") == ("x", Path("a=b.trec"))


@pytest.mark.parametrize(
    ("name", "rows", "questions"),
    [("results.test", 1500, 3), ("results.trunc", 584, 2), ("results.comment.test", 30100, 301)],
)
def test_trec_eval_runs(trec_eval_dir: Path, name: str, rows: int, questions: int) -> None:
    run = load_run(trec_eval_dir / name, fmt="trec")
    assert run.results.height == rows
    assert run.results["qid"].n_unique() == questions
    assert run.repeated_chunks == 0
    # Positions are 1..n per question, in descending score order.
    check = run.results.group_by("qid").agg(
        (pl.col("rank").sort() == pl.int_range(1, pl.len() + 1)).all().alias("dense"),
        pl.col("score").sort_by("rank").diff().max().alias("rise"),
    )
    assert check["dense"].all()
    assert (check["rise"].fill_null(0) <= 0).all()
