"""Commit ancestry read with git: newest by ancestry, never by clock; clear refusals."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from reportgen.core.git import first_parent_chain, is_ancestor, newest_first
from reportgen.errors import UsageError

GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "dev",
    "GIT_AUTHOR_EMAIL": "dev@example.org",
    "GIT_COMMITTER_NAME": "dev",
    "GIT_COMMITTER_EMAIL": "dev@example.org",
}


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True, env=os.environ
    )
    return done.stdout.strip()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[str], str]:
    """main: c1 <- c2 <- c3; a branch from c1: side. Returns (repo, [c1, c2, c3], side)."""
    monkeypatch.delenv("GIT_DIR", raising=False)
    for name, value in GIT_ENV.items():
        monkeypatch.setenv(name, value)
    git(tmp_path, "init", "-q", "-b", "main")
    commits = []
    for i in range(3):
        git(tmp_path, "commit", "-q", "--allow-empty", "-m", f"c{i + 1}")
        commits.append(git(tmp_path, "rev-parse", "HEAD"))
    git(tmp_path, "checkout", "-q", "-b", "side", commits[0])
    git(tmp_path, "commit", "-q", "--allow-empty", "-m", "side")
    side = git(tmp_path, "rev-parse", "HEAD")
    return tmp_path, commits, side


def test_ancestry_wins_over_time_and_commitless_items_keep_their_place(
    repo: tuple[Path, list[str], str],
) -> None:
    root, (c1, c2, c3), _ = repo
    # published out of order: c1 last by clock, c3 first; the item without a commit
    # keeps its place by time (third newest), the others take theirs by ancestry
    items = [("c3", c3, "1"), ("none", None, "2"), ("c2", c2[:7], "3"), ("c1", c1, "4")]
    ordered = newest_first(items, lambda item: item[2], lambda item: item[1], root)
    assert [item[0] for item in ordered] == ["c3", "c2", "none", "c1"]
    # a commit git does not know is placed by time, like one without a commit
    unknown = [*items, ("gone", "deadbeef" * 5, "5")]
    ordered = newest_first(unknown, lambda item: item[2], lambda item: item[1], root)
    assert [item[0] for item in ordered] == ["gone", "c3", "c2", "none", "c1"]


def test_without_a_repository_the_order_is_by_time(tmp_path: Path) -> None:
    items = [("a", "a" * 40, "1"), ("b", "b" * 40, "2")]
    assert newest_first(items, lambda i: i[2], lambda i: i[1], tmp_path)[0][0] == "b"


def test_first_parent_chain_and_ancestors(repo: tuple[Path, list[str], str]) -> None:
    root, (c1, c2, c3), side = repo
    assert first_parent_chain(c3, root, option="--baseline-commit") == [c3, c2, c1]
    assert first_parent_chain(c2[:7], root, option="--baseline-commit") == [c2, c1]
    assert is_ancestor(c1, c3, root) is True
    assert is_ancestor(side, c3, root) is False
    assert is_ancestor("0" * 40, c3, root) is None


def test_unknown_commit_and_no_repository_are_said_with_the_fix(
    repo: tuple[Path, list[str], str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    root, _, _ = repo
    with pytest.raises(UsageError) as unknown:
        first_parent_chain("abcdef1", root, option="--baseline-commit")
    assert "--baseline-commit abcdef1: this commit is not in the repository" in str(unknown.value)
    assert "fetch-depth: 0" in str(unknown.value) and "--baseline-fallback newest" in str(
        unknown.value
    )
    elsewhere = tmp_path_factory.mktemp("plain")
    with pytest.raises(UsageError) as outside:
        first_parent_chain("abcdef1", elsewhere, option="--baseline-commit")
    assert "is not inside a git work tree" in str(outside.value)
