"""Drawing defects a reader saw, each held by a test on what is drawn (the SVG from
vl-convert) or written (the HTML, the Mermaid source):

- the ``k_ctx = 5`` label of the hit@k chart was drawn over by two runs' lines;
- the versions chart drew the "new gold set" rule over a bar, and its count axis had
  ticks at 0.5 (printed "1, 1, 2, 2");
- option names broke after their dashes ("(--" / "retrieved-when") and the site index
  broke "passed" as "passe" / "d";
- the Mermaid chart's title was cut before its closing parenthesis.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from reportgen.render.chart_engine import render_charts
from reportgen.render.charts import (
    HEIGHT,
    LABEL_HEIGHT,
    at_k_curve_spec,
    cells_trend_spec,
    free_height,
    integer_ticks,
)
from reportgen.render.pages import keep_words_whole
from reportgen.render.summary import MERMAID_TITLE, curves_title

SVG = "{http://www.w3.org/2000/svg}"
CELLS = ("working as designed", "generation failure", "answered from memory", "retrieval failure")


def draw(spec: dict) -> ET.Element:
    return ET.fromstring(render_charts({"chart": spec})["chart.svg"])


def translate(element: ET.Element) -> tuple[float, float]:
    found = re.search(r"translate\(([-\d.]+),([-\d.]+)\)", element.get("transform", ""))
    assert found, element.attrib
    return float(found.group(1)), float(found.group(2))


def demo_like() -> dict:
    """The demo's hit@k: four runs whose lines pass near the top at k = 5 and 10."""
    curves = {
        "keyword": (0.23, 0.5, 0.6, 0.69),
        "dense": (0.17, 0.48, 0.71, 0.77),
        "hybrid": (0.33, 0.69, 0.83, 0.87),
        "rerank": (0.37, 0.85, 0.9, 0.94),
        "rerank-sections": (0.38, 0.83, 0.92, 0.96),
    }
    return {
        "k": [1, 3, 5, 10],
        "context_k": 5,
        "runs": {
            name: {"means": {f"hit@{k}": v for k, v in zip((1, 3, 5, 10), values, strict=True)}}
            for name, values in curves.items()
        },
    }


def test_the_k_ctx_label_crosses_no_run_line() -> None:
    """In the drawing: the label's height lies clear of every line between k_ctx and the
    next cutoff (lines are straight between points, so their ends bound them)."""
    report = demo_like()
    svg = draw(at_k_curve_spec(report, "hit", "hit@k"))
    label = next(t for t in svg.iter(f"{SVG}text") if t.text == "k_ctx = 5")
    _, y = translate(label)
    label_value = 1 - y / HEIGHT  # the y axis runs 0..1 over the plot's height
    for run in report["runs"].values():
        ends = sorted((run["means"]["hit@5"], run["means"]["hit@10"]))
        clear = label_value < ends[0] - LABEL_HEIGHT / 2 or label_value > ends[1] + LABEL_HEIGHT / 2
        assert clear, (label_value, ends)


def test_free_height_picks_the_widest_gap() -> None:
    assert free_height([(0.55, 1.0)]) == pytest.approx(0.275)
    assert free_height([(0.0, 0.3), (0.7, 1.0)]) == pytest.approx(0.5)
    assert free_height([(0.0, 1.0)]) == pytest.approx(1 - LABEL_HEIGHT / 2)  # nowhere free


def cells_rows(totals: dict[str, int]) -> list[dict]:
    return [
        {"version": version, "cell": cell, "count": total if i == 0 else 0, "order": i}
        for version, total in totals.items()
        for i, cell in enumerate(CELLS)
    ]


@pytest.mark.parametrize("totals", [{"a": 2, "b": 1}, {"a": 7, "b": 5, "c": 6}, {"v1": 61}])
def test_a_count_axis_has_whole_numbers_only(totals: dict[str, int]) -> None:
    svg = draw(cells_trend_spec(cells_rows(totals), list(totals)))
    axes = [g for g in svg.iter(f"{SVG}g") if "role-axis-label" in g.get("class", "")]
    axis = next(g for g in axes if all((t.text or "").isdigit() for t in g.iter(f"{SVG}text")))
    labels = [int(t.text or "") for t in axis.iter(f"{SVG}text")]
    assert labels == sorted(set(labels)), labels  # no label twice: no tick between two
    assert labels[0] == 0 and labels[-1] >= max(totals.values())


def test_integer_ticks() -> None:
    assert integer_ticks(2) == [0, 1, 2]
    assert integer_ticks(13) == [0, 5, 10, 15]
    assert integer_ticks(0) == [0, 1]


def test_the_new_gold_set_rule_stands_between_bars() -> None:
    versions = ["a", "b", "c"]
    svg = draw(cells_trend_spec(cells_rows(dict.fromkeys(versions, 4)), versions, ["b"]))
    bars = []
    for path in svg.iter(f"{SVG}path"):
        if path.get("aria-roledescription") == "bar":
            x, width = re.match(r"M([-\d.]+),[-\d.]+h([-\d.]+)", path.get("d", "")).groups()  # type: ignore[union-attr]
            bars.append((float(x), float(x) + float(width)))
    rule = next(
        line for line in svg.iter(f"{SVG}line") if line.get("aria-roledescription") == "rule mark"
    )
    x, _ = translate(rule)
    assert bars and all(not (left - 1 <= x <= right + 1) for left, right in bars), (x, bars)
    edges = sorted(bars)
    assert any(right < x for _, right in edges) and any(left > x for left, _ in edges)
    label = next(t for t in svg.iter(f"{SVG}text") if t.text == "new gold set")
    assert translate(label)[1] < 0  # above the plot, where no bar reaches


def test_option_names_do_not_break() -> None:
    page = (
        "<title>--k</title><style>a{--x:1}</style>"
        "<p>Retrieved (--retrieved-when any); x--y, --</p>"
        '<a href="#x" title="--k">--context-k</a><svg><text>--k</text></svg>'
    )
    assert keep_words_whole(page) == (
        "<title>--k</title><style>a{--x:1}</style>"
        '<p>Retrieved (<span class="nw">--retrieved-when</span> any); x--y, --</p>'
        '<a href="#x" title="--k"><span class="nw">--context-k</span></a>'
        "<svg><text>--k</text></svg>"
    )


def test_the_css_keeps_option_names_and_the_site_gate_word_on_one_line() -> None:
    """The site index broke "passed" as "passe" / "d" (its cells wrap anywhere)."""
    from reportgen.render.pages import templates_dir

    css = (templates_dir() / "report.css").read_text()
    assert ".nw { white-space: nowrap; }" in css
    gate_cell = '.versions td[data-label="gate"] { overflow-wrap: normal; white-space: nowrap; }'
    assert gate_cell in css


@pytest.mark.parametrize("count", [1, 5, 12])
def test_the_mermaid_title_is_whole(count: int) -> None:
    names = [f"retriever-with-a-long-name-{index}" for index in range(count)]
    title = curves_title(names)
    assert title.endswith(")") and title.count("(") == title.count(")")
    assert len(title) <= MERMAID_TITLE
