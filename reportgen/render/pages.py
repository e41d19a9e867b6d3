"""Turn the report into HTML and Markdown: reportgen.render.views builds the values, Jinja2 lays
them out.

HTML is autoescaped; Markdown gets its own escape (pipes, backticks, HTML, @mentions),
since GitHub renders both: the environment and its escapes are in templating.py. The view
names other modules print with are re-exported here.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Mapping
from dataclasses import field
from typing import Any

from markupsafe import Markup

from reportgen.core.records import dataclass
from reportgen.render.cells import CELL_NAMES
from reportgen.render.charts import cutoff_chart_specs
from reportgen.render.templating import (
    environment,
    html_autoescape,
    markdown_escape,
    templates_dir,
)
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
