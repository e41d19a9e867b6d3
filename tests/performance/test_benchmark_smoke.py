"""The benchmark script runs end to end on a tiny input (not a measurement)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]


def load(name: str) -> ModuleType:
    """A module of benchmarks/ (not a package: the folder is not shipped)."""
    if str(REPO / "benchmarks") not in sys.path:
        sys.path.insert(0, str(REPO / "benchmarks"))
    spec = importlib.util.spec_from_file_location(
        f"bench_{name}", REPO / "benchmarks" / f"{name}.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_generated_inputs_are_seeded_and_ranked(tmp_path):
    generate = load("generate")
    first = generate.generate(tmp_path / "a", 20, 5)
    second = generate.generate(tmp_path / "b", 20, 5)
    assert first.qrels.read_bytes() == second.qrels.read_bytes()
    assert first.runs[0].read_bytes() == second.runs[0].read_bytes()
    lines = first.runs[0].read_text().splitlines()
    assert len(lines) == 20 * 5
    scores = [float(line.split()[4]) for line in lines[:5]]
    assert scores == sorted(scores, reverse=True)
    assert len(set(scores)) == 5


@pytest.mark.slow
def test_benchmark_runs_on_a_small_size(tmp_path, capsys):
    pytest.importorskip("pytrec_eval")
    run = load("run")
    run.main(["--scenarios", "small", "--repeat", "1", "--work", str(tmp_path)])
    table = capsys.readouterr().out
    assert "| small | reportgen |" in table
    assert "pytrec_eval max abs diff" in table
