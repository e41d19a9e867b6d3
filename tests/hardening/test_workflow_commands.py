"""Input text never becomes a CI runner's command (issue 39, "the loop" item 3).

Under ``GITHUB_ACTIONS=true`` the runner reads every line a step prints: one that
starts with ``::`` (after white space) is a workflow command, one with ``##[`` anywhere
an older form of it. Each case puts a hostile value in one field that reaches stdout
or stderr (a run name, a kind, a version, an index version, an id, a path, a
baseline's version, a label's version ...) and reads every line as the runner splits
them: no line may be a command but reportgen's own escaped annotations, and the
value's text still shows (escaped), so a case that stops printing it fails.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from reportgen.cli.errors import InternalError
from reportgen.core.log_line import annotation_line, log_line
from reportgen.core.progress import bar_line
from reportgen.render.annotations import command
from tests.hardening.corpus import Outcome, run_cli

MARK = "INJECTED"
HOSTILE = (
    f"h\n::add-mask::{MARK}\r::set-output name=gate::passed\n  ::stop-commands::{MARK}"
    f"\u2028::error title=x::{MARK}\x85::warning::{MARK} ##[set-output name=a;]b ##vso[x]y"
)
"""Every way a value could start a command: LF, CR, LS, NEL, leading spaces, ``##[``."""
LEADING = f"::add-mask::{MARK}"
"""For fields that refuse control characters (ids): a command at the value's start."""
RUNNER_LINES = re.compile("\r\n|\r|\n")
"""How the runner splits a step's output into lines."""
OWN_ANNOTATION = re.compile(r"^::(error|warning) title=reportgen [a-z ]+(,[a-z]+=[^:,\s]*)*::")


def _forged(outcome: Outcome) -> list[str]:
    """The lines of stdout and stderr a runner would take as a command not reportgen's."""
    lines = RUNNER_LINES.split(outcome.stdout) + RUNNER_LINES.split(outcome.stderr)
    return [
        line
        for line in lines
        if (line.lstrip().startswith("::") and not OWN_ANNOTATION.match(line))
        or re.search(r"##(vso)?\[", line, re.IGNORECASE)
    ]


def _jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def _inputs(folder: Path, gold_meta: dict[str, str] | None = None, kind: str = "b") -> Path:
    rows: list[dict[str, object]] = [{"_meta": gold_meta}] if gold_meta else []
    rows += [{"id": "q1", "gold": ["c1"], "kind": "a"}, {"id": "q2", "gold": ["c2"], "kind": kind}]
    _jsonl(folder / "run.jsonl", [{"id": "q1", "chunks": ["c1"]}, {"id": "q2", "chunks": ["c3"]}])
    return _jsonl(folder / "gold.jsonl", rows)


def _report(folder: Path, *extra: str) -> list[str]:
    """A report of the plain inputs, report.json only (the pages' charts cost seconds)."""
    gold = _inputs(folder)
    run = f"r={folder / 'run.jsonl'}"
    return ["report", str(gold), run, "--out", str(folder / "o"), "--format", "json", *extra]


def _run_name(folder: Path) -> list[str]:
    gold = _inputs(folder)
    return ["report", str(gold), f"{HOSTILE}={folder / 'run.jsonl'}", "--out", str(folder / "o")]


def _kind(folder: Path) -> list[str]:
    """The table by kind is --verbose's."""
    gold = _inputs(folder, kind=HOSTILE)
    run = f"r={folder / 'run.jsonl'}"
    return ["report", str(gold), run, "--out", str(folder / "o"), "--verbose"]


def _index_versions(folder: Path) -> list[str]:
    gold = _inputs(folder, {"version": HOSTILE, "index_version": HOSTILE})
    run = _jsonl(
        folder / "run2.jsonl",
        [{"_meta": {"index_version": HOSTILE + "2"}}, {"id": "q1", "chunks": ["c1"]}],
    )
    return ["report", str(gold), f"r={run}", "--out", str(folder / "o")]


def _trace_run(folder: Path) -> list[str]:
    rows: list[dict[str, object]] = [{"_meta": {"run": HOSTILE, "version": HOSTILE}}]
    rows += [
        {"id": f"q{i}", "gold": ["c1"], "question": HOSTILE, "retrieved": ["c1"], "correct": i == 1}
        for i in range(3)
    ]
    return ["report", str(_jsonl(folder / "trace.jsonl", rows)), "--out", str(folder / "o")]


def _stale(folder: Path, qid: str, chunk: str) -> list[str]:
    rows: list[dict[str, object]] = [{"id": qid, "gold": [chunk]}, {"id": "q2", "gold": ["c2"]}]
    gold = _jsonl(folder / "gold.jsonl", rows)
    run_rows: list[dict[str, object]] = [
        {"id": qid, "chunks": ["c1"]},
        {"id": "q2", "chunks": ["c2"]},
    ]
    run = _jsonl(folder / "run.jsonl", run_rows)
    (folder / "manifest.txt").write_text("c1\nc2\n")
    return [
        *("report", str(gold), f"r={run}", "--out", str(folder / "o")),
        *("--manifest", str(folder / "manifest.txt")),
    ]


def _missing_run(folder: Path) -> list[str]:
    return ["report", str(_inputs(folder)), f"r={folder / HOSTILE}", "--out", str(folder / "o")]


def _out_folder(folder: Path) -> list[str]:
    return ["report", str(_inputs(folder)), f"r={folder / 'run.jsonl'}", "--out", HOSTILE]


def _failed_gate(folder: Path) -> list[str]:
    gold = _inputs(folder)
    run = f"{LEADING}={folder / 'run.jsonl'}"
    return ["report", str(gold), run, "--out", str(folder / "o"), "--min", "hit@5=0.9"]


def _baseline_version(folder: Path) -> list[str]:
    first = folder / "first"
    first.mkdir()
    assert run_cli([*_report(first), "--quiet"]).code == 0
    report = json.loads((first / "o" / "report.json").read_text())
    report["version"] = HOSTILE
    (first / "o" / "report.json").write_text(json.dumps(report))
    return [*_report(folder), "--baseline", str(first / "o")]


def _label_import_version(folder: Path) -> list[str]:
    gold = _inputs(folder, {"version": f"{HOSTILE}3"})
    labels = folder / "labels.csv"
    labels.write_text("id,chunk_id,grade\nq1,c9,1\n")
    return ["label", "import", str(gold), str(labels), "--out", str(folder / "gold-v2.jsonl")]


def _label_export_out(folder: Path) -> list[str]:
    gold = _inputs(folder)
    run = f"r={folder / 'run.jsonl'}"
    return ["label", "export", str(gold), run, "--out", str(folder / f"{HOSTILE}.csv")]


def _merge_run_name(folder: Path) -> list[str]:
    gold = _inputs(folder)
    shards = []
    for number in (1, 2):
        shard = folder / f"s{number}"
        shard.mkdir()
        _jsonl(shard / "gold.jsonl", [json.loads(gold.read_text().splitlines()[number - 1])])
        args = ["report", str(shard / "gold.jsonl"), f"{LEADING}={folder / 'run.jsonl'}"]
        assert run_cli([*args, "--out", str(shard / "o"), "-q", "--format", "json"]).code == 0
        shards.append(str(shard / "o"))
    return ["merge", *shards, "--out", str(folder / "merged"), "--format", "json"]


def _render_folder(folder: Path) -> list[str]:
    out = folder / f"x{HOSTILE}"
    args = _report(folder)
    args[args.index("--out") + 1] = str(out)
    assert run_cli([*args, "--quiet"]).code == 0
    return ["render", str(out), "--format", "md"]


def _publish_site(folder: Path) -> list[str]:
    assert run_cli([*_report(folder), "--quiet", "--version", "v1"]).code == 0
    (folder / "o" / "index.html").write_text("<!doctype html><title>r</title>")
    return ["publish", str(folder / "o"), "--site", str(folder / f"site{HOSTILE}")]


def _config_value(folder: Path) -> list[str]:
    (folder / "reportgen.toml").write_text(f"version = {json.dumps(HOSTILE)}\n")
    return _report(folder)


def _baseline_version_asked(folder: Path) -> list[str]:
    first = folder / "first"
    first.mkdir()
    assert run_cli([*_report(first), "--quiet"]).code == 0
    return [*_report(folder), "--baseline", str(first / "o"), "--baseline-version", HOSTILE]


def _verdicts_run(folder: Path) -> list[str]:
    verdicts = _jsonl(folder / "verdicts.jsonl", [{"id": "q1", "correct": True, "run": HOSTILE}])
    return [*_report(folder), "--verdicts", str(verdicts)]


CASES: dict[str, Callable[[Path], list[str]]] = {
    "a config file's value (error)": _config_value,
    "--baseline-version (error)": _baseline_version_asked,
    "the verdicts' run field (error)": _verdicts_run,
    "run name": _run_name,
    "gold kind": _kind,
    "gold and run index_version, gold version": _index_versions,
    "trace _meta.run and question": _trace_run,
    "question id with stale gold (annotation)": lambda folder: _stale(folder, LEADING, "zz"),
    "gold chunk id with stale gold (annotation)": lambda folder: _stale(folder, "q1", LEADING),
    "a missing file's path (error)": _missing_run,
    "--out": _out_folder,
    "a failed gate's run name (annotation)": _failed_gate,
    "a failed gate's rules, a trace's run name": lambda folder: [
        *_trace_run(folder),
        *("--min", "precision@3=0.5", "--min", "precision@5=0.5"),
    ],
    "a baseline's version": _baseline_version,
    "label import: the gold set's _meta.version": _label_import_version,
    "label export: --out": _label_export_out,
    "merge: run names": _merge_run_name,
    "render: the report folder": _render_folder,
    "publish: the site folder": _publish_site,
}


@pytest.mark.parametrize("case", list(CASES))
def test_no_input_text_becomes_a_workflow_command(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = CASES[case](tmp_path)
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    if args[0] == "report" and "--format" not in args:
        args += ["--format", "json"]  # what prints comes from report.json; pages cost seconds
    outcome = run_cli(args, cwd=tmp_path)
    assert "Traceback" not in outcome.stderr, outcome.stderr
    assert _forged(outcome) == [], outcome.stdout + outcome.stderr
    assert MARK in outcome.stdout + outcome.stderr, "the hostile value no longer shows: the case"


@pytest.mark.parametrize(
    "text",
    [
        "::add-mask::x",
        "  ::add-mask::x",
        "\u00a0\u3000::x::y",
        "\t::x::y",
        "a\n::x::y",
        "a\r::x::y",
        "a\u2028::x::y",
        "a\x85::x::y",
        "ok ##[set-output name=a;]b",
        "ok ##VSO[task.setvariable variable=a]b",
        "\x1b[2J::x::y",
    ],
)
def test_one_line_never_a_command(text: str) -> None:
    line = log_line(text)
    assert RUNNER_LINES.split(line) == [line] and line.splitlines() == [line]
    assert not line.lstrip().startswith("::")
    assert not re.search(r"##(vso)?\[", line, re.IGNORECASE)
    assert "\x1b" not in line


def test_plain_lines_are_unchanged() -> None:
    for text in ["r, top 5: hit@5 0.500", "  kind  n  hit@5", "a :: b", "C:\\x", "# heading"]:
        assert log_line(text) == text


def test_own_annotations_stay_commands_and_one_line() -> None:
    made = command("error", f"rule on {HOSTILE}", title="reportgen quality gate", file=HOSTILE)
    line = annotation_line(made)
    assert line.startswith("::error title=reportgen quality gate,file=")
    assert RUNNER_LINES.split(line) == [line]
    with pytest.raises(ValueError):
        annotation_line("::error::a\n::add-mask::x")


def test_the_progress_bar_escapes_a_run_name() -> None:
    line = bar_line("Measuring", 1, 2, HOSTILE, 3.0)
    assert RUNNER_LINES.split(line) == [line] and "##[" not in line


def test_a_debug_traceback_escapes_the_message(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        raise ValueError(HOSTILE)
    except ValueError as error:
        InternalError(error, debug=True).show()
    printed = capsys.readouterr()
    assert _forged(Outcome(3, printed.out, printed.err)) == []
    assert "Traceback" in printed.err and MARK in printed.err


def test_only_the_echo_module_prints() -> None:
    """Every line goes through cli/echo.py: no other module writes to stdout or stderr."""
    package = Path(__file__).resolve().parents[2] / "reportgen"
    printing = re.compile(r"click\.(echo|secho)\(|\bprint\(|sys\.std(out|err)\.write\(")
    # progress: through log_line; the chart engine: its child's JSON; command.py:
    # --help-all, Click's help text of reportgen's own options (no input in it)
    allowed = {"cli/echo.py", "core/progress.py", "render/chart_engine.py", "cli/command.py"}
    found = [
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        if path.relative_to(package).as_posix() not in allowed
        and printing.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_a_failed_gate_says_each_rule_on_a_line_of_its_own(tmp_path: Path) -> None:
    """The gate's error is reportgen's lines, one per rule (the quickstart quotes them);
    a line break inside a rule's text (a trace's run name) stays inside its line."""
    args = [*_trace_run(tmp_path), "--format", "json", "--min", "precision@3=0.5"]
    outcome = run_cli([*args, "--min", "precision@5=0.5"], cwd=tmp_path)
    lines = outcome.stderr.splitlines()
    start = lines.index("Error: 2 quality rules failed (the report was written):")
    rules = lines[start + 1 : start + 3]
    assert [rule.split(" ")[:2] for rule in rules] == [
        ["--min", "precision@3=0.5"],
        ["--min", "precision@5=0.5"],
    ]
    assert all("\\n::add-mask::" in rule for rule in rules), rules
