"""The harness of the adversarial corpus: run a case, check what a user would check.

Every case of every ``test_corpus_*.py`` asserts three things, the promise of
issue 13: the exit code (0 done, 1 gate failed, 2 bad input or usage, 3 internal
error), the message's form (``path[:line]: problem. Fix: what to do.``, no
traceback), and that the report a previous run wrote in ``--out`` is byte-identical
afterwards. Cases run in process through Click's CliRunner unless they need a real
process (signals, capabilities, resource limits): then :func:`run_process`.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import cli

REPO = Path(__file__).resolve().parents[2]
GOOD_GOLD = b'{"id": "q1", "gold": ["c1"]}\n{"id": "q2", "gold": ["c2"]}\n'
GOOD_RUN = b'{"id": "q1", "chunks": ["c1", "c2"]}\n{"id": "q2", "chunks": ["c2"]}\n'

ERROR_FORM = re.compile(r"^Error: (?P<where>[^\n]+?): (?P<problem>[^\n]+?)\. Fix: [^\n]+\.$")
"""One error line: where (a path, with :line when known, or the option), what, how to fix."""
USAGE_FORM = re.compile(r"^Error: (?P<problem>[^\n]+?)\. Fix: [^\n]+\.$")
"""An error about options rather than a file: what is wrong, how to fix."""


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: str
    stderr: str

    @property
    def error_line(self) -> str:
        """The last line on stderr that starts with ``Error:``, or ''."""
        lines = [line for line in self.stderr.splitlines() if line.startswith("Error:")]
        return lines[-1] if lines else ""


def run_cli(args: Sequence[str], cwd: Path | None = None) -> Outcome:
    """The CLI in this process, as a user's shell would call it (stderr apart)."""
    runner = CliRunner()
    previous = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = runner.invoke(cli, list(args), catch_exceptions=True)
    finally:
        os.chdir(previous)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"the CLI raised {result.exception!r}") from result.exception
    return Outcome(result.exit_code, result.stdout, result.stderr)


def run_process(
    args: Sequence[str],
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    prefix: Sequence[str] = (),
    timeout: float = 120,
) -> Outcome:
    """``python -m reportgen ARGS`` in a child process (``prefix`` wraps it: setpriv, ...)."""
    done = subprocess.run(
        [*prefix, sys.executable, "-m", "reportgen", *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        timeout=timeout,
    )
    return Outcome(
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes."""
    if not folder.is_dir():
        return {}
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def write_inputs(folder: Path) -> tuple[Path, Path]:
    """A small good gold set and run in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    gold, run = folder / "gold.jsonl", folder / "run.jsonl"
    gold.write_bytes(GOOD_GOLD)
    run.write_bytes(GOOD_RUN)
    return gold, run


def previous_report(folder: Path) -> Path:
    """A report written by a good run into ``folder/out``: what a failed run must keep."""
    gold, run = write_inputs(folder / "inputs")
    out = folder / "out"
    outcome = run_cli(["report", str(gold), f"r={run}", "--out", str(out), "--quiet"])
    assert outcome.code == 0, outcome.stderr
    return out


def assert_clean_failure(
    outcome: Outcome,
    code: int = 2,
    where: str | None = None,
    problem: str | None = None,
) -> None:
    """Exit ``code``, no traceback, and one error line in the house form.

    ``where`` (a path or option, checked as a substring of the part before the
    problem) and ``problem`` (a substring of the problem) narrow the check.
    """
    assert outcome.code == code, (outcome.code, outcome.stderr)
    assert "Traceback" not in outcome.stderr + outcome.stdout, outcome.stderr
    line = outcome.error_line
    match = ERROR_FORM.match(line) or USAGE_FORM.match(line)
    assert match, f"not in the form 'path: problem. Fix: ...': {line!r}\n{outcome.stderr}"
    if where is not None:
        assert where in line.split(": ", 1)[1], (where, line)
    if problem is not None:
        assert problem in line, (problem, line)
