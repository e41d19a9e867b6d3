"""Slices on the pages: a table per field sorted by the change (worst first), a chart
of the slices side by side with a mark per run and slice, escaped values."""

from __future__ import annotations

import json
import re
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.render.charts import slices_spec
from tests.analyse.slices.slice_data import write_slice_data


def test_the_slices_table_puts_the_worst_change_first_and_the_chart_draws_every_slice(
    tmp_path: Path,
) -> None:
    paths = write_slice_data(tmp_path)
    gold = paths["gold"].read_text().replace('"fr"', '"<b>fr</b>"')  # a hostile value
    paths["gold"].write_text(gold)
    out = tmp_path / "out"
    args = ["report", str(paths["gold"]), f"a={paths['a']}", f"b={paths['b']}", "--out", str(out)]
    result = CliRunner().invoke(cli, [*args, "--slice-by", "lang", "--quiet"])
    assert result.exit_code == 0, result.output
    report = json.loads((out / "report.json").read_text())
    changes = {
        entry["value"]: entry["measures"]["recall@5"]["difference"]
        for entry in report["slices"]["comparisons"]["lang"]["slices"]
    }
    page = (out / "index.html").read_text()
    section = page[page.index('id="slices"') :]
    rows = re.findall(r'<th scope="row">lang=([^<]*)</th>', section.split("</table>")[0])
    shown = [row.replace("&lt;", "<").replace("&gt;", ">") for row in rows]
    assert shown == sorted(changes, key=lambda value: changes[value])
    assert shown[0] == "de"  # run b lost German gold chunks
    assert "<b>fr</b>" not in page and "&lt;b&gt;fr&lt;/b&gt;" in page
    assert "Worst slice: lang=de: recall@5" in page  # the first screen names it
    summary = (out / "summary.md").read_text()
    moved = [line for line in summary.splitlines() if line.startswith("- slice moved: ")]
    assert 1 <= len(moved) <= 5 and moved[0].startswith("- slice moved: lang=de: recall@5")
    spec = slices_spec(report)
    assert spec is not None
    drawn = {(v["slice"], v["run"]) for v in spec["data"]["values"]}
    assert drawn == {(f"lang={value}", run) for value in changes for run in ("a", "b")}
    svg = (out / "charts" / "slices.svg").read_text()
    assert svg.count("<path") >= 2 * len(changes)  # marks drawn, not an empty chart
