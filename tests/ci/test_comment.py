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
        ("GET", "user"),
        ("GET", "repos/acme/rag/issues/7/comments"),
        ("POST", "repos/acme/rag/issues/7/comments"),
        ("GET", "repos/acme/rag/issues/7/comments"),  # did another job post at once?
        *[
            ("GET", "user"),
            ("GET", "repos/acme/rag/issues/7/comments"),
            ("PATCH", "repos/acme/rag/issues/comments/1000"),
        ]
        * 2,
    ]
    assert all(call["token"] == "job-token" for call in calls)
    assert all(call["paginate"] for call in calls if call["path"].endswith("comments?per_page=100"))
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


def seed(env: dict[str, str], *existing: dict[str, object]) -> None:
    """PR #7 already holds ``existing`` comments."""
    Path(env["FAKE_GH_STATE"]).write_text(
        json.dumps({"calls": [], "comments": {"acme/rag#7": list(existing)}, "next_id": 9})
    )


def test_a_persons_comment_with_the_marker_is_never_edited(env: dict[str, str]) -> None:
    """Only the token's own account is ours: GitHub refuses edits of others' comments."""
    copied = {"id": 1, "body": f"{MARKER}\ncopied by hand", "user": {"login": "ana"}}
    seed(env, copied)
    done = comment(env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Commented on PR #7" in done.stdout
    assert [c["body"] for c in comments(env)] == [
        copied["body"],
        f"{MARKER}\n### Retrieval report v1\n",
    ]


def test_a_note_above_the_marker_still_matches_ours(env: dict[str, str]) -> None:
    noted = {
        "id": 1,
        "body": f"Note from a maintainer: see #12.\n\n{MARKER}\nold",
        "user": {"login": "github-actions[bot]"},
    }
    seed(env, noted)
    done = comment(env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Updated the comment on PR #7" in done.stdout
    [only] = comments(env)
    assert only["id"] == 1 and only["body"] == f"{MARKER}\n### Retrieval report v1\n"


@pytest.mark.parametrize(
    ("extra", "author"),
    [
        ({"FAKE_GH_LOGIN": "eval-bot"}, "eval-bot"),
        ({"COMMENT_AUTHOR": "my-app[bot]"}, "my-app[bot]"),
    ],
)
def test_a_personal_or_app_token_finds_its_own_comment(
    env: dict[str, str], extra: dict[str, str], author: str
) -> None:
    """`gh api user` names a personal token's account; an App's is given as COMMENT_AUTHOR."""
    actions = {
        "id": 1,
        "body": f"{MARKER}\nby the job token",
        "user": {"login": "github-actions[bot]"},
    }
    mine = {"id": 2, "body": f"{MARKER}\nold", "user": {"login": author}}
    seed(env, actions, mine)
    done = comment({**env, **extra, "FAKE_GH_LOGIN": author})
    assert done.returncode == 0, done.stdout + done.stderr
    assert [c["body"] for c in comments(env)] == [
        actions["body"],
        f"{MARKER}\n### Retrieval report v1\n",
    ]


def test_two_jobs_posting_at_once_leave_one_comment(env: dict[str, str]) -> None:
    """Both saw no comment and both posted: the later one gives way to the older one."""
    done = comment({**env, "FAKE_GH_RACING_POST": f"{MARKER}\nthe other job's"})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "another job had just posted it" in done.stdout
    [only] = comments(env)
    assert only["id"] == 1000 and only["body"] == f"{MARKER}\n### Retrieval report v1\n"


@pytest.mark.slow  # five real jobs, each a Python and a dozen gh calls: ~10 s on 2 cores
def test_five_jobs_at_once_leave_one_comment(env: dict[str, str]) -> None:
    jobs = []
    for number in range(5):
        summary = Path(env["SUMMARY"]).with_name(f"summary{number}.md")
        summary.write_text(f"{MARKER}\n### Retrieval report of job {number}\n")
        jobs.append(
            subprocess.Popen(
                [sys.executable, str(COMMENT)],
                env={**env, "SUMMARY": str(summary)},
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
        )
    printed = [(job.wait(timeout=120), job.stdout.read() if job.stdout else "") for job in jobs]
    assert [code for code, _ in printed] == [0] * 5, printed
    [only] = comments(env)
    assert str(only["body"]).startswith(f"{MARKER}\n### Retrieval report of job ")


@pytest.mark.parametrize(
    ("fail", "says"),
    [
        ("403", "the token may not do this (HTTP 403). Fix: give the job `permissions: pull-"),
        ("404", "not found (HTTP 404)"),
        ("auth", "gh is not authenticated. Fix: pass a token"),
        ("html", "answered with an HTML page, not JSON"),
        ("502", "GitHub's server failed. Fix: re-run the job."),
    ],
)  # fmt: skip
def test_every_gh_failure_is_one_line_with_its_fix(
    env: dict[str, str], fail: str, says: str
) -> None:
    done = comment({**env, "FAKE_GH_LOGIN": "eval-bot", "FAKE_GH_FAIL": fail})
    assert done.returncode == 3
    assert done.stdout.startswith("::error::gh api ") and says in done.stdout
    assert done.stdout.count("\n") == 1 and "Fix: " in done.stdout
    assert done.stderr == ""


def test_a_job_without_gh_says_so_in_one_line(env: dict[str, str], tmp_path: Path) -> None:
    python_only = tmp_path / "python-only"
    python_only.mkdir()
    done = subprocess.run(
        [sys.executable, str(COMMENT)], env={**env, "PATH": str(python_only)},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 3
    assert done.stdout.startswith("::error::Cannot run gh, the GitHub CLI")
    assert "Fix: install gh in this job" in done.stdout and done.stdout.count("\n") == 1
    assert done.stderr == ""


def test_on_github_enterprise_server_gh_is_pointed_at_its_host() -> None:
    spec = importlib.util.spec_from_file_location("comment", COMMENT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    env = {"GITHUB_SERVER_URL": "https://git.acme.example", "GH_TOKEN": "t"}
    assert module.gh_env(env) == {**env, "GH_HOST": "git.acme.example", "GH_ENTERPRISE_TOKEN": "t"}
    for server in ("https://github.com", "file:///tmp/server"):
        assert module.gh_env({"GITHUB_SERVER_URL": server}) == {"GITHUB_SERVER_URL": server}


@pytest.mark.parametrize(
    ("summary", "kept"),
    [
        ("x" * 70_061, "x"),  # one line past GitHub's limit
        ("# report\n" + "y" * 69_990, "y"),  # no line break in the first 60,000
        ("# report\n" + "word " * 14_000, "word"),  # long, without a line break
        ("# report\n```\n" + "code line\n" * 7_000, "code line"),  # inside a code block
    ],
)
def test_a_long_summary_is_cut_below_the_limit_whatever_its_lines(
    env: dict[str, str], summary: str, kept: str
) -> None:
    Path(env["SUMMARY"]).write_text(summary)
    done = comment(env)
    assert done.returncode == 0, done.stdout + done.stderr
    [posted] = comments(env)
    body = str(posted["body"])
    assert 30_000 < len(body) <= 60_000 < 65_536
    assert body.startswith(MARKER) and body.endswith(
        "\n\n… cut here (GitHub's comment size limit).\n"
    )
    assert kept in body.removesuffix("… cut here (GitHub's comment size limit).\n")[-100:]
    fences = [line for line in body.splitlines() if line.startswith("```")]
    assert len(fences) % 2 == 0  # a code block cut open is closed before the note


def test_an_app_token_without_comment_author_stays_sticky_and_says_how_to_fix(
    env: dict[str, str],
) -> None:
    app = {**env, "FAKE_GH_LOGIN": "my-app[bot]", "FAKE_GH_APP": "1"}
    first = comment(app)
    assert first.returncode == 0, first.stdout + first.stderr
    for run in range(2):
        done = comment(app)
        assert done.returncode == 0, done.stdout + done.stderr
        [warning] = [line for line in done.stdout.splitlines() if line.startswith("::")]
        assert warning.startswith("::warning::This token posts as my-app[bot], not ")
        assert "Fix: set comment-author: my-app[bot]" in warning
        [kept] = comments(env)  # one comment, not one per run
        assert kept["user"]["login"] == "my-app[bot]", run  # type: ignore[index]
    # with comment-author, no warning and no new comment to delete
    done = comment({**app, "COMMENT_AUTHOR": "my-app[bot]"})
    assert done.returncode == 0 and "::warning" not in done.stdout
    assert done.stdout.startswith("Updated the comment on PR #7")
