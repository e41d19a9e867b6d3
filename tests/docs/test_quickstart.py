"""docs/quickstart.md runs as written: every ``sh`` block, in order, in one folder, exits
as its fence says (``sh exit=1``; 0 by default), and prints every line of the ``text``
block that follows it. The first block's ``pip install`` is the one step not run: the
tests run in the installed package already."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from tests.docs.test_docs_pages import blocks, write_files

PAGE = "quickstart.md"


def steps() -> list[tuple[list[list[str]], int, list[str]]]:
    """(commands, exit code, lines it must print) per ``sh`` block of the page."""
    found: list[tuple[list[list[str]], int, list[str]]] = []
    for language, attributes, body in blocks(PAGE):
        if language == "sh":
            found.append((commands(body), int(attributes.get("exit", 0)), []))
        elif language == "text" and found and not found[-1][2]:
            found[-1][2].extend(line for line in body.splitlines() if line.strip())
    return found


def commands(body: str) -> list[list[str]]:
    """Each command of a shell block as arguments after ``reportgen``; of a line of
    ``&&``-joined steps (the install line), the reportgen step."""
    found = []
    for line in body.replace("\\\n", " ").splitlines():
        step = next(part for part in reversed(line.split("&&")) if part.strip())
        words = shlex.split(step)
        assert words[0] == "reportgen", f"{PAGE}: only reportgen commands run here: {line}"
        found.append(words[1:])
    return found


def run(words: list[str]) -> tuple[int, str]:
    done = CliRunner().invoke(cli, words)
    return done.exit_code, done.output


def test_the_page_has_the_steps_a_newcomer_needs() -> None:
    """From the demo to own files, verdicts, a baseline, a gate and publish."""
    said = " ".join(" ".join(words) for block, _, _ in steps() for words in block)
    for step in ("demo", "--verdicts", "--baseline", "--min", "--max-drop", "publish"):
        assert step in said, step
    assert all(quoted for _, _, quoted in steps()[1:3]), "outputs are quoted"


def test_own_files_print_what_the_page_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast check: the first command on the page's own files, and its quote."""
    write_files(PAGE, tmp_path)
    monkeypatch.chdir(tmp_path)
    block, code, quoted = next(step for step in steps() if "mine=mine.jsonl" in step[0][0])
    status, output = run(block[0])
    assert status == code, output
    for line in quoted:
        assert line in output


@pytest.mark.slow  # the demo, four reports and two publishes: the whole page
def test_every_command_of_the_page_runs_and_prints_what_it_quotes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_files(PAGE, tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")
    for block, code, quoted in steps():
        outputs = []
        for words in block:
            status, output = run(words)
            outputs.append(output)
        # the last command of a block decides its exit code; the others must succeed
        assert status == code, output
        printed = "\n".join(outputs)
        for line in quoted:
            assert line in printed, f"{line!r} not printed by {block}"
    assert (tmp_path / "site" / "v2" / "index.html").is_file()
    assert sorted(p.name for p in (tmp_path / "report").iterdir() if p.is_file()) == [
        ".reportgen-manifest.json",
        "index.html",
        "per_question.csv",
        "report.json",
        "report.md",
        "summary.md",
    ]


def test_the_page_quotes_the_demo_truly() -> None:
    """The demo's counts as the page states them: five runs, 60 questions, 52 and 8."""
    from reportgen.api import example_dir

    text = (Path(__file__).resolve().parents[2] / "docs" / PAGE).read_text()
    runs = sorted(path.name.split(".")[0] for path in (example_dir() / "runs").iterdir())
    assert re.search(r"\bfive runs\b", text) and len(runs) == 5
    assert "60 questions (52\nwith relevant passages and 8 unanswerable)" in text
