"""Commit ancestry, read with ``git`` in the working directory's repository.

CI jobs do not finish in commit order: two merges close together, or a re-run of an
old main job, publish an older commit after a newer one. So a site's "newest" version
and the baseline of a pull request are found by ancestry (``git rev-list``), never by
clock. Everything here runs ``git`` in ``cwd`` (default: the process's working
directory, the checkout a CI job runs in) and never changes the repository.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from reportgen.errors import UsageError

Item = TypeVar("Item")

_HEX = re.compile(r"[0-9a-f]{7,64}")
FETCH_FIX = (
    "fetch the history first: `git fetch --deepen=200 origin` (or `git fetch --unshallow`), "
    "or `fetch-depth: 0` in actions/checkout"
)
GIT_TIMEOUT = 60


def commit_problem(value: str) -> str | None:
    """Why ``value`` is not a commit hash (7 to 64 hex digits), or None."""
    return None if _HEX.fullmatch(value) else "not a commit hash (7 to 64 hex digits)"


def same_commit(recorded: str, full: str) -> bool:
    """Whether ``recorded`` (maybe abbreviated) names the full hash ``full``."""
    return len(recorded) >= 7 and full.startswith(recorded)


def _git(
    args: Sequence[str], cwd: Path | None, stdin: str | None = None
) -> subprocess.CompletedProcess[str] | None:
    """``git args`` in ``cwd``; None when git cannot be run at all."""
    try:
        return subprocess.run(
            ["git", *args],
            cwd=cwd,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=GIT_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None


def head_commit(cwd: Path | None = None) -> str | None:
    """The full hash of HEAD when ``cwd`` is inside a git work tree, else None."""
    done = _git(["rev-parse", "HEAD"], cwd)
    if done is None or done.returncode != 0:
        return None
    value = done.stdout.strip().lower()
    return value if commit_problem(value) is None else None


def is_shallow(cwd: Path | None = None) -> bool:
    done = _git(["rev-parse", "--is-shallow-repository"], cwd)
    return done is not None and done.stdout.strip() == "true"


def short_commit(commit: str, length: int, cwd: Path | None = None) -> str:
    """``commit`` shortened to ``length`` characters, longer when the repository holds
    another object with that prefix (``git rev-parse --short``); the plain prefix when
    git cannot tell (no repository, a commit it does not hold)."""
    done = _git(["rev-parse", f"--short={length}", f"{commit}^{{commit}}"], cwd)
    if done is not None and done.returncode == 0:
        value = done.stdout.strip().lower()
        if commit.startswith(value) and len(value) >= length:
            return value
    return commit[:length]


def unknown_commits(commits: Sequence[str], cwd: Path | None = None) -> list[str]:
    """The ``commits`` the repository in ``cwd`` does not hold (all of them when git
    cannot be run or ``cwd`` is no repository)."""
    wanted = list(dict.fromkeys(commits))
    return [commit for commit in wanted if commit not in _known_commits(wanted, cwd)]


def _known_commits(commits: Sequence[str], cwd: Path | None) -> dict[str, str]:
    """Each of ``commits`` (maybe abbreviated) that git holds -> its full hash."""
    if not commits:
        return {}
    asked = "".join(f"{commit}^{{commit}}\n" for commit in commits)
    checked = _git(["cat-file", "--batch-check=%(objectname) %(objecttype)"], cwd, asked)
    if checked is None or checked.returncode != 0:
        return {}
    known = {}
    for commit, line in zip(commits, checked.stdout.splitlines(), strict=False):
        fields = line.split()
        if len(fields) == 2 and fields[1] == "commit":
            known[commit] = fields[0]
    return known


def first_parent_chain(commit: str, cwd: Path | None = None, *, option: str) -> list[str]:
    """``commit`` and its first-parent ancestors, newest first (full hashes).

    Raises UsageError, naming ``option`` and how to fetch, when git is missing, ``cwd``
    is not a repository, or the commit is not in it (a shallow clone).
    """
    done = _git(["rev-list", "--first-parent", f"{commit}^{{commit}}", "--"], cwd)
    where = Path.cwd() if cwd is None else cwd
    if done is None:
        raise UsageError(
            f"{option} {commit}: git could not be run, and the ancestry of commits is read with it",
            "install git (or put it on PATH), or add --baseline-fallback newest",
        )
    if done.returncode != 0:
        inside = _git(["rev-parse", "--is-inside-work-tree"], cwd)
        if inside is None or inside.returncode != 0:
            raise UsageError(
                f"{option} {commit}: {where} is not inside a git work tree, and the "
                "ancestry of commits is read from the repository reportgen runs in",
                "run reportgen in the repository's checkout, or add --baseline-fallback newest",
            )
        if is_shallow(cwd):
            raise UsageError(
                f"{option} {commit}: this commit is not in the repository at {where} "
                "(this clone is shallow: it holds only the newest commits)",
                f"{FETCH_FIX}; or add --baseline-fallback newest to compare with the site's "
                "newest version instead",
            )
        raise UsageError(
            f"{option} {commit}: this commit is not in the repository at {where} (not a "
            "shallow clone): a force-push or a deleted branch removed it, or it was never "
            "fetched (another branch of a single-branch clone)",
            "give a commit the branch still holds (after a force-push, the action takes "
            "the measured commit's first parent), fetch every branch (`fetch-depth: 0` "
            "in actions/checkout), or add --baseline-fallback newest to compare with the "
            "site's newest version",
        )
    return done.stdout.split()


def newest_first(
    items: Sequence[Item],
    time: Callable[[Item], Any],
    commit: Callable[[Item], str | None],
    cwd: Path | None = None,
) -> list[Item]:
    """``items`` newest first: by ancestry among those whose commits git knows (a
    descendant before its ancestors), by ``time`` for the others.

    The items are sorted by time (stable), then those with known commits are put in
    ancestry order into the places they took: an older commit published later never
    comes before a newer one, and items without a commit keep their place by time.
    """
    by_time = sorted(items, key=time, reverse=True)
    rank = _topo_rank([value for item in by_time if (value := commit(item))], cwd)
    if not rank:
        return by_time
    slots = [i for i, item in enumerate(by_time) if _known(commit(item), rank)]
    placed = sorted(
        (by_time[i] for i in slots),
        key=lambda item: _known(commit(item), rank) or 0,
    )
    ordered = list(by_time)
    for slot, item in zip(slots, placed, strict=True):
        ordered[slot] = item
    return ordered


def _known(commit: str | None, rank: dict[str, int]) -> int | None:
    """The commit's place in topological order (1 = newest), None when git does not know it."""
    if commit is None:
        return None
    if commit in rank:
        return rank[commit]
    matches = [place for full, place in rank.items() if same_commit(commit, full)]
    return matches[0] if len(matches) == 1 else None


def _topo_rank(commits: Sequence[str], cwd: Path | None) -> dict[str, int]:
    """Full hash -> place in ``git rev-list --topo-order`` of the ``commits`` git knows
    (children before parents); empty when git, the repository or every commit is missing."""
    known = list(_known_commits(list(dict.fromkeys(commits)), cwd).values())
    if len(set(known)) < 2:
        return {full: 1 for full in known}
    done = _git(["rev-list", "--topo-order", *dict.fromkeys(known), "--"], cwd)
    if done is None or done.returncode != 0:
        return {}
    wanted = set(known)
    listed = [full for full in done.stdout.split() if full in wanted]
    return {full: place for place, full in enumerate(listed, start=1)}


def is_ancestor(older: str, newer: str, cwd: Path | None = None) -> bool | None:
    """Whether ``older`` is an ancestor of ``newer`` (or the same commit); None when git
    cannot tell (a commit it does not know, no repository)."""
    done = _git(["merge-base", "--is-ancestor", older, newer], cwd)
    if done is None or done.returncode not in (0, 1):
        return None
    return done.returncode == 0
