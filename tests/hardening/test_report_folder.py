"""The report folder's manifest removes only reportgen's own files, and nothing is
written or removed through a link out of the folder (issue 39).

A pull request may add a report folder, manifest included; a user may link ``charts/``
to another folder or hard-link a report's file elsewhere. A manifest can be forged, so
what it can remove is bounded by reportgen's own output names, the single-link rule and
the content hash. Each case runs the real CLI (or ``write_files``, the one writer) and
checks what is left on disk.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from reportgen.api import example_dir
from reportgen.render.manifest import MANIFEST, ours, read_manifest, stale_files
from reportgen.render.output import write_files
from tests.hardening.corpus import assert_clean_failure, run_cli, snapshot, write_inputs

NOTES = b"the user's own notes\n"


def _report(folder: Path, *extra: str) -> list[str]:
    gold, run = write_inputs(folder / "inputs")
    out = folder / "out"
    return ["report", str(gold), f"r={run}", "--out", str(out), "--format", "json", *extra]


def _forged(out: Path, names: dict[str, bytes], signature: str | None = None) -> None:
    """A manifest listing ``names`` with their current hashes, as a pull request could
    commit it (format 2 carried a signature; format 3 none)."""
    body: dict[str, object] = {
        "reportgen_manifest": 3 if signature is None else 2,
        "files": {name: hashlib.sha256(data).hexdigest() for name, data in names.items()},
    }
    if signature is not None:
        body["signature"] = signature
    (out / MANIFEST).write_text(json.dumps(body))


USERS_FILES = [
    "notes.md",
    "notes.txt",
    "data.csv",
    ".bashrc",
    ".ssh/id_rsa",
    "id_ed25519",
    "inputs.jsonl",
    "per_question.json",
    "report.json.bak",
    "charts/mine.svg",
    "charts/recall_at_k.svg.orig",
    "charts/cutoff_01.svg",
    "merge/notes.parquet",
    "merge/shard.json.txt",
]


@pytest.mark.parametrize("name", USERS_FILES)
def test_a_forged_manifest_removes_none_of_the_users_files(tmp_path: Path, name: str) -> None:
    out = tmp_path / "out"
    (out / name).parent.mkdir(parents=True, exist_ok=True)
    (out / name).write_bytes(NOTES)
    _forged(out, {name: NOTES}, "0" * 64 if name == "notes.txt" else None)
    assert not ours(name) and stale_files(out, []) == []
    outcome = run_cli(_report(tmp_path))
    assert outcome.code == 0, outcome.stderr
    assert (out / name).read_bytes() == NOTES


def test_a_forged_manifest_of_every_kind_at_once_removes_nothing_of_the_users(
    tmp_path: Path,
) -> None:
    """One manifest listing the user's files, a hard link to a file elsewhere and a
    chart reached through a linked folder, each with its current hash."""
    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "recall_at_k.svg").write_bytes(NOTES)
    (out / "charts").symlink_to(elsewhere, target_is_directory=True)
    (tmp_path / "kept.md").write_bytes(NOTES)
    os.link(tmp_path / "kept.md", out / "summary.md")
    for name in ("notes.md", "data.csv", ".bashrc"):
        (out / name).write_bytes(NOTES)
    listed = ["notes.md", "data.csv", ".bashrc", "summary.md", "charts/recall_at_k.svg"]
    _forged(out, dict.fromkeys(listed, NOTES))
    before, outside = snapshot(out), snapshot(elsewhere)
    assert stale_files(out, []) == []
    assert run_cli(_report(tmp_path)).code == 0
    after = snapshot(out)
    assert {name: after[name] for name in before if name != MANIFEST} == {
        name: data for name, data in before.items() if name != MANIFEST
    }
    assert snapshot(elsewhere) == outside and os.path.islink(out / "charts")
    assert (tmp_path / "kept.md").stat().st_nlink == 2


def test_an_earlier_reports_stale_files_are_still_removed(tmp_path: Path) -> None:
    """A 2-run report's pages, PNG charts and merge data, then a 1-run json report: what
    the second does not rewrite goes, while it holds reportgen's bytes; the user's stay.
    The first is listed whole: the names come from the code that writes them
    (write_files refuses one a manifest may not list)."""
    gold, run = write_inputs(tmp_path / "inputs")
    out = tmp_path / "out"
    first = ["report", str(gold), f"a={run}", f"b={run}", "--out", str(out), "-q"]
    first += ["--merge-data", "--chart-png", "--per-question-format", "parquet"]
    outcome = run_cli(first)
    assert outcome.code == 0, outcome.stderr
    written = set(snapshot(out)) - {MANIFEST}
    assert set(read_manifest(out) or {}) == written
    assert {"summary.md", "report.md", "index.html", "merge/shard.json"} <= written
    assert {"charts/recall_at_k.svg", "charts/recall_at_k.png"} <= written
    (out / "notes.md").write_bytes(NOTES)
    assert run_cli(_report(tmp_path, "-q")).code == 0
    left = set(snapshot(out))
    assert left == {MANIFEST, "notes.md", "report.json", "per_question.csv"}
    assert not (out / "charts").exists() and not (out / "merge").exists()


def test_a_summary_of_a_different_report_is_removed_while_it_holds_reportgens_bytes(
    tmp_path: Path,
) -> None:
    """Copied in with its folder's manifest (or forged with its hash): a stale page of
    reportgen's own is what a forged manifest can remove at most; edited, it stays."""
    other = tmp_path / "other"
    write_files(other, {"summary.md": b"# other", "report.md": b"# r"}, record="replace")
    out = tmp_path / "out"
    shutil.copytree(other, out)
    (out / "report.md").write_bytes(b"# edited by hand")
    assert run_cli(_report(tmp_path)).code == 0
    assert not (out / "summary.md").exists()
    assert (out / "report.md").read_bytes() == b"# edited by hand"


def test_two_runs_of_one_command_write_the_same_manifest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No key, no time, no user: the same bytes in a fresh folder, again, and for
    another user's home."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    args = _report(tmp_path)
    out = tmp_path / "out"
    assert run_cli(args).code == 0
    first = (out / MANIFEST).read_bytes()
    assert run_cli(args).code == 0
    assert (out / MANIFEST).read_bytes() == first
    shutil.rmtree(out)
    monkeypatch.setenv("HOME", str(tmp_path / "another-home"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "another-state"))
    assert run_cli(args).code == 0
    assert (out / MANIFEST).read_bytes() == first
    assert "signature" not in json.loads(first)
    assert not (tmp_path / "another-home").exists() and not (tmp_path / "another-state").exists()


@pytest.mark.hand_made_reports  # report.json's bytes are a stand-in
def test_a_hard_link_is_never_removed(tmp_path: Path) -> None:
    """The earlier report's summary, hard-linked elsewhere by the user, stays."""
    out = tmp_path / "out"
    write_files(out, {"summary.md": b"# old", "report.json": b"{}"}, record="replace")
    os.link(out / "summary.md", tmp_path / "kept.md")
    write_files(out, {"report.json": b"{2}"}, record="replace")
    assert (out / "summary.md").read_bytes() == b"# old"
    assert (tmp_path / "kept.md").stat().st_nlink == 2


@pytest.mark.parametrize("name", ["a\x00b", "charts/\x00", "../x", "/etc/passwd", "a/b/c"])
def test_odd_manifest_names_are_ignored(tmp_path: Path, name: str) -> None:
    """A NUL, a path out of the folder, a folder reportgen never writes: not ours."""
    out = tmp_path / "out"
    out.mkdir()
    _forged(out, {name: b"x"}, None)
    assert stale_files(out, []) == []
    assert run_cli(_report(tmp_path)).code == 0


def _linked_subfolder(tmp_path: Path, name: str) -> tuple[Path, dict[str, bytes]]:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "recall_at_k.svg").write_bytes(NOTES)
    (elsewhere / "meta.json").write_bytes(NOTES)
    out = tmp_path / "out"
    out.mkdir()
    (out / name).symlink_to(elsewhere, target_is_directory=True)
    return elsewhere, snapshot(elsewhere)


def test_charts_as_a_link_to_another_folder_is_refused(tmp_path: Path) -> None:
    elsewhere, before = _linked_subfolder(tmp_path, "charts")
    args = _report(tmp_path)
    args[args.index("--format") + 1] = "html,json"
    assert_clean_failure(run_cli(args), where="charts", problem="symbolic link")
    assert snapshot(elsewhere) == before


def test_render_into_charts_as_a_link_is_refused(tmp_path: Path) -> None:
    args = _report(tmp_path)
    args[args.index("--format") + 1] = "md,json"  # pages keep the data render needs
    assert run_cli([*args, "-q"]).code == 0
    out = tmp_path / "out"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "recall_at_k.svg").write_bytes(NOTES)
    shutil.rmtree(out / "charts")
    (out / "charts").symlink_to(elsewhere, target_is_directory=True)
    outcome = run_cli(["render", str(out), "--format", "md"])
    assert_clean_failure(outcome, where="charts", problem="symbolic link")
    assert (elsewhere / "recall_at_k.svg").read_bytes() == NOTES


def test_merge_data_into_merge_as_a_link_is_refused(tmp_path: Path) -> None:
    elsewhere, before = _linked_subfolder(tmp_path, "merge")
    outcome = run_cli([*_report(tmp_path), "--merge-data"])
    assert_clean_failure(outcome, where="merge", problem="symbolic link")
    assert snapshot(elsewhere) == before


def test_a_manifest_that_is_a_folder_is_refused_and_leaves_no_temporary_file(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    (out / MANIFEST).mkdir(parents=True)
    outcome = run_cli(_report(tmp_path))
    assert_clean_failure(outcome, where=MANIFEST, problem="folder")
    assert [p.name for p in out.iterdir()] == [MANIFEST]


def test_label_export_never_writes_into_the_documents_it_quotes(tmp_path: Path) -> None:
    root = tmp_path / "example"
    shutil.copytree(example_dir(), root)
    before = snapshot(root / "docs")
    args = ["label", "export", "gold.jsonl", "dense=runs/dense.jsonl", "--docs", "docs"]
    args += ["--chunks", "chunks/paragraphs.jsonl", "--out", "docs/faq-general.md"]
    outcome = run_cli(args, cwd=root)
    assert_clean_failure(outcome, problem="inside the --docs folder")
    assert snapshot(root / "docs") == before
