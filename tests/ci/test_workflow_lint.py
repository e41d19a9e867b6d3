"""The workflows, the action and the recipes of docs/ci.md pass GitHub's schemas, zizmor's
security audit and actionlint, offline.

check-jsonschema ships GitHub's workflow and action schemas (no download); zizmor
--offline skips only the audits that ask GitHub's API. The recipes are the YAML blocks
of docs/ci.md, each a whole file (``yaml file=PATH``), written out as a reader would.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((REPO / ".github" / "workflows").glob("*.yml"))
CI_PAGE = REPO / "docs" / "ci.md"
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```", re.S | re.M)
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


def recipes() -> list[tuple[str, str]]:
    """(path, text) of every YAML block of docs/ci.md; a block without file= is ("", text)."""
    found = []
    for language, info, body in FENCE.findall(CI_PAGE.read_text(encoding="utf-8")):
        if language in ("yaml", "yml"):
            path = re.search(r"file=(\S+)", info)
            found.append((path[1] if path else "", body))
    return found


@pytest.fixture
def recipe_root(tmp_path: Path) -> Path:
    """The recipes written out as a reader's repository holds them."""
    (tmp_path / ".git").mkdir()  # how actionlint finds the project's root
    for name, body in recipes():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    return tmp_path


def recipe_workflows(root: Path) -> list[Path]:
    return sorted((root / ".github" / "workflows").glob("*.yml"))


def test_every_recipe_is_a_whole_file() -> None:
    """Copy-paste complete: no fragment to splice into something else."""
    found = recipes()
    assert [body[:60] for name, body in found if not name] == []
    names = [name for name, _ in found]
    assert len(names) == len(set(names)), names
    assert {
        ".github/workflows/reportgen.yml",
        ".github/workflows/reportgen-pr.yml",
        ".github/workflows/reportgen-comment.yml",
        ".github/workflows/reportgen-pages.yml",
        ".github/workflows/reportgen-gold.yml",
        ".gitlab-ci.yml",
    } <= set(names)


def test_recipes_match_githubs_and_gitlabs_schemas(recipe_root: Path) -> None:
    done = check_jsonschema("vendor.github-workflows", recipe_workflows(recipe_root))
    assert done.returncode == 0, done.stdout + done.stderr
    done = check_jsonschema("vendor.gitlab-ci", [recipe_root / ".gitlab-ci.yml"])
    assert done.returncode == 0, done.stdout + done.stderr


def test_zizmor_finds_nothing_medium_or_high_in_the_recipes(recipe_root: Path) -> None:
    # OWNER is a placeholder the reader replaces (and is told to pin by commit); every
    # other action must be pinned by commit, as zizmor's default policy demands.
    config = recipe_root / "zizmor.yml"
    config.write_text(
        'rules:\n  unpinned-uses:\n    config:\n      policies:\n        "OWNER/*": ref-pin\n'
    )
    done = subprocess.run(
        [
            *(_tool("zizmor"), "--offline", "--config", str(config), "--format", "json"),
            *("--no-progress", str(recipe_root / ".github")),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert serious(done) == []


def test_actionlint_finds_nothing_in_the_recipes(recipe_root: Path) -> None:
    """The workflows a reader copies check clean, their run: scripts through ShellCheck."""
    done = actionlint(recipe_root)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def _steps_after_the_report(workflow: Path) -> list[tuple[str, dict[str, object]]]:
    """(job, step) for every step after reportgen's in each job of ``workflow``."""
    found = []
    document = YAML(typ="safe").load(workflow.read_text())
    for job_name, job in document["jobs"].items():
        steps = job.get("steps", [])
        report = [
            i
            for i, step in enumerate(steps)
            if re.match(r"(OWNER/reportgen|\./)(@|$)", str(step.get("uses", "")))
        ]
        found += [(job_name, step) for step in steps[report[0] + 1 :]] if report else []
    return found


def test_every_step_after_the_report_runs_when_the_gate_failed(recipe_root: Path) -> None:
    """A failed gate fails the report step: the artifact and the comment are needed then."""
    checked = 0
    for workflow in [*recipe_workflows(recipe_root), *WORKFLOWS]:
        for job, step in _steps_after_the_report(workflow):
            condition = str(step.get("if", ""))
            assert "!cancelled()" in condition or "always()" in condition, (
                workflow.name,
                job,
                step,
            )
            checked += 1
    assert checked >= 8


def test_no_recipe_runs_this_repositorys_own_scripts(recipe_root: Path) -> None:
    """A reader's repository has no action/, scripts/ or .ci/ of reportgen's."""
    for workflow in recipe_workflows(recipe_root):
        text = workflow.read_text()
        assert "uses: ./" not in text, workflow.name
        assert not re.search(r"(?<![\w.-])(action|scripts|\.ci)/[\w.-]+\.(sh|py)\b|\.ci/run", text)
        assert re.search(r"uses: OWNER/reportgen@v1\b", text) or "workflow_run" in text


def test_the_recipes_use_the_actions_inputs_it_has(recipe_root: Path) -> None:
    declared = set(YAML(typ="safe").load((REPO / "action.yml").read_text())["inputs"])
    for workflow in recipe_workflows(recipe_root):
        document = YAML(typ="safe").load(workflow.read_text())
        for job in document["jobs"].values():
            for step in job.get("steps", []):
                if str(step.get("uses", "")).startswith("OWNER/reportgen@"):
                    assert set(step.get("with", {})) <= declared, workflow.name


def test_the_fork_recipe_says_which_copy_of_the_workflow_runs() -> None:
    page = CI_PAGE.read_text()
    section = page.split("## Recipe: pull requests from forks", 1)[1].split("\n## ", 1)[0]
    assert "from your default branch, never the pull request's copy" in section
    assert "workflow_run" in section


def test_the_pages_recipe_queues_its_deployments() -> None:
    [(_, body)] = [item for item in recipes() if item[0].endswith("reportgen-pages.yml")]
    document = YAML(typ="safe").load(body)
    deploy = document["jobs"]["deploy"]
    assert deploy["concurrency"]["cancel-in-progress"] is False
    assert "concurrency" not in document and "concurrency" not in document["jobs"]["publish"]
    assert deploy["steps"][0]["with"]["ref"] == "gh-pages"
    assert "Source: GitHub Actions" in CI_PAGE.read_text()


def test_pages_deploys_the_default_branchs_docs_not_the_runs_commit() -> None:
    """A re-run of an old main run deploys last: the docs it adds must be main's newest."""
    document = YAML(typ="safe").load((REPO / ".github/workflows/pages.yml").read_text())
    checkouts = [
        step.get("with", {})
        for step in document["jobs"]["deploy"]["steps"]
        if str(step.get("uses", "")).startswith("actions/checkout@")
    ]
    assert [given.get("ref") for given in checkouts] == [
        "${{ github.event.repository.default_branch }}",
        "gh-pages",
    ]
