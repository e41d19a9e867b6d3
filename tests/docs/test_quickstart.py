"""docs/quickstart.md works as written: its ``sh`` blocks, in order, in one shell, from
the top of a fresh copy of the repository; each exits as its fence says (``sh exit=1``;
0 by default) and prints the ``text`` block that follows it (``...`` stands for lines,
or the rest of a line, left out); and the copy's tracked files are unchanged after.

The whole page runs in a subprocess shell (slow: the demo, four reports, two publishes);
the install line runs verbatim in the slowest test only, the others use this venv."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli
from tests.docs.test_docs_pages import blocks, write_files

PAGE = "quickstart.md"
REPO = Path(__file__).resolve().parents[2]
INSTALL = "python3 -m venv .venv && . .venv/bin/activate && pip install ."
MARK = "@@reportgen-quickstart-block"


def steps() -> list[tuple[str, int, str | None]]:
    """(shell text, exit code, the output it quotes or None) per ``sh`` block."""
    found: list[tuple[str, int, str | None]] = []
    for language, attributes, body in blocks(PAGE):
        if language == "sh":
            found.append((body, int(attributes.get("exit", 0)), None))
        elif language == "text" and found and found[-1][2] is None:
            found[-1] = (found[-1][0], found[-1][1], body)
    return found


def quoted_pattern(quoted: str) -> re.Pattern[str]:
    """The quote as a pattern of whole lines: a line ``...`` stands for any lines, and
    ``...`` inside a line for any text."""
    pattern = ""
    for line in quoted.rstrip("\n").split("\n"):
        if line == "...":
            pattern += r"(?:[^\n]*\n)*?"
        else:
            pattern += ".*?".join(re.escape(part) for part in line.split("...")) + r"\n"
    return re.compile("^" + pattern, re.MULTILINE)


def printed(quoted: str, output: str) -> bool:
    return quoted_pattern(quoted).search(output.rstrip("\n") + "\n") is not None


def git(*args: str, cwd: Path) -> str:
    """git itself (the tests' conftest points GIT_DIR at nothing for the reports)."""
    env = {key: value for key, value in os.environ.items() if key != "GIT_DIR"}
    config = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    done = subprocess.run(
        ["git", *config, *args], cwd=cwd, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout


def fresh_copy(target: Path) -> Path:
    """The repository's tracked files in a new git repository: what a clone holds."""
    for name in filter(None, git("ls-files", "-z", cwd=REPO).split("\0")):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    git("init", "-q", cwd=target)
    git("add", "-A", cwd=target)
    git("commit", "-q", "-m", "clone", cwd=target)
    return target


def run_page(clone: Path, install: bool) -> list[tuple[int, str]]:
    """Every block in one bash, in order; per block its exit code and what it printed.
    Without ``install``, the install line runs in this test's venv instead."""
    script = []
    for index, (body, _, _) in enumerate(steps()):
        text = body if install else body.replace(INSTALL, "true")
        script += [f"echo '{MARK} {index}'", text.rstrip("\n"), f"echo '{MARK} exit' $?"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "SOURCE_DATE_EPOCH": "1764547200"}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=clone,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        check=False,
    )
    found = []
    for part in done.stdout.split(f"{MARK} ")[1:]:
        if part.startswith("exit "):
            code = int(part.split()[1])
            found[-1] = (code, found[-1][1])
        else:
            found.append((-1, part.split("\n", 1)[1] if "\n" in part else ""))
    return found


def check_page(clone: Path, install: bool) -> None:
    results = run_page(clone, install)
    assert len(results) == len(steps())
    for (body, code, quoted), (status, output) in zip(steps(), results, strict=True):
        assert status == code, f"{body}\n{output}"
        if quoted is not None:
            assert printed(quoted, output), f"{body}\nquoted:\n{quoted}\nprinted:\n{output}"
    changed = git("status", "--porcelain", "--untracked-files=no", cwd=clone)
    assert changed == "", f"the page changed tracked files:\n{changed}"
    assert (clone / "quickstart" / "site" / "v2" / "index.html").is_file()
    untracked = git("status", "--porcelain", cwd=clone)
    assert untracked == "", f"the page left files git does not ignore:\n{untracked}"


def test_the_page_starts_in_a_folder_of_its_own() -> None:
    """The install line, then a folder of its own, so that publish cannot write into the
    repository's tracked site/; every later step is a reportgen command or a file."""
    first = steps()[0][0].splitlines()
    assert first[0] == INSTALL
    assert first[1] == "mkdir quickstart && cd quickstart"
    assert "/quickstart/" in (REPO / ".gitignore").read_text().splitlines()
    later = "\n".join(body for body, _, _ in steps()[1:])
    assert not re.search(r"^(cd|pip|python3?|rm|git|mkdir) ", later, re.MULTILINE)
    said = " ".join(body for body, _, _ in steps())
    for step in ("demo", "--verdicts", "--baseline", "--min", "--max-drop", "publish"):
        assert step in said, step


def test_the_quote_matcher_keeps_lines_whole_and_elisions_marked() -> None:
    output = "a line\nlonger line here\nlast\n"
    assert printed("a line\nlonger line here", output)
    assert printed("a line\n...\nlast", output)
    assert printed("longer ... here", output)
    assert not printed("a line\nlast", output)  # a left-out line must be marked
    assert not printed("longer line", output)  # so must a cut line


def test_own_files_print_what_the_page_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fast check: the first report on the page's own files, and its quote."""
    write_files(PAGE, tmp_path)
    monkeypatch.chdir(tmp_path)
    body, code, quoted = next(step for step in steps() if "mine=mine.jsonl --k 3" in step[0])
    done = CliRunner().invoke(cli, shlex.split(body)[1:])
    assert done.exit_code == code, done.output
    assert quoted is not None and printed(quoted, done.output), done.output


# The copy lives outside pytest's temporary folders: it holds the repository's fixtures
# of old report formats, which the schema check of every tmp_path would refuse.


@pytest.mark.slow  # the demo, four reports and two publishes, each a process
def test_the_page_runs_as_written_in_a_fresh_copy() -> None:
    with tempfile.TemporaryDirectory() as folder:
        check_page(fresh_copy(Path(folder)), install=False)


@pytest.mark.slow  # and a fresh venv with reportgen installed from the copy
def test_the_page_runs_verbatim_with_its_install_line() -> None:
    with tempfile.TemporaryDirectory() as folder:
        check_page(fresh_copy(Path(folder)), install=True)


def test_the_page_quotes_the_demo_truly() -> None:
    """The demo's counts as the page states them: five runs, 60 questions, 52 and 8."""
    from reportgen.api import example_dir

    text = (REPO / "docs" / PAGE).read_text()
    runs = sorted(path.name.split(".")[0] for path in (example_dir() / "runs").iterdir())
    assert re.search(r"\bfive runs\b", text) and len(runs) == 5
    assert "60 questions (52\nwith relevant passages and 8 unanswerable)" in text
