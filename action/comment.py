"""Post the summary as one sticky comment on this pull request, or edit it in place.

Run by the action's `comment` step with the Python of reportgen's virtualenv (standard
library only). Ours is the comment that holds the hidden marker on a line of its own AND
was written by this token's own account (`gh api user`; the job's GITHUB_TOKEN cannot
ask, and posts as the documented `github-actions[bot]`): a person's comment that quotes
or copies the marker is never touched (GitHub would refuse the edit anyway), and a note
someone added above the marker still leaves the comment ours. Two jobs that post at once
both create one; each then keeps the oldest of ours, so one remains. Every call goes
through `gh api` with the job's token; the body travels as a JSON file, never as
command-line text.

In (environment): SUMMARY (the Markdown body), GH_TOKEN, COMMENT_AUTHOR (the login the
token posts as, when `gh api user` cannot say: a GitHub App's token), GITHUB_EVENT_NAME,
GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_SERVER_URL, RUNNER_TEMP, GITHUB_OUTPUT.
Out ($GITHUB_OUTPUT): comment-url, when a comment was posted or edited.
Exit: 0 done or skipped with a notice (not a pull request, a fork), 2 no summary to post,
3 gh failed (missing, not authenticated, refused, not found, not JSON): one line with
the fix.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

MARKER = "<!-- reportgen -->"
ACTIONS_BOT = "github-actions[bot]"
"""Who the job's GITHUB_TOKEN posts as (GitHub's docs, "Automatic token authentication")."""
BUDGET = 60_000
"""GitHub refuses a comment above 65,536 characters."""
PULL_REQUEST_EVENTS = {"pull_request", "pull_request_target"}
LOGIN = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}(\[bot\])?")
"""A GitHub login (a bot's ends in [bot]): what may be printed of one."""


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


CUT_NOTE = "\n\n… cut here (GitHub's comment size limit).\n"


def body(summary: str) -> str:
    """The comment: the marker first, cut under GitHub's size limit.

    The cut is at the last line break before the budget, else (a summary with no line
    break for the last half of the budget) the last space, else at the budget itself;
    a code block left open is closed, so that the note below it reads as text."""
    text = summary if summary.startswith(MARKER) else f"{MARKER}\n{summary}"
    if len(text) <= BUDGET:
        return text
    room = BUDGET - len(CUT_NOTE) - len("\n```")
    head = text[:room]
    for boundary in ("\n", " "):
        at = head.rfind(boundary)
        if at >= room // 2:
            head = head[:at]
            break
    if sum(line.lstrip().startswith("```") for line in head.splitlines()) % 2:
        head += "\n```"
    return head + CUT_NOTE


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


def has_marker(text: str) -> bool:
    """Whether the marker stands on a line of its own (a quote, `> <!--`, does not)."""
    return any(line.strip() == MARKER for line in text.splitlines())


def ours(pages: list[Any], login: str) -> list[int]:
    """The ids of this account's comments that hold the marker, oldest first."""
    return sorted(
        comment["id"]
        for page in pages
        for comment in (page if isinstance(page, list) else [page])
        if isinstance(comment, dict)
        and isinstance(comment.get("id"), int)
        and str((comment.get("user") or {}).get("login", "")).lower() == login.lower()
        and has_marker(str(comment.get("body", "")))
    )


def one_line(text: str, limit: int = 300) -> str:
    """gh's message on one line, cut: a workflow command ends at the line's end."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def gh_api(env: dict[str, str], *args: str) -> str:
    """`gh api ARGS`; its output, or Stop (exit 3) with gh's message and the likely fix."""
    path = next((arg for arg in args if arg.startswith("repos/") or arg == "user"), "")
    try:
        done = subprocess.run(
            ["gh", "api", *args], env=env, capture_output=True, text=True, check=False
        )
    except OSError as error:
        raise Stop(
            3,
            f"::error::Cannot run gh, the GitHub CLI ({error.strerror}): the comment needs it. "
            "Fix: install gh in this job (container jobs lack it: https://cli.github.com), "
            "or set comment: false.",
        ) from None
    if done.returncode == 0:
        if done.stdout.lstrip().startswith("<"):
            raise Stop(
                3,
                f"::error::gh api {path} answered with an HTML page, not JSON (a proxy, a login "
                "page or a wrong host). Fix: check GITHUB_SERVER_URL / GH_HOST and the network.",
            )
        return done.stdout
    message = one_line(done.stderr or done.stdout)
    if done.returncode == 4 or "gh auth login" in message or "HTTP 401" in message:
        fix = "gh is not authenticated. Fix: pass a token (the action's `token` input)."
    elif "HTTP 403" in message:
        fix = (
            "the token may not do this (HTTP 403). Fix: give the job `permissions: "
            "pull-requests: write`; a comment written by another account can never be edited."
        )
    elif "HTTP 404" in message:
        fix = (
            "not found (HTTP 404): the pull request, the comment or the repository is not "
            "visible to this token. Fix: check GITHUB_REPOSITORY and the token's repository."
        )
    elif "HTTP 5" in message:
        fix = "GitHub's server failed. Fix: re-run the job."
    else:
        fix = "see gh's message."
    raise Stop(3, f"::error::gh api {path} failed: {fix} ({message})")


def parse(answer: str, path: str) -> list[Any]:
    """gh's JSON answer, or Stop: an answer that is not JSON is named, not a traceback."""
    try:
        return json_values(answer)
    except ValueError:
        raise Stop(
            3,
            f"::error::gh api {path} answered with something that is not JSON: "
            f"{one_line(answer, 80)!r}. Fix: check GITHUB_SERVER_URL / GH_HOST and the network.",
        ) from None


def login(env: dict[str, str]) -> str:
    """The account this token posts as: COMMENT_AUTHOR, else `gh api user`, else (the
    job's GITHUB_TOKEN, which may not read /user) github-actions[bot]."""
    if env.get("COMMENT_AUTHOR", "").strip():
        return env["COMMENT_AUTHOR"].strip()
    try:
        [user] = parse(gh_api(env, "user"), "user")
    except Stop as stop:
        if "HTTP 403" in str(stop) and "Resource not accessible by integration" in str(stop):
            return ACTIONS_BOT
        raise
    if not isinstance(user, dict) or not isinstance(user.get("login"), str):
        raise Stop(3, "::error::gh api user gave no login. Fix: set the comment-author input.")
    return str(user["login"])


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


def edit(env: dict[str, str], repository: str, comment: int, payload: Path) -> str:
    """Replace the body of one of our comments; gh's answer."""
    return gh_api(
        env, "--method", "PATCH", f"repos/{repository}/issues/comments/{comment}",
        "--input", str(payload),
    )  # fmt: skip


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
    me = login(gh)
    notes: list[str] = []
    listing = f"repos/{repository}/issues/{number}/comments?per_page=100"
    found = ours(parse(gh_api(gh, "--paginate", listing), listing), me)
    if found:
        answer = edit(gh, repository, found[0], payload)
        action = "Updated the comment on"
    else:
        answer = gh_api(
            gh, "--method", "POST", f"repos/{repository}/issues/{number}/comments",
            "--input", str(payload),
        )  # fmt: skip
        action = "Commented on"
        [created] = parse(answer, "the new comment")
        # The account the comment was posted as: a GitHub App's token cannot read
        # /user, and posts as the App's bot, not as github-actions[bot].
        author = me
        posted_as = (created.get("user") or {}).get("login") if isinstance(created, dict) else None
        if isinstance(posted_as, str) and LOGIN.fullmatch(posted_as):
            author = posted_as
        if author.lower() != me.lower():
            notes.append(
                f"::warning::This token posts as {author}, not {me}: without the action's "
                f"comment-author input every run would post a new comment. Fix: set "
                f"comment-author: {author} (this run kept one comment of {author}'s)."
            )
        # Another job, or an earlier run of an App's token, may have posted: the oldest
        # of ours stays.
        found = ours(parse(gh_api(gh, "--paginate", listing), listing), author)
        if isinstance(created, dict) and found and created.get("id") != found[0]:
            gh_api(gh, "--method", "DELETE", f"repos/{repository}/issues/comments/{created['id']}")
            answer = edit(gh, repository, found[0], payload)
            action = "Updated the comment (another job had just posted it) on"
    url = ""
    with contextlib.suppress(ValueError, AttributeError):
        url = str(json.loads(answer).get("html_url", ""))
    if url and "\n" not in url and env.get("GITHUB_OUTPUT"):
        with open(env["GITHUB_OUTPUT"], "a", encoding="utf-8") as stream:
            stream.write(f"comment-url={url}\n")
    return "\n".join([*notes, f"{action} PR #{number}{': ' + url if url else ''}"])


def main() -> int:
    try:
        print(post(dict(os.environ)))
    except Stop as stop:
        print(stop)
        return stop.code
    return 0


if __name__ == "__main__":
    sys.exit(main())
