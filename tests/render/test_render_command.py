"""`reportgen render DIR`: the pages rebuilt from report.json alone are the bytes
`reportgen report` (demo, merge) wrote; bad folders are one line and exit 2."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.api import example_dir
from reportgen.cli import cli
from tests.scale.test_merge_whole import EXAMPLE_RUNS, sharded

EPOCH = "1764547200"
PAGES = ("index.html", "report.md", "summary.md")


@pytest.fixture(autouse=True)
def fixed_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)


def run(args: list[str], cwd: Path | None = None) -> tuple[int, str]:
    if cwd is not None:
        with pytest.MonkeyPatch.context() as patch:
            patch.chdir(cwd)
            done = CliRunner().invoke(cli, args)
    else:
        done = CliRunner().invoke(cli, args)
    return done.exit_code, done.output


def files(folder: Path) -> dict[str, bytes]:
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def rebuilt(folder: Path, *options: str) -> dict[str, bytes]:
    """The folder after its pages and charts are deleted and `render` rebuilds them."""
    copy = folder.with_name(folder.name + "-rebuilt")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(folder, copy)
    for name in PAGES:
        (copy / name).unlink(missing_ok=True)
        if (folder / name).is_file():  # what the folder held decides the default formats
            (copy / name).write_text("stale")
    shutil.rmtree(copy / "charts", ignore_errors=True)
    code, output = run(["render", str(copy), *options])
    assert code == 0, output
    return files(copy)


def example(tmp_path: Path) -> Path:
    root = tmp_path / "example"
    shutil.copytree(example_dir(), root)
    return root


def test_the_demo_with_verdicts_and_chunk_maps_is_rebuilt_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    assert run(["demo", "--out", str(out), "-q"])[0] == 0
    report = json.loads((out / "report.json").read_text())
    assert report["pages"]["panels"] and report["chunkings"] and report["attribution"]
    assert rebuilt(out) == files(out)


@pytest.mark.slow
def test_options_report_json_does_not_record_are_given_again(tmp_path: Path) -> None:
    root = example(tmp_path)
    url = "https://example.org/reports/v1/"
    line = ["report", "gold.jsonl", *EXAMPLE_RUNS, "--out", "out", "-q", "--chart-png"]
    line += ["--per-question-format", "parquet", "--report-url", url]
    assert run(line, root)[0] in (0, 1)
    out = root / "out"
    assert any(name.endswith(".png") for name in files(out))
    wrote = files(out)
    assert rebuilt(out, "--report-url", url, "--chart-png") == wrote
    # without the URL, summary.md links index.html: the one page that differs (and the
    # manifest, which records its bytes)
    again = rebuilt(out, "--chart-png")
    changed = [name for name in wrote if again[name] != wrote[name]]
    assert changed == [".reportgen-manifest.json", "summary.md"]
    # in place, the PNGs the folder holds say --chart-png
    (out / "report.md").unlink()
    assert run(["render", str(out), "--report-url", url])[0] == 0
    assert files(out) == wrote


def test_a_report_with_a_baseline(tmp_path: Path) -> None:
    root = example(tmp_path)
    runs = ["gold.jsonl", "keyword=runs/keyword.trec", "dense=runs/dense.jsonl"]
    assert run(["report", *runs, "--version", "v0", "--out", "before", "-q"], root)[0] == 0
    line = ["report", *runs[:2], "dense=runs/rerank.jsonl", "--version", "v1"]
    assert run([*line, "--baseline", "before", "--out", "after", "-q"], root)[0] in (0, 1)
    out = root / "after"
    assert json.loads((out / "report.json").read_text())["baseline"]["comparisons"]
    assert rebuilt(out) == files(out)


@pytest.mark.slow
def test_a_merged_report(tmp_path: Path) -> None:
    root = example(tmp_path)
    cut = ["gold.jsonl", *EXAMPLE_RUNS, "--verdicts", "verdicts.jsonl"]
    code, merged = sharded(root, cut, [], ["--version", "v1"], lambda a, cwd: run(a, cwd)[0])
    assert code in (0, 1)
    assert json.loads((merged / "report.json").read_text())["merged_from"]
    assert rebuilt(merged) == files(merged)


@pytest.mark.parametrize("kept", ["md", "html"])
def test_only_the_pages_the_folder_holds_or_those_asked_for(tmp_path: Path, kept: str) -> None:
    root = example(tmp_path)
    line = ["report", "gold.jsonl", "keyword=runs/keyword.trec", "--out", "out", "-q"]
    assert run([*line, "--format", kept], root)[0] in (0, 1)
    out = root / "out"
    wrote = files(out)
    assert ("index.html" in wrote) == (kept == "html") and ("report.md" in wrote) == (kept == "md")
    assert rebuilt(out) == wrote  # the default: the pages the folder holds
    other = "html" if kept == "md" else "md"
    before = files(out)
    assert run(["render", str(out), "--format", other], root)[0] == 0
    added = set(files(out)) - set(before)
    assert added == ({"index.html"} if other == "html" else {"report.md", "summary.md"})


def _error(args: list[str]) -> str:
    code, output = run(args)
    assert code == 2, output
    assert "Traceback" not in output and "Fix:" in output, output
    return output


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("written") / "out"
    root = tmp_path_factory.mktemp("inputs") / "example"
    shutil.copytree(example_dir(), root)
    line = ["report", str(root / "gold.jsonl"), f"keyword={root / 'runs/keyword.trec'}"]
    assert run([*line, "--out", str(out), "--format", "html", "-q"])[0] in (0, 1)
    return out


def test_a_json_only_report_keeps_no_page_data_and_render_says_so(tmp_path: Path) -> None:
    """--format json builds no pages section (a third of a 1M-row report's time); the
    rest of report.json is the same bytes as a report with pages."""
    root = tmp_path / "example"
    shutil.copytree(example_dir(), root)
    line = ["report", str(root / "gold.jsonl"), f"keyword={root / 'runs/keyword.trec'}", "-q"]
    reports = {}
    for fmt in ("json", "html"):
        assert run([*line, "--out", str(tmp_path / fmt), "--format", fmt], root)[0] in (0, 1)
        reports[fmt] = json.loads((tmp_path / fmt / "report.json").read_text())
    assert "pages" not in reports["json"] and reports["html"]["pages"]["questions"]
    assert reports["json"] == {k: v for k, v in reports["html"].items() if k != "pages"}
    said = _error(["render", str(tmp_path / "json")])
    assert "'pages" in said and "--format json" in said and "--format html" in said
    assert not (tmp_path / "json" / "index.html").exists()


@pytest.mark.hand_made_reports
def test_errors_name_the_folder_and_the_fix(written: Path, tmp_path: Path) -> None:
    assert "no such folder" in _error(["render", str(tmp_path / "nowhere")])
    assert "no report.json" in _error(["render", str(tmp_path)])
    for name, change, said in (
        ("old", lambda r: r | {"format_version": 1}, "format_version 1"),
        ("merged-values", lambda r: {k: v for k, v in r.items() if k != "pages"}, "'pages"),
    ):
        folder = tmp_path / name
        shutil.copytree(written, folder)
        (folder / "index.html").unlink()
        report = json.loads((folder / "report.json").read_text())
        (folder / "report.json").write_text(json.dumps(change(report)))
        assert said in _error(["render", str(folder)])
        assert not (folder / "index.html").exists()  # nothing half-written
    broken = tmp_path / "broken"
    shutil.copytree(written, broken)
    (broken / "report.json").write_text('{"format_version": 2,\n oops}')
    assert "report.json:2: not valid JSON" in _error(["render", str(broken)])
    lonely = tmp_path / "lonely"
    shutil.copytree(written, lonely)
    (lonely / "per_question.csv").unlink()
    said = _error(["render", str(lonely)])
    assert "no per_question.csv or per_question.parquet" in said and "summary.md" in said
    (lonely / "per_question.csv").write_text("")
    (lonely / "per_question.parquet").write_text("")
    assert "--per-question-format" in _error(["render", str(lonely)])
    assert "--format json" in _error(["render", str(written), "--format", "json"])
    assert "--format pdf" in _error(["render", str(written), "--format", "pdf"])


def test_the_installed_command(written: Path, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    shutil.copytree(written, folder)
    done = subprocess.run(
        [sys.executable, "-m", "reportgen", "render", str(folder), "--format", "html,md"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Rebuilt 3 pages" in done.stdout
    assert {"index.html", "report.md", "summary.md"} <= set(files(folder))
    missing = subprocess.run(
        [sys.executable, "-m", "reportgen", "render", str(tmp_path / "nowhere")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1, missing.stderr
