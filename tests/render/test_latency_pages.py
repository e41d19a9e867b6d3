"""The Latency and cost section: tables, notes, the trade-off chart; names escaped."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.render.charts import on_front, trade_off_spec

NAME = "<b>fast</b>|`x`"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("latency")
    gold = [{"id": f"q{i}", "gold": [f"c{i}"]} for i in range(6)]
    (folder / "gold.jsonl").write_text("".join(json.dumps(g) + "\n" for g in gold))
    for name, latency, hit in (("fast", 10.0, 3), ("slow", 90.0, 6), ("worse", 95.0, 2)):
        rows = [
            {"id": f"q{i}", "chunks": [f"c{i}" if i < hit else "x"]}
            | ({"latency_ms": latency + i} if i else {})
            for i in range(6)
        ]
        (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    done = CliRunner().invoke(
        cli,
        ["report", str(folder / "gold.jsonl"), f"{NAME}={folder / 'fast.jsonl'}",
         f"slow={folder / 'slow.jsonl'}", f"worse={folder / 'worse.jsonl'}",
         "--out", str(folder / "out"), "-q"],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    return folder / "out"


def test_the_section_escapes_run_names_and_says_what_is_missing(made: Path) -> None:
    html = (made / "index.html").read_text()
    section = html.split('<section id="latency"')[1].split("</section>")[0]
    assert "<b>fast</b>" not in section and "&lt;b&gt;fast&lt;/b&gt;" in section
    assert "1 question without a latency" in section
    assert "<svg" in section and 'href="#latency"' in html
    md = (made / "report.md").read_text()
    part = md.split("## Latency and cost")[1].split("\n## ")[0]
    assert "<b>" not in part and "\\|" in part
    assert "(charts/trade_off.svg)" in part
    assert (made / "charts" / "trade_off.svg").is_file()


def test_the_chart_marks_the_pareto_front(made: Path) -> None:
    report: dict[str, Any] = json.loads((made / "report.json").read_text())
    spec = trade_off_spec(report)  # type: ignore[arg-type]
    assert spec is not None
    front = {v["run"]: v["front"] for v in spec["data"]["values"]}
    # fast: quickest; slow: best recall; worse: slower and worse than slow
    assert front == {NAME: True, "slow": True, "worse": False}
    assert "p95 latency" in spec["layer"][1]["encoding"]["x"]["title"]


def test_pareto_front_ties_and_dominance() -> None:
    assert on_front({"a": (1, 0.5), "b": (1, 0.5)}) == {"a", "b"}
    assert on_front({"a": (1, 0.5), "b": (2, 0.5), "c": (2, 0.9)}) == {"a", "c"}
