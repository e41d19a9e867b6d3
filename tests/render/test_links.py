"""--report-url: only http(s) URLs and relative paths, written so Markdown keeps them links."""

from __future__ import annotations

from urllib.parse import unquote

import pytest

from reportgen.errors import UsageError
from reportgen.render.links import check_report_url, link_target
from tests.render.markdown_check import render

ACCEPTED = [
    "index.html",
    "../site/v1/",
    "./report:v2/index.html",
    "https://example.org/reports/v1/",
    "HTTP://example.org",
    "https://example.org/r?a=1&b=2#top",
    "https://example.org/a b/é/(x)",
    "javascript%3Aalert(1)",  # a relative path: no browser decodes the colon
]
REFUSED = [
    ("javascript:alert(1)", "javascript: scheme"),
    ("JavaScript:alert(1)", "javascript: scheme"),
    ("data:text/html,<script>x</script>", "data: scheme"),
    ("vbscript:msgbox(1)", "vbscript: scheme"),
    ("file:///etc/passwd", "file: scheme"),
    ("mailto:a@example.org", "mailto: scheme"),
    ("//evil.example/x", "protocol-relative"),
    ("\\\\evil.example\\x", "backslash"),
    ("/\\evil.example", "backslash"),
    ("java\tscript:alert(1)", "control character"),
    ("java\nscript:alert(1)", "control character"),
    ("https://ok.example/\x00", "control character"),
    ("https://ok.example/\x85x", "control character"),
    (" javascript:alert(1)", "space"),
    ("index.html ", "space"),
    ("", "empty"),
    ("https://", "no host"),
    ("http:/relative", "no host"),
    ("http://[::1", "not a valid URL"),
]


@pytest.mark.parametrize("url", ACCEPTED)
def test_http_urls_and_relative_paths_are_kept(url: str) -> None:
    assert check_report_url(url) == url


@pytest.mark.parametrize(("url", "problem"), REFUSED)
def test_other_schemes_and_lookalikes_are_refused(url: str, problem: str) -> None:
    with pytest.raises(UsageError, match="--report-url") as caught:
        check_report_url(url)
    assert problem in caught.value.problem
    assert "http(s) URL" in caught.value.fix


@pytest.mark.parametrize("url", [*ACCEPTED, "a)b](javascript:x)", "x&#58;y", 'x"<b>y</b>'])
def test_link_target_stays_one_link_to_the_same_address(url: str) -> None:
    rendered = render(f"[full report]({link_target(url)})\n")
    assert rendered.tags == ["p", "a"]
    ((_, href),) = rendered.links
    assert not href.lower().startswith("javascript:")
    assert unquote(href) == unquote(link_target(url).replace("&amp;", "&"))
