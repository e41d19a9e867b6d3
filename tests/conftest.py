"""Fixtures every test folder may use."""

from __future__ import annotations

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
