"""The pages' Jinja environment: where the templates are, the escapes they call as
filters, and the settings they are compiled with.

A module apart from pages.py so that the wheel's build (hatch_build.py) can build this
very environment, and with it the compiled templates' keys, in the build's isolated
environment, which has Jinja2 and not Polars (the views import Polars).
"""

from __future__ import annotations

import html
import re
from functools import cache
from importlib import resources
from pathlib import Path

import jinja2

from reportgen.render.precompiled import PrecompiledLoader


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
