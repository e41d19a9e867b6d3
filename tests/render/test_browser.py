"""The HTML in headless Chromium, opened from file://, as a reader would.

No console error, no request to anything but the page itself, script payloads that
never run, and screenshots (saved under REPORTGEN_ARTIFACTS, default
``test-artifacts/``) for a person to look at.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from reportgen.api import (
    ReportOutputs,
    ReportResult,
    ReportSettings,
    demo_request,
    make_report,
)
from reportgen.site.publish import publish
from tests.chromium import Chromium, available
from tests.render.test_size import write_large_inputs

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not available(), reason="needs Debian's chromium (.ci/run installs it)"),
]

ARTIFACTS = Path(os.environ.get("REPORTGEN_ARTIFACTS", "test-artifacts"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    chromium = Chromium()
    yield chromium
    chromium.close()


def test_demo_report_loads_clean_and_its_script_works(
    browser: Chromium, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764000000")
    make_report(demo_request(ReportOutputs(tmp_path), ReportSettings(version="demo")))
    visit = browser.open(tmp_path / "index.html", screenshot=ARTIFACTS / "demo-report.png")
    assert visit.errors == []
    assert visit.outside_requests == []
    assert browser.evaluate("document.querySelectorAll('figure svg').length") >= 6
    assert browser.evaluate("document.querySelectorAll('th[scope=col] button.sort').length") > 0
    # sort the questions by id descending, then filter them
    browser.evaluate("document.querySelector('table.questions th button').click()")
    browser.evaluate("document.querySelector('table.questions th button').click()")
    first = browser.evaluate(
        "document.querySelector('table.questions tbody th').firstChild.textContent"
    )
    assert first == "q060"
    browser.evaluate(
        "const f = document.querySelector('#question-filters input'); f.value = 'q013';"
        "f.dispatchEvent(new Event('input'))"
    )
    shown = "[...document.querySelectorAll('table.questions tbody tr')].filter(r => !r.hidden)"
    assert browser.evaluate(f"{shown}.length") == 1


def test_payloads_never_run(browser: Chromium, hostile: Callable[[str], ReportResult]) -> None:
    result = hostile("v1")
    visit = browser.open(result.files[-1].parent / "index.html")
    assert browser.evaluate("window.__xss === undefined")
    assert visit.outside_requests == []  # the <img src=x> stayed text
    assert visit.errors == []


def test_site_index_loads_clean(
    browser: Chromium, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for version, epoch in (("2026.10.1", "1760000000"), ("2026.11.1", "1764000000")):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        outputs = ReportOutputs(tmp_path / version)
        make_report(demo_request(outputs, ReportSettings(version=version)))
        publish(tmp_path / version, tmp_path / "site")
    visit = browser.open(tmp_path / "site" / "index.html", screenshot=ARTIFACTS / "site.png")
    assert visit.errors == [] and visit.outside_requests == []
    assert browser.evaluate("document.querySelectorAll('table.versions tbody tr').length") == 2


def test_ten_thousand_question_report_stays_usable(browser: Chromium, tmp_path: Path) -> None:
    from reportgen.api import ReportInputs, ReportRequest

    gold, runs = write_large_inputs(tmp_path / "in")
    make_report(ReportRequest(ReportInputs(gold, runs), ReportOutputs(tmp_path / "out")))
    visit = browser.open(
        tmp_path / "out" / "index.html", screenshot=ARTIFACTS / "large-report.png", max_height=4000
    )
    assert visit.errors == [] and visit.outside_requests == []
    assert browser.evaluate("document.querySelectorAll('table.questions tbody tr').length") == 500
