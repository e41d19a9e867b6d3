"""Fixtures every test folder may use."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

TREC_EVAL_DIR = Path(__file__).resolve().parent / "fixtures" / "trec_eval"
"""trec_eval's own test inputs and expected outputs, copied into the repository so the
conformance tests run in any clone (README.md and the NIST notice travel with them)."""

REALDATA_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "realdata"
"""Real public runs, too large to copy: read from ``shared/realdata`` beside the repository."""


@pytest.fixture(scope="session")
def trec_eval_dir() -> Path:
    """The trec_eval conformance files (part of the repository, so never skipped)."""
    return TREC_EVAL_DIR


@pytest.fixture(scope="session")
def realdata_dir() -> Path:
    """The real-data folder beside the repository; skip, naming it, when it is absent."""
    if not REALDATA_DIR.is_dir():
        pytest.skip(
            f"real data not found: {REALDATA_DIR} is missing "
            "(the shared/realdata folder beside the repository holds the public runs)"
        )
    return REALDATA_DIR


CI_VARIABLES = (
    "GITHUB_SHA",
    "GITHUB_EVENT_NAME",
    "GITHUB_EVENT_PATH",
    "GITHUB_STEP_SUMMARY",
    "GITHUB_OUTPUT",
    "CI_COMMIT_SHORT_SHA",
    "GITHUB_SERVER_URL",
    "GITHUB_REPOSITORY",
    "GITHUB_RUN_ID",
    "CI_JOB_URL",
    "GITHUB_ACTIONS",
    "GITHUB_WORKSPACE",
)


@pytest.fixture(autouse=True)
def version_from_time_not_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reports made by tests are labelled by time, never by the commit the tests run on.

    The CLI labels a report with the commit it finds (CI variables, then git); tests
    that compare output would then change with every commit, and differ in CI.
    """
    for name in CI_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GIT_DIR", os.devnull)


from tests.report_schema import (  # noqa: E402  (the schema check's hook and fixture)
    fixture_reports_match_the_schema,
    pytest_runtest_call,
)

__all__ = ["fixture_reports_match_the_schema", "pytest_runtest_call"]
