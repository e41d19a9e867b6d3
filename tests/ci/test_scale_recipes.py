"""docs/scale.md's recipes, run as far as this machine allows: the GitHub Actions matrix
is linted like docs/ci.md's and its run: steps executed job by job (artifacts are the
shared folder), the Slurm array runs as a loop over $SLURM_ARRAY_TASK_ID, and the Dask
script on a LocalCluster. Each sharded result is checked against the unsharded report."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from ruamel.yaml import YAML

from reportgen.api import example_dir
from reportgen.load import load_run
from tests.ci.test_workflow_lint import FENCE, _tool, actionlint, check_jsonschema, serious
from tests.scale.test_merge_whole import differences

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "scale.md"
WORKFLOW = ".github/workflows/reportgen-sharded.yml"
BIN = Path(sys.executable).parent


def recipe(name: str) -> str:
    for _, info, body in FENCE.findall(PAGE.read_text(encoding="utf-8")):
        if f"file={name}" in info:
            return str(body)
    raise AssertionError(f"docs/scale.md has no block file={name}")


def prepare(root: Path) -> Path:
    """A reader's repository: the example's gold set and two of its runs as Parquet."""
    (root / "eval" / "runs").mkdir(parents=True)
    (root / "eval" / "gold.jsonl").write_bytes((example_dir() / "gold.jsonl").read_bytes())
    for name, source in (("bm25", "keyword.trec"), ("dense", "dense.jsonl")):
        results = load_run(example_dir() / "runs" / source).results
        results.rename({"qid": "id"}).write_parquet(root / "eval" / "runs" / f"{name}.parquet")
    return root


def sh(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    path = f"{BIN}{os.pathsep}{os.environ['PATH']}"
    return subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        cwd=cwd,
        env={**os.environ, "PATH": path, **env},
        capture_output=True,
        text=True,
        check=False,
    )


EPOCH = {"SOURCE_DATE_EPOCH": "1764547200"}
"""Every command of a recipe test runs at this time, so the labels and dates agree."""


def whole_report(root: Path, minimum: str) -> tuple[dict[str, object], int]:
    """The unsharded report of the recipe's inputs (from inside eval/, so that its files
    are named as in every shard folder), and its exit code under the gate."""
    done = sh(
        "reportgen report gold.jsonl bm25=runs/bm25.parquet dense=runs/dense.parquet "
        f"--context-k 5 --format json --min {minimum} --out ../whole",
        root / "eval",
        EPOCH,
    )
    assert done.returncode in (0, 1), done.stderr
    return json.loads((root / "whole" / "report.json").read_text()), done.returncode


def same_report(merged: dict[str, object], whole: dict[str, object]) -> None:
    """Key by key, but for the keys that say the report was merged."""
    assert merged.pop("merged_from")
    coverage = merged.pop("merge_coverage")  # every shard of the cut: nothing missing
    assert isinstance(coverage, dict) and coverage["missing_shards"] == []
    if "pages" not in whole:  # what the pages show: the recipe's merge writes them, the
        merged.pop("pages", None)  # JSON-only whole report does not
    assert differences(whole, merged) == []


@pytest.fixture
def workflow_root(tmp_path: Path) -> Path:
    (tmp_path / ".git").mkdir()  # how actionlint finds the project's root
    path = tmp_path / WORKFLOW
    path.parent.mkdir(parents=True)
    path.write_text(recipe(WORKFLOW), encoding="utf-8")
    return tmp_path


def test_the_matrix_recipe_passes_the_linters(workflow_root: Path) -> None:
    done = check_jsonschema("vendor.github-workflows", [workflow_root / WORKFLOW])
    assert done.returncode == 0, done.stdout + done.stderr
    done = actionlint(workflow_root)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    config = workflow_root / "zizmor.yml"
    config.write_text(
        'rules:\n  unpinned-uses:\n    config:\n      policies:\n        "OWNER/*": ref-pin\n'
    )
    found = subprocess.run(
        [
            *(_tool("zizmor"), "--offline", "--config", str(config), "--format", "json"),
            *("--no-progress", str(workflow_root / ".github")),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert serious(found) == []


def _steps(job: dict[str, object]) -> list[dict[str, object]]:
    """The job's run: steps, less installing reportgen (the test's own is on PATH)."""
    return [
        step
        for step in job["steps"]  # type: ignore[attr-defined]
        if "run" in step and not str(step.get("name", "")).startswith("Install")
    ]


def _run_job(job: dict[str, object], root: Path, env: dict[str, str]) -> list[int]:
    codes = []
    for step in _steps(job):
        step_env = {
            key: re.sub(r"\$\{\{\s*matrix\.shard\s*\}\}", env.get("MATRIX_SHARD", ""), str(value))
            for key, value in dict(step.get("env", {})).items()  # type: ignore[call-overload]
        }
        done = sh(str(step["run"]), root, {**env, **step_env})
        codes.append(done.returncode)
        if done.returncode != 0:
            break
    return codes


@pytest.mark.slow  # the Slurm recipe below runs the same shard, measure, merge commands
def test_the_matrix_recipe_gives_the_unsharded_report_and_gate(tmp_path: Path) -> None:
    """Every run: step of the shard, measure (each matrix value) and merge jobs, in order.

    Artifacts upload and download the same paths, so one folder stands for them.
    """
    root = prepare(tmp_path)
    workflow = YAML(typ="safe").load(recipe(WORKFLOW))
    outputs = root / "github_output"
    outputs.touch()
    env = {**{k: str(v) for k, v in workflow["env"].items()}, "GITHUB_OUTPUT": str(outputs)}
    env |= EPOCH
    assert _run_job(workflow["jobs"]["shard"], root, env) == [0, 0]
    listed = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    shards = json.loads(listed["shards"])
    assert shards == list(range(int(env["SHARDS"])))
    for shard in shards:
        assert (
            _run_job(workflow["jobs"]["measure"], root, {**env, "MATRIX_SHARD": str(shard)})[-1]
            == 0
        )
    merge_code = _run_job(workflow["jobs"]["merge"], root, env)[-1]
    minimum = re.search(r"--min (\S+)", workflow["jobs"]["merge"]["steps"][-2]["run"])
    assert minimum is not None
    whole, whole_code = whole_report(root, minimum[1])
    assert merge_code == whole_code  # the gate decides the same, sharded or not
    same_report(json.loads((root / "report" / "report.json").read_text()), whole)
    for page in ("index.html", "report.md", "summary.md"):  # the merge job reports
        assert (root / "report" / page).is_file()


@pytest.mark.slow
def test_the_slurm_array_runs_as_a_loop_over_the_task_ids(tmp_path: Path) -> None:
    root = prepare(tmp_path)
    script = root / "reportgen-array.sbatch"
    script.write_text(recipe("reportgen-array.sbatch"))
    lint = subprocess.run(
        [_tool("shellcheck"), "--format", "gcc", str(script)], capture_output=True, text=True
    )
    assert (lint.returncode, lint.stdout) == (0, ""), lint.stdout
    tasks = re.search(r"--array=0-(\d+)", script.read_text())
    assert tasks is not None
    count = int(tasks[1]) + 1
    done = sh(
        "reportgen shard eval/gold.jsonl bm25=eval/runs/bm25.parquet "
        f"dense=eval/runs/dense.parquet --shards {count} --out shards -q\n"
        f"for i in $(seq 0 {count - 1}); do\n"
        "  SLURM_ARRAY_TASK_ID=$i bash reportgen-array.sbatch\n"
        "done\n"
        "reportgen merge out/out-*/ --out report -q --min recall@5=0",
        root,
        EPOCH,
    )
    assert done.returncode == 0, done.stderr
    whole, _ = whole_report(root, "recall@5=0")
    same_report(json.loads((root / "report" / "report.json").read_text()), whole)


@pytest.mark.slow
def test_the_dask_recipe_on_a_local_cluster(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed", reason='pip install "dask[distributed]"')
    root = prepare(tmp_path)
    (root / "measure_dask.py").write_text(recipe("measure_dask.py"))
    done = sh(
        "reportgen shard eval/gold.jsonl bm25=eval/runs/bm25.parquet "
        "dense=eval/runs/dense.parquet --shards 3 --out shards -q\n"
        f"{sys.executable} measure_dask.py",
        root,
        EPOCH,
    )
    assert done.returncode == 0, done.stderr
    assert "merged 3 shards: 60 questions" in done.stdout
    whole, _ = whole_report(root, "recall@5=0")
    merged = json.loads((root / "out" / "report" / "report.json").read_text())
    merged.pop("gate")  # the recipe sets no rule: its gate is null
    whole.pop("gate")
    same_report(merged, whole)
    assert pl.read_parquet(root / "out" / "out-0" / "per_question.parquet").height > 0
