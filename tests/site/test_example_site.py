"""site/ is what scripts/make_site.sh generates, byte for byte: nobody edits it by hand."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.mark.slow
def test_site_matches_its_generating_command(tmp_path: Path) -> None:
    fresh = tmp_path / "site"
    done = subprocess.run(
        ["bash", str(REPO / "scripts" / "make_site.sh"), str(fresh)],
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    expected, actual = tree(REPO / "site"), tree(fresh)
    assert sorted(actual) == sorted(expected)
    stale = [name for name in expected if expected[name] != actual[name]]
    assert stale == [], f"site/ is stale; run scripts/make_site.sh ({stale[:5]})"
