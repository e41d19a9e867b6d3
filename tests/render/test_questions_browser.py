"""The question table's filters and the page's length, in headless Chromium.

The default view shows the questions that failed or changed; a filter's choice lands in
the URL's # part and a link with it shows the same rows, sorted the same way; the demo
page stays under 12,000 px at 1400 wide and 30,000 px at 400; nothing is clipped at
1400; chart ticks stay at least 11 px on screen; each nav label is the title of the
section it leads to; the transitions matrix is on the first screens of a report with a
baseline.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    demo_request,
    example_dir,
    make_report,
)
from tests.chromium import Chromium, available
from tests.render.test_browser import ARTIFACTS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not available(), reason="needs Debian's chromium (.ci/run installs it)"),
]

ROWS = "[...document.querySelectorAll('#question-table tbody tr')]"
SHOWN = f"{ROWS}.filter(r => !r.hidden)"
IDS = ".map(r => r.cells[0].firstChild.textContent)"


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    chromium = Chromium()
    yield chromium
    chromium.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The demo, and the demo's runs with rerank's lists reversed on every third question
    against the demo as baseline."""
    work = tmp_path_factory.mktemp("questions")
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", "1760000000")
    make_report(demo_request(ReportOutputs(work / "v1"), ReportSettings(version="v1")))
    example = example_dir()
    rows = [
        json.loads(line)
        for line in (example / "runs" / "rerank.jsonl").read_text().split("\n")
        if line
    ]
    for index, row in enumerate(rows):
        if index % 3 == 0:
            row["results"] = row["results"][::-1]
    worse = work / "rerank.jsonl"
    worse.write_text("".join(json.dumps(row) + "\n" for row in rows))
    inputs = ReportInputs(
        example / "gold.jsonl",
        [("dense", example / "runs" / "dense.jsonl"), ("rerank", worse)],
        verdicts=example / "verdicts.jsonl",
        verdicts_run="rerank",
        baseline=work / "v1",
    )
    make_report(ReportRequest(inputs, ReportOutputs(work / "v2"), ReportSettings(version="v2")))
    mp.undo()
    return {"demo": work / "v1" / "index.html", "changed": work / "v2" / "index.html"}


def attention(browser: Chromium) -> list[str]:
    return list(browser.evaluate(f"{ROWS}.filter(r => r.dataset.attention === '1'){IDS}"))


def shown(browser: Chromium) -> list[str]:
    return list(browser.evaluate(f"{SHOWN}{IDS}"))


def choose(browser: Chromium, name: str, value: str) -> None:
    browser.evaluate(
        f"(() => {{ const f = document.querySelector('#question-filters [name={name}]');"
        f" f.value = {json.dumps(value)}; f.dispatchEvent(new Event('change')); }})()"
    )


def test_the_default_view_is_the_failed_or_changed_questions(
    browser: Chromium, pages: dict[str, Path]
) -> None:
    visit = browser.open(pages["demo"], width=1400, height=900)
    assert visit.errors == []
    assert browser.evaluate("document.getElementById('question-filters').hidden") is False
    failed = attention(browser)
    assert 0 < len(failed) < 60
    assert shown(browser) == failed
    # every failure cell of the first screen is in the default view
    cells = json.loads((pages["demo"].parent / "report.json").read_text())["attribution"]
    for cell in ("retrieved_wrong", "missed_wrong"):
        assert set(cells["rerank"]["questions"][cell]) <= set(failed)
    choose(browser, "show", "all")
    assert len(shown(browser)) == 60
    assert browser.evaluate("location.hash") == "#questions?show=all"


def test_filters_and_sort_live_in_the_url_and_a_link_shows_the_same_rows(
    browser: Chromium, pages: dict[str, Path]
) -> None:
    browser.open(pages["demo"], width=1400, height=900)
    choose(browser, "show", "all")
    choose(browser, "kind", "table")
    browser.evaluate("document.querySelector('#question-table th button').click()")
    browser.evaluate("document.querySelector('#question-table th button').click()")
    rows = shown(browser)
    assert rows and rows == sorted(rows, reverse=True)
    kinds = set(browser.evaluate(f"{SHOWN}.map(r => r.dataset.kind)"))
    assert kinds == {"table"}
    fragment = browser.evaluate("location.hash")
    assert fragment == "#questions?show=all&kind=table&sort=0-desc"
    # the same link, opened afresh, shows the same rows in the same order
    browser.open(pages["demo"], width=1400, height=900, fragment=fragment)
    assert shown(browser) == rows
    assert (
        browser.evaluate("document.querySelector('#question-filters [name=kind]').value") == "table"
    )
    # a link to the plain section restores the default view
    browser.evaluate("location.hash = '#questions'")
    assert shown(browser) == attention(browser)
    # a value the page does not offer falls back to "any", never to an empty table
    browser.open(pages["demo"], width=1400, height=900, fragment="#questions?kind=%3Cscript%3E")
    assert shown(browser) == attention(browser)


def test_the_cell_filter_matches_the_first_screen(
    browser: Chromium, pages: dict[str, Path]
) -> None:
    browser.open(pages["demo"], width=1400, height=900, fragment="#questions?show=all")
    choose(browser, "state", "missed_wrong")
    report = json.loads((pages["demo"].parent / "report.json").read_text())
    assert shown(browser) == report["attribution"]["rerank"]["questions"]["missed_wrong"]


def test_the_move_filter_lists_the_questions_of_a_move(
    browser: Chromium, pages: dict[str, Path]
) -> None:
    visit = browser.open(pages["changed"], width=1400, height=900)
    assert visit.errors == []
    report = json.loads((pages["changed"].parent / "report.json").read_text())
    entry = report["transitions"]["rerank"]
    move = entry["moves"][0]
    choose(browser, "move", f"{move['from']}>{move['to']}")
    assert sorted(shown(browser)) == sorted(move["questions"])
    # the matrix is in the first section, and each moved question is folded below
    assert browser.evaluate("!!document.querySelector('#verdict #transitions table')")
    folded = browser.evaluate("document.querySelectorAll('#changed details.side-by-side').length")
    assert folded == entry["moved"]
    assert browser.evaluate("document.querySelectorAll('#changed details[open]').length") == 0


@pytest.mark.parametrize(("width", "tallest"), [(1400, 12_000), (400, 30_000)])
def test_the_demo_page_stays_short_and_readable(
    browser: Chromium, pages: dict[str, Path], width: int, tallest: int
) -> None:
    browser.open(
        pages["demo"], width=width, height=900, screenshot=ARTIFACTS / f"questions-{width}.png"
    )
    height = browser.evaluate("document.documentElement.scrollHeight")
    assert height <= tallest, height
    ticks = browser.evaluate(
        """[...document.querySelectorAll('figure svg')].flatMap(svg => {
          const scale = svg.getBoundingClientRect().width / parseFloat(svg.getAttribute('width'));
          return [...svg.querySelectorAll('.role-axis-label text')]
            .map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
        })"""
    )
    assert ticks and min(ticks) >= 11, min(ticks)
    if width == 1400:
        clipped = browser.evaluate(
            "[...document.querySelectorAll('.scroll')]"
            ".filter(e => e.scrollWidth > e.clientWidth + 1)"
            ".map(e => e.querySelector('caption').textContent)"
        )
        assert clipped == []


@pytest.mark.parametrize("name", ["demo", "changed"])
def test_nav_labels_are_the_titles_of_their_sections(
    browser: Chromium, pages: dict[str, Path], name: str
) -> None:
    browser.open(pages[name], width=1400, height=900)
    pairs = browser.evaluate(
        """[...document.querySelectorAll('nav a')].map(a => {
          const section = document.getElementById(a.getAttribute('href').slice(1));
          return [a.textContent.trim(), section && section.querySelector('h2').textContent.trim()];
        })"""
    )
    assert len(pairs) >= 8
    for label, title in pairs:
        assert label == title


def test_the_slice_filter_keeps_every_question_of_a_list_slice_in_the_url(
    browser: Chromium, tmp_path: Path
) -> None:
    from tests.analyse.slices.slice_data import write_slice_data

    paths = write_slice_data(tmp_path)
    inputs = ReportInputs(paths["gold"], [("a", paths["a"]), ("b", paths["b"])])
    settings = ReportSettings(version="v1", slice_by=("tags",))
    make_report(ReportRequest(inputs, ReportOutputs(tmp_path / "out"), settings))
    page = tmp_path / "out" / "index.html"
    browser.open(page, width=1400, height=900, fragment="#questions?show=all&slice=billing")
    tagged = sorted(
        json.loads(line)["id"]
        for line in paths["gold"].read_text().splitlines()
        if "billing" in (json.loads(line).get("tags") or [])
    )
    assert sorted(shown(browser)) == tagged  # questions tagged billing and another tag too
    label = browser.evaluate(
        "document.querySelector('[name=slice]').parentNode.firstChild.textContent"
    )
    assert label.strip() == "tags"
