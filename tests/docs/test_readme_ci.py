"""The README points to the CI documentation."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_readme_points_to_the_ci_docs() -> None:
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Use it in CI", 1)[1].split("\n## ", 1)[0]
    assert "(docs/ci.md)" in section and "(docs/index.md)" in section
    assert all((REPO / link).is_file() for link in ("docs/ci.md", "docs/index.md", "docs/cli.md"))
