"""Render Markdown as GitHub does (cmarkgfm, raw HTML kept) and check what it became.

Used by the summary's cut tests and the hostile-text corpus: every element is closed,
no element or comment came from user text, and every Mermaid chart is whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

import cmarkgfm
from cmarkgfm.cmark import Options

ALLOWED_TAGS = {
    *("h3", "h4", "p", "ul", "li", "blockquote", "table", "thead", "tbody", "tr", "th", "td"),
    *("pre", "code", "details", "summary", "strong", "em", "a", "sub", "br", "del", "hr"),
}
"""What reportgen's Markdown itself makes; any other element came from user text."""
VOID = {"br", "hr"}


@dataclass
class Rendered:
    """The HTML GitHub would show, read back: elements, comments, texts by their place."""

    html: str
    tags: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    texts: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    """Each piece of text with the open elements around it."""
    links: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    unclosed: list[str] = field(default_factory=list)
    pre_blocks: list[tuple[str, str]] = field(default_factory=list)
    """(lang, text) of each code block."""


class _Reader(HTMLParser):
    def __init__(self, rendered: Rendered) -> None:
        super().__init__(convert_charrefs=True)
        self.rendered = rendered
        self.stack: list[str] = []
        self.pre_lang: str | None = None
        self.pre_text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.rendered.tags.append(tag)
        values = dict(attrs)
        if tag == "a":
            self.rendered.links.append((tuple(self.stack), values.get("href") or ""))
        if tag == "pre":
            self.pre_lang, self.pre_text = values.get("lang") or "", []
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        assert self.stack and self.stack[-1] == tag, (tag, self.stack)
        self.stack.pop()
        if tag == "pre":
            self.rendered.pre_blocks.append((self.pre_lang or "", "".join(self.pre_text)))
            self.pre_lang = None

    def handle_data(self, data: str) -> None:
        if self.pre_lang is not None:
            self.pre_text.append(data)
        self.rendered.texts.append((tuple(self.stack), data))

    def handle_comment(self, data: str) -> None:
        self.rendered.comments.append(data)


def render(markdown: str) -> Rendered:
    html = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    rendered = Rendered(html)
    reader = _Reader(rendered)
    reader.feed(html)
    reader.close()
    rendered.unclosed = reader.stack
    return rendered


MERMAID_CHART = re.compile(
    r'^xychart-beta\n    title "[^"\n]*"\n    x-axis "k" \[[0-9, ]+\]\n'
    r'    y-axis "recall@k" 0 --> 1\n(    line \[[0-9., ]+\]\n)+$'
)
"""One chart, a line per run."""


def assert_well_formed(markdown: str, comments: int = 1) -> Rendered:
    """Closed elements, only reportgen's own, ``comments`` comments (the marker), whole charts."""
    rendered = render(markdown)
    assert not rendered.unclosed, rendered.unclosed
    odd = set(rendered.tags) - ALLOWED_TAGS
    assert not odd, f"elements from user text: {odd}"
    assert len(rendered.comments) == comments, rendered.comments
    for lang, text in rendered.pre_blocks:
        assert lang == "mermaid", (lang, text)
        assert MERMAID_CHART.match(text), text
    return rendered
