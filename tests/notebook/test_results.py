"""The Results object: its tables, its comparison, its HTML in Jupyter, its report files."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import reportgen
from reportgen.api import ReportInputs, ReportOutputs, ReportRequest, example_dir, make_report
from reportgen.cli import cli
from reportgen.errors import InputError, ParameterError
from reportgen.load.inputs.memory import gold_from, runs_from
from reportgen.render.manifest import MANIFEST

GOLD = {"q1": {"c1": 2, "c2": 1}, "q2": ["c3"], "q3": ["c4"]}
RUN_FILES = [("keyword", "trec"), ("dense", "jsonl"), ("hybrid", "csv"), ("rerank", "jsonl")]
RUNS = {
    "bm25": {"q1": ["c9", "c1"], "q2": ["c3"], "q3": ["c8", "c7"]},
    "dense": {"q1": ["c1", "c2"], "q2": ["c5", "c3"], "q3": ["c4"]},
}


def test_the_top_level_function_is_not_shadowed_by_a_module() -> None:
    # importing the package's modules must not replace the function
    import reportgen.api
    import reportgen.measure.scoring

    assert callable(reportgen.evaluate)
    assert reportgen.evaluate(GOLD, RUNS).runs == ["bm25", "dense"]


def test_tables_have_a_row_per_run_question_and_kind() -> None:
    results = reportgen.evaluate(GOLD, RUNS, k=[1, 2], context_k=2)
    assert results.means["run"].to_list() == ["bm25", "dense"]
    assert results.means.columns[:2] == ["run", "n"]
    # bm25 finds q1 at rank 2 and q2 at rank 1, misses q3: hit@1 = 1/3, hit@2 = 2/3
    assert results.means.row(0, named=True)["hit@1"] == pytest.approx(1 / 3)
    assert results.means.row(0, named=True)["hit@2"] == pytest.approx(2 / 3)
    assert results.per_question.height == 6
    assert results.by_kind.select("run", "kind").rows() == [
        ("bm25", "unlabelled"),
        ("dense", "unlabelled"),
    ]
    assert results.attribution.height == 0  # no verdicts, no cells


def test_bad_settings_name_the_keyword() -> None:
    with pytest.raises(ParameterError, match=r"^context_k=0: must be at least 1"):
        reportgen.evaluate(GOLD, RUNS, context_k=0)
    with pytest.raises(ParameterError, match=r"^k='5'"):
        reportgen.evaluate(GOLD, RUNS, k="5")  # type: ignore[arg-type]


def test_compare_is_the_report_comparison(tmp_path: Path) -> None:
    example = example_dir()
    runs = {
        "keyword": example / "runs" / "keyword.trec",
        "rerank": example / "runs" / "rerank.jsonl",
    }
    out = tmp_path / "cli"
    arguments = [f"{name}={path}" for name, path in runs.items()]
    done = CliRunner().invoke(
        cli,
        ["report", str(example / "gold.jsonl"), *arguments, "--out", str(out), "--format", "json"],
    )
    assert done.exit_code == 0, done.output
    (pair,) = json.loads((out / "report.json").read_text())["comparisons"]["pairs"]
    compared = reportgen.evaluate(example / "gold.jsonl", runs).compare("keyword", "rerank")
    assert compared["measure"].to_list() == list(pair["measures"])
    for row in compared.iter_rows(named=True):
        expected = pair["measures"][row["measure"]]
        assert row["keyword"] == expected["before"] and row["rerank"] == expected["after"]
        for column in ("difference", "ci_low", "ci_high", "p", "p_holm", "label"):
            assert row[column] == expected[column], (row["measure"], column)


def test_compare_refuses_a_run_it_does_not_have() -> None:
    results = reportgen.evaluate(GOLD, RUNS)
    with pytest.raises(ParameterError, match=r"^b='sparse': names no run"):
        results.compare("bm25", "sparse")
    with pytest.raises(ParameterError, match=r"^b='bm25': is run a itself"):
        results.compare("bm25", "bm25")


def test_repr_html_escapes_names_and_warnings() -> None:
    hostile = "<script>alert(1)</script>"
    runs = {hostile: {"q1": ["c1"], "q2": ["c3"], "<b>q9</b>": ["c1"]}}
    page = reportgen.evaluate(GOLD, runs)._repr_html_()
    assert "<script>" not in page and "<b>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.startswith("<table>") and "<ul><li>" in page  # the warnings are listed


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in folder.rglob("*")
        if p.is_file() and p.name != MANIFEST  # the list of these files, not one of them
    }


def test_report_writes_the_files_the_cli_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # every file, byte for byte: report.json, per_question.csv, the pages and the charts
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    example = example_dir()
    gold, verdicts = example / "gold.jsonl", example / "verdicts.jsonl"
    runs = {name: example / "runs" / f"{name}.{ext}" for name, ext in RUN_FILES}
    done = CliRunner().invoke(
        cli,
        [
            *("report", str(gold), *(f"{name}={path}" for name, path in runs.items())),
            *("--verdicts", str(verdicts), "--verdicts-run", "rerank", "--version", "v7"),
            *("--out", str(tmp_path / "cli"), "-q"),
            # left out, the CLI would say k_ctx = 5 was assumed: a note about its option
            *("--context-k", "5"),
        ],
    )
    assert done.exit_code == 0, done.output
    results = reportgen.evaluate(gold, runs, verdicts=verdicts, verdicts_run="rerank")
    written = results.report(tmp_path / "api", version="v7")
    expected = _files(tmp_path / "cli")
    assert {"report.json", "index.html", "report.md", "per_question.csv"} <= set(expected)
    assert sorted(p.relative_to(tmp_path / "api").as_posix() for p in written.files) == sorted(
        expected
    )
    assert _files(tmp_path / "api") == expected


def test_report_takes_the_request_path_with_inputs_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Results.report is one ReportRequest with the loaded gold set and runs: built by
    # hand, the same request writes the same report.json (at one fixed time: on a
    # loaded machine the two reports were a second apart and their labels differed)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    results = reportgen.evaluate(GOLD, RUNS)
    results.report(tmp_path / "results", formats=[])
    inputs = ReportInputs(gold_from(GOLD), runs_from(RUNS))
    make_report(ReportRequest(inputs, ReportOutputs(tmp_path / "request", formats=[])))
    report = (tmp_path / "results" / "report.json").read_bytes()
    assert report == (tmp_path / "request" / "report.json").read_bytes()
    assert list(json.loads(report)["runs"]) == ["bm25", "dense"]


def test_report_refuses_to_overwrite_an_input_file(tmp_path: Path) -> None:
    # a run file where the per-question file would go: refused, nothing written
    run = tmp_path / "out" / "per_question.csv"
    run.parent.mkdir()
    run.write_text("qid,chunk_id,rank\nq1,c1,1\nq2,c3,1\n")
    results = reportgen.evaluate(GOLD, {"dense": run})
    with pytest.raises(InputError, match=r"run 'dense'.*per_question\.csv"):
        results.report(tmp_path / "out", formats=[])
    assert sorted(p.name for p in run.parent.iterdir()) == ["per_question.csv"]
    assert run.read_text().startswith("qid,chunk_id,rank")


def test_every_table_converts_to_pandas() -> None:
    pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    results = reportgen.evaluate(GOLD, RUNS)
    tables = [results.means, results.per_question, results.by_kind, results.attribution]
    for table in [*tables, results.compare("bm25", "dense")]:
        frame = table.to_pandas()
        assert list(frame.columns) == table.columns and len(frame) == table.height
        assert isinstance(table, pl.DataFrame)
