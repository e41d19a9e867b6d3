"""A command imports only what it needs: JSON-only reports skip Jinja2 and vl-convert."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROBE = """
import runpy, sys
sys.argv = ["reportgen", *sys.argv[1:]]
try:
    runpy.run_module("reportgen", run_name="__main__")
except SystemExit as done:
    assert not done.code, done.code
heavy = sorted({m.split(".")[0] for m in sys.modules} & {"jinja2", "vl_convert"})
print(",".join(heavy))
"""


def imported(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args],
        env={"PYTHONPATH": str(REPO), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def test_json_only_report_imports_neither_jinja2_nor_vl_convert(tmp_path):
    example = REPO / "reportgen" / "examples" / "helpcentre"
    args = [
        "report",
        str(example / "gold.jsonl"),
        str(example / "runs" / "keyword.trec"),
        "--format",
        "json",
        "--out",
        str(tmp_path / "out"),
        "-q",
    ]
    assert imported(*args) == ""
    assert (tmp_path / "out" / "report.json").is_file()
