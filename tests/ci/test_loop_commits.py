"""The loop when jobs do not finish in commit order: real git, real reportgen processes.

Main's pages jobs publish to one site; an old main job re-run after a newer one
publishes last. Every pull request still gets its base commit's version as baseline
(--baseline-commit), the site's latest stays main's newest commit, and --keep 1 never
prunes it. A shallow clone is told how to fetch the history.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # a dozen reportgen processes: ~20 s here

REPO = Path(__file__).resolve().parents[2]
QUESTIONS = [f"q{i}" for i in range(8)]
GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "dev",
    "GIT_AUTHOR_EMAIL": "dev@example.org",
    "GIT_COMMITTER_NAME": "dev",
    "GIT_COMMITTER_EMAIL": "dev@example.org",
}


class Repo:
    """A bare origin, a work tree that commits to it, and a fresh clone per job."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.origin = root / "origin.git"
        self.work = root / "work"
        self.site = root / "site"
        self.jobs = 0
        self.clock = 1_764_000_000
        self.git(root, "init", "-q", "--bare", "-b", "main", str(self.origin))
        self.git(root, "clone", "-q", str(self.origin), str(self.work))

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("GIT_DIR", "GITHUB_SHA")}
        return {**env, **GIT_ENV, "PYTHONPATH": str(REPO)}

    def git(self, cwd: Path, *args: str) -> str:
        done = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, env=self.env(), check=True
        )
        return done.stdout.strip()

    def commit(self, branch: str, missed: int, start: str | None = None) -> str:
        """A commit on ``branch`` (from ``start``) whose run misses its first ``missed``
        questions, pushed to origin."""
        if start is not None:
            self.git(self.work, "checkout", "-q", "-B", branch, start)
        else:
            self.git(self.work, "checkout", "-q", "-B", branch)
        (self.work / "gold.jsonl").write_text(
            "".join(json.dumps({"id": q, "gold": [f"kb-{q}"]}) + "\n" for q in QUESTIONS)
        )
        (self.work / "run.jsonl").write_text(
            "".join(
                json.dumps({"id": q, "chunks": ["kb-other", f"kb-{q}" if i >= missed else "x"]})
                + "\n"
                for i, q in enumerate(QUESTIONS)
            )
        )
        self.git(self.work, "add", "-A")
        self.git(self.work, "commit", "-q", "--allow-empty", "-m", f"{branch}: misses {missed}")
        self.git(self.work, "push", "-q", "-f", "origin", f"HEAD:refs/heads/{branch}")
        return self.git(self.work, "rev-parse", "HEAD")

    def job(
        self, sha: str, *args: str, depth: int | None = None, command: str = "report"
    ) -> tuple[subprocess.CompletedProcess[str], Path]:
        """``reportgen report`` (or ``args`` as given) in a fresh clone checked out at
        ``sha``, as a CI job runs it (GITHUB_SHA set, the clock an hour later)."""
        self.jobs += 1
        self.clock += 3600
        clone = self.root / f"job-{self.jobs}"
        shallow = [] if depth is None else ["--depth", str(depth), "--no-single-branch"]
        self.git(self.root, "clone", "-q", *shallow, f"file://{self.origin}", str(clone))
        if depth is None:
            self.git(clone, "checkout", "-q", sha)
        out = self.root / f"out-{self.jobs}"
        full = (
            ["report", "gold.jsonl", "rag=run.jsonl", "--out", str(out), "--quiet", *args]
            if command == "report"
            else list(args)
        )
        done = subprocess.run(
            [sys.executable, "-m", "reportgen", *full],
            cwd=clone,
            capture_output=True,
            text=True,
            env={**self.env(), "GITHUB_SHA": sha, "SOURCE_DATE_EPOCH": str(self.clock)},
            check=False,
        )
        return done, out

    def main_job(self, sha: str, *publish: str) -> subprocess.CompletedProcess[str]:
        """Main's pages job: report (gate: hit@5 at least 0.6), then publish."""
        done, out = self.job(sha, "--min", "hit@5=0.6", "--version", sha[:7])
        assert done.returncode in (0, 1), done.stderr
        published, _ = self.job(
            sha, "publish", str(out), "--site", str(self.site), *publish, command="publish"
        )
        assert published.returncode == 0, published.stderr
        return published


def history(site: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (site / "history.jsonl").read_text().splitlines()]


def newest_row(site: Path) -> str:
    """The version of the index's first row (newest first)."""
    body = (site / "index.html").read_text().split("<tbody>", 1)[1]
    return body.split('<th scope="row">', 1)[1].split("</th>", 1)[0].split(">")[-2].split("<")[0]


def test_publishes_out_of_commit_order_keep_the_right_baselines(tmp_path: Path) -> None:
    repo = Repo(tmp_path)
    c1 = repo.commit("main", missed=1)  # recall@5 7/8
    c2 = repo.commit("main", missed=4)  # a known regression is merged: 4/8, fails the gate
    feature = repo.commit("feature", missed=0, start=c1)  # another line of work

    # c2's job lands first; then c1's, re-run, lands later.
    warned = repo.main_job(c2, "--keep", "1")
    assert f"warning: version {c2[:7]} failed its quality gate (--min hit@5=0.6 (rag))" in (
        warned.stderr
    )
    repo.main_job(c1, "--keep", "1")
    lines = history(repo.site)
    assert [line["commit"] for line in lines] == [c2, c1]
    assert lines[0]["gate"] == {"passed": False, "failed": ["--min hit@5=0.6 (rag)"]}
    assert next(line for line in lines if line["commit"] == c1)["gate"]["passed"] is True
    # --keep 1 never prunes main's newest: c2 stands, the re-run c1 too (its own publish)
    assert (repo.site / c2[:7] / "report.json").is_file()
    assert newest_row(repo.site) == c2[:7]
    index = (repo.site / "index.html").read_text()
    assert 'class="meta gate-failed" title="--min hit@5=0.6 (rag)">FAILED (1 rule)' in index

    # A PR on c2 that changes nothing: compared with c2, not with c1 (published last).
    pr = repo.commit("pr-1", missed=4, start=c2)
    rules = ("--max-drop", "recall@5=0.02")
    done, out = repo.job(pr, "--baseline", str(repo.site), "--baseline-commit", c2, *rules)
    assert done.returncode == 0, done.stderr
    report = json.loads((out / "report.json").read_text())
    assert report["commit"] == pr
    selection = report["baseline"]["selection"]
    assert (report["baseline"]["version"], selection["rule"]) == (c2[:7], "commit")
    # c2 failed its own gate: every output says so
    assert any(w["code"] == "baseline_failed_gate" for w in report["warnings"])
    for page in ("index.html", "report.md", "summary.md"):
        assert "failed its own quality gate" in (out / page).read_text(), page

    # c3 on main is not published yet (its job failed): its PRs take c2, the ancestor.
    c3 = repo.commit("main", missed=4, start=c2)
    pr = repo.commit("pr-2", missed=4, start=c3)
    done, out = repo.job(pr, "--baseline", str(repo.site), "--baseline-commit", c3, *rules)
    assert done.returncode == 0, done.stderr
    baseline = json.loads((out / "report.json").read_text())["baseline"]
    assert (baseline["version"], baseline["selection"]["rule"]) == (c2[:7], "ancestor")

    # A feature line's version is never a baseline of main's PRs, even when newest by
    # clock; a PR on the feature branch gets it.
    repo.main_job(feature)
    done, out = repo.job(pr, "--baseline", str(repo.site), "--baseline-commit", c3)
    assert json.loads((out / "report.json").read_text())["baseline"]["version"] == c2[:7]
    done, out = repo.job(feature, "--baseline", str(repo.site), "--baseline-commit", feature)
    assert json.loads((out / "report.json").read_text())["baseline"]["version"] == feature[:7]

    # ... nor when given as a report folder: it measured another line of work
    done, out = repo.job(pr, "--baseline", str(repo.site / feature[:7]), "--baseline-commit", c3)
    assert done.returncode == 2 and "nor one of its ancestors" in done.stderr, done.stderr

    # A shallow clone does not hold c1: said so, with how to fetch; exit 2 (no traceback).
    done, out = repo.job(c3, "--baseline", str(repo.site), "--baseline-commit", c1, depth=1)
    assert done.returncode == 2, done.stderr
    assert "not in the repository" in done.stderr and "fetch-depth: 0" in done.stderr
    assert "Traceback" not in done.stderr
    done, out = repo.job(
        c3,
        *("--baseline", str(repo.site), "--baseline-commit", c1),
        *("--baseline-fallback", "newest"),
        depth=1,
    )
    assert done.returncode == 0, done.stderr
    selection = json.loads((out / "report.json").read_text())["baseline"]["selection"]
    assert selection["note"].startswith("--baseline-fallback newest:")
    assert "--baseline-fallback newest" in (out / "report.md").read_text()
