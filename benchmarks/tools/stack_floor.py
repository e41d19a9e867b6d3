"""The stack floor of `reportgen demo` (issue #28): what any tool built on the same libraries pays.

Usage: python stack_floor.py OUT.svg

Imports Polars, Jinja2, Click and vl-convert, renders one small Vega-Lite chart to SVG
and writes it: a fresh process doing this is the least a report with charts can cost.
"""

from __future__ import annotations

import sys

import click  # noqa: F401
import jinja2  # noqa: F401
import polars as pl
import vl_convert

SPEC = {
    "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
    "mark": "bar",
    "encoding": {
        "x": {"field": "measure", "type": "nominal"},
        "y": {"field": "value", "type": "quantitative"},
    },
}


def main() -> None:
    frame = pl.DataFrame({"measure": ["hit@5", "recall@5", "ndcg@10"], "value": [0.8, 0.6, 0.5]})
    spec = SPEC | {"data": {"values": frame.to_dicts()}}
    with open(sys.argv[1], "w") as handle:
        handle.write(vl_convert.vegalite_to_svg(spec))


if __name__ == "__main__":
    main()
