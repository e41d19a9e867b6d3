"""reportgen.evaluate gives the CLI's numbers: on the bundled example and on random inputs
handed over as dicts and DataFrames, compared with `reportgen report` on the same inputs
written as files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import reportgen
from reportgen.api import example_dir
from reportgen.cli import cli

EXAMPLE_RUNS = ("keyword.trec", "dense.jsonl", "hybrid.csv", "rerank.jsonl")


def cli_report(out: Path, gold: Path, runs: list[str], *options: str) -> dict[str, Any]:
    """report.json and the per-question rows of `reportgen report` on these files."""
    arguments = ["report", str(gold), *runs, "--out", str(out), "--format", "json"]
    done = CliRunner().invoke(
        cli, [*arguments, "--per-question-format", "parquet", "--quiet", *options]
    )
    assert done.exit_code == 0, done.output
    report: dict[str, Any] = json.loads((out / "report.json").read_text())
    report["per_question"] = pl.read_parquet(out / "per_question.parquet")
    return report


def assert_same_numbers(results: reportgen.Results, report: dict[str, Any]) -> None:
    keys = results.measures
    for row in results.means.iter_rows(named=True):
        run = report["runs"][row["run"]]
        assert row["n"] == run["n"]
        assert {key: row[key] for key in keys} == run["means"]  # exactly, not approximately
    for row in results.by_kind.iter_rows(named=True):
        kind = report["runs"][row["run"]]["by_kind"][row["kind"]]
        assert {"n": row["n"], **{key: row[key] for key in keys}} == kind
    assert_frame_equal(results.per_question, report["per_question"])
    assert [w.as_dict() for w in results.warnings] == report["warnings"]


def test_bundled_example_from_paths(tmp_path: Path) -> None:
    example = example_dir()
    runs = {Path(name).stem: example / "runs" / name for name in EXAMPLE_RUNS}
    report = cli_report(
        tmp_path / "cli",
        example / "gold.jsonl",
        [f"{name}={path}" for name, path in runs.items()],
        "--verdicts",
        str(example / "verdicts.jsonl"),
        "--verdicts-run",
        "rerank",
        "--k",
        "1,3,5,10",
    )
    results = reportgen.evaluate(
        example / "gold.jsonl",
        runs,
        k=[1, 3, 5, 10],
        verdicts=example / "verdicts.jsonl",
        verdicts_run="rerank",
    )
    assert_same_numbers(results, report)
    cells = report["attribution"]["rerank"]
    rows = results.attribution.iter_rows(named=True)
    for row, expected in zip(rows, [cells, *cells["by_kind"].values()], strict=True):
        assert row["run"] == "rerank" and row["n"] == expected["n"]
        assert {cell: row[cell] for cell in expected["cells"]} == expected["cells"]
        assert row["pass_rate"] == expected["pass_rate"]
    assert results.attribution["kind"].to_list() == [None, *cells["by_kind"]]


def test_bundled_example_from_memory(tmp_path: Path) -> None:
    """The same example, read into dicts and DataFrames first, as a notebook holds it."""
    example = example_dir()
    gold = {}
    for line in (example / "gold.jsonl").read_text().splitlines():
        record = json.loads(line)
        if "_meta" not in record and not record.get("unanswerable"):
            gold[record["id"]] = record["gold"]
    gold_path = tmp_path / "gold.jsonl"
    gold_path.write_text("".join(json.dumps({"id": q, "gold": g}) + "\n" for q, g in gold.items()))
    dense = {}
    for line in (example / "runs" / "dense.jsonl").read_text().splitlines():
        record = json.loads(line)
        dense[record["id"]] = record["chunks"]
    hybrid = pl.read_csv(example / "runs" / "hybrid.csv", schema_overrides={"id": pl.String})
    runs = [
        f"dense={example / 'runs' / 'dense.jsonl'}",
        f"hybrid={example / 'runs' / 'hybrid.csv'}",
    ]
    report = cli_report(tmp_path / "cli", gold_path, runs)
    assert_same_numbers(reportgen.evaluate(gold, {"dense": dense, "hybrid": hybrid}), report)


QIDS = st.sampled_from([f"q{i}" for i in range(8)])
CHUNKS = st.sampled_from([f"c{i}" for i in range(12)])
GOLDS = st.dictionaries(QIDS, st.dictionaries(CHUNKS, st.integers(0, 3), min_size=1), min_size=1)
SCORES = st.floats(-5, 5, allow_nan=False).map(lambda x: round(x, 1))  # ties on purpose
RUNS = st.dictionaries(QIDS, st.dictionaries(CHUNKS, SCORES, min_size=1), min_size=1)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    gold=GOLDS,
    first=RUNS,
    second=RUNS,
    trec_eval=st.booleans(),
    ks=st.sets(st.integers(1, 6), min_size=1),
)
def test_random_dicts_and_frames_match_the_cli(
    tmp_path_factory: pytest.TempPathFactory,
    gold: dict[str, dict[str, int]],
    first: dict[str, dict[str, float]],
    second: dict[str, dict[str, float]],
    trec_eval: bool,
    ks: set[int],
) -> None:
    shared = set(gold)
    if not (shared & set(first)) or not (shared & set(second)):
        return  # the CLI refuses a run that shares no question: tested elsewhere
    folder = tmp_path_factory.mktemp("random")
    (folder / "gold.jsonl").write_text(
        "".join(json.dumps({"id": q, "gold": g}) + "\n" for q, g in gold.items())
    )
    (folder / "first.json").write_text(json.dumps(first))
    rows = [(q, c, s) for q, ranked in second.items() for c, s in ranked.items()]
    frame = pl.DataFrame(rows, schema=["qid", "chunk_id", "score"], orient="row")
    frame.write_csv(folder / "second.csv")
    options = ["--k", ",".join(map(str, sorted(ks))), *(["--trec-eval"] if trec_eval else [])]
    report = cli_report(
        folder / "out",
        folder / "gold.jsonl",
        [f"first={folder / 'first.json'}", f"second={folder / 'second.csv'}"],
        *options,
    )
    results = reportgen.evaluate(
        gold, {"first": first, "second": frame}, k=sorted(ks), trec_eval=trec_eval
    )
    assert_same_numbers(results, report)
