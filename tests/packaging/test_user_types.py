"""A user's project type-checks against the installed wheel under mypy --strict: the
wheel ships py.typed, and the public API's types are complete (not Any)."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

USER_SCRIPT = """
import polars as pl

import reportgen

gold: dict[str, dict[str, int]] = {"q1": {"c1": 2}, "q2": {"c3": 1}}
runs = {"bm25": {"q1": ["c1", "c2"], "q2": ["c3"]}, "dense": {"q1": ["c2"], "q2": ["c3"]}}
results: reportgen.Results = reportgen.evaluate(gold, runs, k=[1, 5], context_k=5)
means: pl.DataFrame = results.means
names: list[str] = results.runs
compared: pl.DataFrame = results.compare("bm25", "dense")
print(means.row(0, named=True)["hit@1"], names, compared.height, results.per_question.height)
"""

WRONG_SCRIPT = """
import reportgen

results = reportgen.evaluate({"q1": ["c1"]}, {"q1": ["c1"]})
name: str = results.runs
"""


@pytest.mark.slow
def test_a_user_script_type_checks_strictly_against_the_wheel(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(REPO)],
        check=True,
    )
    (wheel,) = wheels.glob("reportgen-*.whl")
    assert "reportgen/py.typed" in zipfile.ZipFile(wheel).namelist()
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run([python, "-m", "pip", "install", "-q", str(wheel), "mypy>=1.10"], check=True)
    project = tmp_path / "project"  # away from the source tree: only the wheel is importable
    project.mkdir()
    (project / "analysis.py").write_text(USER_SCRIPT)
    (project / "wrong.py").write_text(WRONG_SCRIPT)

    def mypy(script: str) -> subprocess.CompletedProcess[str]:
        command = [python, "-m", "mypy", "--strict", "--no-incremental", script]
        return subprocess.run(command, cwd=project, capture_output=True, text=True, check=False)

    checked = mypy("analysis.py")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    ran = subprocess.run(
        [python, "analysis.py"], cwd=project, capture_output=True, text=True, check=True
    )
    assert ran.stdout == "1.0 ['bm25', 'dense'] 9 4\n"
    # the types are real: a wrong use is caught, as it would not be if they were Any
    wrong = mypy("wrong.py")
    assert wrong.returncode == 1 and 'has type "list[str]"' in wrong.stdout, wrong.stdout
