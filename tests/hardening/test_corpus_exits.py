"""The corpus of exits: one exit code per kind of failure, every message in one form.

0 done, 1 gate failed (or --strict warnings), 2 bad input or usage, 3 internal error,
130 interrupted. Each failing case asserts its code, the message's form (one line,
``where: problem. Fix: ...``, no traceback) and that the report a previous run
wrote in ``--out`` is byte-identical afterwards. The README's exit-code table is
checked against the codes these cases produce (tests/docs/test_exit_codes.py).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.hardening.corpus import (
    REPO,
    Outcome,
    assert_clean_failure,
    previous_report,
    run_cli,
    run_process,
    snapshot,
)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One previous report (inputs/, out/), copied into each case: a report takes ~1 s."""
    folder = tmp_path_factory.mktemp("previous")
    previous_report(folder)
    return folder


@pytest.fixture
def folder(template: Path, tmp_path: Path) -> Path:
    """The case's folder: the good inputs and the previous report in out/."""
    case = tmp_path / "case"
    shutil.copytree(template, case)
    return case


Args = Callable[[Path], list[str]]
"""The command line, given the case's folder (inputs in folder/inputs, --out in folder/out)."""


def report(*extra: str) -> Args:
    """`reportgen report` on the good inputs, into the previous report's --out."""

    def args(folder: Path) -> list[str]:
        inputs = folder / "inputs"
        return [
            "report",
            str(inputs / "gold.jsonl"),
            f"r={inputs / 'run.jsonl'}",
            "--out",
            str(folder / "out"),
            *extra,
        ]

    return args


def command(*words: str) -> Args:
    """Any command line; ``{folder}`` in a word becomes the case's folder."""
    return lambda folder: [word.replace("{folder}", str(folder)) for word in words]


@dataclass(frozen=True)
class Case:
    id: str
    args: Args
    where: str | None = None
    """A substring of the part before the problem (the option and value, or path:line)."""
    problem: str | None = None
    """A substring of the whole error line (the problem, or the fix's suggestion)."""
    files: tuple[tuple[str, str], ...] = ()
    """Files written in the case's folder first (a config file, an odd input)."""
    code: int = 2


OPTION_CASES = [
    Case("context-k 0", report("--context-k", "0"), "--context-k 0", "must be at least 1"),
    Case(
        "context-k beyond any list",
        report("--context-k", "99999999999999999999"),
        "--context-k 99999999999999999999",
        "must be at most 1,000,000",
    ),
    Case("context-k a word", report("--context-k", "five"), "--context-k five", "whole number"),
    Case(
        "relevance-threshold abc",
        report("--relevance-threshold", "abc"),
        "--relevance-threshold abc",
        "not a whole number",
    ),
    Case(
        "relevance-threshold 0",
        report("--relevance-threshold", "0"),
        "--relevance-threshold 0",
        "at least 1",
    ),
    Case("k 0", report("--k", "0"), "--k 0", "every k must be from 1"),
    Case("k huge", report("--k", "1,99999999999999999999"), "--k 1,99999999999999999999", "1,000"),
    Case("k letters", report("--k", "1,x"), "--k 1,x", "comma-separated list of whole numbers"),
    Case("as-of month 13", report("--as-of", "2026-13-01"), "--as-of 2026-13-01", "YYYY-MM-DD"),
    Case("as-of a word", report("--as-of", "yesterday"), "--as-of yesterday", "YYYY-MM-DD"),
    Case(
        "out names a file",
        report("--out", "{folder}/inputs/gold.jsonl"),
        "--out",
        "is a file, not a folder",
    ),
    Case(
        "verdicts missing",
        report("--verdicts", "{folder}/nope.jsonl"),
        "--verdicts",
        "no such file",
    ),
    Case(
        "verdicts a folder",
        report("--verdicts", "{folder}/inputs"),
        "--verdicts",
        "is a folder, not a file",
    ),
    Case(
        "unknown option, a close one",
        report("--contxt-k", "3"),
        "--contxt-k",
        "did you mean --context-k?",
    ),
    Case("unknown option, nothing close", report("--zzzzzz"), "--zzzzzz", "no such option"),
    Case(
        "--debug after the command",
        report("--debug"),
        "--debug",
        "put --debug before the command: reportgen --debug report",
    ),
    Case("option without its value", report("--context-k"), "--context-k", "needs a value"),
    Case("flag given a value", report("--quiet=yes"), "--quiet", "takes no value"),
    Case("format pdf", report("--format", "pdf"), "--format pdf", "unknown format 'pdf'"),
    Case("format misspelt", report("--format", "htm"), "--format htm", "did you mean html?"),
    Case(
        "per-question-format misspelt",
        report("--per-question-format", "parket"),
        "--per-question-format parket",
        "did you mean parquet?",
    ),
    Case("gold-format unknown", report("--gold-format", "xml"), "--gold-format xml", "choices"),
    Case(
        "verdict-threshold abc",
        report("--verdict-threshold", "abc"),
        "--verdict-threshold abc",
        "not a number",
    ),
    Case(
        "run-index-version without =",
        report("--run-index-version", "dense"),
        "--run-index-version dense",
        "not NAME=VERSION",
    ),
    Case(
        "run-index-version of no run",
        report("--run-index-version", "zz=kb-1"),
        "--run-index-version zz",
        "names no run",
    ),
    Case("reference-run of no run", report("--reference-run", "zz"), "--reference-run zz", "runs"),
    Case(
        "verdicts-run without verdicts",
        report("--verdicts-run", "r"),
        "--verdicts-run r",
        "no verdicts are given",
    ),
    Case("missing GOLD", command("report"), "reportgen report", "missing argument GOLD"),
    Case(
        "missing RUNS",
        command("report", "{folder}/inputs/gold.jsonl", "--out", "{folder}/out"),
        "reportgen report",
        "missing argument RUNS",
    ),
    Case("unknown command", command("reprt"), "reprt", "did you mean report?"),
    Case(
        "publish, missing --site",
        command("publish", "{folder}/out"),
        "reportgen publish",
        "missing option --site",
    ),
    Case(
        "publish, no such folder",
        command("publish", "{folder}/nope", "--site", "{folder}/site"),
        "REPORT_DIR",
        "no such folder",
    ),
    Case(
        "publish, a file for REPORT_DIR",
        command("publish", "{folder}/inputs/gold.jsonl", "--site", "{folder}/site"),
        "REPORT_DIR",
        "is a file, not a folder",
    ),
    Case(
        "publish, an extra argument",
        command("publish", "{folder}/out", "extra", "--site", "{folder}/site"),
        "reportgen publish",
        "unexpected extra argument",
    ),
    Case("merge, no shard", command("merge"), "reportgen merge", "missing argument SHARDS"),
]

CONFIG_CASES = [
    Case(
        "a misspelt key",
        report(),
        "reportgen.toml:2",
        "unknown key max-drops. Fix: did you mean max-drop?",
        files=(("reportgen.toml", 'context-k = 3\nmax-drops = { "recall@5" = 0.02 }\n'),),
    ),
    Case(
        "a misspelt key in pyproject.toml",
        report(),
        "pyproject.toml:4",
        "did you mean context-k?",
        files=(("pyproject.toml", '[project]\nname = "x"\n[tool.reportgen]\ncontxt-k = 3\n'),),
    ),
    Case(
        "a key of no option, nothing close",
        report(),
        "reportgen.toml:1",
        "unknown key colour",
        files=(("reportgen.toml", 'colour = "blue"\n'),),
    ),
    Case(
        "an argument as a key",
        report(),
        "reportgen.toml:1",
        "gold is an argument of reportgen report, not an option",
        files=(("reportgen.toml", 'gold = "gold.jsonl"\n'),),
    ),
    Case(
        "a key written twice",
        report(),
        "reportgen.toml",
        "context-k is set twice",
        files=(("reportgen.toml", "context-k = 3\ncontext_k = 4\n"),),
    ),
    Case(
        "TOML syntax",
        report(),
        "reportgen.toml:2",
        "not valid TOML",
        files=(("reportgen.toml", "context-k = 3\nstrict = \n"),),
    ),
    Case(
        "TOML cut short",
        report(),
        "reportgen.toml:1",
        "not valid TOML",
        files=(("reportgen.toml", "min = [\n"),),
    ),
    Case(
        "a value out of range",
        report(),
        "reportgen.toml:2",
        "context-k = 0: must be at least 1",
        files=(("reportgen.toml", "# measured at\ncontext-k = 0\n"),),
    ),
    Case(
        "a value of the wrong type",
        report(),
        "reportgen.toml:1",
        "strict must be true or false",
        files=(("reportgen.toml", 'strict = "yes"\n'),),
    ),
    Case(
        "a path that is not there",
        report(),
        "reportgen.toml:1",
        'verdicts = "nope.jsonl": no such file',
        files=(("reportgen.toml", 'verdicts = "nope.jsonl"\n'),),
    ),
    Case(
        "a choice that is not one",
        report(),
        "reportgen.toml:1",
        "did you mean parquet?",
        files=(("reportgen.toml", 'per-question-format = "parket"\n'),),
    ),
    Case(
        "a run the API refuses",
        report(),
        "reportgen.toml:1",
        'reference-run = "zz": not one of the runs',
        files=(("reportgen.toml", 'reference-run = "zz"\n'),),
    ),
    Case(
        "a rule that is not a number",
        report(),
        "reportgen.toml:1",
        "min.recall@5 is not a number",
        files=(("reportgen.toml", 'min = { "recall@5" = "high" }\n'),),
    ),
    Case(
        "a config naming a config",
        report(),
        "reportgen.toml:1",
        "a config file cannot name another one",
        files=(("reportgen.toml", 'config = "other.toml"\n'),),
    ),
    Case(
        "--config naming no file",
        report("--config", "{folder}/nope.toml"),
        "nope.toml",
        "cannot read it",
    ),
    Case(
        "--config: a pyproject.toml without the table",
        report("--config", "{folder}/pyproject.toml"),
        "pyproject.toml",
        "no [tool.reportgen] table",
        files=(("pyproject.toml", '[project]\nname = "x"\n'),),
    ),
]


def _prepare(case: Case, folder: Path) -> dict[str, bytes]:
    """The case's files beside the previous report; the report's bytes."""
    out = folder / "out"
    for name, text in case.files:
        (folder / name).write_text(text, encoding="utf-8")
    return snapshot(out)


@pytest.mark.parametrize("case", OPTION_CASES + CONFIG_CASES, ids=lambda case: case.id)
def test_bad_usage_is_one_line_exit_2_and_keeps_the_report(case: Case, folder: Path) -> None:
    before = _prepare(case, folder)
    args = [word.replace("{folder}", str(folder)) for word in case.args(folder)]
    outcome = run_cli(args, cwd=folder)
    assert_clean_failure(outcome, case.code, where=case.where, problem=case.problem)
    assert len(outcome.stderr.strip().splitlines()) == 1, outcome.stderr
    assert "Usage:" not in outcome.stderr
    assert snapshot(folder / "out") == before


def test_the_command_line_wins_over_the_config(folder: Path) -> None:
    """A config value that would fail is overridden by the typed one: no error at all."""
    _prepare(Case("", report(), files=(("reportgen.toml", "context-k = 0\n"),)), folder)
    outcome = run_cli([*report("--context-k", "3")(folder), "--quiet"], cwd=folder)
    assert outcome.code == 0, outcome.stderr


@dataclass(frozen=True)
class Done:
    id: str
    args: Args
    code: int
    shows: str
    """A substring of stdout and stderr together."""
    files: tuple[tuple[str, str], ...] = ()


DONE_CASES = [
    Done("a good report", report(), 0, "Wrote "),
    Done("a failed rule", report("--min", "precision@5=0.5"), 1, "--min precision@5=0.5 FAILED"),
    Done(
        "a warning under --strict",
        command("report", "{folder}/inputs/gold.jsonl", "r={folder}/extra.jsonl", "--strict"),
        1,
        "--strict: 1 warning(s) (missing_questions)",
        files=(("extra.jsonl", '{"id": "q1", "chunks": ["c1"]}\n{"id": "q9", "chunks": []}\n'),),
    ),
    Done("--help", command("report", "--help"), 0, "Usage: reportgen report"),
    Done("--version", command("--version"), 0, "reportgen, version"),
]
"""Runs that finish: 0, or 1 when the gate fails (the report is then written)."""


@pytest.mark.parametrize("case", DONE_CASES, ids=lambda case: case.id)
def test_finished_runs_exit_0_or_1(case: Done, folder: Path) -> None:
    for name, text in case.files:
        (folder / name).write_text(text, encoding="utf-8")
    args = [word.replace("{folder}", str(folder)) for word in case.args(folder)]
    outcome = run_cli(args, cwd=folder)
    assert outcome.code == case.code, outcome.stderr
    assert case.shows in outcome.stdout + outcome.stderr
    assert "Traceback" not in outcome.stdout + outcome.stderr


# --- internal errors, interrupts and a closed stdout: in real processes -------------

FAULTS = textwrap.dedent(
    """
    import os, time

    fault = os.environ.get("REPORTGEN_TEST_FAULT")
    if fault:
        import reportgen.api

        def evaluate(*args, **kwargs):
            if fault == "crash":
                raise ValueError("a planted bug\\non two lines")
            open(os.environ["REPORTGEN_TEST_READY"], "w").close()
            time.sleep(60)

        reportgen.api.evaluate = evaluate
    """
)
"""A sitecustomize for child processes: plants a bug, or a pause to interrupt."""


@pytest.fixture
def faults(tmp_path: Path) -> Path:
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(FAULTS)
    return folder


def _fault_env(faults: Path, fault: str, **more: str) -> dict[str, str]:
    path = os.pathsep.join([str(faults), str(REPO), os.environ.get("PYTHONPATH", "")])
    return {"PYTHONPATH": path, "REPORTGEN_TEST_FAULT": fault, **more}


INTERNAL_LINE = (
    "internal error in reportgen {version}: ValueError: a planted bug on two lines; "
    "rerun with --debug and report it"
)


def _internal_line() -> str:
    from reportgen import __version__

    return INTERNAL_LINE.format(version=__version__)


@dataclass(frozen=True)
class Crash:
    id: str
    launcher: str
    """How the child is started: "module" (python -m reportgen) or "script" (reportgen)."""
    debug: str
    """"" none, "option" (--debug) or "env" (REPORTGEN_DEBUG=1)."""
    code: int = 3


CRASH_CASES = [
    Crash("python -m, one line", "module", ""),
    Crash("console script, one line", "script", ""),
    Crash("--debug shows the traceback", "module", "option"),
    Crash("REPORTGEN_DEBUG=1 shows the traceback", "script", "env"),
]


def _console_script() -> Path:
    script = Path(sys.executable).parent / "reportgen"
    if not script.is_file():
        pytest.skip(f"no console script beside {sys.executable} (pip install -e . makes it)")
    return script


@pytest.mark.parametrize("case", CRASH_CASES, ids=lambda case: case.id)
def test_an_internal_error_is_one_line_exit_3(case: Crash, faults: Path, folder: Path) -> None:
    out = folder / "out"
    before = snapshot(out)
    env = _fault_env(faults, "crash", **({"REPORTGEN_DEBUG": "1"} if case.debug == "env" else {}))
    args = (["--debug"] if case.debug == "option" else []) + report()(folder)
    if case.launcher == "module":
        outcome = run_process(args, env=env)
    else:
        done = subprocess.run(
            [str(_console_script()), *args],
            env={**os.environ, **env},
            capture_output=True,
            text=True,
            timeout=120,
        )
        outcome = Outcome(done.returncode, done.stdout, done.stderr)
    assert outcome.code == case.code, outcome.stderr
    lines = outcome.stderr.strip().splitlines()
    assert lines[-1] == _internal_line()
    if case.debug:
        assert lines[0] == "Traceback (most recent call last):"
        assert "a planted bug" in outcome.stderr
    else:
        assert lines == [_internal_line()]
    assert snapshot(out) == before


def test_an_internal_error_in_process_is_exit_3(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through Click's runner too: the test harness sees exit 3, not an exception."""
    import reportgen.api

    out = folder / "out"
    before = snapshot(out)

    def planted(*args: object, **kwargs: object) -> None:
        raise ValueError("a planted bug\non two lines")

    monkeypatch.setattr(reportgen.api, "evaluate", planted)
    outcome = run_cli(report()(folder))
    assert outcome.code == 3
    assert outcome.stderr.strip() == _internal_line()
    debugged = run_cli(["--debug", *report()(folder)])
    assert debugged.code == 3 and "Traceback (most recent call last)" in debugged.stderr
    assert snapshot(out) == before


INTERRUPT_CASES = [130]
"""Ctrl-C, sent as a terminal sends it: SIGINT to the whole process group."""


@pytest.mark.parametrize("code", INTERRUPT_CASES)
def test_ctrl_c_is_one_line_exit_130(code: int, faults: Path, folder: Path) -> None:
    out = folder / "out"
    before = snapshot(out)
    ready = folder / "ready"
    env = {**os.environ, **_fault_env(faults, "pause", REPORTGEN_TEST_READY=str(ready))}
    child = subprocess.Popen(
        [sys.executable, "-m", "reportgen", *report()(folder)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a shell's job
    )
    try:
        deadline = time.monotonic() + 60
        while not ready.exists() and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert ready.exists(), child.communicate(timeout=10)
        os.killpg(child.pid, signal.SIGINT)
        stdout, stderr = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    text = stderr.decode()
    assert child.returncode == code, text
    assert text.strip().splitlines() == ["Error: interrupted (Ctrl-C or SIGINT)"], text
    assert "Traceback" not in text + stdout.decode()
    assert snapshot(out) == before


def _closed_stdout(args: list[str]) -> tuple[int, str]:
    """Run with stdout a pipe nobody reads any more (`| head -0`): code and stderr."""
    child = subprocess.Popen(
        [sys.executable, "-m", "reportgen", *args],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stderr is not None
    child.stdout.close()
    stderr = child.stderr.read().decode()
    return child.wait(timeout=120), stderr


@pytest.mark.parametrize(
    ("extra", "code"), [((), 0), (("--min", "precision@5=0.5"), 1)], ids=["passed", "gate failed"]
)
def test_a_closed_stdout_keeps_the_exit_code(
    extra: tuple[str, ...], code: int, folder: Path
) -> None:
    returncode, stderr = _closed_stdout(report(*extra)(folder))
    assert returncode == code, stderr
    assert "Traceback" not in stderr and "BrokenPipe" not in stderr, stderr


def test_a_closed_stdout_after_merge_is_quiet(folder: Path) -> None:
    assert _closed_stdout(report("--merge-data", "--format", "json")(folder)) == (0, "")
    merged = str(folder / "merged")
    returncode, stderr = _closed_stdout(["merge", str(folder / "out"), "--out", merged])
    assert (returncode, stderr) == (0, "")
    assert (folder / "merged" / "index.html").is_file()  # the whole report, pages and all


def test_head_reads_the_first_line(folder: Path) -> None:
    """`reportgen report ... | head -1` in a real shell, pipefail on."""
    line = " ".join(f"'{word}'" for word in report()(folder))
    done = subprocess.run(
        ["bash", "-c", f"set -o pipefail; '{sys.executable}' -m reportgen {line} | head -1"],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("r, top 5:") and done.stdout.count("\n") == 1
    assert done.stderr == ""


def produced_codes() -> set[int]:
    """Every exit code some case of this corpus asserts, for the README's table."""
    return (
        {case.code for case in OPTION_CASES + CONFIG_CASES}
        | {case.code for case in DONE_CASES}
        | {case.code for case in CRASH_CASES}
        | set(INTERRUPT_CASES)
    )
