"""Render docs/*.md into HTML pages for the published site (docs/ -> SITE/docs/).

    python scripts/build_docs_site.py --out site/docs

GitHub-flavoured Markdown through cmarkgfm (raw HTML dropped), links between pages
rewritten from .md to .html, one small stylesheet inline: no network, no theme.
Files the pages link to in the source tree (report.json's schema) are copied beside
them, and the links follow.
"""

from __future__ import annotations

import argparse
import html
import re
import shutil
import sys
from pathlib import Path

import cmarkgfm
from cmarkgfm.cmark import Options

DOCS = Path(__file__).resolve().parent.parent / "docs"
SHIPPED = {"../reportgen/schema/schema.json": "report.schema.json"}
"""Link in docs/ -> the copy's name beside the pages."""

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - reportgen</title>
<style>
body {{ font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto;
  padding: 0 1rem; color: #1f2328; }}
pre, code {{ font: 14px/1.4 ui-monospace, monospace; background: #f6f8fa; }}
pre {{ padding: .75rem; overflow-x: auto; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #d0d7de; padding: .25rem .5rem; vertical-align: top; }}
nav {{ margin-bottom: 1.5rem; }}
</style>
</head>
<body>
<nav><a href="index.html">reportgen documentation</a> · <a href="../index.html">reports</a></nav>
<main>
{body}
</main>
</body>
</html>
"""

_LOCAL_MD_LINK = re.compile(r'href="([\w-]+)\.md(#[^"]*)?"')


def render(markdown: str) -> str:
    title = next(
        (line[2:].strip() for line in markdown.splitlines() if line.startswith("# ")), "reportgen"
    )
    body = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_DEFAULT)
    body = _LOCAL_MD_LINK.sub(lambda m: f'href="{m.group(1)}.html{m.group(2) or ""}"', body)
    for source, copy in SHIPPED.items():
        body = body.replace(f'href="{source}"', f'href="{copy}"')
    return PAGE.format(title=html.escape(title), body=body)


def build(out: Path, docs: Path = DOCS) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for source in sorted(docs.glob("*.md")):
        target = out / f"{source.stem}.html"
        target.write_text(render(source.read_text(encoding="utf-8")), encoding="utf-8")
        written.append(target)
    for source, copy in SHIPPED.items():
        written.append(Path(shutil.copyfile(docs / source, out / copy)))
    return written


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder to write the pages to")
    args = parser.parse_args(argv)
    for path in build(args.out):
        print(f"Wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
