"""Every report.json the tests write is checked against the shipped schema.

tests/conftest.py wires this in: after each test, the report.json files under its
``tmp_path`` are validated; at the end of the session, those written under
``tmp_path_factory`` folders (module and session fixtures). A test that writes
report.json files by hand (broken or old ones, as inputs) says so with
``@pytest.mark.hand_made_reports`` (a fixture that writes them:
``request.applymarker(pytest.mark.hand_made_reports)``). The schema is read as the wheel
ships it, through importlib.resources, and compiled once.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

MARKER = "hand_made_reports"
ERRORS_SHOWN = 5


@cache
def validator() -> Draft202012Validator:
    schema = json.loads(files("reportgen.schema").joinpath("schema.json").read_text("utf-8"))
    return Draft202012Validator(schema)


def report_problems(report: Any) -> list[str]:
    """What is wrong with one report (as parsed JSON), each at its key path."""
    errors = sorted(validator().iter_errors(report), key=lambda e: list(map(str, e.path)))
    found = (f"{'.'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}" for e in errors)
    return list(dict.fromkeys(found))


def reports_under(folder: Path) -> Iterator[Path]:
    yield from sorted(path for path in folder.rglob("report.json") if path.is_file())


def folder_problems(folder: Path) -> list[str]:
    """Every problem of every report.json under ``folder``, each prefixed by its file."""
    found = []
    for path in reports_under(folder):
        try:
            report = json.loads(path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            found.append(f"{path}: not JSON ({error})")
            continue
        found += [f"{path}: {problem}" for problem in report_problems(report)[:ERRORS_SHOWN]]
    return found


def failure(problems: list[str]) -> str:
    return (
        "report.json does not match reportgen/schema/schema.json (a new key? add it to "
        "reportgen/schema/ and run python scripts/make_report_schema.py):\n  "
        + "\n  ".join(problems)
    )


CHECKED = pytest.StashKey[set[Path]]()
"""Folders of the tests (checked after each, or left alone): the session sweep skips them."""


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """After a test passes, the reports under its tmp_path must match the schema."""
    folder = getattr(item, "funcargs", {}).get("tmp_path")
    if isinstance(folder, Path):
        item.session.stash.setdefault(CHECKED, set()).add(folder)
    result = yield
    if isinstance(folder, Path) and item.get_closest_marker(MARKER) is None:
        problems = folder_problems(folder)
        if problems:
            raise AssertionError(failure(problems))
    return result


@pytest.fixture(scope="session", autouse=True)
def fixture_reports_match_the_schema(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """At the end of the session, the reports that module and session fixtures wrote
    (under tmp_path_factory, outside any test's tmp_path) must match the schema too."""
    yield
    checked = request.session.stash.get(CHECKED, set())
    problems = [
        problem
        for folder in sorted(tmp_path_factory.getbasetemp().iterdir())
        if folder.is_dir() and not folder.is_symlink() and folder not in checked
        for problem in folder_problems(folder)
    ]
    if problems:
        raise AssertionError(failure(problems))
