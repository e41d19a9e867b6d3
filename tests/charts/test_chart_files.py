"""Which chart files a report writes, and that drawing them faster kept their bytes.

SVG serves every reader (the HTML inlines it; report.md links it, and GitHub shows
relative SVG images in Markdown files), so PNG is drawn only on request, rasterised
from the SVG instead of drawing the spec a second time.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import vl_convert

from reportgen.api import make_report
from reportgen.charts import (
    VEGA_LITE_VERSION,
    at_k_curve_spec,
    printable,
    render_charts,
    start_engine,
)

REPO = Path(__file__).resolve().parents[2]

REPORT = {
    "k": [1, 3],
    "context_k": 3,
    "runs": {"bm25": {"means": {"recall@1": 0.25, "recall@3": 0.5}}},
}
SPEC = at_k_curve_spec(REPORT, "recall", "recall@k")


def test_svg_only_unless_png_is_asked_for() -> None:
    assert sorted(render_charts({"curve": SPEC})) == ["curve.svg"]
    assert sorted(render_charts({"curve": SPEC}, png=True)) == ["curve.png", "curve.svg"]


def test_png_from_the_svg_is_the_png_vl_convert_draws_from_the_spec() -> None:
    """The PNG used to be drawn from the spec (a second conversion); same bytes now."""
    drawn = render_charts({"curve": SPEC}, png=True)["curve.png"]
    direct = vl_convert.vegalite_to_png(printable(SPEC), vl_version=VEGA_LITE_VERSION, scale=2)
    assert drawn.startswith(b"\x89PNG") and drawn == direct


def test_the_engine_starts_once_per_process() -> None:
    assert start_engine() is start_engine()


def test_warm_engine_draws_the_bytes_of_a_cold_one() -> None:
    """A fresh process drawing the spec with no warm-up gives what this process
    (warmed up, many charts drawn) gives: the warm-up cannot change a report's bytes."""
    script = (
        "import json, sys, vl_convert\n"
        "spec = json.loads(sys.stdin.read())\n"
        f"sys.stdout.write(vl_convert.vegalite_to_svg(spec, vl_version={VEGA_LITE_VERSION!r}))\n"
    )
    cold = subprocess.run(
        [sys.executable, "-c", script],
        input=json.dumps(printable(SPEC)),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    ).stdout
    start_engine().join()
    assert render_charts({"curve": SPEC})["curve.svg"].decode() == cold


def _report(tmp_path: Path, **options: bool) -> Path:
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
    make_report(gold, [("mine", run)], out, **options)
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
