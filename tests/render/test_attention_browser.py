"""The first screen holds what the README says it holds, measured in headless Chromium
on a pull-request-style report (one run against a baseline, with verdicts and the index
manifest): at 1400x900 within the first screen, at 400 wide within the first two.

README (Outputs, index.html): the gate's result, the run the verdicts are for with hit
and recall at k_ctx, their intervals and the change against the baseline, the four cells
and the pass rate; with a baseline, how questions moved between the cells (the largest
moves named); and (Index hygiene) the stale gold ids, named. Screenshots land in
REPORTGEN_ARTIFACTS for a person to look at.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from reportgen.api import (
    ReportChecks,
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    ReportSettings,
    demo_request,
    example_dir,
    make_report,
    rules_from_options,
)
from tests.chromium import Chromium, available
from tests.render.test_browser import ARTIFACTS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not available(), reason="needs Debian's chromium (.ci/run installs it)"),
]

SCREENS = ((1400, 900), (400, 1800))
"""Viewport width, and how far down everything promised must end."""

PROMISED = {
    "gate": "#gate",
    "answer": "#verdict-title",
    "hit and recall, intervals, change": ".figures-row",
    "largest moves since the baseline": "#attention li:nth-child(1)",
    "stale gold ids": "#attention li:nth-child(2)",
    "unanswerable questions answered anyway": "#attention li:nth-child(3)",
    "the four cells": "#four-cells table.cells",
    "the pass rate": "#four-cells .pass-rate",
}
"""What the README promises on the first screen, and where the page draws it."""


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """rerank with its lists reversed on every third question, against the demo."""
    work = tmp_path_factory.mktemp("attention")
    mp = pytest.MonkeyPatch()
    mp.setenv("SOURCE_DATE_EPOCH", "1760000000")
    make_report(demo_request(ReportOutputs(work / "v1"), ReportSettings(version="2026.10.1")))
    example = example_dir()
    rows = [json.loads(line) for line in (example / "runs" / "rerank.jsonl").open()]
    for index, row in enumerate(rows):
        if index % 3 == 0:
            row["results"] = row["results"][::-1]
    worse = work / "rerank.jsonl"
    worse.write_text("".join(json.dumps(row) + "\n" for row in rows))
    inputs = ReportInputs(
        example / "gold.jsonl",
        [("rerank", worse)],
        verdicts=example / "verdicts.jsonl",
        manifest=example / "manifest.txt",
        baseline=work / "v1",
    )
    gate = ReportChecks(rules_from_options(("recall@5=0.8",), ("recall@5=0.02",), False))
    settings = ReportSettings(version="2026.11.1")
    mp.setenv("SOURCE_DATE_EPOCH", "1764000000")
    make_report(ReportRequest(inputs, ReportOutputs(work / "v2"), settings, gate))
    mp.undo()
    return work / "v2" / "index.html"


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    chromium = Chromium()
    yield chromium
    chromium.close()


@pytest.mark.parametrize(("width", "within"), SCREENS)
def test_the_first_screen_holds_what_the_readme_promises(
    browser: Chromium, page: Path, width: int, within: int
) -> None:
    shot = ARTIFACTS / f"attention-{width}.png"
    browser.open(page, width=width, height=900, screenshot=shot, max_height=within)
    places = {
        name: browser.evaluate(
            f"(() => {{ const el = document.querySelector({json.dumps(selector)});"
            " if (!el) return null; const r = el.getBoundingClientRect();"
            " return [r.top + scrollY, r.bottom + scrollY, el.textContent]; })()"
        )
        for name, selector in PROMISED.items()
    }
    missing = [name for name, place in places.items() if place is None]
    assert missing == [], missing
    # the promised blocks start on the first screen(s); the named lines end there too
    late = {name: place[0] for name, place in places.items() if place[0] >= within}
    assert late == {}, late
    for name in ("largest moves since the baseline", "stale gold ids"):
        assert places[name][1] <= within, (name, places[name][1])
    moves = places["largest moves since the baseline"][2]
    assert "working as designed → answered from memory (12): q004" in moves
    assert "q047 (kb-gift-cards-0009)" in places["stale gold ids"][2]
    assert "q003, q046" in places["unanswerable questions answered anyway"][2]
