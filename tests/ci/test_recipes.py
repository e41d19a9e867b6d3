"""What the workflows and docs/ci.md's recipes promise beyond lint: merge queues, one
artifact name per matrix job, main-only publishing, retention, privacy, GitLab's JUnit."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.ci.test_workflow_lint import CI_PAGE, recipes

REPO = Path(__file__).resolve().parents[2]
OURS = REPO / ".github" / "workflows"


def load(text: str) -> dict[str, Any]:
    return YAML(typ="safe").load(text)  # type: ignore[no-any-return]


def workflow(name: str) -> dict[str, Any]:
    """One of ours (report.yml) or a recipe (reportgen-pages.yml)."""
    if (OURS / name).exists():
        return load((OURS / name).read_text())
    [body] = [body for path, body in recipes() if path.endswith("/" + name) or path == name]
    return load(body)


def triggers(document: dict[str, Any]) -> dict[str, Any]:
    # YAML 1.1 reads the key `on` as True.
    return document.get("on") or document[True]  # type: ignore[no-any-return]


PULL_REQUEST_WORKFLOWS = [
    "report.yml",
    "tests.yml",
    "reportgen.yml",
    "reportgen-pr.yml",
    "reportgen-gold.yml",
]


@pytest.mark.parametrize("name", PULL_REQUEST_WORKFLOWS)
def test_pull_request_checks_run_in_the_merge_queue(name: str) -> None:
    """A required check whose workflow lacks merge_group never reports in the queue."""
    document = workflow(name)
    assert "merge_group" in triggers(document)
    group = str((document.get("concurrency") or {}).get("group", ""))
    # Without a PR number every merge-queue run would share one group and cancel the others.
    assert not group or "|| github.ref" in group, group


def upload_steps() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for name in ["report.yml", "reportgen.yml", "reportgen-pr.yml", "reportgen-gold.yml"]:
        for job in workflow(name)["jobs"].values():
            for step in job.get("steps", []):
                if "upload-artifact" in str(step.get("uses", "")):
                    found.append((name, step))
    return found


def test_artifact_names_are_unique_per_matrix_job() -> None:
    steps = upload_steps()
    assert len(steps) >= 6
    for name, step in steps:
        given = step["with"]
        # With archive: false, the file's name is the artifact's name.
        named = given.get("name", "") if given.get("archive") is not False else given["path"]
        unique = "strategy.job-index" in named and "github.job" in named
        one_per_run = "strategy.job-index == 0" in str(step.get("if", ""))
        assert unique or one_per_run, (name, step)


@pytest.mark.parametrize("name", ["pages.yml", "reportgen-pages.yml"])
def test_only_the_default_branch_publishes(name: str, tmp_path: Path) -> None:
    """workflow_dispatch on another branch would put its report into main's history."""
    document = workflow(name)
    assert "workflow_dispatch" in triggers(document)
    [guard, *rest] = document["jobs"]["publish"]["steps"]
    assert guard["if"] == (
        "github.ref != format('refs/heads/{0}', github.event.repository.default_branch)"
    )
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", guard["run"]],
        env={"REF": "refs/heads/experiment", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 1
    assert done.stdout.startswith("::error::refs/heads/experiment is not the default branch")
    publishing = [step for step in rest if step.get("with", {}).get("publish") == "true"]
    assert publishing, "the guard must come before the step that publishes"


@pytest.mark.parametrize("name", ["pages.yml", "reportgen-pages.yml"])
def test_the_site_keeps_the_newest_50_versions(name: str) -> None:
    """One version of a large report is ~15 MB; Pages refuses sites over 1 GB."""
    [step] = [
        step
        for step in workflow(name)["jobs"]["publish"]["steps"]
        if step.get("with", {}).get("publish") == "true"
    ]
    assert step["with"]["publish-args"].split() == ["--keep", "50"]
    assert step["with"]["fail-on-gate"] == "false"


def test_the_pages_recipe_says_the_site_is_public() -> None:
    page = CI_PAGE.read_text()
    section = page.split("## Recipe: main publishes the site", 1)[1].split("\n## ", 1)[0]
    assert "**A Pages site is public**, even for most private repositories" in section
    assert "`--public` (ids and numbers only" in section


def test_the_gitlab_recipe_feeds_junit_and_pages() -> None:
    document = workflow(".gitlab-ci.yml")
    assert document["variables"]["GIT_DEPTH"] == 0
    report, pages = document["reportgen"], document["pages"]
    for job in (report, pages):
        script = " ".join(str(line) for line in job["script"])
        assert "--junit reportgen-junit.xml" in script
        assert job["artifacts"]["reports"]["junit"] == "reportgen-junit.xml"
        assert job["artifacts"]["when"] == "always"
    assert '--baseline-commit "$CI_MERGE_REQUEST_DIFF_BASE_SHA"' in " ".join(
        str(line) for line in report["script"]
    )
    assert report["artifacts"]["paths"] == ["reportgen-report/"]
    assert "reportgen publish reportgen-report --site public --keep 50 --public" in pages["script"]
    assert pages["artifacts"]["paths"] == ["public/"] and pages["resource_group"]


def test_the_action_compares_across_a_gold_change_by_default() -> None:
    """After a gold change merges, refusing would leave every new PR without a report."""
    action = load((REPO / "action.yml").read_text())
    assert action["inputs"]["on-gold-change"]["default"] == "intersect"


def gitlab_script(job: str, tmp_path: Path, site: bool) -> list[str]:
    """Run the GitLab recipe's ``job`` script as its runner would (one shell, -e), with
    stand-ins for curl (the previous `pages` artifact, or a 404 at first) and reportgen
    (records its arguments); the reportgen calls it made."""
    document = workflow(".gitlab-ci.yml")
    lines: list[str] = []
    for item in document[job]["script"]:
        lines.extend(item if isinstance(item, list) else [item])
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(parents=True)
    if site:
        archive = tmp_path / "pages.zip"
        with zipfile.ZipFile(archive, "w") as zipped:
            zipped.writestr("public/history.jsonl", '{"version": "v1"}\n')
        curl = f'#!/bin/sh\nwhile [ "$1" != --output ]; do shift; done\ncp "{archive}" "$2"\n'
    else:
        curl = "#!/bin/sh\necho 'curl: (22) The requested URL returned error: 404' >&2\nexit 22\n"
    (bin_dir / "curl").write_text(curl)
    (bin_dir / "reportgen").write_text(
        f'#!/bin/sh\necho "$*" >> "{tmp_path}/calls"\n'
        'if [ "$1" = publish ]; then mkdir -p public; fi\n'
    )
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    work = tmp_path / "work"
    work.mkdir()
    git = ["git", "-C", str(work), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    clean = {key: value for key, value in os.environ.items() if key != "GIT_DIR"}
    subprocess.run([*git, "init", "-q"], check=True, env=clean)
    for message in ("one", "two"):
        subprocess.run(
            [*git, "commit", "-q", "--allow-empty", "-m", message], check=True, env=clean
        )
    env = {
        **clean,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        "CI_JOB_TOKEN": "t",
        "CI_API_V4_URL": "https://gitlab.test/api/v4",
        "CI_PROJECT_ID": "1",
        "CI_DEFAULT_BRANCH": "main",
        "CI_MERGE_REQUEST_DIFF_BASE_SHA": "b" * 40,
    }
    done = subprocess.run(
        ["sh", "-e", "-c", "\n".join(lines)], cwd=work, env=env, capture_output=True, text=True,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return (tmp_path / "calls").read_text().splitlines()


@pytest.mark.skipif(shutil.which("unzip") is None, reason="needs unzip, as the recipe's image")
@pytest.mark.parametrize("job", ["reportgen", "pages"])
def test_the_gitlab_recipe_compares_with_the_site_once_there_is_one(
    job: str, tmp_path: Path
) -> None:
    [first, *publish] = gitlab_script(job, tmp_path / "first", site=False)
    assert "--baseline" not in first and "--junit reportgen-junit.xml" in first
    [later, *_] = gitlab_script(job, tmp_path / "later", site=True)
    parent = "b" * 40 if job == "reportgen" else ""
    assert re.search(
        rf"--baseline public --baseline-commit {parent or '[0-9a-f]{40}'} --on-gold-change "
        "intersect",
        later,
    ), later
    assert publish == (
        [] if job == "reportgen" else ["publish reportgen-report --site public --keep 50 --public"]
    )
