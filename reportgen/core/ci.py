"""What a CI job needs from reportgen beyond the report: a version label and a job summary.

A report made in CI should be labelled with the commit it measured, so that the
published site and every comparison name something a reviewer can find; and its
Markdown summary should land on the run's page (GitHub's job summary), where
reading it needs no download and no write token.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Mapping
from pathlib import Path

from reportgen.core.filesystem import write_error
from reportgen.core.git import head_commit, short_commit
from reportgen.errors import UsageError

COMMIT_LENGTH = 7
"""Characters of a full commit hash kept in a label, as `git rev-parse --short` does."""

STEP_SUMMARY_BUDGET = 900 * 1024
"""GitHub refuses a job summary above 1 MiB per step; stay well under it."""

DEFAULT_REPORT_URL = "index.html"
"""The report beside summary.md: right in the report folder, dead in a PR comment."""

_HEX = re.compile(r"[0-9a-f]{7,64}")


def _commit(value: str | None, length: int | None = COMMIT_LENGTH) -> str | None:
    """A commit hash shortened to ``length``, or None when ``value`` is not a hash."""
    value = (value or "").strip().lower()
    if not _HEX.fullmatch(value):
        return None
    return value[:length] if length else value


def _pull_request_head(env: Mapping[str, str]) -> str | None:
    """The PR's own head commit: on a pull request GITHUB_SHA is a merge commit nobody sees."""
    if env.get("GITHUB_EVENT_NAME") not in {"pull_request", "pull_request_target"}:
        return None
    event_path = env.get("GITHUB_EVENT_PATH")
    if not event_path:
        return None
    try:
        event = json.loads(Path(event_path).read_text(encoding="utf-8"))
        head = event["pull_request"]["head"]["sha"]
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    return _commit(head if isinstance(head, str) else None, length=None)


def _git_head(cwd: Path | None) -> str | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return _commit(done.stdout, length=None) if done.returncode == 0 else None


def default_version(env: Mapping[str, str] | None = None, cwd: Path | None = None) -> str | None:
    """The short commit being measured, or None when there is none to find.

    In order: the pull request's head commit (GitHub Actions, pull_request events),
    GITHUB_SHA, GitLab's CI_COMMIT_SHORT_SHA, then ``git rev-parse --short HEAD`` in
    ``cwd``. A label is 7 characters, longer when the repository holds another
    object with the same prefix (as ``git rev-parse --short`` does), so that two
    commits never share a label; publish refuses a label another commit holds. None
    lets the report fall back to its creation time, which
    SOURCE_DATE_EPOCH makes reproducible.
    """
    env = os.environ if env is None else env
    full = _pull_request_head(env) or _commit(env.get("GITHUB_SHA"), length=None)
    if full is not None:  # longer than 7 where another object shares the prefix
        return short_commit(full, COMMIT_LENGTH, cwd)
    return _commit(env.get("CI_COMMIT_SHORT_SHA"), length=None) or _git_head(cwd)


def default_commit(env: Mapping[str, str] | None = None, cwd: Path | None = None) -> str | None:
    """The full commit measured: GITHUB_SHA, else the HEAD of the git work tree ``cwd``
    is in, else None (a report made outside any repository)."""
    env = os.environ if env is None else env
    return _commit(env.get("GITHUB_SHA"), length=None) or head_commit(cwd)


def default_report_url(env: Mapping[str, str] | None = None) -> str | None:
    """The page of this CI run, where its artifacts (the HTML report) can be downloaded.

    GitHub Actions: the workflow run's page; GitLab CI: the job's page. None elsewhere,
    and summary.md then names index.html instead of linking to it.
    """
    env = os.environ if env is None else env
    server, repository, run = (
        env.get(name, "").strip()
        for name in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID")
    )
    if server and repository and run.isdigit():
        url = f"{server.rstrip('/')}/{repository}/actions/runs/{run}"
    else:
        url = env.get("CI_JOB_URL", "").strip()
    return url if url.lower().startswith(("https://", "http://")) else None


def _cut(markdown: str, budget: int, name: str) -> str:
    """At most ``budget`` bytes of ``markdown``, cut at a line (else at a space, else
    anywhere: a summary without line breaks is not cut to nothing), with a note."""
    note = (
        f"\n\n_The rest was cut to stay under GitHub's 1 MiB job summary limit: read "
        f"{name} in the report folder (or this run's artifacts)._\n"
    )
    data = markdown.encode()
    if len(data) <= budget:
        return markdown
    room = max(budget - len(note.encode()), 0)
    head = data[:room].decode(errors="ignore")
    at = head.rfind("\n") + 1
    if at < len(head) // 2:
        at = head.rfind(" ") + 1
        if at < len(head) // 2:
            at = len(head)
    return head[:at] + note


def append_step_summary(summary: Path, env: Mapping[str, str] | None = None) -> Path:
    """Append the Markdown file ``summary`` to GitHub's job summary; return the file written.

    Raises UsageError when GITHUB_STEP_SUMMARY is not set (outside GitHub Actions).
    """
    env = os.environ if env is None else env
    target = env.get("GITHUB_STEP_SUMMARY", "").strip()
    if not target:
        raise UsageError(
            "GITHUB_STEP_SUMMARY is not set, so there is no job summary to append to "
            "(GitHub Actions sets it in every step)",
            f"read {summary} instead, or drop --github-summary outside GitHub Actions",
        )
    path = Path(target)
    try:
        used = path.stat().st_size if path.exists() else 0
        text = _cut(summary.read_text(encoding="utf-8"), STEP_SUMMARY_BUDGET - used, summary.name)
        with path.open("a", encoding="utf-8") as stream:
            stream.write(text if text.endswith("\n") else text + "\n")
    except OSError as error:  # the report is written: the CLI warns, as when it is unset
        refused = write_error(path, error, "GITHUB_STEP_SUMMARY", "file")
        raise UsageError(f"{refused.path}: {refused.problem}", refused.fix) from None
    return path
