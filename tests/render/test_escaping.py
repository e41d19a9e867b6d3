"""Script payloads in every user field never reach a page unescaped.

Question ids, texts, kinds, chunk ids, run names and the version label all carry
``<script>`` and an ``onerror`` handler. The HTML must print them as text; the
Markdown, once rendered by GitHub's own renderer (cmarkgfm), must not contain them as
tags, must not ping anyone and must not break its tables.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options

from reportgen.api import ReportResult
from reportgen.errors import UsageError
from reportgen.render.pages import markdown_escape, render_html, view_model
from reportgen.render.summary import mermaid_text

RAW_TAGS = ("<script>window", "<img src=x")
"""The payload as live tags; escaped, it shows as ``&lt;script&gt;window...``."""


def out_dir(result: ReportResult) -> Path:
    return result.files[-1].parent


def github_html(markdown: str) -> str:
    """What github.com would render, before its sanitizer (which would only remove more)."""
    return cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)


def test_html_prints_every_payload_as_text(hostile: Callable[[str], ReportResult]) -> None:
    html = (out_dir(hostile("v1")) / "index.html").read_text()
    body = html.split("<body>", 1)[1]
    for tag in RAW_TAGS:
        assert tag not in body
    assert "&lt;script&gt;window.__xss=1&lt;/script&gt;" in body
    assert body.count("&lt;script&gt;window.__xss") >= 5  # id, text, kind, chunk, run name


def test_version_label_is_escaped_in_title_and_heading(
    hostile: Callable[[str], ReportResult],
) -> None:
    """make_report refuses such a label (labels.py); a report.json written otherwise
    still renders it as text."""
    payload = "<script>window.__xss=3</script>"
    with pytest.raises(UsageError, match="cannot name a folder"):
        hostile(payload)
    result = hostile("v1")
    html = render_html(view_model({**result.report, "version": payload}, {}, "p.csv"))
    assert "<title>Retrieval report &lt;script&gt;window.__xss=3&lt;/script&gt;</title>" in html
    assert "window.__xss=3</script>" not in html


def test_markdown_renders_payloads_as_text(hostile: Callable[[str], ReportResult]) -> None:
    folder = out_dir(hostile("v1"))
    for name in ("report.md", "summary.md"):
        rendered = github_html((folder / name).read_text())
        for tag in RAW_TAGS:
            assert tag not in rendered, (name, tag)
        assert "&lt;script&gt;" in rendered, name
        assert "@octocat" not in rendered, name  # no ping: a zero-width space follows @


def test_pipes_in_user_text_keep_table_columns(hostile: Callable[[str], ReportResult]) -> None:
    """Every row of the questions table has as many cells as its header."""
    rendered = github_html((out_dir(hostile("v1")) / "report.md").read_text())
    questions = rendered.split("<h2>Questions</h2>")[1].split("</table>")[0]
    header_cells = len(re.findall(r"<th[ >]", questions.split("</thead>")[0]))
    assert header_cells == 4  # id, question (with kind and gold ids), two runs
    for row in questions.split("</thead>")[1].split("<tr>")[1:]:
        assert len(re.findall(r"<td[ >]", row)) == header_cells


def test_markdown_escape_examples() -> None:
    assert markdown_escape("a|b") == "a\\|b"
    assert markdown_escape("`x`") == "\\`x\\`"
    assert markdown_escape("<b>") == "\\<b\\>"
    assert markdown_escape("@team ping") == "@\u200bteam ping"
    assert markdown_escape("hit@5") == "hit@5"  # not a mention: left readable
    assert markdown_escape("two\nlines") == "two lines"


def test_mermaid_text_cannot_close_the_string_or_the_fence() -> None:
    assert (
        mermaid_text('run "x"\n```') == "run _x_____"
    )  # quote, newline and three backticks replaced
