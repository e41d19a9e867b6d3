"""A stand-in for `gh api` on PATH: records every call and keeps the comments it was given.

It answers what the action asks of GitHub's REST API for a sticky comment: list an
issue's comments (with --paginate, one JSON array per page of PAGE_SIZE, as gh prints
them), create one, edit one. State lives in the JSON file $FAKE_GH_STATE, so later
calls (and the test) see what earlier ones did. $FAKE_GH_FAIL=403 answers as GitHub
does to a token without the permission.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

PAGE_SIZE = 2
"""Small, so that a sticky comment behind a human's two comments is on page 2."""


def load(path: Path) -> dict[str, Any]:
    if path.exists():
        return json.loads(path.read_text())  # type: ignore[no-any-return]
    return {"calls": [], "comments": {}, "next_id": 1000}


def parse(args: list[str]) -> dict[str, Any]:
    assert args and args[0] == "api", f"only `gh api` is stood in for: {args}"
    call: dict[str, Any] = {"method": "GET", "paginate": False, "path": None, "input": None}
    rest = iter(args[1:])
    for arg in rest:
        if arg == "--paginate":
            call["paginate"] = True
        elif arg in ("--method", "-X"):
            call["method"] = next(rest)
        elif arg == "--input":
            call["input"] = json.loads(Path(next(rest)).read_text())
        elif arg.startswith("-"):
            raise SystemExit(f"fake gh: unknown option {arg}")
        else:
            call["path"] = arg
    return call


def answer(state: dict[str, Any], call: dict[str, Any]) -> str:
    path = call["path"].split("?")[0]
    if m := re.fullmatch(r"repos/([^/]+/[^/]+)/issues/(\d+)/comments", path):
        key = f"{m[1]}#{m[2]}"
        comments = state["comments"].setdefault(key, [])
        if call["method"] == "GET":
            pages = [comments[i : i + PAGE_SIZE] for i in range(0, len(comments), PAGE_SIZE)]
            if not call["paginate"]:
                pages = pages[:1]
            return "".join(json.dumps(page) for page in pages or [[]])
        if call["method"] == "POST":
            comment = {
                "id": state["next_id"],
                "body": call["input"]["body"],
                "user": {"login": "github-actions[bot]", "type": "Bot"},
                "html_url": f"https://github.test/{m[1]}/pull/{m[2]}#issuecomment-{state['next_id']}",
            }
            state["next_id"] += 1
            comments.append(comment)
            return json.dumps(comment)
    if (m := re.fullmatch(r"repos/([^/]+/[^/]+)/issues/comments/(\d+)", path)) and call[
        "method"
    ] == "PATCH":
        for comments in state["comments"].values():
            for comment in comments:
                if comment["id"] == int(m[2]):
                    comment["body"] = call["input"]["body"]
                    return json.dumps(comment)
        raise LookupError("HTTP 404: Not Found")
    raise LookupError(f"HTTP 404: fake gh does not know {call['method']} {path}")


def main() -> int:
    state_path = Path(os.environ["FAKE_GH_STATE"])
    state = load(state_path)
    call = parse(sys.argv[1:])
    call["token"] = os.environ.get("GH_TOKEN")
    state["calls"].append(call)
    code = 0
    if os.environ.get("FAKE_GH_FAIL") == "403":
        print("HTTP 403: Resource not accessible by integration", file=sys.stderr)
        code = 1
    else:
        try:
            print(answer(state, call))
        except LookupError as error:
            print(error, file=sys.stderr)
            code = 1
    state_path.write_text(json.dumps(state, indent=1))
    return code


if __name__ == "__main__":
    sys.exit(main())
