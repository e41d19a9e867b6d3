"""`reportgen publish`: one folder per version, an index ordered by time, a history
that only grows, and a previous site left intact when anything fails."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.api import ReportOutputs, ReportSettings, demo_request, make_report
from reportgen.cli import cli
from reportgen.site import install as publishing
from reportgen.site import publish as site_module
from reportgen.site.publish import publish

EPOCHS = {"v2": "1760000000", "v10": "1761000000", "v9": "1762000000"}
"""Created in this order: v2, then v10, then v9 (text order would say v10, v2, v9)."""


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folders = {}
    with pytest.MonkeyPatch.context() as patch:
        for version, epoch in EPOCHS.items():
            patch.setenv("SOURCE_DATE_EPOCH", epoch)
            folder = tmp_path_factory.mktemp(f"report-{version}")
            make_report(demo_request(ReportOutputs(folder), ReportSettings(version=version)))
            folders[version] = folder
    return folders


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


@pytest.mark.slow
def test_publishes_every_file_of_a_version(reports: dict[str, Path], tmp_path: Path) -> None:
    published = publish(reports["v2"], tmp_path / "site")
    assert published.folder == tmp_path / "site" / "v2"
    assert sorted(tree(published.folder)) == [
        "charts/chunkings.svg",
        *[f"charts/cutoff_{i}.svg" for i in range(5)],
        "charts/first_gold_rank.svg",
        "charts/hit_at_k.svg",
        "charts/recall_at_k.svg",
        "index.html",
        "per_question.csv",
        "report.json",
        "report.md",
        "summary.md",
    ]
    assert tree(published.folder) == {
        name: data for name, data in tree(reports["v2"]).items() if name in tree(published.folder)
    }


def test_index_lists_versions_newest_first_by_time(
    reports: dict[str, Path], tmp_path: Path
) -> None:
    site = tmp_path / "site"
    for version in ("v9", "v2", "v10"):  # published out of order on purpose
        publish(reports[version], site)
    index = (site / "index.html").read_text()
    rows = [index.index(f'<a href="{v}/index.html">{v}</a>') for v in ("v9", "v10", "v2")]
    assert rows == sorted(rows)  # v9 (newest) first, then v10, then v2
    trend = index.split('id="chart-trend_recall"')[1]
    assert trend.index(">v2<") < trend.index(">v10<") < trend.index(">v9<")  # oldest left
    assert "Versions (3)" in index
    assert "rerank: hit@5 0.904 | recall@5 0.849 | precision@5 0.250 | MRR@5 0.600" in index


def test_history_only_grows_and_republishing_replaces_one_version(
    reports: dict[str, Path], tmp_path: Path
) -> None:
    site = tmp_path / "site"
    publish(reports["v2"], site)
    publish(reports["v10"], site)
    v10_before = tree(site / "v10")
    history_before = (site / "history.jsonl").read_bytes()
    (site / "v2" / "stale.txt").write_text("left by an older publication")
    publish(reports["v2"], site)
    history = (site / "history.jsonl").read_bytes()
    assert history.startswith(history_before)
    lines = [json.loads(line) for line in history.decode().splitlines()]
    assert [line["version"] for line in lines] == ["v2", "v10", "v2"]
    assert lines[0]["runs"]["rerank"]["recall"] == pytest.approx(0.8493589744)
    assert not (site / "v2" / "stale.txt").exists()  # the version folder was replaced whole
    assert tree(site / "v10") == v10_before
    assert (site / "index.html").read_text().count('<th scope="row"><a href=') == 2
    assert not [p for p in site.iterdir() if p.name.startswith(".publish-")]


def test_a_failure_leaves_the_previous_site_intact(
    reports: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    publish(reports["v2"], site)
    before = tree(site)

    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("disk full")

    monkeypatch.setattr(site_module, "render_index", broken)
    with pytest.raises(RuntimeError):
        publish(reports["v2"], site)
    with pytest.raises(RuntimeError):
        publish(reports["v10"], site)
    assert tree(site) == before
    assert sorted(p.name for p in site.iterdir()) == ["history.jsonl", "index.html", "v2"]


@pytest.mark.parametrize("atomic_swap", [True, False], ids=["exchange", "two-renames"])
def test_a_failure_after_the_swap_puts_the_old_version_back(
    reports: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, atomic_swap: bool
) -> None:
    """history.jsonl cannot be written (disk full): the new copy goes back out."""
    site = tmp_path / "site"
    publish(reports["v2"], site)
    publish(reports["v10"], site)
    before = tree(site)
    if not atomic_swap:  # a system without renameat2 / renamex_np
        monkeypatch.setattr(publishing, "exchange", lambda first, second: False)
    real_write = publishing.atomic_write

    def write(path: Path, data: bytes, option: str = "output") -> None:
        if path.name == "history.jsonl":
            raise OSError(28, "No space left on device")
        real_write(path, data, option)

    monkeypatch.setattr(publishing, "atomic_write", write)
    with pytest.raises(OSError, match="No space"):
        publish(reports["v2"], site)
    assert tree(site) == before
    assert sorted(p.name for p in site.iterdir()) == ["history.jsonl", "index.html", "v10", "v2"]


def test_without_an_atomic_swap_a_failed_rename_puts_the_old_version_back(
    reports: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site"
    publish(reports["v2"], site)
    before = tree(site)
    monkeypatch.setattr(publishing, "exchange", lambda first, second: False)
    real_rename = Path.rename

    def rename(self: Path, target: Path) -> Path:
        if self.name == "v2" and self.parent != site:  # the staged copy moving in
            raise OSError("killed")
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", rename)
    with pytest.raises(OSError):
        publish(reports["v2"], site)
    assert tree(site) == before


def test_cli_publish_and_unsafe_version_labels(reports: dict[str, Path], tmp_path: Path) -> None:
    site = tmp_path / "site"
    result = CliRunner().invoke(cli, ["publish", str(reports["v2"]), "--site", str(site)])
    assert result.exit_code == 0, result.output
    assert "Published v2" in result.output
    report = json.loads((reports["v2"] / "report.json").read_text())
    for label in ("../escape", "<script>", ".hidden", "index.html", "a b"):
        bad = tmp_path / "bad"
        bad.mkdir(exist_ok=True)
        (bad / "report.json").write_text(json.dumps({**report, "version": label}))
        result = CliRunner().invoke(cli, ["publish", str(bad), "--site", str(site)])
        assert result.exit_code == 2, (label, result.output)
        assert "Fix:" in result.output and "Traceback" not in result.output
    assert sorted(p.name for p in site.iterdir()) == ["history.jsonl", "index.html", "v2"]


def test_a_folder_without_a_report_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["publish", str(tmp_path), "--site", str(tmp_path / "s")])
    assert result.exit_code == 2
    assert f"{tmp_path / 'report.json'}: no report.json in this folder. Fix:" in result.output


def test_keep_prunes_the_oldest_folders_and_the_history_keeps_their_points(
    reports: dict[str, Path], tmp_path: Path
) -> None:
    site = tmp_path / "site"
    for version in ("v2", "v10"):
        publish(reports[version], site, keep=2)
    history_before = (site / "history.jsonl").read_bytes()
    published = publish(reports["v9"], site, keep=2)
    assert published.pruned == ["v2"]  # the oldest by creation time, not by label
    assert sorted(p.name for p in site.iterdir()) == [
        "history-archive.jsonl",
        "history.jsonl",
        "index.html",
        "v10",
        "v9",
    ]
    # With --keep the history holds one line per version: v2's first line is archived
    history = (site / "history.jsonl").read_bytes()
    archive = (site / "history-archive.jsonl").read_bytes()
    assert archive == history_before.splitlines(keepends=True)[0]
    lines = [json.loads(line) for line in history.decode().splitlines()]
    assert [(line["version"], "pruned" in line) for line in lines] == [
        ("v10", False),
        ("v9", False),
        ("v2", True),
    ]
    first = json.loads(archive)
    del first["order"]  # the order it recorded is not copied to the pruned line
    assert {**lines[2], "pruned": None} == {**first, "pruned": None}  # its numbers kept
    assert lines[1]["order"] == ["v9", "v10"]  # the index's order, newest first
    index = (site / "index.html").read_text()
    assert "Versions (3)" in index
    row = index.split('<th scope="row">v2</th>')[1].split("</tr>")[0]
    assert "pruned " in row and "<a href" not in row
    trend = index.split('id="chart-trend_recall"')[1]
    assert trend.index(">v2<") < trend.index(">v10<") < trend.index(">v9<")  # still a point
    result = CliRunner().invoke(
        cli, ["publish", str(reports["v2"]), "--site", str(site), "--keep", "1"]
    )
    assert result.exit_code == 0, result.output
    # v2, published again, keeps its folder; v9 stays the newest (by creation time, as
    # these reports record no commit): an older version published late never prunes it
    assert "Pruned (--keep 1): v10\n" in result.output
    assert sorted(p.name for p in site.iterdir()) == [
        "history-archive.jsonl",
        "history.jsonl",
        "index.html",
        "v2",
        "v9",
    ]


def test_keep_and_lock_timeout_are_checked(reports: dict[str, Path], tmp_path: Path) -> None:
    for option in (["--keep", "0"], ["--lock-timeout", "-1"]):
        result = CliRunner().invoke(
            cli, ["publish", str(reports["v2"]), "--site", str(tmp_path / "s"), *option]
        )
        assert result.exit_code == 2 and "Traceback" not in result.output
    assert not (tmp_path / "s").exists()


@pytest.mark.slow  # three publishes of demo reports
def test_a_publish_past_the_site_limit_is_refused_and_changes_nothing(
    reports: dict[str, Path], tmp_path: Path
) -> None:
    site = tmp_path / "site"
    publish(reports["v2"], site)
    (site / ".git").mkdir()
    (site / ".git" / "pack").write_bytes(b"x" * 3_000_000)  # a checkout's: Pages serves none
    before = tree(site)
    served = sum(len(data) for name, data in before.items() if not name.startswith(".git/"))
    limit = served * 1.5 / 1_000_000  # room for one version's files, not for two
    result = CliRunner().invoke(
        cli,
        ["publish", str(reports["v10"]), "--site", str(site), "--site-limit-mb", str(limit)],
    )
    assert result.exit_code == 2, result.output
    assert f"past --site-limit-mb {limit:g} (GitHub Pages refuses sites over 1 GB)" in result.output
    assert "nothing was changed. Fix: prune old versions (`--keep N`)" in result.output
    assert tree(site) == before
    # the same site under a limit that .git alone would pass: published, and no warning
    result = CliRunner().invoke(
        cli,
        ["publish", str(reports["v10"]), "--site", str(site), "--max-site-mb", str(limit * 2)],
        env={"GITHUB_ACTIONS": "true"},
    )
    assert result.exit_code == 0 and "warning" not in result.stderr + result.stdout
    result = CliRunner().invoke(
        cli,
        ["publish", str(reports["v10"]), "--site", str(site), "--max-site-mb", str(limit)],
        env={"GITHUB_ACTIONS": "true"},
    )
    assert result.exit_code == 0
    assert result.stderr.startswith("warning: the site holds")
    [annotation] = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert annotation.startswith("::warning title=reportgen publish::the site holds")


@pytest.mark.slow  # three publishes of demo reports
def test_keep_bounds_the_history_and_the_index(reports: dict[str, Path], tmp_path: Path) -> None:
    site = tmp_path / "site"
    for version in ("v2", "v10", "v9", "v9"):
        publish(reports[version], site, keep=1)
    lines = [json.loads(line) for line in (site / "history.jsonl").read_text().splitlines()]
    # v9 stands, v10 is the one pruned version kept (keep 1); v2 and superseded lines
    # moved to the archive
    assert [(line["version"], bool(line.get("pruned"))) for line in lines] == [
        ("v10", True),
        ("v9", False),
    ]
    archived = (site / "history-archive.jsonl").read_text().splitlines()
    assert sorted(json.loads(line)["version"] for line in archived) == ["v10", "v2", "v2", "v9"]
    index = (site / "index.html").read_text()
    assert "Versions (2)" in index and '<th scope="row">v2</th>' not in index
