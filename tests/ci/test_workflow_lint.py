"""The workflows and the action pass GitHub's schemas and zizmor's security audit, offline.

check-jsonschema ships GitHub's workflow and action schemas (no download); zizmor
--offline skips only the audits that ask GitHub's API.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
SHA_PIN = re.compile(r"uses:\s*[\w.-]+/[\w./-]+@[0-9a-f]{40}\s+#\s*v\d")


def _tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed (pip install -e '.[dev]' installs it)")
    return found


def check_jsonschema(schema: str, files: list[Path]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_tool("check-jsonschema"), "--builtin-schema", schema, *map(str, files)],
        capture_output=True,
        text=True,
        check=False,
    )


def zizmor(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [_tool("zizmor"), "--offline", "--format", "json", "--no-progress", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


def serious(done: subprocess.CompletedProcess[str]) -> list[str]:
    """zizmor's findings rated medium or high, one line each."""
    # zizmor exits 0 with no finding, 10-14 by the worst severity, anything else on error.
    assert done.returncode == 0 or 10 <= done.returncode <= 14, done.stderr
    return [
        f"{item['ident']} ({item['determinations']['severity']}): {item['desc']}"
        for item in json.loads(done.stdout)
        if item["determinations"]["severity"] in {"Medium", "High"}
    ]


def test_the_expected_workflows_exist() -> None:
    names = {path.name for path in WORKFLOWS}
    assert {"tests.yml", "report.yml", "comment.yml", "pages.yml"} <= names


def test_workflows_match_githubs_schema() -> None:
    done = check_jsonschema("vendor.github-workflows", WORKFLOWS)
    assert done.returncode == 0, done.stdout + done.stderr


def test_action_matches_githubs_schema() -> None:
    done = check_jsonschema("vendor.github-actions", [REPO / "action.yml"])
    assert done.returncode == 0, done.stdout + done.stderr


def test_zizmor_finds_nothing_medium_or_high() -> None:
    assert serious(zizmor(REPO)) == []


def test_zizmor_would_catch_an_injection(tmp_path: Path) -> None:
    """The audit is live: user text inside a run: script is a high finding."""
    bad = (REPO / ".github" / "workflows" / "report.yml").read_text() + (
        '      - run: echo "${{ github.event.pull_request.title }}"\n'
    )
    folder = tmp_path / ".github" / "workflows"
    folder.mkdir(parents=True)
    (folder / "report.yml").write_text(bad)
    found = serious(zizmor(tmp_path))
    assert any(line.startswith("template-injection") for line in found), found


def test_only_the_two_workflow_pattern_is_exempted() -> None:
    """Suppressions stay few and argued: workflow_run (the fork-safe comment) and `./`."""
    ignores = []
    for path in [*WORKFLOWS, REPO / "action.yml"]:
        for line in path.read_text().splitlines():
            for audit in re.findall(r"zizmor: ignore\[([\w-]+)\]", line):
                ignores.append((path.name, audit))
    assert sorted(set(ignores)) == [
        ("comment.yml", "dangerous-triggers"),
        ("pages.yml", "self-repository"),
        ("report.yml", "self-repository"),
    ]


def test_every_third_party_action_is_pinned_by_commit() -> None:
    for path in [*WORKFLOWS, REPO / "action.yml"]:
        for line in path.read_text().splitlines():
            if "uses:" in line and "uses: ./" not in line:
                assert SHA_PIN.search(line), f"{path.name}: {line.strip()}"


def test_no_expression_inside_a_run_script() -> None:
    """Values reach scripts through env:, so no text can become shell code."""
    for path in [*WORKFLOWS, REPO / "action.yml"]:
        in_run = False
        indent = 0
        for line in path.read_text().splitlines():
            stripped = line.lstrip()
            if in_run and stripped and len(line) - len(stripped) <= indent:
                in_run = False
            if stripped.startswith(("run:", "- run:")):
                in_run, indent = True, len(line) - len(stripped)
                assert "${{" not in stripped, f"{path.name}: {stripped}"
            elif in_run:
                assert "${{" not in line, f"{path.name}: {stripped}"


def actionlint(root: Path) -> subprocess.CompletedProcess[str]:
    """actionlint with ShellCheck named explicitly: alone, it skips ShellCheck silently."""
    return subprocess.run(
        [_tool("actionlint"), "-oneline", "-shellcheck", _tool("shellcheck")],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )


def test_actionlint_finds_nothing() -> None:
    done = actionlint(REPO)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_actionlint_checks_the_local_action_and_the_run_scripts(tmp_path: Path) -> None:
    """The lint is live: a misspelt input of `./` and an unquoted variable are caught."""
    (tmp_path / ".git").mkdir()  # how actionlint finds the project's root
    (tmp_path / "action.yml").write_text((REPO / "action.yml").read_text())
    folder = tmp_path / ".github" / "workflows"
    folder.mkdir(parents=True)
    (folder / "report.yml").write_text(
        (REPO / ".github" / "workflows" / "report.yml").read_text()
        + "      - uses: ./\n        with:\n          golld: gold.jsonl\n          runs: r.jsonl\n"
        + "      - run: cat $RUNNER_TEMP/x\n"
    )
    done = actionlint(tmp_path)
    assert done.returncode == 1, done.stderr
    assert 'input "golld" is not defined in action "reportgen"' in done.stdout
    assert "SC2086" in done.stdout


SCRIPTS = sorted([*(REPO / "action").glob("*.sh"), *(REPO / "scripts").glob("*.sh")])


def test_shellcheck_finds_nothing_in_the_scripts() -> None:
    assert len(SCRIPTS) >= 4
    done = subprocess.run(
        [_tool("shellcheck"), "--format", "gcc", *map(str, SCRIPTS), str(REPO / ".ci" / "run")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, ""), done.stdout + done.stderr
