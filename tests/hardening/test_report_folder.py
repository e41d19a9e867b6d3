"""The report folder's manifest removes only what this user's reportgen wrote there, and
nothing is written or removed through a link out of the folder (issue 39).

A pull request may add a report folder, manifest included; a user may link ``charts/``
to another folder or hard-link a report's file elsewhere. Each case runs the real CLI
(or ``write_files``, the one writer) and checks what is left on disk.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

from reportgen.api import example_dir
from reportgen.render.manifest import MANIFEST, manifest_key, stale_files, trusted_manifest
from reportgen.render.output import write_files
from tests.hardening.corpus import assert_clean_failure, run_cli, snapshot, write_inputs

NOTES = b"the user's own notes\n"


def _report(folder: Path, *extra: str) -> list[str]:
    gold, run = write_inputs(folder / "inputs")
    out = folder / "out"
    return ["report", str(gold), f"r={run}", "--out", str(out), "--format", "json", *extra]


def _forged(out: Path, names: dict[str, bytes], signature: str | None) -> None:
    """A manifest listing ``names`` with their current hashes, as a pull request could
    commit it."""
    body: dict[str, object] = {
        "reportgen_manifest": 2,
        "files": {name: hashlib.sha256(data).hexdigest() for name, data in names.items()},
    }
    if signature is not None:
        body["signature"] = signature
    (out / MANIFEST).write_text(json.dumps(body))


@pytest.mark.parametrize(
    "signature", [None, "0" * 64, "not hex"], ids=["unsigned", "zeros", "text"]
)
@pytest.mark.parametrize("name", ["notes.txt", "data.csv", "charts/mine.svg", ".bashrc"])
def test_a_forged_manifest_removes_nothing(
    tmp_path: Path, name: str, signature: str | None
) -> None:
    out = tmp_path / "out"
    (out / "charts").mkdir(parents=True)
    (out / name).write_bytes(NOTES)
    _forged(out, {name: NOTES}, signature)
    outcome = run_cli(_report(tmp_path))
    assert outcome.code == 0, outcome.stderr
    assert (out / name).read_bytes() == NOTES


def test_a_manifest_signed_with_another_users_key_removes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Signed by reportgen, but elsewhere (another machine, another CI job)."""
    monkeypatch.setenv("REPORTGEN_STATE_DIR", str(tmp_path / "their-state"))
    out = tmp_path / "out"
    write_files(out, {"notes.txt": NOTES}, record="replace")
    assert trusted_manifest(out) is not None
    monkeypatch.setenv("REPORTGEN_STATE_DIR", str(tmp_path / "my-state"))
    assert trusted_manifest(out) is None
    assert stale_files(out, []) == []
    assert run_cli(_report(tmp_path)).code == 0
    assert (out / "notes.txt").read_bytes() == NOTES


def test_a_signed_manifest_edited_by_hand_removes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_files(out, {"a.txt": b"1"}, record="replace")
    body = json.loads((out / MANIFEST).read_text())
    (out / "notes.txt").write_bytes(NOTES)
    body["files"]["notes.txt"] = hashlib.sha256(NOTES).hexdigest()  # the signature stays
    (out / MANIFEST).write_text(json.dumps(body))
    write_files(out, {"r.json": b"{}"}, record="replace")
    assert (out / "notes.txt").read_bytes() == NOTES and (out / "a.txt").exists()


def test_this_users_own_earlier_report_is_still_tidied(tmp_path: Path) -> None:
    out = tmp_path / "out"
    write_files(out, {"a.txt": b"1", "charts/x.svg": b"x"}, record="replace")
    write_files(out, {"r.json": b"{}"}, record="replace")
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "r.json"]


def test_without_a_key_nothing_is_removed_and_everything_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A state folder that cannot be made (a read-only home): no signature, no removal."""
    (tmp_path / "file").write_text("in the way")
    monkeypatch.setenv("REPORTGEN_STATE_DIR", str(tmp_path / "file" / "state"))
    assert manifest_key(create=True) is None
    out = tmp_path / "out"
    write_files(out, {"a.txt": b"1"}, record="replace")
    write_files(out, {"r.json": b"{}"}, record="replace")
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "a.txt", "r.json"]


def test_a_hard_link_is_never_removed(tmp_path: Path) -> None:
    """The earlier report's summary, hard-linked elsewhere by the user, stays."""
    out = tmp_path / "out"
    write_files(out, {"summary.md": b"# old", "r.json": b"{}"}, record="replace")
    os.link(out / "summary.md", tmp_path / "kept.md")
    write_files(out, {"r.json": b"{2}"}, record="replace")
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
