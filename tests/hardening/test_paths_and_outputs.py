"""Labels never become paths outside the output, other files survive, outputs are reproducible."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from reportgen.api import (
    ReportInputs,
    ReportOutputs,
    ReportRequest,
    make_report,
)
from reportgen.cli import cli
from reportgen.errors import InputError
from reportgen.pipeline import planned_files
from reportgen.render.output import (
    MAX_FOLDER_NAME,
    refuse_overwriting_inputs,
    safe_folder_name,
    write_files,
)

GOLD = '{"id": "q1", "gold": ["c1"]}\n{"id": "q2", "gold": ["c2"]}\n'
RUN = '{"id": "q1", "chunks": ["c1", "c2"]}\n{"id": "q2", "chunks": ["c3"]}\n'


@pytest.fixture
def inputs(tmp_path: Path) -> tuple[Path, Path]:
    gold, run = tmp_path / "in" / "gold.jsonl", tmp_path / "in" / "run.jsonl"
    gold.parent.mkdir()
    gold.write_text(GOLD)
    run.write_text(RUN)
    return gold, run


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("v1.2", "v1.2"),
        ("2026-11-30", "2026-11-30"),
        ("bm25+rerank", "bm25+rerank"),
        ("../../x", "x-9cdf6a50"),
        ("a/b", "a-b-c14cddc0"),
        ("..", "label-5ec1f7e7"),
        ("", "label-e3b0c442"),
        ("CON", "CON-a3dbc4b6"),
    ],
)
def test_safe_folder_name_examples(label: str, expected: str) -> None:
    assert safe_folder_name(label) == expected


@given(st.text(max_size=300))
def test_safe_folder_name_is_one_plain_component(label: str) -> None:
    name = safe_folder_name(label)
    assert name and name not in {".", ".."}
    assert "/" not in name and "\\" not in name and "\x00" not in name
    assert not name.startswith(("-", "."))
    assert all(ch.isascii() and (ch.isalnum() or ch in "._+-") for ch in name)
    assert len(name) <= MAX_FOLDER_NAME + 9
    assert safe_folder_name(name) == name, "a safe name is kept as it is"


@given(st.text(max_size=20), st.text(max_size=20))
def test_different_labels_get_different_folders(first: str, second: str) -> None:
    if first != second:
        assert safe_folder_name(first) != safe_folder_name(second)


@pytest.mark.parametrize("label", ["../../x", "a/b", "bad\x1b[31mred\nlabel", "/etc/passwd"])
def test_hostile_labels_write_nothing_outside_the_output(
    label: str, inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, run = inputs
    out = tmp_path / "site" / "out"
    before = _tree(tmp_path)
    refused = CliRunner().invoke(
        cli, ["report", str(gold), f"r={run}", "--out", str(out), "--version", label, "-q"]
    )
    assert refused.exit_code == 2, refused.output  # publish's rule, before any work
    assert "Fix:" in refused.output and _tree(tmp_path) == before
    result = CliRunner().invoke(
        cli, ["report", str(gold), f"{label}={run}", "--out", str(out), "--version", "v1", "-q"]
    )
    if "/" in label:
        # a/b=run is read as the run file's path when no such name is meant: either
        # way nothing may land outside the output folder.
        assert result.exit_code in (0, 2), result.output
    else:
        assert result.exit_code == 0, result.output
    created = _tree(tmp_path) - before
    assert all(path.startswith("site") for path in created), created
    if result.exit_code == 0:
        assert {p.name for p in out.iterdir()} == {
            "report.json", "index.html", "report.md", "summary.md", "per_question.csv", "charts",
            ".reportgen-manifest.json",
        }  # fmt: skip
        assert label in json.loads((out / "report.json").read_text())["runs"]


def test_other_files_in_the_output_folder_are_kept(
    inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    gold, run = inputs
    out = tmp_path / "out"
    (out / "notes").mkdir(parents=True)
    (out / "notes" / "keep.txt").write_text("mine")
    (out / "README.md").write_text("mine too")
    (out / "report.json").write_text("{}")
    result = CliRunner().invoke(cli, ["report", str(gold), str(run), "--out", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert (out / "notes" / "keep.txt").read_text() == "mine"
    assert (out / "README.md").read_text() == "mine too"
    assert json.loads((out / "report.json").read_text())["format_version"] == 2
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_out_pointing_at_a_file_is_exit_2(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    gold, run = inputs
    target = tmp_path / "taken"
    target.write_text("a file")
    result = CliRunner().invoke(cli, ["report", str(gold), str(run), "--out", str(target)])
    assert result.exit_code == 2
    assert "is a file" in result.output
    assert "Traceback" not in result.output
    assert target.read_text() == "a file"


@pytest.mark.hand_made_reports
def test_leftovers_of_a_killed_run_are_cleared_and_nothing_else(tmp_path: Path) -> None:
    (tmp_path / ".index.html.abc123.tmp").write_text("half")
    (tmp_path / ".other.tmp").write_text("not ours")
    write_files(tmp_path, {"index.html": b"<html></html>", "report.json": b"{}"})
    assert sorted(p.name for p in tmp_path.iterdir()) == [".other.tmp", "index.html", "report.json"]


def test_an_output_name_that_is_a_path_is_a_bug(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a plain file name"):
        write_files(tmp_path / "out", {"../escape.html": b"x"})
    assert not (tmp_path / "escape.html").exists()


def test_same_inputs_give_identical_bytes_with_every_check(
    inputs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01T00:00:00Z
    gold, run = inputs
    manifest = tmp_path / "in" / "m.jsonl"
    manifest.write_text(
        '{"chunk_id": "c1"}\n{"chunk_id": "c3", "audience": "staff"}\n'
        '{"chunk_id": "c2", "valid_to": "2025-12-31"}\n'
    )
    outputs = []
    for name in ("one", "two"):
        out = tmp_path / name
        args = ["report", str(gold), str(run), "--out", str(out), "--manifest", str(manifest)]
        result = CliRunner().invoke(cli, [*args, "--audience", "public", "-q"])
        assert result.exit_code == 0, result.output
        outputs.append(
            {
                p.relative_to(out).as_posix(): p.read_bytes()
                for p in sorted(out.rglob("*"))
                if p.is_file()
            }
        )
    assert outputs[0] == outputs[1]
    report = json.loads(outputs[0]["report.json"])
    # as_of comes from SOURCE_DATE_EPOCH: c2 expired the day before.
    assert report["hygiene"]["forbidden"]["as_of"] == "2026-01-01"
    assert report["runs"]["run"]["leaks"]["at"]["5"]["by_reason"] == {
        "staff-only": 1,
        "wrong version": 1,
    }


@pytest.mark.hand_made_reports
def test_an_output_on_an_input_is_refused_however_it_is_reached(tmp_path: Path) -> None:
    """Same path, a linked folder, a linked name, a hard link: one file, refused."""
    out = tmp_path / "out"
    out.mkdir()
    gold = out / "report.json"
    gold.write_text(GOLD)
    (tmp_path / "alias").symlink_to(out)
    elsewhere = tmp_path / "gold.jsonl"
    os.link(gold, elsewhere)
    for path, how in [
        (gold, "writes"),
        (tmp_path / "alias" / "report.json", "symbolic link"),
        (elsewhere, "hard link"),
    ]:
        with pytest.raises(InputError, match=how) as caught:
            refuse_overwriting_inputs(out, ["report.json"], [("the gold set", path)], "report")
        assert caught.value.path == str(path)


@pytest.mark.hand_made_reports
def test_same_bytes_or_a_new_folder_is_no_collision(tmp_path: Path) -> None:
    gold = tmp_path / "gold.jsonl"
    gold.write_text(GOLD)
    copy = tmp_path / "out" / "report.json"
    copy.parent.mkdir()
    copy.write_text(GOLD)
    inputs = [("the gold set", gold)]
    refuse_overwriting_inputs(copy.parent, ["report.json"], inputs, "report")
    refuse_overwriting_inputs(tmp_path / "new", ["report.json", "gold.jsonl"], inputs, "report")


@pytest.mark.parametrize("formats", [("json",), ("md", "json"), ("html", "md", "json")])
def test_the_files_checked_before_measuring_are_those_written(
    formats: tuple[str, ...], inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    """The early collision check knows every file but the charts."""
    gold, run = inputs
    outputs = ReportOutputs(tmp_path / "out", formats=formats)
    written = make_report(ReportRequest(ReportInputs(gold, [("r", run)]), outputs)).files
    names = {path.relative_to(tmp_path / "out").as_posix() for path in written}
    assert {name for name in names if not name.startswith("charts/")} == set(
        planned_files(formats, "csv")
    )
