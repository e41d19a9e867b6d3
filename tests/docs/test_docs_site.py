"""The docs render into the site: a page per Markdown file, links that work there too."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
pytest.importorskip("cmarkgfm", reason="cmarkgfm renders the docs (pip install -e '.[test]')")


def builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "build_docs_site", REPO / "scripts" / "build_docs_site.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_page_is_rendered_with_working_links(tmp_path: Path) -> None:
    written = builder().build(tmp_path)
    pages = [path for path in written if path.suffix == ".html"]
    sources = sorted(path.stem for path in (REPO / "docs").glob("*.md"))
    assert [path.stem for path in pages] == sources
    for page in pages:
        text = page.read_text()
        assert text.startswith("<!doctype html>")
        assert '.md"' not in text, page.name
        body = text.partition("<main>")[2]
        assert 'href="../' not in body, f"{page.name} links outside the docs folder"
        for target in re.findall(r'href="([\w.-]+\.(?:html|json))', text):
            assert (tmp_path / target).is_file(), f"{page.name} links to missing {target}"


def test_the_report_schema_is_published_beside_the_pages(tmp_path: Path) -> None:
    builder().build(tmp_path)
    page = (tmp_path / "report-json.html").read_text()
    assert 'href="report.schema.json"' in page
    shipped = REPO / "reportgen" / "schema" / "schema.json"
    assert (tmp_path / "report.schema.json").read_bytes() == shipped.read_bytes()


def test_titles_are_escaped_and_raw_html_dropped() -> None:
    page = builder().render("# A <b>bold</b> & title\n\n<script>alert(1)</script>\n")
    assert "<title>A &lt;b&gt;bold&lt;/b&gt; &amp; title - reportgen</title>" in page
    assert "<script>" not in page
