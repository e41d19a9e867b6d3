"""`reportgen publish` killed at every rename and unlink, and ten at once: no version lost.

Kills are real: strace's fault injection sends SIGKILL to the publishing process at
the Nth call of one syscall (counted per syscall, as strace does), for every N that a
publish makes. After each kill the site must still hold every version whole (old or
new copy, never a mix, never none), and the next publish must finish or undo the
killed one and leave nothing else in the site.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.api import ReportOutputs, ReportSettings, demo_request, make_report
from reportgen.cli import cli
from reportgen.load.previous.published import load_history
from reportgen.site.lock import LOCK_NAME, site_lock
from reportgen.site.publish import publish

REPO = Path(__file__).resolve().parents[2]
TRACED = ("rename", "renameat", "renameat2", "unlink", "unlinkat")
EPOCHS = {"v1": 1_760_000_000, "v1b": 1_760_000_500, "v2": 1_761_000_000, "v3": 1_762_000_000}
"""v1b is a second report labelled v1 (made later: a re-publish replaces v1 with it)."""

Tree = dict[str, bytes]


def tree(folder: Path) -> Tree:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folders = {}
    with pytest.MonkeyPatch.context() as patch:
        for name, epoch in EPOCHS.items():
            patch.setenv("SOURCE_DATE_EPOCH", str(epoch))
            folder = tmp_path_factory.mktemp(f"report-{name}")
            settings = ReportSettings(version=name.removesuffix("b"))
            make_report(demo_request(ReportOutputs(folder), settings))
            folders[name] = folder
    return folders


def command(report: Path, site: Path) -> list[str]:
    return [sys.executable, "-m", "reportgen", "publish", str(report), "--site", str(site), "-q"]


def env(epoch: int = 1_770_000_000) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "PYTHONDONTWRITEBYTECODE": "1",
        "SOURCE_DATE_EPOCH": str(epoch),
    }


def run(report: Path, site: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command(report, site), *options], env=env(), capture_output=True, text=True, check=False
    )


@pytest.fixture(scope="module")
def base_site(reports: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """v1 and v2 published, the starting point of every trial."""
    site = tmp_path_factory.mktemp("base") / "site"
    for name in ("v1", "v2"):
        assert run(reports[name], site).returncode == 0
    return site


def strace_problem() -> str | None:
    """Why strace cannot run here (for the skip), or None."""
    if shutil.which("strace") is None:
        return "strace is not installed (apt-get install strace)"
    probe = subprocess.run(
        ["strace", "-f", "-qq", "-o", os.devnull, "true"], capture_output=True, text=True
    )
    if probe.returncode != 0:
        return f"ptrace is not permitted here: {probe.stderr.strip()[:200]}"
    return None


needs_strace = pytest.mark.skipif(strace_problem() is not None, reason=str(strace_problem()))


def syscall_counts(argv: list[str], tmp: Path) -> Counter[str]:
    """How many times the publishing process (not its helper threads) calls each traced
    syscall in a publish that runs to its end."""
    log = tmp / "strace.log"
    # execve too: the first line is then the publishing process's own start, never a
    # traced call of its chart child that happened to come first (which made this count
    # another process's calls and read 0 renames, once in a loaded run)
    done = subprocess.run(
        ["strace", "-f", "-qq", "-o", str(log), "-e", f"trace=execve,{','.join(TRACED)}", *argv],
        env=env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = log.read_text().splitlines()
    first_pid = lines[0].split()[0]
    names = [
        match.group(1)
        for line in lines
        if line.split()[0] == first_pid and (match := re.match(r"\d+ +(\w+)\(", line))
    ]
    return Counter(name for name in names if name in TRACED)


def kill_at(argv: list[str], syscall: str, n: int) -> int:
    """Run ``argv`` under strace, SIGKILL it at its ``n``th ``syscall``; the exit code."""
    done = subprocess.run(
        [
            *("strace", "-f", "-qq", "-o", os.devnull, "-e", f"trace={syscall}"),
            *("-e", f"inject={syscall}:signal=KILL:when={n}"),
            *argv,
        ],
        env=env(),
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode


def trials(counts: Counter[str]) -> list[tuple[str, int]]:
    return [(name, n) for name in TRACED for n in range(1, counts[name] + 1)]


class Known:
    """The trees each version may have on the site: every report labelled with it."""

    def __init__(self, reports: dict[str, Path], site_tree: Callable[[Path], Tree]) -> None:
        self.trees: dict[str, list[Tree]] = {}
        for name, folder in reports.items():
            self.trees.setdefault(name.removesuffix("b"), []).append(site_tree(folder))

    def which(self, version: str, folder: Path) -> int:
        """Which of the known trees ``folder`` is (asserting it is one, whole)."""
        found = tree(folder)
        assert found in self.trees[version], f"{folder} is not a whole copy of {version}"
        return self.trees[version].index(found)


def check_whole(site: Path, known: Known, may_be_pruned: set[str]) -> None:
    """What a reader finds at any moment: every version whole, history and index readable."""
    history = {entry["version"]: entry for entry in load_history(site / "history.jsonl")}
    assert (site / "index.html").read_text().rstrip().endswith("</html>")
    for version in ("v1", "v2"):
        if not (site / version).exists():
            assert version in may_be_pruned and history[version].get("pruned"), version
            continue
        known.which(version, site / version)
    if (site / "v3").exists():
        known.which("v3", site / "v3")


def check_recovered(site: Path, known: Known) -> set[str]:
    """After the next publish: nothing but versions, index and history; every version's
    folder matches its last history line; the index links every standing version."""
    history = {entry["version"]: entry for entry in load_history(site / "history.jsonl")}
    standing = {version for version, entry in history.items() if not entry.get("pruned")}
    archive = {"history-archive.jsonl"}  # --keep's archived lines: may repeat, never lost
    assert {p.name for p in site.iterdir()} - archive == standing | {"index.html", "history.jsonl"}
    index = (site / "index.html").read_text()
    for version in standing:
        report = json.loads((site / version / "report.json").read_text())
        assert report["created"] == history[version]["created"], version
        known.which(version, site / version)
        assert f'<a href="{version}/index.html">{version}</a>' in index
    for version in set(history) - standing:
        assert f'<a href="{version}/index.html">' not in index
    return standing


@pytest.fixture(scope="module")
def known(reports: dict[str, Path]) -> Known:
    from reportgen.site.install import report_files

    def site_tree(folder: Path) -> Tree:
        return {p.as_posix(): (folder / p).read_bytes() for p in report_files(folder)}

    return Known(reports, site_tree)


@pytest.mark.slow
@needs_strace
def test_a_kill_at_the_swap_loses_nothing(
    reports: dict[str, Path], base_site: Path, known: Known, tmp_path: Path
) -> None:
    """The issue's case: a re-publish of v1 killed as it swaps the new copy in."""
    site = tmp_path / "site"
    shutil.copytree(base_site, site)
    code = kill_at(command(reports["v1b"], site), "renameat2", 1)
    assert code == -9
    check_whole(site, known, set())
    assert known.which("v1", site / "v1") in (0, 1)
    done = run(reports["v2"], site)
    assert done.returncode == 0, done.stderr
    assert "note: " in done.stderr
    check_recovered(site, known)


@pytest.mark.slow
@needs_strace
@pytest.mark.parametrize(
    ("scenario", "options"),
    [("v1b", ()), ("v3", ("--keep", "2"))],
    ids=["republish-v1", "new-v3-pruning-v1"],
)
def test_a_kill_at_every_rename_and_unlink_loses_nothing(
    reports: dict[str, Path],
    base_site: Path,
    known: Known,
    tmp_path: Path,
    scenario: str,
    options: tuple[str, ...],
) -> None:
    probe = tmp_path / "probe"
    shutil.copytree(base_site, probe)
    counts = syscall_counts([*command(reports[scenario], probe), *options], tmp_path)
    assert counts["renameat2" if scenario == "v1b" else "rename"] >= 1
    outcomes = []
    for syscall, n in trials(counts):
        site = tmp_path / f"site-{syscall}-{n}"
        shutil.copytree(base_site, site)
        code = kill_at([*command(reports[scenario], site), *options], syscall, n)
        assert code == -9, (syscall, n, code)
        check_whole(site, known, {"v1"} if options else set())
        publish(reports["v2"], site)  # in this process: the chart engine is warm
        standing = check_recovered(site, known)
        new_v1 = "v1" in standing and known.which("v1", site / "v1") == 1
        outcomes.append((syscall, n, "v3" in standing if scenario == "v3" else new_v1))
        shutil.rmtree(site)
    assert len(outcomes) == sum(counts.values()) >= 10
    # both ends were reached: killed early, the publish was undone; late, completed
    assert outcomes[0][2] is False and outcomes[-1][2] is True, outcomes


@pytest.mark.slow
def test_ten_publishes_at_once_all_land(reports: dict[str, Path], tmp_path: Path) -> None:
    """Ten publishes of different versions started together: each waits its turn."""
    site = tmp_path / "site"
    labels = [f"c{i}" for i in range(10)]
    folders = []
    for i, label in enumerate(labels):
        folder = tmp_path / f"in-{label}"
        shutil.copytree(reports["v2"], folder)
        report = json.loads((folder / "report.json").read_text())
        report.update(version=label, created=f"2026-01-{i + 1:02d}T00:00:00Z")
        (folder / "report.json").write_text(json.dumps(report))
        folders.append(folder)
    processes = [
        subprocess.Popen(
            [*command(folder, site), "--lock-timeout", "600"],
            env=env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for folder in folders
    ]
    results = [(process.wait(timeout=900), process.stderr) for process in processes]
    assert [code for code, _ in results] == [0] * 10, [e.read() for _, e in results if e]
    history = [entry["version"] for entry in load_history(site / "history.jsonl")]
    assert sorted(history) == sorted(labels)
    index = (site / "index.html").read_text()
    assert all(f'<a href="{label}/index.html">{label}</a>' in index for label in labels)
    assert "Versions (10)" in index
    assert {p.name for p in site.iterdir()} == {*labels, "index.html", "history.jsonl"}


def test_a_second_publisher_waits_then_says_who_holds_the_lock(
    reports: dict[str, Path], tmp_path: Path
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    with site_lock(site, timeout=0):
        result = CliRunner().invoke(
            cli, ["publish", str(reports["v1"]), "--site", str(site), "--lock-timeout", "0.3"]
        )
        assert result.exit_code == 2, result.output
        message = result.output
        assert message.startswith(
            f"Error: {site / LOCK_NAME}: another publish holds this site's lock "
            f"(pid {os.getpid()} on host {socket.gethostname()}, since "
        )
        assert "waited 0.3 s. Fix: let it finish and publish again, or wait longer with " in (
            message
        )
        assert sorted(p.name for p in site.iterdir()) == [LOCK_NAME]
    assert list(site.iterdir()) == []  # the holder removed its lock file
    result = CliRunner().invoke(cli, ["publish", str(reports["v1"]), "--site", str(site)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in site.iterdir()) == ["history.jsonl", "index.html", "v1"]
