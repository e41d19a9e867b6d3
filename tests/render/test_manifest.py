"""A report folder holds one report: the manifest of the files reportgen wrote, and the
removal of the earlier report's files on the next write, never of anything else."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from reportgen.errors import UsageError
from reportgen.render.manifest import MANIFEST, ours, read_manifest, stale_files
from reportgen.render.output import write_files
from reportgen.site.install import report_files
from reportgen.site.publish import publish

GOLD = "".join(
    json.dumps(line) + "\n"
    for line in [
        {"id": "A", "kind": "plain", "gold": ["a1"]},
        {"id": "B", "kind": "plain", "gold": ["b1"]},
        {"id": "E", "kind": "none", "unanswerable": True},
    ]
)
RUN = "".join(
    json.dumps({"id": qid, "chunks": chunks, "scores": list(range(len(chunks), 0, -1))}) + "\n"
    for qid, chunks in [("A", ["a1", "x"]), ("B", ["x", "b1"]), ("E", ["x"])]
)


def names(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.hand_made_reports  # report.json's bytes are a stand-in
def test_a_second_report_removes_the_first_reports_files_only(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_files(
        out,
        {"summary.md": b"1", "charts/recall_at_k.svg": b"x", "report.json": b"{}"},
        record="replace",
    )
    (out / "mine.txt").write_text("the user's")
    (out / "charts" / "theirs.svg").write_text("another tool's")
    write_files(out, {"report.json": b"{2}"}, record="replace")
    assert names(out) == {MANIFEST, "mine.txt", "charts/theirs.svg", "report.json"}
    assert read_manifest(out) == {"report.json": [hashlib.sha256(b"{2}").hexdigest()]}


@pytest.mark.hand_made_reports  # report.json's bytes are a stand-in
def test_an_emptied_charts_folder_goes_and_a_file_edited_since_stays(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_files(out, {"summary.md": b"1", "charts/recall_at_k.svg": b"x"}, record="replace")
    (out / "summary.md").write_text("edited by hand")  # no longer what reportgen wrote
    write_files(out, {"report.json": b"{}"}, record="replace")
    assert names(out) == {MANIFEST, "summary.md", "report.json"}
    assert not (out / "charts").exists()


@pytest.mark.hand_made_reports  # report.json's bytes are a stand-in
def test_a_folder_without_manifest_loses_nothing(tmp_path: Path) -> None:
    """Written by an older reportgen: nothing can be proved ours, so nothing goes."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.md").write_text("old")
    write_files(out, {"report.json": b"{}"}, record="replace")
    assert names(out) == {MANIFEST, "report.md", "report.json"}


def test_the_manifest_is_deterministic(tmp_path: Path) -> None:
    files = {"report.md": b"2", "summary.md": b"1"}
    write_files(tmp_path / "one", files, record="replace")
    write_files(tmp_path / "two", dict(reversed(files.items())), record="replace")
    assert (tmp_path / "one" / MANIFEST).read_bytes() == (tmp_path / "two" / MANIFEST).read_bytes()


@pytest.mark.hand_made_reports  # report.json's bytes are a stand-in
def test_links_are_never_followed(tmp_path: Path) -> None:
    """A manifest naming a file through a linked folder, or a file that became a link,
    removes nothing outside the folder."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "recall_at_k.svg").write_bytes(b"x")
    (outside / "summary.md").write_bytes(b"1")
    out = tmp_path / "out"
    write_files(out, {"summary.md": b"1", "charts/recall_at_k.svg": b"x"}, record="replace")
    (out / "charts" / "recall_at_k.svg").unlink()
    (out / "charts").rmdir()
    (out / "charts").symlink_to(outside)
    (out / "summary.md").unlink()
    (out / "summary.md").symlink_to(outside / "summary.md")
    assert stale_files(out, []) == []
    write_files(out, {"report.json": b"{}"}, record="replace")
    assert names(outside) == {"recall_at_k.svg", "summary.md"}
    assert os.path.islink(out / "summary.md")


@pytest.mark.hand_made_reports  # report.json's bytes are a stand-in
def test_a_manifest_that_is_a_link_or_damaged_is_ignored(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_files(out, {"summary.md": b"1"}, record="replace")
    (out / MANIFEST).write_text("{not json")
    write_files(out, {"report.json": b"{}"}, record="replace")
    assert "summary.md" in names(out)


@pytest.mark.hand_made_reports  # report.json's bytes are a stand-in
def test_a_kill_between_renames_leaves_what_the_next_run_removes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after the manifest listing old and new bytes and before the renames end:
    the next run still removes the first report's files."""
    out = tmp_path / "out"
    write_files(out, {"summary.md": b"1", "report.md": b"1"}, record="replace")
    calls = {"n": 0}
    real = os.replace

    def dying(source: str | Path, target: str | Path) -> None:
        calls["n"] += 1
        if calls["n"] == 3:  # the manifest, one file, then the kill
            raise KeyboardInterrupt
        real(source, target)

    monkeypatch.setattr(os, "replace", dying)
    with pytest.raises(KeyboardInterrupt):
        write_files(out, {"summary.md": b"2", "index.html": b"2"}, record="replace")
    monkeypatch.setattr(os, "replace", real)
    write_files(out, {"report.json": b"{}"}, record="replace")
    assert names(out) == {MANIFEST, "report.json"}


@pytest.mark.hand_made_reports  # report.json's bytes are a stand-in
def test_render_keeps_the_reports_files(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_files(out, {"report.json": b"{}", "per_question.csv": b"x"}, record="replace")
    write_files(out, {"index.html": b"<p>"}, record="add")
    assert set(read_manifest(out) or {}) == {"report.json", "per_question.csv", "index.html"}


@pytest.mark.slow  # two reports through the CLI; the tests above cover each part
def test_the_issue_reusing_out_and_publishing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 2-run report, then a 1-run report with --format html,json into the same folder:
    only the second report's files remain, and publish copies only them."""
    monkeypatch.chdir(tmp_path)
    Path("gold.jsonl").write_text(GOLD)
    Path("a.jsonl").write_text(RUN)
    Path("b.jsonl").write_text(RUN)
    runner = CliRunner()
    first = runner.invoke(cli, ["report", "gold.jsonl", "a.jsonl", "b.jsonl", "--out", "out", "-q"])
    assert first.exit_code == 0, first.output
    assert {"report.md", "summary.md"} <= names(Path("out"))
    Path("out/notes.txt").write_text("mine")
    second = runner.invoke(
        cli, ["report", "gold.jsonl", "a.jsonl", "--format", "html,json", "--out", "out", "-q"]
    )
    assert second.exit_code == 0, second.output
    left = names(Path("out"))
    assert "report.md" not in left and "summary.md" not in left and "notes.txt" in left
    assert set(read_manifest(Path("out")) or {}) == left - {"notes.txt", MANIFEST}
    published = runner.invoke(cli, ["publish", "out", "--site", "site", "-q"])
    assert published.exit_code == 0, published.output
    version = next(p for p in Path("site").iterdir() if p.is_dir() and not p.name.startswith("."))
    assert names(version) == left - {"notes.txt", MANIFEST}


@pytest.mark.parametrize("site", ["out", "out/site", "out/./", "out/a/../b"])
def test_publish_refuses_a_site_in_the_report_folder(tmp_path: Path, site: str) -> None:
    out = tmp_path / "out"
    example = Path(__file__).resolve().parents[2] / "site" / "2026.10.1"  # a real report
    files = {name: (example / name).read_bytes() for name in ("report.json", "per_question.csv")}
    write_files(out, files, record="replace")
    before = names(out)
    with pytest.raises(UsageError, match="report folder") as raised:
        publish(out, tmp_path / site)
    assert raised.value.exit_code == 2
    assert names(out) == before


def test_publish_takes_the_files_the_manifest_lists(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_files(out, {"index.html": b"<p>", "charts/hit_at_k.svg": b"a"}, record="replace")
    (out / "report.md").write_text("an earlier report's, written before manifests")
    assert [p.as_posix() for p in report_files(out)] == ["charts/hit_at_k.svg", "index.html"]


@pytest.mark.parametrize(
    "name",
    [
        "report.json",
        "per_question.parquet",
        "summary.md",
        "charts/trade_off.png",
        "charts/cutoff_12.svg",
        "charts/slices.svg",
        "charts/first_gold_rank.png",
        "merge/attributes.parquet",
        "merge/ppi_values.parquet",
        "merge/replicate_scores.parquet",
    ],
)
def test_reportgens_own_names_may_be_removed(name: str) -> None:
    assert ours(name)


@pytest.mark.parametrize(
    "name",
    ["notes.md", "data.csv", ".bashrc", "charts/x.svg", "charts/cutoff_01.svg", "merge/a.json"],
)
def test_no_other_name_may_be(name: str) -> None:
    assert not ours(name)
