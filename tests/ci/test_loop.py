"""The loop users live in, end to end and offline: PR report -> comment -> merge -> publish
-> the next PR's baseline.

A temporary repository with a bare `origin` (reached as file://, as GITHUB_SERVER_URL
and GITHUB_REPOSITORY point to it) holds main and, once published, gh-pages. Each
"workflow run" is action.yml's steps run by tests/ci/action_runner.py with the env:
and if: that action.yml gives them, the variables GitHub sets (GITHUB_OUTPUT,
GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH with a pull_request event, RUNNER_TEMP, ...),
and a stand-in `gh` that keeps the PR comments. Only setup-python and the install step
(a virtualenv and a pip install from the network) are stood in for: their outputs point
to this checkout's reportgen. The one liberty: `github.server_url` (whose run page is
the default report-url) is https://github.test, while GITHUB_SERVER_URL, which the
scripts' git uses, is the file:// origin.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.ci.action_runner import ActionRun, run_action
from tests.ci.github_stand_ins import gh_state, install_fake_gh, pull_request_event, runner_env

pytestmark = pytest.mark.slow  # six workflow runs of real reports and publishes: ~40 s here

REPO = Path(__file__).resolve().parents[2]
QUESTIONS = [f"q{i}" for i in range(8)]
MARKER = "<!-- reportgen -->"
RULES = {"max-drop": "recall@5=0.02", "min": "hit@5=0.4"}


class Project:
    """The user's repository, its origin, and the runs GitHub would make of it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.server = root / "server"
        self.origin = self.server / "acme" / "rag"
        self.work = root / "work"
        self.bin = root / "bin"
        self.run_id = 100
        self.clock = 1_764_000_000
        self.origin.mkdir(parents=True)
        self.git("init", "-q", "--bare", "-b", "main", str(self.origin))
        self.git("init", "-q", "-b", "main", str(self.work))
        self.git("-C", str(self.work), "remote", "add", "origin", str(self.origin))
        install_fake_gh(self.bin)
        shim = self.bin / "reportgen"
        shim.write_text(
            f'#!/usr/bin/env bash\nPYTHONPATH="{REPO}" exec "{sys.executable}" -m reportgen "$@"\n'
        )
        shim.chmod(0o755)

    def git(self, *args: str) -> str:
        env = {
            **os.environ,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_AUTHOR_NAME": "dev",
            "GIT_AUTHOR_EMAIL": "dev@example.org",
            "GIT_COMMITTER_NAME": "dev",
            "GIT_COMMITTER_EMAIL": "dev@example.org",
        }
        env.pop("GIT_DIR", None)
        done = subprocess.run(["git", *args], capture_output=True, text=True, env=env, check=True)
        return done.stdout.strip()

    def commit(self, branch: str, misses: dict[str, int], message: str) -> str:
        """Commit eval/ on ``branch`` (a new one starts from main): each run misses its
        first N questions."""
        known = self.git("-C", str(self.work), "branch", "--list", branch)
        if branch != "main":
            self.git(
                "-C",
                str(self.work),
                "checkout",
                "-q",
                *([branch] if known else ["-b", branch, "main"]),
            )
        evaluation = self.work / "eval"
        (evaluation / "runs").mkdir(parents=True, exist_ok=True)
        (evaluation / "gold.jsonl").write_text(
            "".join(json.dumps({"id": q, "gold": [f"kb-{q}"]}) + "\n" for q in QUESTIONS)
        )
        for name, missed in misses.items():
            (evaluation / "runs" / f"{name}.jsonl").write_text(
                "".join(
                    json.dumps({"id": q, "chunks": ["kb-other", f"kb-{q}" if i >= missed else "x"]})
                    + "\n"
                    for i, q in enumerate(QUESTIONS)
                )
            )
        self.git("-C", str(self.work), "add", "-A")
        self.git("-C", str(self.work), "commit", "-q", "--allow-empty", "-m", message)
        self.git("-C", str(self.work), "push", "-q", "origin", f"HEAD:refs/heads/{branch}")
        return self.git("-C", str(self.work), "rev-parse", "HEAD")

    def merge(self, branch: str) -> str:
        """Fast-forward main to ``branch``, as a merged pull request leaves it."""
        self.git("-C", str(self.work), "checkout", "-q", "-B", "main", branch)
        self.git("-C", str(self.work), "push", "-q", "origin", "HEAD:refs/heads/main")
        return self.git("-C", str(self.work), "rev-parse", "HEAD")

    def workflow_run(
        self,
        event: str,
        sha: str,
        inputs: dict[str, str],
        pr: int | None = None,
        *,
        shallow: bool = False,
        push: dict[str, Any] | None = None,
    ) -> tuple[ActionRun, dict[str, str]]:
        """One run of the action on a fresh runner, checked out at ``sha``: the whole
        history, or with ``shallow`` as actions/checkout's default fetch-depth 1 does
        (one commit, fetched by its hash). ``push`` is the push event's payload
        (before, forced), which ${{ github.event }} reads too."""
        self.run_id += 1
        self.clock += 3600
        runner = self.root / f"run-{self.run_id}"
        workspace = runner / "workspace"
        runner.mkdir()
        if shallow:
            self.git("init", "-q", str(workspace))
            self.git("-C", str(workspace), "remote", "add", "origin", f"file://{self.origin}")
            self.git(
                "-C", str(workspace), "fetch", "-q", "--no-tags", "--depth=1", "origin",
                f"+{sha}:refs/remotes/origin/main",
            )  # fmt: skip
        else:  # by URL, as over the network: objects no branch holds are not copied
            self.git("clone", "-q", f"file://{self.origin}", str(workspace))
        self.git("-C", str(workspace), "checkout", "-q", sha)
        event_path = runner / "event.json"
        if pr is None:
            event_path.write_text(
                json.dumps({"ref": "refs/heads/main", "after": sha, **(push or {})})
            )
        else:
            pull_request_event(event_path, pr, sha, "acme/rag")
        server_url = f"file://{self.server}"
        env = runner_env(
            runner,
            self.bin,
            GITHUB_EVENT_NAME=event,
            GITHUB_EVENT_PATH=str(event_path),
            GITHUB_SERVER_URL=server_url,
            GITHUB_REPOSITORY="acme/rag",
            GITHUB_SHA=sha,
            GITHUB_RUN_ID=str(self.run_id),
            GITHUB_WORKSPACE=str(workspace),
            SOURCE_DATE_EPOCH=str(self.clock),
            FAKE_GH_STATE=str(self.root / "gh-state.json"),
        )
        github = {
            # ${{ github.server_url }} is https on GitHub; git cannot reach an https
            # origin offline, so only the variable the scripts' git uses is file://.
            "server_url": "https://github.test",
            "repository": "acme/rag",
            "run_id": str(self.run_id),
            "token": "job-token",
            "event_name": event,
            "sha": sha,
            "workspace": str(workspace),
            "event": json.loads(event_path.read_text()),
        }
        stand_ins = {
            "python": {"python-path": sys.executable},
            "install": {"reportgen": str(self.bin / "reportgen"), "python": sys.executable},
        }
        run = run_action(REPO, inputs, github, env, stand_ins, cwd=workspace)
        return run, env

    def branch_file(self, path: str) -> str:
        return self.git("--git-dir", str(self.origin), "show", f"gh-pages:{path}")

    def branch_files(self) -> set[str]:
        listing = self.git(
            "--git-dir", str(self.origin), "ls-tree", "-r", "--name-only", "gh-pages"
        )
        return set(listing.split())


def pr_inputs(**extra: str) -> dict[str, str]:
    return {
        "gold": "eval/gold.jsonl",
        "runs": "bm25=eval/runs/bm25.jsonl\nhybrid=eval/runs/hybrid.jsonl\n",
        "baseline-branch": "gh-pages",
        **RULES,
        "comment": "true",
        **extra,
    }


def main_inputs() -> dict[str, str]:
    return {
        "gold": "eval/gold.jsonl",
        "runs": "bm25=eval/runs/bm25.jsonl\nhybrid=eval/runs/hybrid.jsonl\n",
        "baseline-branch": "gh-pages",
        "publish": "true",
        "fail-on-gate": "false",
    }


def comments(project: Project) -> dict[str, list[dict[str, Any]]]:
    return gh_state(project.root / "gh-state.json")["comments"]  # type: ignore[no-any-return]


def report_of(run: ActionRun) -> dict[str, Any]:
    return json.loads((Path(run.outputs["report-dir"]) / "report.json").read_text())  # type: ignore[no-any-return]


def trend_points(index: str) -> set[tuple[str, str]]:
    """(version, run) of every point of the site's recall trend chart."""
    chart = index.split('id="chart-trend_recall"', 1)[1].split("</svg>", 1)[0]
    return set(
        re.findall(r'aria-label="version \(oldest to newest\): ([^;]+);[^"]*run: ([^;"]+);', chart)
    )


def test_the_loop(tmp_path: Path) -> None:
    project = Project(tmp_path)
    start = project.commit("main", {"bm25": 4, "hybrid": 0}, "the evaluation")
    project.git("--git-dir", str(project.origin), "symbolic-ref", "HEAD", "refs/heads/main")
    assert start

    # PR 1: nothing is published yet. No baseline: the max-drop rule passes, named.
    pr1 = project.commit("pr-1", {"bm25": 3, "hybrid": 0}, "tune bm25")
    run, env = project.workflow_run("pull_request", pr1, pr_inputs(), pr=1)
    steps = run.steps
    assert not run.failed, {k: (s.returncode, s.stdout, s.stderr) for k, s in steps.items()}
    assert "::notice::No branch 'gh-pages' yet, so no baseline" in steps["baseline"].stdout
    notice = "::notice::No baseline, so 1 max-drop rule was skipped and passed: "
    assert notice + "--max-drop recall@5=0.02." in steps["report"].stdout
    assert run.outputs["gate"] == "passed" and run.outputs["version"] == pr1[:7]
    assert report_of(run)["baseline"] is None
    summary = Path(run.outputs["summary-path"]).read_text()
    assert Path(env["GITHUB_STEP_SUMMARY"]).read_text() == summary
    # The run page is the default report-url: the summary and the comment link to it.
    header = summary.splitlines()[3]
    assert header.endswith("· [full report](https://github.test/acme/rag/actions/runs/101)")
    assert "> [!NOTE]\n> No baseline, so 1 max-drop rule was skipped" in summary
    [comment] = comments(project)["acme/rag#1"]
    assert comment["body"] == summary and summary.startswith(MARKER)
    assert run.outputs["comment-url"].endswith(f"#issuecomment-{comment['id']}")
    assert not steps["publish"].ran

    # Merge PR 1: main publishes its report as the site's first version.
    v1 = project.merge("pr-1")[:7]
    run, _ = project.workflow_run(
        "push", project.git("-C", str(project.work), "rev-parse", "HEAD"), main_inputs()
    )
    assert not run.failed, {k: (s.returncode, s.stdout, s.stderr) for k, s in run.steps.items()}
    assert not run.steps["comment"].ran
    assert f"Published {v1} on 'gh-pages' (attempt 1)." in run.steps["publish"].stdout
    assert [
        json.loads(line)["version"] for line in project.branch_file("history.jsonl").splitlines()
    ] == [v1]
    assert f"{v1}/index.html" in project.branch_files()
    assert (Path(run.outputs["site-dir"]) / v1 / "report.json").is_file()

    # PR 2, first push: compared with v1 from the pages branch; it passes and comments.
    pr2 = project.commit("pr-2", {"bm25": 3, "hybrid": 0}, "refactor, numbers unchanged")
    url = "https://ci.example.org/acme/rag/runs/pr-2"
    run, _ = project.workflow_run("pull_request", pr2, pr_inputs(**{"report-url": url}), pr=2)
    assert not run.failed, {k: (s.returncode, s.stdout, s.stderr) for k, s in run.steps.items()}
    assert report_of(run)["baseline"]["version"] == v1
    assert "Commented on PR #2" in run.steps["comment"].stdout
    [first] = comments(project)["acme/rag#2"]

    # PR 2, second push: hybrid regresses. The gate fails (exit 1), and everything is
    # still written: the HTML, the summary, the comment (edited, not a second one).
    regressed = project.commit("pr-2", {"bm25": 3, "hybrid": 4}, "a cheaper embedding")
    run, env = project.workflow_run(
        "pull_request", regressed, pr_inputs(**{"report-url": url}), pr=2
    )
    assert run.failed and run.steps["report"].returncode == 1
    assert "::error::The quality gate failed" in run.steps["report"].stdout
    assert run.outputs["gate"] == "failed"
    report = report_of(run)
    assert report["baseline"]["version"] == v1
    assert report["baseline"]["selection"]["rule"] == "same_gold"
    [drop] = [
        rule
        for rule in report["gate"]["rules"]
        if rule["type"] == "max-drop" and rule["run"] == "hybrid"
    ]
    assert not drop["passed"] and drop["drop"] == pytest.approx(0.5)  # 8/8 -> 4/8 found
    html = Path(run.outputs["html-path"]).read_text()
    assert (
        html.lstrip().lower().startswith("<!doctype html")
        and "Quality gate FAILED: 1 of 4 rules failed" in html
    )
    summary = Path(run.outputs["summary-path"]).read_text()
    assert (
        "#### Quality gate FAILED: 1 of 4 rules failed ❌" in summary
        and f"· [full report]({url})\n" in summary
    )
    assert run.steps["comment"].ran and run.steps["comment"].returncode == 0
    assert "Updated the comment on PR #2" in run.steps["comment"].stdout
    [edited] = comments(project)["acme/rag#2"]
    assert edited["id"] == first["id"] and edited["body"] == summary
    assert len(comments(project)["acme/rag#1"]) == 1
    calls = gh_state(project.root / "gh-state.json")["calls"]
    assert {call["token"] for call in calls} == {"job-token"}
    assert not run.steps["publish"].ran

    # Merge PR 3 (PR 2 was abandoned): v2 is published beside v1; the trend has two points.
    project.commit("pr-3", {"bm25": 2, "hybrid": 0}, "better bm25")
    v2 = project.merge("pr-3")[:7]
    run, _ = project.workflow_run(
        "push", project.git("-C", str(project.work), "rev-parse", "HEAD"), main_inputs()
    )
    assert not run.failed, {k: (s.returncode, s.stdout, s.stderr) for k, s in run.steps.items()}
    assert report_of(run)["baseline"]["version"] == v1
    history = [
        json.loads(line)["version"] for line in project.branch_file("history.jsonl").splitlines()
    ]
    assert history == [v1, v2]
    assert {
        f"{v1}/index.html",
        f"{v2}/index.html",
        f"{v1}/report.json",
        f"{v2}/report.json",
    } <= project.branch_files()
    index = project.branch_file("index.html")
    assert trend_points(index) == {(v1, "bm25"), (v1, "hybrid"), (v2, "bm25"), (v2, "hybrid")}
