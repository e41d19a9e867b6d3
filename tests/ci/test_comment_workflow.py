"""The `workflow_run` comment workflow (comment.yml, and its recipe in docs/ci.md), run as
GitHub would: its jobs in order, each `if:` and `env:` evaluated from the workflow file,
job outputs passed through `needs`, every `run:` through bash -eo pipefail, against a
stand-in `gh` that implements `--jq` and `run download`."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.ci.action_runner import Evaluator, read_outputs
from tests.ci.github_stand_ins import gh_state, install_fake_gh, runner_env
from tests.ci.test_workflow_lint import recipes

REPO = Path(__file__).resolve().parents[2]
MARKER = "<!-- reportgen -->"
SHA = "a" * 40
BOT = {"login": "github-actions[bot]"}


def workflows() -> dict[str, str]:
    """This repository's comment workflow and the recipe a reader copies."""
    [recipe] = [body for name, body in recipes() if name.endswith("reportgen-comment.yml")]
    return {
        "comment.yml": (REPO / ".github" / "workflows" / "comment.yml").read_text(),
        "recipe": recipe,
    }


@pytest.fixture(params=["comment.yml", "recipe"])
def workflow(request: pytest.FixtureRequest) -> dict[str, Any]:
    return YAML(typ="safe").load(workflows()[request.param])  # type: ignore[no-any-return]


def run_workflow(
    workflow: dict[str, Any], tmp_path: Path, event: dict[str, Any], run: str = "run"
) -> dict[str, list[subprocess.CompletedProcess[str]]]:
    """Every job in order (needs before), as the runner would; what each step printed."""
    github = {"token": "job-token", "repository": "acme/rag", "event": event}
    env = runner_env(tmp_path, tmp_path / "bin")
    needs: dict[str, Any] = {}
    printed: dict[str, list[subprocess.CompletedProcess[str]]] = {}
    for name, job in workflow["jobs"].items():
        context = {"github": github, "needs": needs}
        if not Evaluator(context).condition(str(job.get("if", "success()"))):
            continue
        workspace = tmp_path / run / name
        workspace.mkdir(parents=True)
        step_outputs: dict[str, Any] = {}
        printed[name] = []
        for number, step in enumerate(job["steps"]):
            evaluator = Evaluator({**context, "steps": step_outputs})
            output = workspace / f"output-{number}"
            output.touch()
            done = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                cwd=workspace,
                env={
                    **env,
                    **{key: evaluator.template(str(value)) for key, value in step["env"].items()},
                    "GITHUB_OUTPUT": str(output),
                },
                capture_output=True,
                text=True,
                check=False,
            )
            printed[name].append(done)
            step_outputs[step.get("id", f"s{number}")] = {"outputs": read_outputs(output)}
            if done.returncode:
                break
        evaluator = Evaluator({**context, "steps": step_outputs})
        outputs = {key: evaluator.template(value) for key, value in job.get("outputs", {}).items()}
        needs[name] = {"outputs": outputs}
    return printed


def event(head_sha: str = SHA) -> dict[str, Any]:
    return {
        "workflow_run": {
            "event": "pull_request",
            "conclusion": "success",
            "id": 555,
            "html_url": "https://github.test/acme/rag/actions/runs/555",
            "head_sha": head_sha,
            "head_branch": "main",
        }
    }


def state(tmp_path: Path, pr_number: str = "7", *comments: dict[str, Any]) -> Path:
    """The stand-in gh: the report run's artifact, PR #7 at SHA, and its comments."""
    path = tmp_path / "gh-state.json"
    artifact = {"comment.md": f"{MARKER}\n### Retrieval report\n", "pr-number": pr_number + "\n"}
    path.write_text(
        json.dumps(
            {
                "calls": [],
                "comments": {"acme/rag#7": list(comments)},
                "next_id": 1000,
                "pulls": {"acme/rag#7": {"head": {"sha": SHA}}},
                "artifacts": {"555": {"reportgen-comment": artifact}},
            }
        )
    )
    install_fake_gh(tmp_path / "bin")
    return path


def bodies(path: Path) -> list[str]:
    return [c["body"] for c in gh_state(path)["comments"]["acme/rag#7"]]


def test_posts_once_then_edits_its_own_comment_only(
    workflow: dict[str, Any], tmp_path: Path
) -> None:
    person = {"id": 1, "body": f"{MARKER}\ncopied by a person", "user": {"login": "ana"}}
    path = state(tmp_path, "7", person)
    first = run_workflow(workflow, tmp_path, event(), "run1")
    assert [done.returncode for job in first.values() for done in job] == [0, 0], first
    assert "Commented on PR #7." in first["comment"][0].stdout
    # A maintainer adds a note above the marker; the next run still edits that comment.
    saved = gh_state(path)
    saved["comments"]["acme/rag#7"][1]["body"] = "Note: flaky run.\n\n" + bodies(path)[1]
    path.write_text(json.dumps(saved))
    second = run_workflow(workflow, tmp_path, event(), "run2")
    assert "Updated the comment on PR #7." in second["comment"][0].stdout
    found = bodies(path)
    assert found[0] == person["body"] and len(found) == 2
    assert found[1].startswith(f"{MARKER}\n### Retrieval report\n")
    assert "runs/555" in found[1]


def test_a_pr_that_moved_on_gets_nothing(workflow: dict[str, Any], tmp_path: Path) -> None:
    path = state(tmp_path)
    done = run_workflow(workflow, tmp_path, event(head_sha="b" * 40))
    assert "::notice::PR #7 has moved past the commit" in done["comment"][0].stdout
    assert bodies(path) == []


def test_no_artifact_is_a_notice_and_no_comment_job(
    workflow: dict[str, Any], tmp_path: Path
) -> None:
    path = state(tmp_path)
    saved = gh_state(path)
    saved["artifacts"] = {}
    path.write_text(json.dumps(saved))
    done = run_workflow(workflow, tmp_path, event())
    assert list(done) == ["pr"]
    assert "::notice::The report run left no comment" in done["pr"][0].stdout


def test_a_pr_number_that_is_not_a_number_stops(workflow: dict[str, Any], tmp_path: Path) -> None:
    state(tmp_path, "7; rm -rf /")
    done = run_workflow(workflow, tmp_path, event())
    assert list(done) == ["pr"] and done["pr"][0].returncode == 1
    assert "::error::The report run's PR number is not a number." in done["pr"][0].stdout


def test_a_gh_failure_is_one_line_with_its_fix(workflow: dict[str, Any], tmp_path: Path) -> None:
    path = state(tmp_path)
    saved = gh_state(path)
    del saved["pulls"]["acme/rag#7"]  # answers 404
    path.write_text(json.dumps(saved))
    done = run_workflow(workflow, tmp_path, event())
    [step] = done["comment"]
    assert step.returncode == 3
    [line] = [line for line in step.stdout.splitlines() if line.startswith("::error::")]
    assert "HTTP 404" in line and "Fix: " in line


def test_comments_are_queued_per_pull_request_not_per_branch(workflow: dict[str, Any]) -> None:
    """Forks share branch names (main, patch-1): a group keyed by head_branch would let
    one PR's run cancel another's comment."""
    text = json.dumps(workflow)
    assert "head_branch" not in text
    assert "concurrency" not in workflow
    comment = workflow["jobs"]["comment"]
    assert re.fullmatch(
        r"[\w-]+-\$\{\{ needs\.pr\.outputs\.number \}\}", comment["concurrency"]["group"]
    )
    assert comment["concurrency"]["cancel-in-progress"] is False
