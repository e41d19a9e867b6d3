"""report.json's schema: generated from the types, strict, and able to catch a bad report."""

from __future__ import annotations

import copy
import importlib.util
import inspect
import json
from pathlib import Path
from types import ModuleType
from typing import Any, is_typeddict

import pytest
from jsonschema import Draft202012Validator

from reportgen import schema as report_types
from tests.report_schema import folder_problems, report_problems

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "reportgen" / "schema" / "schema.json"

pytest_plugins = ["pytester"]


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "make_report_schema", REPO / "scripts" / "make_report_schema.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_schema_is_the_generated_one() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == generator().rendered(), (
        "reportgen/schema/schema.json is out of date: run python scripts/make_report_schema.py"
    )


def test_schema_is_valid_and_every_type_is_in_it() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    declared = {
        name
        for name, value in inspect.getmembers(report_types)
        if is_typeddict(value) and value.__module__.startswith(report_types.__name__)
    }
    assert declared == set(schema["$defs"]), "a TypedDict that no report reaches is dead"
    for name, definition in schema["$defs"].items():
        assert definition["additionalProperties"] is False, name
    assert schema["properties"]["format_version"] == {"const": report_types.FORMAT_VERSION}


def demo_report(folder: Path) -> dict[str, Any]:
    from click.testing import CliRunner

    from reportgen.cli import cli

    done = CliRunner().invoke(cli, ["demo", "--out", str(folder), "--quiet"])
    assert done.exit_code == 0, done.output
    report: dict[str, Any] = json.loads((folder / "report.json").read_text())
    return report


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return demo_report(tmp_path_factory.mktemp("demo"))


def test_the_demo_report_matches(demo: dict[str, Any]) -> None:
    assert report_problems(demo) == []
    assert demo["attribution"] and demo["comparisons"]["pairs"]


def broken(report: dict[str, Any], change: str) -> dict[str, Any]:
    changed = copy.deepcopy(report)
    run = next(iter(changed["runs"].values()))
    if change == "new top-level key":
        changed["traces"] = {}
    elif change == "new key in a run":
        run["spans"] = {}
    elif change == "new key in a nested section":
        changed["hygiene"]["stale"]["by_coverage"] = []
    elif change == "missing key":
        del run["counts"]["results"]
    elif change == "wrong type":
        run["means"]["hit@5"] = "0.9"
    elif change == "not one of the words":
        changed["comparisons"]["pairs"][0]["measures"]["hit@5"]["label"] = "much better"
    elif change == "another format version":
        changed["format_version"] = report_types.FORMAT_VERSION + 1
    return changed


CHANGES = [
    ("new top-level key", "(top): Additional properties are not allowed ('traces'"),
    ("new key in a run", "Additional properties are not allowed ('spans'"),
    ("new key in a nested section", "hygiene.stale: Additional properties"),
    ("missing key", "'results' is a required property"),
    ("wrong type", "means.hit@5: '0.9' is not of type 'number', 'null'"),
    ("not one of the words", "label: 'much better' is not one of"),
    ("another format version", "format_version: "),
]


@pytest.mark.parametrize(("change", "expected"), CHANGES, ids=[c for c, _ in CHANGES])
def test_a_broken_report_is_caught(demo: dict[str, Any], change: str, expected: str) -> None:
    problems = report_problems(broken(demo, change))
    assert problems, change
    assert any(expected in problem for problem in problems), problems


def test_a_merged_report_is_checked_against_its_own_shape(demo: dict[str, Any]) -> None:
    """A merge of values only (merged_from, no hygiene) may not carry a whole report's
    keys; a whole report may say it was merged, and must stay whole."""
    values_like = {key: value for key, value in demo.items() if key != "hygiene"}
    values_like["merged_from"] = []
    assert any("Additional properties" in p for p in report_problems(values_like))
    assert report_problems({**demo, "merged_from": []}) == []
    whole_without_cutoff = {key: value for key, value in demo.items() if key != "cutoff"}
    assert report_problems({**whole_without_cutoff, "merged_from": []})


@pytest.mark.hand_made_reports
def test_folder_problems_name_the_file(tmp_path: Path, demo: dict[str, Any]) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "report.json").write_text(json.dumps(broken(demo, "missing key")))
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "report.json").write_text("{not json")
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "report.json").write_text(json.dumps(demo))
    problems = folder_problems(tmp_path)
    assert len(problems) == 2
    assert problems[0].startswith(f"{tmp_path / 'a' / 'report.json'}: ")
    assert problems[1].startswith(f"{tmp_path / 'b' / 'report.json'}: not JSON")


CHECKED_TEST = """
import json

import pytest

REPORT = {report!r}


def test_writes_a_report(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "report.json").write_text(json.dumps(REPORT))


@pytest.mark.hand_made_reports
def test_writes_an_input(tmp_path):
    (tmp_path / "report.json").write_text(json.dumps(REPORT))
"""


@pytest.mark.hand_made_reports
@pytest.mark.parametrize(("change", "failed"), [(None, 0), ("new key in a run", 1)])
def test_the_suite_fails_a_test_whose_report_does_not_match(
    pytester: pytest.Pytester,
    tmp_path: Path,
    demo: dict[str, Any],
    change: str | None,
    failed: int,
) -> None:
    """The check wired into tests/conftest.py really fails a test (and spares a marked one).

    The inner run's folders are under this test's tmp_path, which the outer check leaves
    alone (the reports there are broken on purpose)."""
    report = demo if change is None else broken(demo, change)
    pytester.makeconftest(
        "from tests.report_schema import fixture_reports_match_the_schema, pytest_runtest_call\n"
    )
    pytester.makeini("[pytest]\nmarkers =\n    hand_made_reports: inputs written by hand\n")
    pytester.makepyfile(CHECKED_TEST.format(report=report))
    result = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--basetemp", str(tmp_path / "inner")
    )
    result.assert_outcomes(passed=2 - failed, failed=failed)
    if failed:
        result.stdout.fnmatch_lines(["*Additional properties are not allowed ('spans'*"])
