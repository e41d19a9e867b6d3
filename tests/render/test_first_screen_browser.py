"""What a reader sees without scrolling, measured in headless Chromium.

At 1400x900 the answer (#verdict) and the four cells (#four-cells) start within the first
screen; at 400x900 (a phone) within the first two. No element reaches past the
viewport's sides unless a scroll container holds it, and every chart's legend labels
lie inside their chart and clear of the next symbol. Screenshots of each page at both
widths land in REPORTGEN_ARTIFACTS (default ``test-artifacts/``) for a person to look at.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from reportgen.api import (
    GateRules,
    ReportChecks,
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportResult,
    ReportSettings,
    demo_request,
    example_dir,
    make_report,
    rules_from_options,
)
from reportgen.site.publish import publish
from tests.chromium import Chromium, available
from tests.render.test_browser import ARTIFACTS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not available(), reason="needs Debian's chromium (.ci/run installs it)"),
]

WIDTHS = ((1400, 900), (400, 1800))
"""Viewport width, and how far down the answer and the cells must start."""

SIDEWAYS = """
(() => {
  const width = document.documentElement.clientWidth;
  const scrolls = (el) => {
    for (let p = el.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return true;
    }
    return false;
  };
  const out = [];
  const past = (r) => r.width > 0 && r.height > 0 && (r.right > width + 1 || r.left < -1);
  for (const el of document.body.querySelectorAll("*")) {
    if (past(el.getBoundingClientRect()) && !scrolls(el)) out.push(el.tagName + "." + el.className);
  }
  // text that overflows its box (a long path with no break) moves no element's box
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    range.selectNodeContents(node);
    const parent = node.parentElement;
    if ([...range.getClientRects()].some(past) && !scrolls(node)) {
      out.push("text in " + parent.tagName + ": " + node.textContent.slice(0, 40));
    }
  }
  return JSON.stringify({page: document.documentElement.scrollWidth, width, out: out.slice(0, 10)});
})()
"""

LEGENDS = """
(() => {
  // A reader's sans-serif may be wider than the font vl-convert measured with: widen
  // every label by about 10% (as DejaVu Sans against Liberation Sans) before measuring.
  const style = document.createElement("style");
  style.textContent = ".role-legend-label text { letter-spacing: 0.06em; }";
  document.head.appendChild(style);
  const bad = [];
  let labels = 0;
  for (const svg of document.querySelectorAll("figure svg")) {
    const box = svg.getBoundingClientRect();
    const symbols = [...svg.querySelectorAll(".role-legend-symbol path")].map(
      (s) => s.getBoundingClientRect());
    for (const text of svg.querySelectorAll(".role-legend-label text")) {
      labels += 1;
      const r = text.getBoundingClientRect();
      const outside = r.right > box.right + 1 || r.left < box.left - 1;
      if (outside) bad.push("outside: " + text.textContent);
      for (const s of symbols) {
        const overlaps = s.left < r.right - 1 && s.right > r.left + 1 &&
          s.top < r.bottom - 1 && s.bottom > r.top + 1;
        if (overlaps) bad.push("runs into a symbol: " + text.textContent);
      }
      if (r.height < 9) bad.push("too small (" + r.height.toFixed(1) + " px): " + text.textContent);
    }
  }
  style.remove();
  return JSON.stringify({labels, bad});
})()
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    chromium = Chromium()
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The demo; the demo's runs with rerank's lists reversed on every third question,
    against the demo as baseline, with a failing gate; and a site of the two."""
    work = tmp_path_factory.mktemp("pages")
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", "1760000000")
    make_report(demo_request(ReportOutputs(work / "v1"), ReportSettings(version="2026.10.1")))
    example = example_dir()
    worse = work / "rerank.jsonl"
    lines = (example / "runs" / "rerank.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    for index, row in enumerate(rows):
        if index % 3 == 0:
            row["results"] = row["results"][::-1]
    worse.write_text("".join(json.dumps(row) + "\n" for row in rows))
    mp.setenv("SOURCE_DATE_EPOCH", "1764000000")
    gate = rules_from_options(
        ("rerank/recall@5=0.8", "rerank/recall@5:version=0.7"), ("recall@5=0.02",), False
    )
    runs = [
        ("keyword", example / "runs" / "keyword.trec"),
        ("dense", example / "runs" / "dense.jsonl"),
        ("hybrid", example / "runs" / "hybrid.csv"),
        ("rerank", worse),
    ]
    inputs = ReportInputs(
        example / "gold.jsonl",
        runs,
        verdicts=example / "verdicts.jsonl",
        verdicts_run="rerank",
        manifest=example / "manifest.txt",
        baseline=work / "v1",
    )

    def report(out: str, version: str, gate: GateRules) -> ReportResult:
        settings = ReportSettings(version=version)
        request = ReportRequest(inputs, ReportOutputs(work / out), settings, ReportChecks(gate))
        return make_report(request)

    result = report("v2", "2026.11.1", gate)
    assert result.report["gate"]["passed"] is False
    # four rules on every run, all 16 failed: the answer must still be on screen one
    many = rules_from_options(
        ("recall@5=0.99", "hit@5=0.99", "mrr@5=0.99", "ndcg@5=0.99"), (), False
    )
    crowded = report("many", "many", many)
    assert sum(not rule["passed"] for rule in crowded.report["gate"]["rules"]) == 16
    publish(work / "v1", work / "site")
    publish(work / "v2", work / "site")
    mp.undo()
    return {
        "demo": work / "v1" / "index.html",
        "gate": work / "v2" / "index.html",
        "many-rules": work / "many" / "index.html",
        "site": work / "site" / "index.html",
    }


def measure(browser: Chromium, page: Path, width: int, name: str) -> None:
    """Open ``page`` at ``width`` x 900, screenshot its first two screens, and check that
    nothing overflows sideways and every legend reads in full."""
    browser.open(page, width=width, height=900, screenshot=ARTIFACTS / f"{name}-{width}.png")
    sideways = json.loads(browser.evaluate(SIDEWAYS))
    assert sideways["page"] <= sideways["width"], sideways
    assert sideways["out"] == [], sideways
    legends = json.loads(browser.evaluate(LEGENDS))
    assert legends["bad"] == [], legends


@pytest.mark.parametrize(("width", "within"), WIDTHS)
@pytest.mark.parametrize("name", ["demo", "gate", "many-rules"])
def test_the_answer_and_the_cells_are_on_the_first_screen(
    browser: Chromium, pages: dict[str, Path], name: str, width: int, within: int
) -> None:
    measure(browser, pages[name], width, name)
    for block in ("verdict", "four-cells"):
        top = browser.evaluate(
            f"document.getElementById('{block}').getBoundingClientRect().top + window.scrollY"
        )
        assert top < within, (block, top)
    # the gate and the answer come before the cells
    order = browser.evaluate(
        "['gate', 'verdict-title', 'four-cells'].map(id => document.getElementById(id))"
        ".filter(Boolean).map(el => el.getBoundingClientRect().top)"
    )
    assert order == sorted(order)
    title = browser.evaluate("document.getElementById('verdict-title').textContent")
    if name != "demo":
        assert title == "rerank is worse than baseline 2026.10.1"
        first_rule = browser.evaluate("document.querySelector('#gate li.failed').textContent")
        assert "run rerank" in first_rule  # the run the screen is about comes first
        assert browser.evaluate("document.getElementById('gate').getBoundingClientRect().top") < 400
    else:
        assert title == "rerank: hit@5 0.904 and recall@5 0.849"
    # warnings other than stale gold and leaks are one folded line each
    assert browser.evaluate("document.querySelectorAll('details.warning-line[open]').length") == 0


@pytest.mark.parametrize(("width", "within"), WIDTHS)
@pytest.mark.parametrize("name", ["demo", "gate"])
def test_every_warning_is_one_line_on_the_first_screen_stale_gold_first(
    browser: Chromium, pages: dict[str, Path], name: str, width: int, within: int
) -> None:
    """The README promises stale gold ids on the first screen: the digest of every
    warning class sits there, stale gold first, each linking to its messages."""
    browser.open(pages[name], width=width, height=900)
    top = browser.evaluate(
        "document.querySelector('.digest').getBoundingClientRect().top + window.scrollY"
    )
    assert top < within, top
    first = browser.evaluate("document.querySelector('.digest a').textContent")
    assert first.startswith("stale gold ids")
    targets = browser.evaluate(
        "[...document.querySelectorAll('.digest a')]"
        ".map(a => Boolean(document.getElementById(a.getAttribute('href').slice(1))))"
    )
    assert targets and all(targets)


@pytest.mark.parametrize(("width", "within"), WIDTHS)
def test_the_site_index_reads_at_both_widths(
    browser: Chromium, pages: dict[str, Path], width: int, within: int
) -> None:
    measure(browser, pages["site"], width, "site")
    rows = browser.evaluate(
        "[...document.querySelectorAll('table.versions tbody tr')]"
        ".map(r => r.querySelector('td.headlines').getBoundingClientRect().top)"
    )
    assert len(rows) == 2 and all(top < within for top in rows)
    tallest = browser.evaluate(
        "Math.max(...[...document.querySelectorAll('table.versions tbody tr')]"
        ".map(r => r.getBoundingClientRect().height))"
    )
    # a version's row once stood 280 px tall with its headline off screen; the tallest is
    # now the five-run version (ten headline lines at 400 wide) with its commit and gate
    assert tallest < 450
    labels = json.loads(browser.evaluate(LEGENDS))["labels"]
    assert labels >= 20  # four runs in four trend charts, four cells in one
