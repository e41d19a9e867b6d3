"""User text reaches HTML escaped as HTML, and Markdown escaped as Markdown, once."""

from __future__ import annotations

from reportgen.render.pages import environment, html_autoescape, markdown_escape


def test_html_templates_are_autoescaped_whatever_their_suffix() -> None:
    assert html_autoescape("report.html.j2")
    assert html_autoescape("_table.html.j2")
    assert not html_autoescape("report.md.j2")


def test_markdown_is_escaped_once_not_as_html() -> None:
    template = environment().from_string("{{ text|md }}")
    # from_string templates have no name, so they are treated as HTML: check the filter alone.
    assert markdown_escape("it's R&D | <b>@team</b>") == (
        "it's R&amp;D \\| \\<b\\>@\u200bteam\\</b\\>"
    )
    assert "&lt;" in template.render(text="<x>")


def test_markdown_template_keeps_apostrophes() -> None:
    md = (
        environment()
        .get_template("_table.md.j2")
        .render(table={"header": ["run's name"], "rows": []})
    )
    assert "run's name" in md
    assert "&#39;" not in md
