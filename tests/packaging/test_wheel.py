"""The built wheel, installed into a fresh venv, runs the demo: templates, the bundled
example and report.json's schema must ship inside it, not only in the source tree."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import jsonschema
import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_wheel_in_a_fresh_venv_runs_the_demo(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(REPO)],
        check=True,
    )
    (wheel,) = wheels.glob("reportgen-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        shipped_schema = archive.read("reportgen/schema/schema.json")
    assert shipped_schema == (REPO / "reportgen" / "schema" / "schema.json").read_bytes()
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", str(wheel)], check=True)
    out = tmp_path / "demo"
    # Run from an empty folder so that nothing from the source tree can be imported.
    done = subprocess.run(
        [env_dir / "bin" / "reportgen", "demo", "--out", str(out)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "rerank, top 5:" in done.stdout
    report = json.loads((out / "report.json").read_text())
    assert set(report["runs"]) == {"keyword", "dense", "hybrid", "rerank", "rerank-sections"}
    # the example's documents and chunk maps ship too: two chunkings and the drill-down
    assert set(report["chunkings"]["runs"]) == set(report["runs"])
    assert report["drilldown"]["count"] > 0
    assert "<table" in (out / "index.html").read_text()
    # the demo's report matches the schema as the installed package finds it
    read_schema = "from importlib.resources import files; print(files('reportgen.schema')"
    read_schema += ".joinpath('schema.json').read_text(), end='')"
    found = subprocess.run(
        [python, "-c", read_schema], capture_output=True, text=True, cwd=tmp_path, check=True
    )
    assert found.stdout.encode() == shipped_schema
    jsonschema.validate(report, json.loads(found.stdout))
