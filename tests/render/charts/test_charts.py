"""Charts draw marks: a wrong field name gives an empty chart, not an error.

Each test draws the spec with vl-convert and counts the marks in the SVG, so a spec
that names a field the data lacks fails here instead of shipping an empty chart.
"""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from reportgen.render.chart_engine import render_charts
from reportgen.render.charts import (
    PALETTE,
    at_k_curve_spec,
    cells_trend_spec,
    report_chart_specs,
    trend_spec,
)

SVG = "{http://www.w3.org/2000/svg}"

REPORT = {
    "k": [1, 3, 5, 10],
    "context_k": 5,
    "runs": {
        "bm25": {
            "means": {
                f"{m}@{k}": v
                for m in ("recall", "hit")
                for k, v in ((1, 0.2), (3, 0.4), (5, 0.5), (10, 0.6))
            }
        },
        "dense": {
            "means": {
                f"{m}@{k}": v
                for m in ("recall", "hit")
                for k, v in ((1, 0.3), (3, 0.5), (5, 0.7), (10, 0.8))
            }
        },
    },
}


def drawn_marks(svg: bytes) -> Counter[str]:
    """Shapes drawn inside each data mark container, by mark type (line, symbol, ...)."""
    counts: Counter[str] = Counter()
    for group in ET.fromstring(svg).iter(f"{SVG}g"):
        classes = group.get("class", "").split()
        if "role-mark" not in classes:
            continue
        mark = classes[0].removeprefix("mark-")
        counts[mark] += sum(
            1
            for child in group
            if child.tag in (f"{SVG}path", f"{SVG}line", f"{SVG}rect", f"{SVG}text")
            and (child.get("d") != "" if child.tag == f"{SVG}path" else True)
        )
    return counts


def draw(spec: dict) -> bytes:
    return render_charts({"chart": spec})["chart.svg"]


def test_recall_curve_draws_a_line_and_a_point_per_run_and_k() -> None:
    marks = drawn_marks(draw(at_k_curve_spec(REPORT, "recall", "recall@k")))
    assert marks["line"] == 2  # one line per run
    assert marks["symbol"] == 8  # 2 runs x 4 cutoffs
    assert marks["rule"] == 1 and marks["text"] == 1  # k_ctx marked and labelled


def test_cutoffs_spanning_twenty_fold_or_more_are_drawn_on_a_log_axis() -> None:
    linear = at_k_curve_spec(REPORT, "recall", "recall@k")  # 1 to 10
    assert "type" not in linear["layer"][0]["encoding"]["x"]["scale"]
    deep = copy.deepcopy(REPORT)
    deep["k"] = [1, 3, 5, 100]
    for run in deep["runs"].values():
        run["means"] |= {key.replace("@10", "@100"): v for key, v in run["means"].items()}
    spec = at_k_curve_spec(deep, "recall", "recall@k")
    x = spec["layer"][0]["encoding"]["x"]
    assert x["scale"]["type"] == "log" and x["title"] == "k (results kept, log scale)"
    marks = drawn_marks(draw(spec))
    assert marks["symbol"] == 8 and marks["rule"] == 1  # every point and k_ctx still drawn


def test_a_wrong_field_name_is_caught_by_the_mark_count() -> None:
    spec = at_k_curve_spec(REPORT, "recall", "recall@k")
    broken = copy.deepcopy(spec)
    broken["layer"][0]["encoding"]["y"]["field"] = "valeu"
    assert drawn_marks(draw(broken))["symbol"] == 0  # silently empty: what we guard against
    assert drawn_marks(draw(spec))["symbol"] == 8


def test_report_charts_cover_recall_and_hit() -> None:
    drawn = render_charts(report_chart_specs(REPORT))
    assert sorted(drawn) == ["hit_at_k.svg", "recall_at_k.svg"]
    for name in ("hit_at_k.svg", "recall_at_k.svg"):
        assert drawn_marks(drawn[name])["symbol"] == 8, name


def test_charts_have_titles_descriptions_and_run_names_as_text() -> None:
    svg = draw(at_k_curve_spec(REPORT, "recall", "recall@k")).decode()
    assert "recall@k by cutoff k" in svg
    assert "k_ctx = 5" in svg
    assert ">dense<" in svg  # the legend names runs, so colour is not the only cue


def test_hostile_run_names_stay_text_in_svg() -> None:
    report = copy.deepcopy(REPORT)
    report["runs"]["<script>x</script>"] = report["runs"].pop("dense")
    svg = draw(at_k_curve_spec(report, "recall", "recall@k")).decode()
    assert "<script>" not in svg and "&lt;script&gt;" in svg


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_run_name_with_a_line_separator_draws(separator: str) -> None:
    """Vega-Lite puts the run names of a sort order into an expression, whose parser
    takes a line separator inside a string for the end of a line: each is replaced."""
    report = copy.deepcopy(REPORT)
    report["runs"][f"a{separator}b"] = report["runs"].pop("dense")
    counts = drawn_marks(draw(at_k_curve_spec(report, "recall", "recall@k")))
    assert counts["line"] == 2


def test_trend_orders_versions_by_the_given_time_order_not_text() -> None:
    rows = [{"version": v, "run": "bm25", "value": x} for v, x in (("v2", 0.5), ("v10", 0.6))]
    spec = trend_spec(rows, ["v2", "v10"], "recall@k_ctx")
    assert spec["encoding"]["x"]["sort"] == ["v2", "v10"]
    svg = draw(spec).decode()
    assert svg.index(">v2<") < svg.index(">v10<")  # v2 drawn first (left), not v10
    assert drawn_marks(svg.encode())["symbol"] == 2


def test_cells_trend_stacks_four_bars_per_version() -> None:
    rows = [
        {"version": v, "cell": cell, "count": n, "order": i}
        for v in ("a", "b")
        for i, (cell, n) in enumerate(
            (
                ("working as designed", 31),
                ("generation failure", 9),
                ("answered from memory", 4),
                ("retrieval failure", 6),
            )
        )
    ]
    assert drawn_marks(draw(cells_trend_spec(rows, ["a", "b"])))["rect"] == 8


@pytest.mark.parametrize("count", [1, 4, 7])
def test_palette_gives_each_run_its_own_colour(count: int) -> None:
    report = {
        "k": [1],
        "context_k": 1,
        "runs": {f"r{i}": {"means": {"recall@1": 0.5}} for i in range(count)},
    }
    colours = at_k_curve_spec(report, "recall", "recall@k")["layer"][0]["encoding"]["color"]
    assert colours["scale"]["range"] == list(PALETTE[:count])
