"""Turn the report into HTML and Markdown: reportgen.render.views builds the values, Jinja2 lays
them out.

HTML is autoescaped; Markdown gets its own escape (pipes, backticks, HTML, @mentions),
since GitHub renders both. The view names other modules print with are re-exported here.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from reportgen.render.cells import CELL_NAMES
from reportgen.render.charts import cutoff_chart_specs
from reportgen.render.precompiled import PrecompiledLoader
from reportgen.render.views import view_model
from reportgen.render.views.attribution import attribution_lines
from reportgen.render.views.common import Table, fmt
from reportgen.render.views.comparisons import ComparisonBlock, cells_line, comparisons_view
from reportgen.render.views.methods import Figure, headline, headlines
from reportgen.render.views.questions import PER_QUESTION_ROWS_SHOWN

__all__ = [
    "CELL_NAMES",
    "PER_QUESTION_ROWS_SHOWN",
    "ComparisonBlock",
    "Figure",
    "PageAssets",
    "Table",
    "attribution_lines",
    "cells_line",
    "comparisons_view",
    "cutoff_chart_specs",
    "environment",
    "fmt",
    "headline",
    "headlines",
    "html_autoescape",
    "markdown_escape",
    "page_assets",
    "render_html",
    "render_markdown",
    "templates_dir",
    "view_model",
]


def templates_dir() -> Path:
    """The wheel ships templates inside the package; a source checkout keeps them beside it."""
    packaged = Path(str(resources.files("reportgen"))) / "templates"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "templates"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#+|~])")
"""Characters that start Markdown or HTML in running text. Parentheses and ! are left
alone: with [ and ] escaped they cannot form a link or an image, and the raw Markdown
pasted into a review stays readable."""
_MENTION = re.compile(
    r"(?<![A-Za-z0-9])@(?=[A-Za-z0-9])|(?<=[A-Za-z0-9._+-])@(?=[A-Za-z0-9_-]+\.[A-Za-z0-9])"
)
"""An @ that GitHub would read as a mention (of a user or a team) or as an e-mail
address to link: after it, a zero-width space (``hit@5`` is neither, and stays)."""
_AUTOLINK = re.compile(r"(?i)(?<=[a-z0-9])(:)(?=//)|(?<![a-z0-9])(www)(\.)")
"""Where GitHub would turn a bare URL (``https://``, ``www.``) into a link: escaping the
``:`` or the ``.`` keeps it text."""


def markdown_escape(value: object) -> str:
    """Text safe inside a GitHub Markdown table cell: no markup, no HTML, no pings, no links."""
    text = " ".join(str(value).split())
    text = text.replace("&", "&amp;")
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", text)
    text = _AUTOLINK.sub(lambda m: "\\:" if m.group(1) else f"{m.group(2)}\\.", text)
    return no_mentions(text)


def summary_text(value: object) -> str:
    """Text inside a Markdown page's ``<summary>``: an HTML block there, where GitHub reads
    no backslash escape (``\\<details\\>`` would open a tag), so ``& < >`` are escaped as
    HTML, white space folded onto one line (a blank line would end the block), no pings."""
    return no_mentions(html.escape(" ".join(str(value).split()), quote=False))


def no_mentions(text: str) -> str:
    """``text`` with no @ that GitHub would ping or link; for text inside HTML in the
    Markdown (``<summary>``), where a backslash escape would show."""
    return _MENTION.sub("@\u200b", text)


def html_autoescape(name: str | None) -> bool:
    """HTML templates (``*.html.j2`` too) are escaped; Markdown ones use the ``md`` filter.

    Escaping Markdown as HTML would show ``&#39;`` for every apostrophe on GitHub.
    """
    return name is None or not name.endswith((".md.j2", ".md"))


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=PrecompiledLoader(templates_dir()),
        autoescape=html_autoescape,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["md"] = markdown_escape
    env.filters["no_mentions"] = no_mentions
    env.filters["summary_text"] = summary_text
    return env


def _asset(name: str) -> str:
    return (templates_dir() / name).read_text(encoding="utf-8")


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


@dataclass(frozen=True)
class PageAssets:
    """Inline CSS and script, and the Content-Security-Policy that allows only them:
    no request can leave the page, and no injected script can run."""

    css: Markup
    script: Markup
    csp: str = field(init=False)

    def __post_init__(self) -> None:
        policy = (
            "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
            f"script-src 'sha256-{_sha256(str(self.script))}'"
        )
        object.__setattr__(self, "csp", policy)


def page_assets() -> PageAssets:
    return PageAssets(css=Markup(_asset("report.css")), script=Markup(_asset("report.js")))


_MARKUP = re.compile(
    r"<(script|style|svg|title|textarea)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>", re.S | re.I
)
"""Tags, and elements whose text is not laid out as HTML text (a span there would show)."""
_WHOLE = re.compile(r"(?<![\w-])(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w-])")
"""Option names: a line must not break inside them (browsers break after a hyphen:
"(--" / "retrieved-when")."""


def keep_words_whole(page: str) -> str:
    """``page`` with every option name of its text in ``<span class="nw">`` (CSS: no
    wrapping inside). Applied to the written HTML, so that every view's text,
    whoever worded it, gets it; tags, scripts, styles and SVG are left as they are."""
    parts = []
    last = 0
    for markup in _MARKUP.finditer(page):
        parts.append(_WHOLE.sub(r'<span class="nw">\1</span>', page[last : markup.start()]))
        parts.append(markup.group(0))
        last = markup.end()
    parts.append(_WHOLE.sub(r'<span class="nw">\1</span>', page[last:]))
    return "".join(parts)


def render_html(view: Mapping[str, Any]) -> str:
    """index.html from the view model (:func:`reportgen.render.views.view_model`)."""
    page = environment().get_template("report.html.j2").render({**view, "assets": page_assets()})
    return keep_words_whole(page)


def render_markdown(view: Mapping[str, Any]) -> str:
    """report.md from the same view model as index.html."""
    return environment().get_template("report.md.j2").render(view)
