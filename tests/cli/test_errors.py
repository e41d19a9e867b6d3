"""One error, two spellings: the API's parameter through Python, the option through the CLI."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    make_report,
    merge_reports,
    render_files,
    set_index_versions,
)
from reportgen.errors import ParameterError, closest
from reportgen.measure.scoring import Settings


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"context_k": 0}, "context_k=0: must be at least 1. Fix:"),
        ({"context_k": 10**20}, "context_k=100000000000000000000: must be at most 1,000,000."),
        ({"ks": (0, 5)}, "ks=(0, 5): every cutoff must be a whole number from 1 to 1,000,000."),
        ({"threshold": 0}, "threshold=0: must be at least 1. Fix:"),
    ],
)
def test_settings_name_their_fields(settings: dict[str, int], message: str) -> None:
    with pytest.raises(ParameterError) as error:
        Settings(**settings)  # type: ignore[arg-type]
    assert str(error.value).startswith(message)


@pytest.mark.parametrize(
    ("part", "field", "value", "start"),
    [
        ("inputs", "gold_format", "xml", "gold_format='xml': not one of the choices"),
        ("inputs", "run_format", "xml", "run_format='xml': not one of the choices"),
        ("inputs", "verdict_format", "xml", "verdict_format='xml'"),
        ("inputs", "manifest_format", "xml", "manifest_format='xml'"),
        ("settings", "on_gold_change", "merge", "on_gold_change='merge'"),
        ("outputs", "formats", "html", "formats='html': must be a list of format names"),
        ("outputs", "formats", ["pdf"], "formats='pdf': unknown output format"),
        ("outputs", "per_question_format", "xls", "per_question_format='xls'"),
        ("inputs", "verdicts_run", "rerank", "verdicts_run='rerank': names the run the verdicts"),
        ("inputs", "baseline_version", "v1", "baseline_version='v1': picks a version of the"),
    ],
)
def test_make_report_names_its_fields_before_reading(
    part: str, field: str, value: object, start: str, tmp_path: Path
) -> None:
    request = ReportRequest(
        ReportInputs(tmp_path / "no-gold.jsonl", ["r=no-run.jsonl"]),
        ReportOutputs(tmp_path / "out"),
    )
    changed = dataclasses.replace(getattr(request, part), **{field: value})
    with pytest.raises(ParameterError) as error:
        make_report(dataclasses.replace(request, **{part: changed}))
    assert str(error.value).startswith(start), str(error.value)
    assert not (tmp_path / "out").exists()


def test_other_entry_points_name_their_parameters(tmp_path: Path) -> None:
    with pytest.raises(ParameterError, match=r"^per_question_format='xls'"):
        merge_reports([tmp_path], tmp_path / "out", per_question_format="xls")
    with pytest.raises(ParameterError, match=r"^formats='pdf'"):
        render_files({}, None, ["pdf"])  # type: ignore[arg-type]
    with pytest.raises(ParameterError, match=r"^run_index_versions='zz': names no run"):
        set_index_versions([], {"zz": "kb-1"})


def test_the_cli_shows_the_option_and_the_value_as_typed() -> None:
    error = ParameterError("reference_run", "my run", "not one of the runs", "use a, b", "--x")
    assert str(error) == "reference_run='my run': not one of the runs. Fix: use a, b."
    assert error.for_option("'my run'") == "--x 'my run': not one of the runs. Fix: use a, b."


def test_closest_suggests_only_near_misses() -> None:
    assert closest("max-drops", ["min", "max-drop", "strict"]) == "max-drop"
    assert closest("colour", ["min", "max-drop", "strict"]) is None
