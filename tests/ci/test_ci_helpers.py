"""The CI conveniences: the commit as the version label, and the GitHub job summary."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.core import ci
from reportgen.errors import UsageError

SHA = "0123456789abcdef0123456789abcdef01234567"
HEAD = "fedcba9876543210fedcba9876543210fedcba98"


def test_github_sha_is_shortened_to_seven() -> None:
    assert ci.default_version({"GITHUB_SHA": SHA}) == "0123456"


def test_pull_request_head_wins_over_the_merge_commit(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"head": {"sha": HEAD}}}))
    env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event), "GITHUB_SHA": SHA}
    assert ci.default_version(env) == "fedcba9"


def test_push_event_keeps_github_sha(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"head": {"sha": HEAD}}}))
    env = {"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": str(event), "GITHUB_SHA": SHA}
    assert ci.default_version(env) == "0123456"


def test_unreadable_event_falls_back_to_github_sha(tmp_path: Path) -> None:
    event = tmp_path / "event.json"
    event.write_text("{not json")
    env = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event), "GITHUB_SHA": SHA}
    assert ci.default_version(env) == "0123456"


def test_gitlab_short_sha_is_kept_whole() -> None:
    assert ci.default_version({"CI_COMMIT_SHORT_SHA": "A1B2C3D4"}) == "a1b2c3d4"


def test_a_value_that_is_not_a_hash_is_ignored() -> None:
    """Nothing but hex reaches a label (it becomes a folder name on the site)."""
    env = {"GITHUB_SHA": "../../etc", "CI_COMMIT_SHORT_SHA": "a1b2c3d4"}
    assert ci.default_version(env) == "a1b2c3d4"


def test_no_ci_variables_and_no_repository_gives_none(tmp_path: Path) -> None:
    # The autouse fixture points GIT_DIR nowhere, as outside any repository.
    assert ci.default_version({}, cwd=tmp_path) is None


def test_git_head_when_no_ci_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GIT_DIR")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "commit", "-q", "--allow-empty", "-m", "first"], check=True)
    expected = subprocess.run(
        [*git, "rev-parse", "--short", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()
    assert ci.default_version({}, cwd=tmp_path) == expected


def test_summary_is_appended_after_what_the_step_wrote(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("<!-- reportgen -->\n## Retrieval\n")
    step = tmp_path / "step.md"
    step.write_text("# Earlier\n")
    assert ci.append_step_summary(summary, {"GITHUB_STEP_SUMMARY": str(step)}) == step
    assert step.read_text() == "# Earlier\n<!-- reportgen -->\n## Retrieval\n"


def test_summary_without_the_variable_says_what_to_do(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("x\n")
    expected = r"GITHUB_STEP_SUMMARY is not set.*Fix: read .*summary\.md"
    with pytest.raises(UsageError, match=expected):
        ci.append_step_summary(summary, {})


def test_summary_over_budget_is_cut_at_a_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ci, "STEP_SUMMARY_BUDGET", 300)
    summary = tmp_path / "summary.md"
    summary.write_text("".join(f"| q{i:03d} | 0.500 |\n" for i in range(100)))  # 1,600 bytes
    step = tmp_path / "step.md"
    step.write_text("x" * 50 + "\n")  # 51 bytes already used in this step
    ci.append_step_summary(summary, {"GITHUB_STEP_SUMMARY": str(step)})
    written = step.read_bytes()
    assert len(written) <= 300
    body = written.decode().splitlines()
    assert body[1] == "| q000 | 0.500 |"
    assert "1 MiB job summary limit" in body[-1]
    assert all(line.endswith("|") for line in body[1:-2] if line)


@pytest.mark.parametrize("text", ["x" * 1_600, "# title\n" + "y" * 1_600, "word " * 400])
def test_summary_without_line_breaks_is_cut_near_the_budget_not_to_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    monkeypatch.setattr(ci, "STEP_SUMMARY_BUDGET", 600)
    summary = tmp_path / "summary.md"
    summary.write_text(text)
    step = tmp_path / "step.md"
    ci.append_step_summary(summary, {"GITHUB_STEP_SUMMARY": str(step)})
    written = step.read_text()
    assert len(written.encode()) <= 600
    kept = written.split("\n\n_The rest was cut")[0]
    assert len(kept) > 200 and text.startswith(kept)


def _demo(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str, Path]:
    out = tmp_path / "out"
    result = CliRunner().invoke(cli, ["demo", "--out", str(out), *args], env=env)
    return result.exit_code, result.output, out


def test_cli_labels_the_report_with_the_commit(tmp_path: Path) -> None:
    code, output, out = _demo(tmp_path, "-q", env={"GITHUB_SHA": SHA})
    assert code == 0, output
    assert json.loads((out / "report.json").read_text())["version"] == "0123456"


def test_cli_explicit_version_wins(tmp_path: Path) -> None:
    code, output, out = _demo(tmp_path, "-q", "--version", "v2", env={"GITHUB_SHA": SHA})
    assert code == 0, output
    assert json.loads((out / "report.json").read_text())["version"] == "v2"


def test_cli_without_commit_uses_source_date_epoch(tmp_path: Path) -> None:
    code, output, out = _demo(tmp_path, "-q", env={"SOURCE_DATE_EPOCH": "1767225600"})
    assert code == 0, output
    assert json.loads((out / "report.json").read_text())["version"] == "20260101-000000"


def test_cli_github_summary_appends_the_markdown(tmp_path: Path) -> None:
    step = tmp_path / "step.md"
    code, output, out = _demo(tmp_path, "--github-summary", env={"GITHUB_STEP_SUMMARY": str(step)})
    assert code == 0, output
    source = out / "summary.md" if (out / "summary.md").exists() else out / "report.md"
    assert step.read_text() == source.read_text()
    assert f"Appended {source.name} to the job summary" in output


def test_cli_github_summary_outside_actions_warns_and_succeeds(tmp_path: Path) -> None:
    code, output, out = _demo(tmp_path, "-q", "--github-summary")
    assert code == 0
    assert "warning: --github-summary: GITHUB_STEP_SUMMARY is not set" in output
    assert (out / "report.json").exists()


def test_cli_github_summary_needs_markdown(tmp_path: Path) -> None:
    code, output, out = _demo(tmp_path, "--github-summary", "--format", "html")
    assert code == 2
    assert "--github-summary needs the Markdown output" in output
    assert not out.exists()


GITHUB_RUN = {
    "GITHUB_SERVER_URL": "https://github.example.com",
    "GITHUB_REPOSITORY": "acme/rag",
    "GITHUB_RUN_ID": "4242",
}


@pytest.mark.parametrize(
    ("env", "url"),
    [
        (GITHUB_RUN, "https://github.example.com/acme/rag/actions/runs/4242"),
        ({**GITHUB_RUN, "GITHUB_RUN_ID": ""}, None),
        ({**GITHUB_RUN, "GITHUB_RUN_ID": "12; x"}, None),
        (
            {"CI_JOB_URL": "https://gitlab.example.com/acme/rag/-/jobs/7"},
            "https://gitlab.example.com/acme/rag/-/jobs/7",
        ),
        ({**GITHUB_RUN, "GITHUB_SERVER_URL": "file:///srv/git"}, None),
        ({}, None),
    ],
)
def test_the_report_url_is_this_runs_page(env: dict[str, str], url: str | None) -> None:
    assert ci.default_report_url(env) == url


def test_cli_summary_links_to_the_run_page_in_github_actions(tmp_path: Path) -> None:
    code, output, out = _demo(tmp_path, "-q", env=GITHUB_RUN)
    assert code == 0, output
    header = (out / "summary.md").read_text().splitlines()[3]
    assert header.endswith("· [full report](https://github.example.com/acme/rag/actions/runs/4242)")


def test_cli_report_url_wins_over_the_run_page(tmp_path: Path) -> None:
    code, output, out = _demo(
        tmp_path, "-q", "--report-url", "https://acme.github.io/rag/v2/", env=GITHUB_RUN
    )
    assert code == 0, output
    assert "· [full report](https://acme.github.io/rag/v2/)" in (out / "summary.md").read_text()


def test_cli_outside_ci_names_the_report_instead_of_a_dead_link(tmp_path: Path) -> None:
    code, output, out = _demo(tmp_path, "-q")
    assert code == 0, output
    summary = (out / "summary.md").read_text()
    assert "· full report: index.html in the report folder (in CI, this run's artifacts)" in summary
    assert "](index.html)" not in summary


def colliding_commits(repo: Path) -> tuple[str, str]:
    """Two real commits of ``repo`` whose hashes share their first 7 characters: commit
    objects hashed here until two collide (a birthday search, fixed contents, so always
    the same pair), then written with git."""
    import hashlib

    tree = subprocess.run(
        ["git", "hash-object", "-t", "tree", "-w", "--stdin"],
        cwd=repo, input=b"", capture_output=True, check=True,
    ).stdout.decode().strip()  # fmt: skip
    seen: dict[str, bytes] = {}
    for number in range(200_000):
        body = (
            f"tree {tree}\nauthor dev <dev@example.org> 1764000000 +0000\n"
            f"committer dev <dev@example.org> 1764000000 +0000\n\nc{number}\n"
        ).encode()
        digest = hashlib.sha1(b"commit %d\0" % len(body) + body).hexdigest()
        if digest[:7] in seen:
            hashes = []
            for data in (seen[digest[:7]], body):
                written = subprocess.run(
                    ["git", "hash-object", "-t", "commit", "-w", "--stdin"],
                    cwd=repo, input=data, capture_output=True, check=True,
                )  # fmt: skip
                hashes.append(written.stdout.decode().strip())
            return hashes[0], hashes[1]
        seen[digest[:7]] = body
    raise AssertionError("no collision found")


def test_two_commits_sharing_seven_characters_get_labels_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GIT_DIR")  # conftest's: this test reads its own repository
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    first, second = colliding_commits(tmp_path)
    assert first[:7] == second[:7] and first != second
    labels = [ci.default_version({"GITHUB_SHA": full}, cwd=tmp_path) for full in (first, second)]
    assert labels[0] != labels[1] and all(len(label) > 7 for label in labels)
    assert first.startswith(labels[0]) and second.startswith(labels[1])
    # outside the repository (git cannot tell): the plain 7 characters
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "none"))
    assert ci.default_version({"GITHUB_SHA": first}, cwd=tmp_path) == first[:7]
