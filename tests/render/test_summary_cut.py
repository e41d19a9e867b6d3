"""summary.md's cut: strictly under the budget, at a block boundary, well-formed Markdown.

A real report with 100 runs (each against a reference, with verdicts and a baseline,
so that every section and its ``<details>`` blocks are there) is renamed with long and
hostile run names, then rendered and read back through cmarkgfm as GitHub would.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    make_report,
)
from reportgen.render.summary import (
    MARKER,
    SUMMARY_BUDGET,
    block_ends,
    cut_at_block,
    render_summary,
)
from reportgen.report.pages import pages_section
from tests.render.markdown_check import Rendered, assert_well_formed

RUNS = 100
URL = "https://example.org/reports/v1/?a=1&b=2"
HOSTILE_PARTS = [
    "|",
    "`",
    "```",
    "~~~",
    "<details>",
    "</details>",
    "<!--",
    "-->",
    '"]',
    "-->",
    "%%{init}%%",
    "\n",
    "# ",
    "- ",
    "> ",
    "<script>",
    "@team",
    "&#58;",
    "x" * 50,
    "é",
    "😀",
]


def _rename(value: Any, names: dict[str, str]) -> Any:
    """The report with every run name replaced (keys and values alike)."""
    if isinstance(value, dict):
        return {names.get(k, k): _rename(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, names) for v in value]
    if isinstance(value, str):
        return names.get(value, value)
    return value


def _keep(value: Any, dropped: set[str]) -> Any:
    """The report without the ``dropped`` runs (their entries, pairs and cells)."""
    if isinstance(value, dict):
        return {k: _keep(v, dropped) for k, v in value.items() if k not in dropped}
    if isinstance(value, list):
        return [
            _keep(v, dropped)
            for v in value
            if not (
                isinstance(v, dict) and {v.get("run"), v.get("before"), v.get("after")} & dropped
            )
        ]
    return value


@pytest.fixture(scope="module")
def many_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("many")
    gold = folder / "gold.jsonl"
    gold.write_text(
        "".join(
            json.dumps({"id": f"q{i}", "gold": ["c1"], "kind": f"k{i % 3}"}) + "\n"
            for i in range(12)
        )
    )
    for j in range(3):
        (folder / f"run{j}.jsonl").write_text(
            "".join(
                json.dumps({"id": f"q{i}", "chunks": ["c1" if (i + j) % 2 else "c2"]}) + "\n"
                for i in range(12)
            )
        )
    verdicts = folder / "verdicts.jsonl"
    verdicts.write_text(
        "".join(json.dumps({"id": f"q{i}", "correct": i % 3 == 0}) + "\n" for i in range(12))
    )
    runs = [(f"r{i:03d}", folder / f"run{i % 3}.jsonl") for i in range(RUNS)]
    settings = ReportSettings(reference_run="r000")
    before = ReportInputs(gold, runs, verdicts=verdicts)
    make_report(ReportRequest(before, ReportOutputs(folder / "before", formats=()), settings))
    shifted = [(name, folder / f"run{(i + 1) % 3}.jsonl") for i, (name, _) in enumerate(runs)]
    after = ReportInputs(gold, shifted, verdicts=verdicts, baseline=folder / "before")
    outputs = ReportOutputs(folder / "after", formats=())
    result = make_report(ReportRequest(after, outputs, settings))
    # what report.json holds when pages are written (formats=() writes none)
    return dict(result.report) | {"pages": pages_section(result.findings)}


def _check_cut(text: str) -> Rendered:
    assert text.startswith(MARKER + "\n")
    assert len(text) < SUMMARY_BUDGET
    assert len(text.encode("utf-16-le")) // 2 < SUMMARY_BUDGET
    rendered = assert_well_formed(text)
    cut = [where for where, data in rendered.texts if "cut to fit a comment" in data]
    if cut:
        assert cut == [("p",)], cut  # a paragraph of its own, in no table, fence or details
        assert rendered.links[-1] == (("p",), URL)
    return rendered


@pytest.mark.slow
def test_a_hundred_long_names_are_cut_between_blocks(many_runs: dict[str, Any]) -> None:
    """The issue's case: 100 runs with long names left an open Mermaid fence at 60,000."""
    names = {f"r{i:03d}": f"run-{'x' * 200}-{i}" for i in range(RUNS)}
    text = render_summary(_rename(many_runs, names), URL)
    rendered = _check_cut(text)
    assert "cut to fit a comment" in text
    assert text.count("```") % 2 == 0
    assert rendered.tags.count("details") == text.count("<details>")


def _hostile_summary(many_runs: dict[str, Any], runs: int, parts: list[str], repeat: int) -> str:
    stem = "".join(parts) * repeat
    names = {f"r{i:03d}": f"{stem}{i}" for i in range(RUNS)}
    dropped = {f"r{i:03d}" for i in range(runs, RUNS)}
    report = _rename(_keep(copy.deepcopy(many_runs), dropped), names)
    return render_summary(report, URL)


@pytest.mark.parametrize(
    ("runs", "parts", "repeat"),
    [(RUNS, ["```", "x" * 50], 30), (RUNS, ["<details>", "|"], 30), (7, HOSTILE_PARTS, 2)],
)
@pytest.mark.slow
def test_hostile_names_give_a_well_formed_summary(
    many_runs: dict[str, Any], runs: int, parts: list[str], repeat: int
) -> None:
    _check_cut(_hostile_summary(many_runs, runs, parts, repeat))


@pytest.mark.slow
@given(
    runs=st.integers(min_value=1, max_value=RUNS),
    parts=st.lists(st.sampled_from(HOSTILE_PARTS), min_size=1, max_size=12),
    repeat=st.integers(min_value=1, max_value=30),
)
@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_names_any_count_give_a_well_formed_summary(
    many_runs: dict[str, Any], runs: int, parts: list[str], repeat: int
) -> None:
    _check_cut(_hostile_summary(many_runs, runs, parts, repeat))


def test_block_ends_skip_fences_tables_details_and_headings() -> None:
    text = (
        "intro\n\n"  # 0: a paragraph, then a blank line
        "#### heading\n\n"
        "```\ncode\n\nmore code\n```\n\n"
        "| a |\n| --- |\n| 1 |\n\n"
        "<details><summary>s</summary>\n\ninside\n\n</details>\n\n"
        "- one\n- two\n\n"
        "> - quoted one\n> - quoted two\n"
    )
    kept = [text[:end].splitlines()[-1] for end in block_ends(text)]
    assert kept == ["intro", "```", "| 1 |", "</details>", "- one", "- two", "> - quoted one",
                    "> - quoted two"]  # fmt: skip


def test_a_cut_keeps_the_longest_start_that_fits() -> None:
    text = "a" * 10 + "\n\n" + "b" * 10 + "\n\n" + "c" * 10 + "\n"
    assert cut_at_block(text, 24) == "a" * 10 + "\n\n" + "b" * 10 + "\n\n"
    assert cut_at_block(text, 5) == ""
