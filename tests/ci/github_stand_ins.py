"""What a GitHub runner gives a step, stood in for on this machine: `gh`, an event, files."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

FAKE_GH = Path(__file__).with_name("fake_gh.py")


def install_fake_gh(bin_dir: Path) -> None:
    """A `gh` command in ``bin_dir`` that runs fake_gh.py with this Python."""
    bin_dir.mkdir(parents=True, exist_ok=True)
    gh = bin_dir / "gh"
    gh.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{FAKE_GH}" "$@"\n')
    gh.chmod(0o755)


def gh_state(path: Path) -> dict[str, Any]:
    """What the stand-in `gh` recorded: its calls and the comments it keeps."""
    return json.loads(path.read_text()) if path.exists() else {"calls": [], "comments": {}}


def pull_request_event(
    path: Path, number: int, head_sha: str, repository: str, head_repository: str | None = None
) -> Path:
    """A pull_request event payload, as GitHub writes it to GITHUB_EVENT_PATH (the parts read)."""
    event = {
        "action": "synchronize",
        "number": number,
        "pull_request": {
            "number": number,
            "head": {"sha": head_sha, "repo": {"full_name": head_repository or repository}},
            "base": {"ref": "main", "repo": {"full_name": repository}},
        },
        "repository": {"full_name": repository},
    }
    path.write_text(json.dumps(event))
    return path


def runner_env(tmp: Path, bin_dir: Path, **extra: str) -> dict[str, str]:
    """The variables every step gets, with this machine's PATH behind ``bin_dir``."""
    temp = tmp / "runner-temp"
    temp.mkdir(parents=True, exist_ok=True)
    summary = tmp / "step-summary.md"
    summary.touch()
    return {
        "PATH": os.pathsep.join([str(bin_dir), os.environ["PATH"]]),
        "HOME": str(tmp),
        "RUNNER_TEMP": str(temp),
        "GITHUB_ACTIONS": "true",
        "GITHUB_STEP_SUMMARY": str(summary),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "FAKE_GH_STATE": str(tmp / "gh-state.json"),
        **extra,
    }
