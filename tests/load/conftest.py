"""Fixtures for the loader tests: small input files written into tmp_path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

Write = Callable[[str, "str | bytes"], Path]


@pytest.fixture
def write(tmp_path: Path) -> Write:
    """Write text (as UTF-8, exactly as given) or bytes to tmp_path/name, return the path."""

    def _write(name: str, content: str | bytes) -> Path:
        path = tmp_path / name
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        return path

    return _write
