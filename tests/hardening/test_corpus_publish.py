"""The adversarial corpus for `publish` (and `report --version`): symbolic links in the
report folder, labels no system can hold, a tampered history, report.json with
wrong types. Each case: exit 2, the error in the house form naming where, and the
site (or the previous --out) byte-identical afterwards.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.hardening.corpus import (
    assert_clean_failure,
    previous_report,
    run_cli,
    snapshot,
    write_inputs,
)

WINDOWS_LABELS = ["CON", "con", "PRN", "aux", "NUL", "nul.txt", "COM1", "com9.log", "LPT1",
                  "lpt9.tar.gz", "v1.", "release."]  # fmt: skip


@dataclass(frozen=True)
class World:
    root: Path
    out: Path
    """A good report folder."""
    site: Path
    """A site where that report (v1) is published."""


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One good report published as v1 (a report and a publish take ~1 s), copied per case."""
    root = tmp_path_factory.mktemp("published")
    out = previous_report(root)
    report = json.loads((out / "report.json").read_text())
    report["version"] = "v1"
    (out / "report.json").write_text(json.dumps(report))
    assert run_cli(["publish", str(out), "--site", str(root / "site"), "-q"]).code == 0
    return root


@pytest.fixture
def world(published: Path, tmp_path: Path) -> World:
    root = tmp_path / "case"
    shutil.copytree(published, root)
    return World(root, root / "out", root / "site")


def copy_report(world: World, name: str) -> Path:
    folder = world.root / name
    folder.mkdir()
    for path in world.out.rglob("*"):
        target = folder / path.relative_to(world.out)
        if path.is_dir():
            target.mkdir(exist_ok=True)
        else:
            target.write_bytes(path.read_bytes())
    return folder


def publish_fails(world: World, folder: Path, where: str, problem: str) -> None:
    before = snapshot(world.site)
    outcome = run_cli(["publish", str(folder), "--site", str(world.site)])
    assert_clean_failure(outcome, 2, where, problem)
    assert snapshot(world.site) == before
    assert sorted(p.name for p in world.site.iterdir()) == ["history.jsonl", "index.html", "v1"]


LINKS: list[tuple[str, Callable[[Path], None]]] = [
    ("report.md", lambda folder: _link(folder / "report.md", Path("/etc/passwd"))),
    ("summary.md", lambda folder: _link(folder / "summary.md", folder / "report.md")),
    ("report.json", lambda folder: _link(folder / "report.json", folder.parent / "elsewhere.json")),
    ("charts", lambda folder: _link(folder / "charts", Path("/etc"))),
    ("hit_at_k.svg", lambda folder: _link(folder / "charts" / "hit_at_k.svg", Path("/etc/hosts"))),
]


def _link(path: Path, target: Path) -> None:
    if path.is_dir():
        for child in path.iterdir():
            child.unlink()
        path.rmdir()
    elif path.exists():
        if path.name == "report.json":
            (path.parent.parent / "elsewhere.json").write_bytes(path.read_bytes())
        path.unlink()
    os.symlink(target, path)


@pytest.mark.parametrize(("name", "make"), LINKS, ids=[name for name, _ in LINKS])
def test_a_symbolic_link_in_the_report_folder_is_refused(
    world: World, name: str, make: Callable[[Path], None]
) -> None:
    """Refused, not skipped: a skipped file would leave the site's links dead."""
    folder = copy_report(world, "linked")
    make(folder)
    publish_fails(world, folder, name, "is a symbolic link; publish copies only regular files")


def test_a_link_publish_would_not_copy_is_left_alone(world: World) -> None:
    folder = copy_report(world, "extra")
    os.symlink("/etc/passwd", folder / "notes.txt")  # not a published file
    assert run_cli(["publish", str(folder), "--site", str(world.site), "-q"]).code == 0
    assert not (world.site / "v1" / "notes.txt").exists()


def _with_report(world: World, change: Callable[[dict[str, Any]], None]) -> Path:
    folder = copy_report(world, "edited")
    report = json.loads((folder / "report.json").read_text())
    change(report)
    (folder / "report.json").write_text(json.dumps(report))
    return folder


@pytest.mark.parametrize("label", WINDOWS_LABELS)
def test_labels_windows_cannot_hold_are_refused_by_publish(world: World, label: str) -> None:
    folder = _with_report(world, lambda report: report.update(version=label))
    publish_fails(world, folder, "report.json", f"version label {label!r}")


@pytest.mark.parametrize("label", [*WINDOWS_LABELS, "../x", "a b", ".hidden", "docs"])
def test_report_version_is_checked_before_the_report_is_computed(
    published: Path, tmp_path: Path, label: str
) -> None:
    out = tmp_path / "out"
    shutil.copytree(published / "out", out)  # a good previous report, made once
    before = snapshot(out)
    _, run = write_inputs(tmp_path / "more")
    broken_gold = tmp_path / "broken.jsonl"
    broken_gold.write_text("{not json\n")  # would fail the report, were it read
    outcome = run_cli(
        ["report", str(broken_gold), f"r={run}", "--out", str(out), "--version", label]
    )
    assert_clean_failure(outcome, 2, problem=f"version label {label!r}")
    assert "--version" in outcome.error_line
    assert snapshot(out) == before


@pytest.mark.parametrize(
    ("label", "problem"),
    [
        ("CON", "is a device name on Windows"),
        ("nul.txt", "is a device name on Windows"),
        ("v2.", "ends with a dot"),
        ("../../etc", "cannot name a folder of the site"),
        ("index.html", "is a name the site itself uses"),
    ],
)
def test_a_history_line_with_an_unsafe_label_is_refused_on_read(
    world: World, label: str, problem: str
) -> None:
    history = world.site / "history.jsonl"
    entry = json.loads(history.read_text().splitlines()[0])
    history.write_text(history.read_text() + json.dumps({**entry, "version": label}) + "\n")
    publish_fails(world, world.out, "history.jsonl:2", problem)
    gold, run = write_inputs(world.root / "now")
    outcome = run_cli(
        [
            "report",
            str(gold),
            f"r={run}",
            "--out",
            str(world.root / "o"),
            "--baseline",
            str(world.site),
        ]
    )
    assert_clean_failure(outcome, 2, "history.jsonl:2", problem)


TYPES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    (
        "means",
        lambda r: r["runs"]["r"].update(means="x"),
        "runs.r.means is a string, expected an object",
    ),
    (
        "context_k",
        lambda r: r.update(context_k="five"),
        "context_k is a string, expected an integer",
    ),
    (
        "context_k_bool",
        lambda r: r.update(context_k=True),
        "context_k is true or false, expected an integer",
    ),
    ("runs", lambda r: r.update(runs=[]), "runs is an array, expected an object"),
    ("run", lambda r: r["runs"].update(r=3), "runs.r is an integer, expected an object"),
    (
        "mean",
        lambda r: r["runs"]["r"]["means"].update({"recall@5": "0.5"}),
        "runs.r.means.recall@5 is a string, expected a number or null",
    ),
    (
        "n",
        lambda r: r["runs"]["r"].update(n="2"),
        "runs.r.n is a string, expected an integer",
    ),
    ("version", lambda r: r.update(version=5), "version is an integer, expected a string"),
    ("created", lambda r: r.update(created=["2026"]), "created is an array, expected a string"),
    ("gold", lambda r: r.update(gold="g"), "gold is a string, expected an object"),
    (
        "fingerprint",
        lambda r: r["gold"].update(fingerprint=7),
        "gold.fingerprint is an integer, expected a string",
    ),
    (
        "cells",
        lambda r: r.update(attribution={"r": {"cells": "x"}}),
        "attribution.r.cells is a string, expected an object",
    ),
    (
        "cell",
        lambda r: r.update(attribution={"r": {"cells": {"retrieved_correct": 1.5}}}),
        "attribution.r.cells.retrieved_correct is a number, expected an integer",
    ),
]


@pytest.mark.hand_made_reports
@pytest.mark.parametrize(("change", "problem"), [t[1:] for t in TYPES], ids=[t[0] for t in TYPES])
def test_a_report_json_with_wrong_types_names_the_key_path(
    world: World, change: Callable[[dict[str, Any]], None], problem: str
) -> None:
    folder = _with_report(world, change)
    publish_fails(world, folder, "report.json", problem)
