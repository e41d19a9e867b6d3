"""The loop under GitHub's edge cases, through action.yml's own steps (tests/ci/test_loop.py's
Project): actions/checkout's default shallow checkout (fetch-depth 1, one commit fetched
by its hash) and a force-pushed main. The origin is a local bare repository; every push,
force-push and shallow fetch is a real one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ci.test_loop import Project, main_inputs, pr_inputs, report_of

pytestmark = pytest.mark.slow  # five workflow runs of real reports and publishes each


def published(project: Project) -> list[dict[str, object]]:
    return [json.loads(line) for line in project.branch_file("history.jsonl").splitlines()]


def newest_row(index: str) -> str:
    """The version of the index's first row (newest first)."""
    body = index.split("<tbody>", 1)[1]
    return body.split('<th scope="row">', 1)[1].split("</th>", 1)[0].split(">")[-2].split("<")[0]


def main_run(project: Project, sha: str, keep: str = "1", **options: object) -> None:
    inputs = {**main_inputs(), "publish-args": f"--keep\n{keep}\n"}
    run, _ = project.workflow_run("push", sha, inputs, **options)  # type: ignore[arg-type]
    assert not run.failed, {k: (s.returncode, s.stdout, s.stderr) for k, s in run.steps.items()}


def test_a_shallow_checkout_never_makes_a_rerun_of_an_old_commit_the_newest(
    tmp_path: Path,
) -> None:
    project = Project(tmp_path)
    a0 = project.commit("main", {"bm25": 4, "hybrid": 0}, "a0")
    project.git("--git-dir", str(project.origin), "symbolic-ref", "HEAD", "refs/heads/main")
    main_run(project, a0, shallow=True)
    a = project.commit("main", {"bm25": 3, "hybrid": 0}, "a")
    b = project.commit("main", {"bm25": 2, "hybrid": 0}, "b")
    main_run(project, b, shallow=True)
    # A's job re-run last, in a checkout of A alone: publish fetches the history first
    inputs = {**main_inputs(), "publish-args": "--keep\n1\n"}
    run, _ = project.workflow_run("push", a, inputs, shallow=True)
    assert not run.failed, {k: (s.returncode, s.stdout, s.stderr) for k, s in run.steps.items()}
    assert "This checkout is shallow" in run.steps["publish"].stdout
    # B stays the newest: --keep 1 prunes A0 only, never B; A keeps its own folder
    files = project.branch_files()
    assert f"{b[:7]}/report.json" in files and f"{a[:7]}/report.json" in files
    assert f"{a0[:7]}/report.json" not in files
    assert newest_row(project.branch_file("index.html")) == b[:7]
    lines = published(project)
    assert [line["version"] for line in lines if line.get("pruned")] == [a0[:7]]  # by B
    assert lines[-1]["version"] == a[:7] and lines[-1]["order"] == [b[:7], a[:7]]
    # The next PR, in a shallow checkout that cannot read the ancestry, falls back to
    # the newest version as the index shows it (B), not the newest by report time (A)
    pr = project.commit("pr-1", {"bm25": 2, "hybrid": 0}, "pr on b")
    inputs = pr_inputs(**{"baseline-commit": b, "baseline-fallback": "newest"})
    run, _ = project.workflow_run("pull_request", pr, inputs, pr=1, shallow=True)
    assert run.steps["report"].returncode == 0, run.steps["report"].stderr
    baseline = report_of(run)["baseline"]
    assert baseline["version"] == b[:7]
    assert baseline["selection"]["note"].startswith("--baseline-fallback newest:")


def test_reportgen_publish_in_a_shallow_clone_refuses_before_changing_anything(
    tmp_path: Path,
) -> None:
    """Without the action's fetch (reportgen publish run by hand in a shallow clone)."""
    project = Project(tmp_path)
    a0 = project.commit("main", {"bm25": 4, "hybrid": 0}, "a0")
    main_run(project, a0)
    a = project.commit("main", {"bm25": 3, "hybrid": 0}, "a")
    main_run(project, a)
    site = tmp_path / "site"
    project.git("clone", "-q", "-b", "gh-pages", str(project.origin), str(site))
    before = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    clone = tmp_path / "shallow"
    project.git("clone", "-q", "--depth=1", f"file://{project.origin}", str(clone))
    report = tmp_path / "report"
    project.git("-C", str(clone), "log", "-1")
    import subprocess
    import sys

    from tests.ci.test_loop import REPO

    env = {"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin", "GITHUB_SHA": a}
    made = subprocess.run(
        [sys.executable, "-m", "reportgen", "report", "eval/gold.jsonl",
         "bm25=eval/runs/bm25.jsonl", "--out", str(report), "-q", "--version", "again"],
        cwd=clone, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    done = subprocess.run(
        [sys.executable, "-m", "reportgen", "publish", str(report), "--site", str(site),
         "--keep", "1"],
        cwd=clone, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert "is shallow and lacks commits the site's versions record" in done.stderr
    assert "fetch-depth: 0" in done.stderr and "Traceback" not in done.stderr
    after = {p.relative_to(site): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert after == before


def test_a_force_pushed_main_is_published_with_its_first_parent_as_baseline(
    tmp_path: Path,
) -> None:
    project = Project(tmp_path)
    zeros = "0" * 40
    a0 = project.commit("main", {"bm25": 4, "hybrid": 0}, "a0")
    project.git("--git-dir", str(project.origin), "symbolic-ref", "HEAD", "refs/heads/main")
    main_run(project, a0, "9", push={"before": zeros, "forced": False})
    a = project.commit("main", {"bm25": 3, "hybrid": 0}, "a")
    main_run(project, a, "9", push={"before": a0, "forced": False})
    b = project.commit("main", {"bm25": 2, "hybrid": 0}, "b")
    main_run(project, b, "9", push={"before": a, "forced": False})
    # main is force-pushed to A0 -> C: B (the event's `before`) is on no branch any more
    work = str(project.work)
    project.git("-C", work, "reset", "-q", "--hard", a0)
    project.git("-C", work, "commit", "-q", "--allow-empty", "-m", "c")
    project.git("-C", work, "push", "-q", "-f", "origin", "HEAD:refs/heads/main")
    c = project.git("-C", work, "rev-parse", "HEAD")
    for attempt in range(2):  # the job, then its re-run
        run, _ = project.workflow_run("push", c, main_inputs(), push={"before": b, "forced": True})
        steps = run.steps
        assert not run.failed, {k: (s.returncode, s.stdout, s.stderr) for k, s in steps.items()}
        assert f"::notice::A forced push: this push was forced, so the commit before it ({b})" in (
            steps["report"].stdout
        )
        selection = report_of(run)["baseline"]["selection"]
        assert (report_of(run)["baseline"]["version"], selection["rule"]) == (a0[:7], "commit")
        assert selection["for_commit"] == a0
        assert f"{c[:7]}/report.json" in project.branch_files(), attempt
        removed = f"versions {a[:7]}, {b[:7]} ({a[:12]}, {b[:12]}) are on no branch"
        assert f"note: the commits of {removed}" in (steps["publish"].stderr)
    # A push whose `before` no branch holds any more (not itself forced: a re-run after
    # the force-push) takes its first parent too
    project.git("-C", work, "checkout", "-q", "-B", "side", a0)
    d = project.commit("side", {"bm25": 1, "hybrid": 0}, "d")
    run, _ = project.workflow_run("push", d, main_inputs(), push={"before": b, "forced": False})
    assert "no branch holds it any more" in run.steps["report"].stdout, run.steps["report"].stdout
    assert report_of(run)["baseline"]["version"] == a0[:7]
    assert newest_row(project.branch_file("index.html")) in (c[:7], d[:7])
