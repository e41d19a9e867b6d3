"""The API reads like Python: its public names, pandas without the extra, a baseline
from a folder, a site or earlier Results with the CLI's labels, no duplicate rows."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import reportgen
from reportgen.api import example_dir
from reportgen.cli import cli
from reportgen.errors import ParameterError, UsageError

GOLD = {"q1": ["c1"], "q2": ["c2"], "q3": ["c3"], "q4": ["c4"]}
BEFORE = {"q1": ["x", "c1"], "q2": ["c2"], "q3": ["x"], "q4": ["x", "y", "c4"]}
AFTER = {"q1": ["c1"], "q2": ["c2"], "q3": ["c3"], "q4": ["c4"]}


def test_dir_and_all_list_the_public_names() -> None:
    assert {"evaluate", "Results", "__version__", "InputError"} <= set(reportgen.__all__)
    assert dir(reportgen) == sorted(reportgen.__all__)
    for name in reportgen.__all__:
        assert getattr(reportgen, name) is not None
    assert isinstance(reportgen.__version__, str)


def test_to_pandas_names_the_extra_when_pyarrow_is_missing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    means = reportgen.evaluate(GOLD, {"a": AFTER}).means
    assert isinstance(means, pl.DataFrame)
    monkeypatch.setitem(sys.modules, "pandas", None)  # as if not installed (fast: no import)
    with pytest.raises(UsageError, match=r"pandas is missing.*pip install 'reportgen\[pandas\]'"):
        means.to_pandas()


def test_attribution_without_kinds_has_one_row() -> None:
    results = reportgen.evaluate(GOLD, {"a": AFTER}, verdicts={"q1": True, "q3": False})
    assert results.attribution.height == 1
    assert results.attribution["kind"].to_list() == [None]


def test_a_baseline_from_earlier_results() -> None:
    before = reportgen.evaluate(GOLD, {"a": BEFORE}, k=[1, 3], context_k=3)
    after = reportgen.evaluate(GOLD, {"a": AFTER}, k=[1, 3], context_k=3, baseline=before)
    row = after.baseline.filter(pl.col("measure") == "mrr@3").row(0, named=True)
    # mrr@3: (0.5 + 1 + 0 + 1/3) / 4 = 0.4583 then 1.0
    assert (row["run"], round(row["before"], 4), row["after"]) == ("a", 0.4583, 1.0)
    assert row["label"] == "too few questions"  # four questions cannot show a change
    assert reportgen.evaluate(GOLD, {"a": AFTER}).baseline.is_empty()
    with pytest.raises(ParameterError, match="baseline=42"):
        reportgen.evaluate(GOLD, {"a": AFTER}, baseline=42)  # type: ignore[arg-type]


@pytest.mark.slow  # three reports; the test above covers the API's side quickly
def test_baseline_labels_are_those_of_report_baseline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same data as a folder, a site and earlier Results gives the labels that
    `reportgen report --baseline` writes."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")
    example = example_dir()
    gold = example / "gold.jsonl"
    then = {"keyword": example / "runs" / "keyword.trec"}
    now = {"keyword": example / "runs" / "rerank.jsonl"}
    runner = CliRunner()
    first = ["report", str(gold), f"keyword={then['keyword']}", "--format", "json", "-q"]
    assert runner.invoke(cli, [*first, "--out", str(tmp_path / "base")]).exit_code == 0
    published = ["publish", str(tmp_path / "base"), "--site", str(tmp_path / "site"), "-q"]
    assert runner.invoke(cli, published).exit_code == 0
    second = ["report", str(gold), f"keyword={now['keyword']}", "--format", "json", "-q"]
    second += ["--baseline", str(tmp_path / "base"), "--out", str(tmp_path / "now")]
    assert runner.invoke(cli, second).exit_code == 0
    section = json.loads((tmp_path / "now" / "report.json").read_text())["baseline"]
    (entry,) = section["comparisons"]
    expected = {key: values["label"] for key, values in entry["measures"].items()}
    assert "better" in expected.values()  # the rerank run beats keyword somewhere
    earlier = reportgen.evaluate(gold, then)
    for baseline in (tmp_path / "base", tmp_path / "site", earlier):
        results = reportgen.evaluate(gold, now, baseline=baseline)
        assert dict(results.baseline.select("measure", "label").iter_rows()) == expected


def test_a_misspelt_measure_to_compare_gets_the_closest() -> None:
    results = reportgen.evaluate(GOLD, {"a": BEFORE, "b": AFTER}, k=[1, 3])
    with pytest.raises(UsageError, match=r"did you mean recall@3\? Or choose among"):
        results.compare("a", "b", ["recal@3"])
