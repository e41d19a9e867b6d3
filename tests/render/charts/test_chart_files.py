"""Which chart files a report writes, and that drawing them faster kept their bytes.

SVG serves every reader (the HTML inlines it; report.md links it, and GitHub shows
relative SVG images in Markdown files), so PNG is drawn only on request, rasterised
from the SVG instead of drawing the spec a second time. A report's charts are drawn
by a child process started before the inputs load.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
import vl_convert

from reportgen.analyse import run as analyse_run
from reportgen.api import ReportInputs, ReportOutputs, ReportRequest, demo_request, make_report
from reportgen.render.chart_engine import (
    VEGA_LITE_VERSION,
    ChartWorker,
    Spec,
    printable,
    render_charts,
)
from reportgen.render.charts import at_k_curve_spec, cutoff_chart_spec, warm_up_specs

REPORT = {
    "k": [1, 3],
    "context_k": 3,
    "runs": {"bm25": {"means": {"recall@1": 0.25, "recall@3": 0.5}}},
}
SPEC = at_k_curve_spec(REPORT, "recall", "recall@k")
HOSTILE = {**REPORT, "runs": {"<b>\x1b[31mé</b>": REPORT["runs"]["bm25"]}}
"""Markup, an escape code (replaced before drawing) and non-ASCII: through the pipe intact."""


def test_svg_only_unless_png_is_asked_for() -> None:
    assert sorted(render_charts({"curve": SPEC})) == ["curve.svg"]
    assert sorted(render_charts({"curve": SPEC}, png=True)) == ["curve.png", "curve.svg"]


def test_png_from_the_svg_is_the_png_vl_convert_draws_from_the_spec() -> None:
    """The PNG used to be drawn from the spec (a second conversion); same bytes now."""
    drawn = render_charts({"curve": SPEC}, png=True)["curve.png"]
    direct = vl_convert.vegalite_to_png(printable(SPEC), vl_version=VEGA_LITE_VERSION, scale=2)
    assert drawn.startswith(b"\x89PNG") and drawn == direct


def test_the_worker_draws_the_bytes_this_process_draws() -> None:
    """A fresh process (the worker, cold engine) and this one (warm, many charts drawn
    before) give the same bytes: the worker cannot change a report. The large chart
    (~0.2 MB of spec, ~1 MB of SVG) overfills both pipes: sending it must not deadlock."""
    points = [
        {"qid": f"q{i}", "group": ("answerable", "unanswerable")[i % 2], "score": i / 3000}
        for i in range(3000)
    ]
    specs = {
        "curve": SPEC,
        "hostile": at_k_curve_spec(HOSTILE, "recall", "recall@k"),
        "large": cutoff_chart_spec("bm25", points, 0.5),
    }
    with closing(ChartWorker()) as worker:
        worker.send(specs)
        drawn = render_charts(specs, worker=worker)
    assert len(drawn["large.svg"]) > 500_000
    assert drawn == render_charts(specs)


def test_the_warm_up_specs_draw_and_leave_the_bytes_alone() -> None:
    """A warm-up spec vl-convert refused would end the child (the report's charts then
    drawn here, slowly); the engine warmed on them draws the same bytes."""
    warm_up = warm_up_specs()
    assert len(render_charts({str(index): spec for index, spec in enumerate(warm_up)})) == 3
    with closing(ChartWorker(warm_up)) as worker:
        time.sleep(1.0)  # the engine started and (on a quiet machine) the warm-up drawn
        drawn = worker.draw({"curve": SPEC})
    assert drawn is not None  # by the child, still alive
    assert drawn["curve"].encode() == render_charts({"curve": SPEC})["curve.svg"]


def test_a_worker_sent_other_specs_is_not_believed() -> None:
    """The report's charts are sent before report.json is written and read back; the
    pages' specs come from the written report: were they different, the worker's
    drawings would be of the wrong charts, so they are drawn again here."""
    other = at_k_curve_spec(HOSTILE, "recall", "recall@k")
    with closing(ChartWorker()) as worker:
        worker.send({"curve": SPEC})
        assert worker.draw({"curve": other}) is None
    with closing(ChartWorker()) as worker:
        worker.send({"curve": SPEC})
        assert render_charts({"curve": other}, worker=worker) == render_charts({"curve": other})


def test_a_failed_worker_falls_back_to_drawing_here() -> None:
    worker = ChartWorker()
    worker.close()  # as if the child had died
    assert render_charts({"curve": SPEC}, worker=worker) == render_charts({"curve": SPEC})


def test_close_ends_a_child_that_never_drew() -> None:
    """make_report closes the worker when a step fails before the charts."""
    worker = ChartWorker()
    process = worker._process
    assert process is not None and process.poll() is None
    worker.close()
    assert process.poll() is not None


def test_close_ends_a_child_sent_specs_it_never_drew() -> None:
    """The specs are sent before report.json is written: a step failing between the
    two closes a worker whose stdin the writer closed; close must not raise then (its
    error would hide the step's own)."""
    worker = ChartWorker()
    process = worker._process
    worker.send({"curve": SPEC})
    worker.close()
    assert process is not None and process.poll() is not None


def _report(tmp_path: Path, chart_png: bool = False) -> Path:
    gold = tmp_path / "gold.jsonl"
    gold.write_text(
        '{"id": "A", "gold": ["a1"]}\n{"id": "B", "gold": ["b1"]}\n'
        '{"id": "E", "gold": [], "unanswerable": true}\n'
    )
    run = tmp_path / "run.jsonl"
    run.write_text(
        '{"id": "A", "chunks": ["a1", "x1"], "scores": [0.9, 0.5]}\n'
        '{"id": "B", "chunks": ["x2", "b1"], "scores": [0.8, 0.4]}\n'
        '{"id": "E", "chunks": ["x3", "x4"], "scores": [0.3, 0.2]}\n'
    )
    out = tmp_path / "out"
    outputs = ReportOutputs(out, chart_png=chart_png)
    make_report(ReportRequest(ReportInputs(gold, [("mine", run)]), outputs))
    return out


def test_report_writes_svg_charts_and_its_markdown_links_them(tmp_path: Path) -> None:
    out = _report(tmp_path)
    charts = sorted(p.name for p in (out / "charts").iterdir())
    assert charts and all(name.endswith(".svg") for name in charts)
    linked = re.findall(r"\]\((charts/[^)]+)\)", (out / "report.md").read_text())
    assert linked == ["charts/recall_at_k.svg", "charts/hit_at_k.svg"]
    assert all((out / name).is_file() for name in linked)


def test_chart_png_adds_a_png_beside_each_svg(tmp_path: Path) -> None:
    out = _report(tmp_path, chart_png=True)
    names = sorted(p.name for p in (out / "charts").iterdir())
    svgs = [name for name in names if name.endswith(".svg")]
    assert names == sorted(svgs + [name.replace(".svg", ".png") for name in svgs])


def test_a_report_uses_the_charts_its_worker_drew(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The specs sent early (from the report in memory) are those of the report as
    written: the worker's drawings are used, not drawn again here."""
    drawn: list[dict[str, str] | None] = []
    draw = ChartWorker.draw

    def spy(worker: ChartWorker, specs: Mapping[str, Spec]) -> dict[str, str] | None:
        drawn.append(draw(worker, specs))
        return drawn[-1]

    monkeypatch.setattr(ChartWorker, "draw", spy)
    _report(tmp_path)
    assert len(drawn) == 1 and drawn[0] is not None and "recall_at_k" in drawn[0]


def _spied(monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[dict[str, str] | None]]:
    """What happened, in order (specs sent, comparisons run), and what each draw gave."""
    events: list[str] = []
    drawn: list[dict[str, str] | None] = []
    send, draw, compare = ChartWorker.send, ChartWorker.draw, analyse_run.compare_runs

    def sending(worker: ChartWorker, specs: Mapping[str, Spec]) -> None:
        events.append("send")
        send(worker, specs)

    def drawing(worker: ChartWorker, specs: Mapping[str, Spec]) -> dict[str, str] | None:
        drawn.append(draw(worker, specs))
        return drawn[-1]

    def comparing(*args: Any, **kwargs: Any) -> Any:
        events.append("compare")
        return compare(*args, **kwargs)

    monkeypatch.setattr(ChartWorker, "send", sending)
    monkeypatch.setattr(ChartWorker, "draw", drawing)
    monkeypatch.setattr(analyse_run, "compare_runs", comparing)
    return events, drawn


@pytest.mark.slow  # the demo: five runs, two chunk maps, every chart kind but trade-off
def test_the_charts_are_sent_before_the_comparisons_and_their_drawings_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The specs built before the comparisons (means, cutoffs, chunkings) are the
    finished report's: the worker draws while the comparisons run, and its drawings
    are the ones written."""
    events, drawn = _spied(monkeypatch)
    make_report(demo_request(ReportOutputs(tmp_path / "out")))
    assert events[:2] == ["send", "compare"]
    assert len(drawn) == 1 and drawn[0] is not None
    assert sorted(drawn[0]) == sorted(p.stem for p in (tmp_path / "out" / "charts").iterdir())


def test_with_latency_the_charts_wait_for_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The trade-off chart reads latency, which comes after the comparisons: then the
    specs are sent from the finished report, and still drawn by the worker."""
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "A", "gold": ["a1"]}\n{"id": "B", "gold": ["b1"]}\n')
    runs = []
    for name, first in (("one", "a1"), ("two", "x1")):
        path = tmp_path / f"{name}.jsonl"
        path.write_text(
            f'{{"id": "A", "chunks": ["{first}", "b1"], "latency_ms": 120}}\n'
            '{"id": "B", "chunks": ["b1", "a1"], "latency_ms": 80}\n'
        )
        runs.append((name, path))
    events, drawn = _spied(monkeypatch)
    make_report(ReportRequest(ReportInputs(gold, runs), ReportOutputs(tmp_path / "out")))
    assert events[:2] == ["compare", "send"]
    assert drawn[0] is not None and "trade_off" in drawn[0]
