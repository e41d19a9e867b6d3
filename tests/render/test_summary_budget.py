"""summary.md and the terminal fit a reviewer's glance, and name what changes a verdict.

summary.md is rendered as GitHub renders it (cmark-gfm, raw HTML kept) with every
``<details>`` folded; what stays in view is counted in lines: a heading, a paragraph,
a list item, a table row, a folded section's summary, a line of code. That count is held
to HEADLINE_BUDGET on the demo and on a pull-request-style report (one run against a
baseline, with verdicts and an index manifest), and the demo's terminal output without
--verbose to TERMINAL_BUDGET. A line added to the headline must fit these budgets:
anything longer belongs in a ``<details>`` whose summary says what is inside.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import cmarkgfm
import pytest
from click.testing import CliRunner

from reportgen.api import example_dir
from reportgen.cli import cli
from reportgen.render.summary import HEADLINE_BUDGET
from reportgen.render.terminal import TERMINAL_BUDGET, report_lines

LINE_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "tr", "summary"}


class Unfolded(HTMLParser):
    """The lines a reader sees of GitHub's HTML with every ``<details>`` closed."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # open <details>
        self.in_summary = False
        self.lines: list[str] = []
        self.current: list[str] | None = None
        self.pre = False

    def visible(self) -> bool:
        return self.depth == 0 or (self.depth == 1 and self.in_summary)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "details":
            self.depth += 1
        elif tag == "summary":
            self.in_summary = True
        if tag == "pre":
            self.pre = True
        if tag in LINE_TAGS and self.visible() and self.current is None:
            self.current = []

    def handle_endtag(self, tag: str) -> None:
        if tag in LINE_TAGS and self.current is not None and self.visible():
            self.lines.append("".join(self.current).strip())
            self.current = None
        if tag == "details":
            self.depth -= 1
        elif tag == "summary":
            self.in_summary = False
        elif tag == "pre":
            self.pre = False

    def handle_data(self, data: str) -> None:
        if not self.visible():
            return
        if self.pre:
            self.lines += [line for line in data.splitlines() if line.strip()]
        elif self.current is not None:
            self.current.append(data)


def unfolded_lines(markdown: str) -> list[str]:
    """summary.md's lines in view on GitHub, ``<details>`` folded."""
    unsafe = cmarkgfm.cmark.Options.CMARK_OPT_UNSAFE
    parser = Unfolded()
    parser.feed(cmarkgfm.github_flavored_markdown_to_html(markdown, options=unsafe))
    return [line for line in parser.lines if line]


def source_lines(markdown: str) -> list[str]:
    """The non-blank source lines outside ``<details>`` (a second, cruder count)."""
    lines, depth = [], 0
    for line in markdown.splitlines():
        opened = len(re.findall(r"<details[\s>]", line))
        if depth == 0 and line.strip() and not line.startswith("<!--"):
            lines.append(line)
        depth += opened - len(re.findall(r"</details\s*>", line))
    return lines


@pytest.fixture(scope="module")
def folders(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {"work": tmp_path_factory.mktemp("budget")}


@pytest.fixture(scope="module")
def reports(folders: dict[str, Path]) -> dict[str, tuple[str, str]]:
    """summary.md and stdout of the demo, and of a PR-style report: rerank with its lists
    reversed on every third question, verdicts and the manifest, against the demo."""
    work = folders["work"]
    folders.update(demo=work / "demo", pr=work / "pr")
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", "1764000000")
    runner = CliRunner()
    demo = runner.invoke(cli, ["demo", "--out", str(work / "demo"), "--version", "v1"])
    assert demo.exit_code == 0, demo.output
    example = example_dir()
    rows = [json.loads(line) for line in (example / "runs" / "rerank.jsonl").open()]
    for index, row in enumerate(rows):
        if index % 3 == 0:
            row["results"] = row["results"][::-1]
    worse = work / "rerank.jsonl"
    worse.write_text("".join(json.dumps(row) + "\n" for row in rows))
    args = ["report", str(example / "gold.jsonl"), f"rerank={worse}"]
    args += ["--verdicts", str(example / "verdicts.jsonl")]
    args += ["--manifest", str(example / "manifest.txt"), "--baseline", str(work / "demo")]
    pr = runner.invoke(cli, [*args, "--version", "v2", "--out", str(work / "pr")])
    assert pr.exit_code == 0, pr.output
    mp.undo()
    return {
        "demo": ((work / "demo" / "summary.md").read_text(), demo.output),
        "pr": ((work / "pr" / "summary.md").read_text(), pr.output),
    }


@pytest.mark.parametrize("name", ["demo", "pr"])
def test_summary_md_fits_a_glance_with_the_rest_folded(
    reports: dict[str, tuple[str, str]], name: str
) -> None:
    summary, _ = reports[name]
    shown = unfolded_lines(summary)
    assert len(shown) <= HEADLINE_BUDGET, "\n".join(shown)
    assert len(source_lines(summary)) <= HEADLINE_BUDGET
    # every fold says what it holds, in words
    summaries = re.findall(r"<summary>(.*?)</summary>", summary)
    assert summaries and all(len(text.split()) >= 3 for text in summaries), summaries
    # said once: what "retrieved" means is folded, not in view
    assert not any(line.startswith("Retrieved:") for line in shown)
    assert summary.count("Retrieved: at least one") == 1  # once, one click away
    # no two tables share a caption
    captions = re.findall(r"^\*\*(.+)\*\*$", summary, re.MULTILINE)
    assert len(captions) == len(set(captions)), captions


@pytest.mark.parametrize("name", ["demo", "pr"])
def test_what_changes_a_verdict_is_named_in_view(
    reports: dict[str, tuple[str, str]], name: str
) -> None:
    """The stale gold ids (not a count), the unanswerable questions answered anyway and,
    against a baseline, the largest moves: in view in summary.md and on the terminal, in
    the same order."""
    summary, stdout = reports[name]
    shown = "\n".join(unfolded_lines(summary))
    named = [
        "Stale gold ids, not in the index manifest: q047 (kb-gift-cards-0009), "
        "q057 (kb-gift-cards-0011)",
        "Unanswerable questions rerank answered anyway (2): q003, q046",
    ]
    if name == "pr":
        moves = "Largest moves since the baseline (rerank): working as designed → answered "
        named.insert(0, moves + "from memory (12): q004, q007, q016, q022, q028, +7 more")
    else:
        assert "Largest moves" not in stdout + summary
    for where in (shown, stdout):
        found = [where.index(line) for line in named]
        assert found == sorted(found)


def test_the_demo_prints_a_screen_and_verbose_prints_the_rest(
    reports: dict[str, tuple[str, str]], folders: dict[str, Path]
) -> None:
    _, stdout = reports["demo"]
    lines = stdout.splitlines()
    assert len(lines) <= TERMINAL_BUDGET, stdout
    assert not any(line.startswith("Retrieved:") for line in lines)
    assert "see summary.md, or --verbose" in stdout
    report = json.loads((folders["demo"] / "report.json").read_text())
    verbose = "\n".join(report_lines(report, [], verbose=True))
    assert "Retrieved: at least one" in verbose
    assert verbose.count("  kind            n  hit@5  recall@5  MRR@5") == 5
    assert verbose.count(" -> ") > stdout.count(" -> ")  # every pair of runs


def test_the_budget_test_counts_what_github_shows() -> None:
    """The counter itself: a folded section is its one summary line; a table is its rows."""
    text = (
        "#### Title\n\nA paragraph.\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n"
        "- one\n- two\n\n<details><summary>Inside: three things</summary>\n\n"
        "- hidden\n- hidden\n\n</details>\n"
    )
    assert unfolded_lines(text) == [
        "Title",
        "A paragraph.",
        "a\nb",
        "1\n2",
        "one",
        "two",
        "Inside: three things",
    ]
