"""A stand-in for `gh` on PATH: records every call and keeps the comments it was given.

It answers what the action and the `workflow_run` recipe ask of GitHub: `gh api` to list
an issue's comments (with --paginate, one JSON array per page of PAGE_SIZE, as gh prints
them), create, edit or delete one, read a pull request and the token's user; `--jq`
(through the jq binary, page by page and raw, as gh applies it); `gh run download RUN
--name NAME --dir DIR` (the artifacts in the state). State lives in the JSON file
$FAKE_GH_STATE, so later calls (and the test) see what earlier ones did.

$FAKE_GH_LOGIN is who the token is: a person's login answers `gh api user`; unset, it is
the job's GITHUB_TOKEN, which posts as github-actions[bot] and gets 403 from /user, as on
GitHub; with $FAKE_GH_APP set, $FAKE_GH_LOGIN is a GitHub App's token, which also gets
403 from /user and posts as that login. $FAKE_GH_RACING_POST is the body another job
posts just before this call's POST.
$FAKE_GH_FAIL answers every call with a failure: 403, 404, 502, auth (no token)
or html (a proxy's page, exit 0).
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

PAGE_SIZE = 2
"""Small, so that a sticky comment behind a human's two comments is on page 2."""
BOT = "github-actions[bot]"
VALUED = {
    "--repo": "repo",
    "-R": "repo",
    "--name": "name",
    "-n": "name",
    "--dir": "dir",
    "-D": "dir",
}


def load(path: Path) -> dict[str, Any]:
    if path.exists():
        return json.loads(path.read_text())  # type: ignore[no-any-return]
    return {"calls": [], "comments": {}, "next_id": 1000}


def parse(args: list[str]) -> dict[str, Any]:
    call: dict[str, Any] = {
        "command": " ".join(args[:2]) if args[:1] == ["run"] else "api",
        "method": "GET", "paginate": False, "path": None, "input": None, "jq": None,
    }  # fmt: skip
    rest = iter(args[2:] if call["command"] != "api" else args[1:])
    if args[:1] not in (["api"], ["run"]):
        raise SystemExit(f"fake gh: only `gh api` and `gh run download` are stood in for: {args}")
    for arg in rest:
        if arg == "--paginate":
            call["paginate"] = True
        elif arg in ("--method", "-X"):
            call["method"] = next(rest)
        elif arg == "--input":
            call["input"] = json.loads(Path(next(rest)).read_text())
        elif arg in ("--jq", "-q"):
            call["jq"] = next(rest)
        elif arg in VALUED:
            call[VALUED[arg]] = next(rest)
        elif arg.startswith("-"):
            raise SystemExit(f"fake gh: unknown option {arg}")
        else:
            call["path"] = arg
    return call


def comment_for(state: dict[str, Any], repo: str, number: str, body: str) -> dict[str, Any]:
    login = os.environ.get("FAKE_GH_LOGIN") or BOT
    comment = {
        "id": state["next_id"],
        "body": body,
        "user": {"login": login, "type": "Bot" if login.endswith("[bot]") else "User"},
        "html_url": f"https://github.test/{repo}/pull/{number}#issuecomment-{state['next_id']}",
    }
    state["next_id"] += 1
    return comment


def api(state: dict[str, Any], call: dict[str, Any]) -> list[str]:
    """The pages of JSON text `gh api` prints for ``call``."""
    path = call["path"].split("?")[0]
    method = call["method"]
    if path == "user":
        if not os.environ.get("FAKE_GH_LOGIN") or os.environ.get("FAKE_GH_APP"):
            raise LookupError("HTTP 403: Resource not accessible by integration (user)")
        return [json.dumps({"login": os.environ["FAKE_GH_LOGIN"]})]
    if m := re.fullmatch(r"repos/([^/]+/[^/]+)/pulls/(\d+)", path):
        pulls = state.get("pulls", {})
        if f"{m[1]}#{m[2]}" not in pulls:
            raise LookupError("HTTP 404: Not Found")
        return [json.dumps(pulls[f"{m[1]}#{m[2]}"])]
    if m := re.fullmatch(r"repos/([^/]+/[^/]+)/issues/(\d+)/comments", path):
        comments = state["comments"].setdefault(f"{m[1]}#{m[2]}", [])
        if method == "GET":
            pages = [comments[i : i + PAGE_SIZE] for i in range(0, len(comments), PAGE_SIZE)]
            if not call["paginate"]:
                pages = pages[:1]
            return [json.dumps(page) for page in pages or [[]]]
        if method == "POST":
            if racer := os.environ.get("FAKE_GH_RACING_POST"):  # another job, a moment before
                os.environ.pop("FAKE_GH_RACING_POST")
                comments.append(comment_for(state, m[1], m[2], racer))
            comment = comment_for(state, m[1], m[2], call["input"]["body"])
            comments.append(comment)
            return [json.dumps(comment)]
    if m := re.fullmatch(r"repos/([^/]+/[^/]+)/issues/comments/(\d+)", path):
        for comments in state["comments"].values():
            for comment in comments:
                if comment["id"] != int(m[2]):
                    continue
                mine = os.environ.get("FAKE_GH_LOGIN") or BOT
                if comment["user"]["login"] != mine:
                    raise LookupError("HTTP 403: Must have admin rights to Repository.")
                if method == "PATCH":
                    comment["body"] = call["input"]["body"]
                    return [json.dumps(comment)]
                if method == "DELETE":
                    comments.remove(comment)
                    return [""]
        raise LookupError("HTTP 404: Not Found")
    raise LookupError(f"HTTP 404: fake gh does not know {method} {path}")


def jq(program: str, page: str) -> str:
    """gh's --jq: the program on each page, strings printed raw."""
    done = subprocess.run(
        ["jq", "-r", program], input=page, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise LookupError(f"failed to parse jq expression: {done.stderr.strip()}")
    return done.stdout


def run_download(state: dict[str, Any], call: dict[str, Any]) -> str:
    """Write the named artifact of the run into --dir, as `gh run download` does."""
    artifacts = state.get("artifacts", {}).get(str(call["path"]), {})
    if call.get("name") not in artifacts:
        raise LookupError("no artifact matches any of the names or patterns provided")
    folder = Path(call.get("dir") or ".")
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in artifacts[call["name"]].items():
        (folder / name).write_text(text)
    return ""


FAILURES = {
    "403": "HTTP 403: Resource not accessible by integration",
    "404": "HTTP 404: Not Found",
    "502": "HTTP 502: Bad Gateway",
    "auth": "gh: To use GitHub CLI in a GitHub Actions workflow, set the GH_TOKEN environment "
    "variable. Example:\n  env:\n    GH_TOKEN: ${{ github.token }}",
}


def main() -> int:
    state_path = Path(os.environ["FAKE_GH_STATE"])
    # One call at a time, as GitHub applies each request whole: concurrent jobs' calls
    # interleave between requests, never inside one.
    with open(state_path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return answer(state_path)


def answer(state_path: Path) -> int:
    state = load(state_path)
    call = parse(sys.argv[1:])
    call["token"] = os.environ.get("GH_TOKEN")
    state["calls"].append(call)
    code = 0
    fail = os.environ.get("FAKE_GH_FAIL", "")
    try:
        if fail == "html":
            print("<!DOCTYPE html><html><body>Sign in to continue</body></html>")
        elif fail:
            print(FAILURES[fail], file=sys.stderr)
            code = 4 if fail == "auth" else 1
        elif call["command"] == "run download":
            print(run_download(state, call), end="")
        else:
            pages = api(state, call)
            print("".join(jq(call["jq"], page) if call["jq"] else page for page in pages))
    except LookupError as error:
        print(str(error).strip("'\""), file=sys.stderr)
        code = 1
    state_path.write_text(json.dumps(state, indent=1))
    return code


if __name__ == "__main__":
    sys.exit(main())
