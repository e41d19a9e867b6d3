"""The sticky PR comment (action/comment.py) against a stand-in `gh` that keeps comments."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ci.github_stand_ins import gh_state, install_fake_gh, pull_request_event, runner_env

REPO = Path(__file__).resolve().parents[2]
COMMENT = REPO / "action" / "comment.py"
MARKER = "<!-- reportgen -->"


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    install_fake_gh(tmp_path / "bin")
    event = pull_request_event(tmp_path / "event.json", 7, "a" * 40, "acme/rag")
    summary = tmp_path / "summary.md"
    summary.write_text(f"{MARKER}\n### Retrieval report v1\n")
    (tmp_path / "output").touch()
    return runner_env(
        tmp_path,
        tmp_path / "bin",
        GITHUB_EVENT_NAME="pull_request",
        GITHUB_EVENT_PATH=str(event),
        GITHUB_REPOSITORY="acme/rag",
        GITHUB_SERVER_URL="https://github.com",
        GITHUB_OUTPUT=str(tmp_path / "output"),
        GH_TOKEN="job-token",
        SUMMARY=str(summary),
    )


def comment(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(COMMENT)], env=env, capture_output=True, text=True, check=False
    )


def comments(env: dict[str, str]) -> list[dict[str, object]]:
    return gh_state(Path(env["FAKE_GH_STATE"]))["comments"].get("acme/rag#7", [])


def test_the_first_run_posts_and_the_next_ones_edit_the_same_comment(
    env: dict[str, str], tmp_path: Path
) -> None:
    first = comment(env)
    assert first.returncode == 0, first.stdout + first.stderr
    assert (
        "Commented on PR #7: https://github.test/acme/rag/pull/7#issuecomment-1000" in first.stdout
    )
    Path(env["SUMMARY"]).write_text(f"{MARKER}\n### Retrieval report v2\n")
    for _ in range(2):
        again = comment(env)
        assert again.returncode == 0, again.stdout + again.stderr
        assert "Updated the comment on PR #7" in again.stdout
    [only] = comments(env)
    assert only["body"] == f"{MARKER}\n### Retrieval report v2\n"
    calls = gh_state(Path(env["FAKE_GH_STATE"]))["calls"]
    assert [(call["method"], call["path"].split("?")[0]) for call in calls] == [
        ("GET", "repos/acme/rag/issues/7/comments"),
        ("POST", "repos/acme/rag/issues/7/comments"),
        ("GET", "repos/acme/rag/issues/7/comments"),
        ("PATCH", "repos/acme/rag/issues/comments/1000"),
        ("GET", "repos/acme/rag/issues/7/comments"),
        ("PATCH", "repos/acme/rag/issues/comments/1000"),
    ]
    assert all(call["token"] == "job-token" for call in calls)
    assert all(call["paginate"] for call in calls if call["method"] == "GET")
    assert (
        "comment-url=https://github.test/acme/rag/pull/7#issuecomment-1000"
        in (tmp_path / "output").read_text()
    )


def test_the_comment_is_found_on_a_later_page_behind_other_comments(env: dict[str, str]) -> None:
    state = Path(env["FAKE_GH_STATE"])
    people = [{"id": i, "body": f"looks good {i}", "user": {"login": "ana"}} for i in (1, 2)]
    sticky = {"id": 3, "body": f"{MARKER}\nold", "user": {"login": "github-actions[bot]"}}
    quoting = {"id": 4, "body": f"> {MARKER}\n> old", "user": {"login": "ana"}}
    state.write_text(
        json.dumps(
            {"calls": [], "comments": {"acme/rag#7": [*people, sticky, quoting]}, "next_id": 9}
        )
    )
    done = comment(env)
    assert done.returncode == 0, done.stdout + done.stderr
    bodies = [c["body"] for c in comments(env)]
    assert bodies == [
        "looks good 1",
        "looks good 2",
        f"{MARKER}\n### Retrieval report v1\n",
        quoting["body"],
    ]


def test_a_summary_without_the_marker_gets_it_and_a_long_one_is_cut(env: dict[str, str]) -> None:
    Path(env["SUMMARY"]).write_text("# report.md\n" + "a line of the report\n" * 5000)
    done = comment(env)
    assert done.returncode == 0, done.stdout + done.stderr
    [posted] = comments(env)
    body = str(posted["body"])
    assert body.startswith(f"{MARKER}\n# report.md\n") and len(body) <= 60_100
    assert body.endswith("\n\n… cut here (GitHub's comment size limit).\n")


def test_a_fork_is_skipped_with_a_notice(env: dict[str, str], tmp_path: Path) -> None:
    pull_request_event(Path(env["GITHUB_EVENT_PATH"]), 7, "a" * 40, "acme/rag", "mallory/rag")
    done = comment(env)
    assert done.returncode == 0
    assert done.stdout.startswith("::notice::PR #7 comes from a fork")
    assert gh_state(Path(env["FAKE_GH_STATE"]))["calls"] == []


def test_a_push_is_skipped_with_a_notice(env: dict[str, str]) -> None:
    done = comment({**env, "GITHUB_EVENT_NAME": "push"})
    assert done.returncode == 0
    assert done.stdout.startswith("::notice::Not a pull request, so no comment")
    assert gh_state(Path(env["FAKE_GH_STATE"]))["calls"] == []


def test_a_token_without_the_permission_says_which_one(env: dict[str, str]) -> None:
    done = comment({**env, "FAKE_GH_FAIL": "403"})
    assert done.returncode == 2
    assert "::error::The token may not comment on this pull request" in done.stdout
    assert "Fix: give the job `permissions: pull-requests: write`." in done.stdout


def test_on_github_enterprise_server_gh_is_pointed_at_its_host() -> None:
    spec = importlib.util.spec_from_file_location("comment", COMMENT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    env = {"GITHUB_SERVER_URL": "https://git.acme.example", "GH_TOKEN": "t"}
    assert module.gh_env(env) == {**env, "GH_HOST": "git.acme.example", "GH_ENTERPRISE_TOKEN": "t"}
    for server in ("https://github.com", "file:///tmp/server"):
        assert module.gh_env({"GITHUB_SERVER_URL": server}) == {"GITHUB_SERVER_URL": server}
