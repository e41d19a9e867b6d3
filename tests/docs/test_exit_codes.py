"""The README's exit-code table is true: each code in it is produced by a corpus case."""

from __future__ import annotations

import re
from pathlib import Path

from tests.hardening.test_corpus_exits import produced_codes

REPO = Path(__file__).resolve().parents[2]


def readme_codes() -> set[int]:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Exit codes", 1)[1].split("\n## ", 1)[0]
    return {int(code) for code in re.findall(r"^\| `(\d+)` \|", section, re.M)}


def test_every_code_in_the_readme_is_produced_by_the_corpus() -> None:
    codes = readme_codes()
    assert codes == {0, 1, 2, 3, 130}
    assert codes <= produced_codes()


def test_the_other_pages_name_the_same_codes() -> None:
    for page in ("docs/cli.md", "docs/ci.md"):
        text = (REPO / page).read_text(encoding="utf-8")
        for code in readme_codes() - {0}:
            assert re.search(rf"\b{code}\b(?: \|)? (a|an|bad|interrupted)\b", text), (page, code)
