"""A site's order follows commit ancestry: a re-run of an old commit's job, published
last, is never the newest and never prunes the newer (real git, in-process publish)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from reportgen.api import ReportOutputs, ReportSettings, demo_request, make_report
from reportgen.errors import InputError, UsageError
from reportgen.load.previous.baseline import load_baseline
from reportgen.site.publish import publish


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("demo")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", "1764000000")
        make_report(demo_request(ReportOutputs(folder, formats=("json",)), ReportSettings()))
    return folder


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, check=True
    ).stdout.strip()


def version_of(demo: Path, folder: Path, label: str, commit: str, created: str) -> Path:
    """The demo report relabelled: ``label``, measuring ``commit``, made at ``created``."""
    shutil.copytree(demo, folder)
    report = json.loads((folder / "report.json").read_text())
    report |= {"version": label, "commit": commit, "created": created}
    (folder / "report.json").write_text(json.dumps(report))
    return folder


@pytest.mark.slow  # four publishes: ~15 s; tests/core/test_git.py covers the order quickly
def test_ancestry_orders_the_site_and_keep(
    demo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GIT_DIR", raising=False)
    for name in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{name}_NAME", "dev")
        monkeypatch.setenv(f"GIT_{name}_EMAIL", "dev@example.org")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commits = []
    for i in range(3):
        git(repo, "commit", "-q", "--allow-empty", "-m", f"c{i}")
        commits.append(git(repo, "rev-parse", "HEAD"))
    monkeypatch.chdir(repo)
    site = tmp_path / "site"
    # c2 published first, then c1, then c0 (re-runs finishing late), each with --keep 2
    for label, commit, created in (
        ("c2", commits[2], "2026-01-01T00:00:00Z"),
        ("c1", commits[1], "2026-01-02T00:00:00Z"),
        ("c0", commits[0], "2026-01-03T00:00:00Z"),
    ):
        folder = version_of(demo, tmp_path / label, label, commit, created)
        published = publish(folder, site, keep=2)
        assert published.pruned == []  # never a newer one; the published one stays too
    assert sorted(p.name for p in site.iterdir() if p.is_dir()) == ["c0", "c1", "c2"]
    rows = (site / "index.html").read_text().split("<tbody>")[1]
    assert rows.index(">c2<") < rows.index(">c1<") < rows.index(">c0<")
    # without --baseline-commit the site's newest is c2, not c0 (published last)
    assert load_baseline(site).report["version"] == "c2"
    chosen = load_baseline(site, commit=commits[1])
    assert chosen.report["version"] == "c1"
    assert chosen.selection == {
        "site": str(site),
        "rule": "commit",
        "versions": 3,
        "newer": ["c2"],
        "for_commit": commits[1],
        "commit": commits[1],
        "note": None,
    }
    git(repo, "commit", "-q", "--allow-empty", "-m", "c3")
    c3 = git(repo, "rev-parse", "HEAD")
    published = publish(
        version_of(demo, tmp_path / "c3", "c3", c3, "2026-01-04T00:00:00Z"), site, keep=2
    )
    assert published.pruned == ["c0", "c1"]
    with pytest.raises(InputError, match="the ancestors' versions c0, c1 were pruned"):
        load_baseline(site, commit=commits[1])
    assert load_baseline(site, commit=c3).selection["rule"] == "commit"  # type: ignore[index]


@pytest.mark.slow  # one publish of the demo report
def test_a_label_another_commit_holds_is_refused_not_replaced(demo: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    first, second = "abc1234" + "0" * 33, "abc1234" + "f" * 33  # one 7-character prefix
    publish(version_of(demo, tmp_path / "a", "abc1234", first, "2026-01-01T00:00:00Z"), site)
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    other = version_of(demo, tmp_path / "b", "abc1234", second, "2026-01-02T00:00:00Z")
    with pytest.raises(UsageError) as refused:
        publish(other, site)
    assert f"version abc1234 is already on the site for commit {first}" in str(refused.value)
    assert f"--version {second[:12]}" in str(refused.value)
    assert {p: p.read_bytes() for p in site.rglob("*") if p.is_file()} == before
