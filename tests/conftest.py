"""Fixtures every test folder may use."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED_DIR = Path(__file__).resolve().parent.parent.parent / "shared"
"""The ``shared`` folder beside the repository (/work/shared when the repo is /work/main)."""


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The shared folder holding SPEC.md and the conformance data; skip when absent."""
    if not SHARED_DIR.is_dir():
        pytest.skip(f"shared folder not found at {SHARED_DIR} (it sits beside the repository)")
    return SHARED_DIR


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
