"""Post the summary as one sticky comment on this pull request, or edit it in place.

Run by the action's `comment` step with the Python of reportgen's virtualenv (standard
library only). The comment is found again by the hidden marker its body starts with,
so every push edits the same comment and none is ever added twice. Every call goes
through `gh api` with the job's token; the body travels as a JSON file, never as
command-line text.

In (environment): SUMMARY (the Markdown body), GH_TOKEN, GITHUB_EVENT_NAME,
GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_SERVER_URL, RUNNER_TEMP, GITHUB_OUTPUT.
Out ($GITHUB_OUTPUT): comment-url, when a comment was posted or edited.
Exit: 0 done or skipped with a notice (not a pull request, a fork), 2 the token may not
comment or an input is wrong, 3 anything else (gh's message is printed).
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

MARKER = "<!-- reportgen -->"
BUDGET = 60_000
"""GitHub refuses a comment above 65,536 characters."""
PULL_REQUEST_EVENTS = {"pull_request", "pull_request_target"}


class Stop(Exception):
    """End the step: ``code`` is the exit code, ``message`` a workflow command line."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


def pull_request(env: dict[str, str]) -> dict[str, Any] | None:
    """This event's pull request, or None when the run is not for one."""
    if env.get("GITHUB_EVENT_NAME") not in PULL_REQUEST_EVENTS:
        return None
    try:
        event = json.loads(Path(env["GITHUB_EVENT_PATH"]).read_text(encoding="utf-8"))
    except (KeyError, OSError, ValueError) as error:
        raise Stop(
            3, f"::error::Cannot read the event payload (GITHUB_EVENT_PATH): {error}"
        ) from None
    found = event.get("pull_request") if isinstance(event, dict) else None
    return found if isinstance(found, dict) else None


def is_fork(pr: dict[str, Any], repository: str) -> bool:
    """Whether the PR's head lives in another repository (its token cannot comment)."""
    head = (pr.get("head") or {}).get("repo") or {}
    return str(head.get("full_name", "")).lower() != repository.lower()


def body(summary: str) -> str:
    """The comment: the marker first, cut under GitHub's size limit."""
    text = summary if summary.startswith(MARKER) else f"{MARKER}\n{summary}"
    if len(text) > BUDGET:
        text = (
            text[: text.rfind("\n", 0, BUDGET)] + "\n\n… cut here (GitHub's comment size limit).\n"
        )
    return text


def json_values(text: str) -> list[Any]:
    """Every JSON value in ``text``: `gh api --paginate` prints one array per page."""
    decoder = json.JSONDecoder()
    values, position = [], 0
    while position < len(text):
        if text[position].isspace():
            position += 1
            continue
        value, position = decoder.raw_decode(text, position)
        values.append(value)
    return values


def sticky_comment(pages: list[Any]) -> int | None:
    """The id of the oldest comment that starts with the marker, if any."""
    ids = [
        comment["id"]
        for page in pages
        for comment in (page if isinstance(page, list) else [page])
        if isinstance(comment, dict) and str(comment.get("body", "")).startswith(MARKER)
    ]
    return min(ids) if ids else None


def gh_api(env: dict[str, str], *args: str) -> str:
    """`gh api ARGS`; its output, or Stop with gh's message and the likely fix."""
    done = subprocess.run(
        ["gh", "api", *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode == 0:
        return done.stdout
    message = (done.stderr or done.stdout).strip().replace("\n", " ")
    if "403" in message or "401" in message or "Resource not accessible" in message:
        raise Stop(
            2,
            f"::error::The token may not comment on this pull request ({message}). Fix: give "
            "the job `permissions: pull-requests: write`.",
        )
    raise Stop(3, f"::error::gh api {args[-1] if args else ''} failed: {message}")


def gh_env(env: dict[str, str]) -> dict[str, str]:
    """The environment for gh: on GitHub Enterprise Server, its host, and the token
    where gh looks for one for such a host."""
    host = urlsplit(env.get("GITHUB_SERVER_URL", "")).hostname
    if not host or host == "github.com" or urlsplit(env["GITHUB_SERVER_URL"]).scheme != "https":
        return env
    return {
        "GH_HOST": host,
        "GH_ENTERPRISE_TOKEN": env.get("GH_TOKEN", ""),
        **env,
    }


def post(env: dict[str, str]) -> str:
    """Create or edit the comment; the line to print about it."""
    repository = env.get("GITHUB_REPOSITORY", "")
    pr = pull_request(env)
    if pr is None:
        return (
            "::notice::Not a pull request, so no comment (comment: true is for pull_request runs)."
        )
    number = pr.get("number")
    if not isinstance(number, int):
        raise Stop(3, "::error::The event's pull request has no number.")
    if is_fork(pr, repository):
        return (
            f"::notice::PR #{number} comes from a fork, whose token cannot comment: no comment. "
            "The workflow_run recipe in reportgen's docs/ci.md posts it from your repository."
        )
    try:
        summary = Path(env["SUMMARY"]).read_text(encoding="utf-8")
    except (KeyError, OSError) as error:
        raise Stop(2, f"::error::No summary to post ({error}).") from None
    folder = Path(env.get("RUNNER_TEMP") or ".")
    payload = folder / "reportgen-comment.json"
    payload.write_text(json.dumps({"body": body(summary)}), encoding="utf-8")
    gh = gh_env(env)
    listing = gh_api(gh, "--paginate", f"repos/{repository}/issues/{number}/comments?per_page=100")
    existing = sticky_comment(json_values(listing))
    if existing is None:
        answer = gh_api(
            gh, "--method", "POST", f"repos/{repository}/issues/{number}/comments",
            "--input", str(payload),
        )  # fmt: skip
        action = "Commented on"
    else:
        answer = gh_api(
            gh, "--method", "PATCH", f"repos/{repository}/issues/comments/{existing}",
            "--input", str(payload),
        )  # fmt: skip
        action = "Updated the comment on"
    url = ""
    with contextlib.suppress(ValueError, AttributeError):
        url = str(json.loads(answer).get("html_url", ""))
    if url and "\n" not in url and env.get("GITHUB_OUTPUT"):
        with open(env["GITHUB_OUTPUT"], "a", encoding="utf-8") as stream:
            stream.write(f"comment-url={url}\n")
    return f"{action} PR #{number}{': ' + url if url else ''}"


def main() -> int:
    try:
        print(post(dict(os.environ)))
    except Stop as stop:
        print(stop)
        return stop.code
    return 0


if __name__ == "__main__":
    sys.exit(main())
