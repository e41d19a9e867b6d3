"""How often a command collects a Polars frame stays within a budget (issue #28).

Every eager DataFrame method is a query of its own (~0.2-0.4 ms, whatever the size);
a loop that filters a frame per run, measure or question multiplies them, which is how
the demo once reached 2,096. Counts are exact under any load, where seconds are not,
so this runs with the default tests: a change that adds a per-question or per-run
query shows here, with the lines that ask most (benchmarks/tools/count_collects.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "reportgen" / "examples" / "helpcentre"

BUDGETS = {
    "demo": 540,
    "one run, JSON": 84,
}
"""Collects measured when the budget was last set (487 and 76), plus a tenth: the demo (60
questions, 5 runs, chunk maps, verdicts, every page) and a one-run JSON report of the
same gold set. Lower them when a change makes fewer; raise them only with a reason."""


def collects(args: list[str]) -> tuple[int, str]:
    """The command's collects, and the count_collects lines that say where."""
    script = REPO / "benchmarks" / "tools" / "count_collects.py"
    done = subprocess.run(
        [sys.executable, str(script), "--top", "8", "--", *args],
        capture_output=True,
        text=True,
        env=os.environ | {"PYTHONPATH": str(REPO), "SOURCE_DATE_EPOCH": "1700000000"},
        check=False,
    )
    found = re.search(r"^(\d+) collects$", done.stderr, re.MULTILINE)
    assert found and "exit" not in done.stderr, done.stderr[-2000:]
    return int(found[1]), done.stderr


@pytest.mark.parametrize("name", list(BUDGETS))
def test_a_command_collects_within_its_budget(name: str, tmp_path: Path) -> None:
    args = {
        "demo": ["demo", "--out", str(tmp_path / "out"), "--quiet"],
        "one run, JSON": [
            "report",
            str(EXAMPLE / "gold.jsonl"),
            str(EXAMPLE / "runs" / "keyword.trec"),
            "--format",
            "json",
            "--out",
            str(tmp_path / "out"),
            "--quiet",
        ],
    }[name]
    count, where = collects(args)
    assert count <= BUDGETS[name], f"{name}: {count} collects, budget {BUDGETS[name]}\n{where}"
    assert (tmp_path / "out" / "report.json").is_file()
