"""Where summary.md's "full report" links may point, and how they are written into it.

A link target is the user's ``--report-url``; a pull-request comment is read by
people who click it, so it may only lead to a web page (http or https) or to a path
relative to the summary. ``javascript:``, ``data:``, ``vbscript:``, ``file:`` and every
other scheme are refused, and so are protocol-relative URLs (``//host/x``, whose
scheme depends on where the summary is read: write ``https://host/x``) and control
characters or backslashes (browsers drop tabs and newlines, and read ``\\`` as ``/``, so
``java\tscript:`` and ``\\\\host`` would be other URLs than they look).
"""

from __future__ import annotations

import re
from urllib.parse import quote, urlsplit

from reportgen.errors import UsageError

_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\\]")
REPORT_URL_FIX = (
    "give --report-url (report_url) an http(s) URL (https://example.org/reports/v1/) "
    "or a path relative to summary.md (index.html, ../site/v1/)"
)


def check_report_url(url: str) -> str:
    """``url`` when it is an http(s) URL with a host, or a relative path; else UsageError."""
    problem = _problem(url)
    if problem:
        raise UsageError(f"--report-url {url!r} {problem}", REPORT_URL_FIX)
    return url


def _problem(url: str) -> str | None:
    if not url.strip():
        return "is empty"
    if url != url.strip():
        return "starts or ends with a space"
    if _CONTROL.search(url):
        return "holds a control character or a backslash"
    if url.startswith("//"):
        return "is protocol-relative (its scheme would depend on where it is read)"
    scheme = _SCHEME.match(url)
    if scheme is None:
        return None
    if scheme.group(1).lower() not in ("http", "https"):
        return f"uses the {scheme.group(1).lower()}: scheme (only http, https and relative paths)"
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return "is not a valid URL"
    return None if host else "names no host"


def link_target(url: str) -> str:
    """A URL that cannot break out of Markdown's ``[text](url)``.

    Markdown decodes character references in a link (``javascript&#58;`` would become
    ``javascript:``), so ``&`` is written ``&amp;``, which it decodes back to ``&``.
    """
    return quote(url, safe=":/?#[]@!$&'*+,;=%~").replace("&", "&amp;")
