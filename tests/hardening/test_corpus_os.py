"""The adversarial corpus of the operating system and of odd bytes (issue 13).

Each case builds its hostile inputs beside a report written by a good run, runs the
CLI, and checks the promise: exit 2, one error line ``path[:line]: problem. Fix: ...``
without a traceback, and the previous ``--out`` byte-identical. Cases that need a
real process (argv bytes, dropped capabilities, a file-size limit, a FIFO that must
not block) run one; the rest run in this process.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest

from tests.hardening.corpus import (
    GOOD_GOLD,
    GOOD_RUN,
    Outcome,
    assert_clean_failure,
    previous_report,
    run_cli,
    run_process,
    snapshot,
)

LONG = "a" * 300
"""A path component over the 255 bytes file systems allow."""
E_ACUTE = os.fsdecode(b"\xe9")
"""Latin-1 'é': a byte that is not UTF-8, as Python hands it over (surrogateescape)."""


@dataclass(frozen=True)
class World:
    """The folder of one case: good inputs, and the report a good run wrote."""

    root: Path
    out: Path

    @property
    def gold(self) -> Path:
        return self.root / "inputs" / "gold.jsonl"

    @property
    def run(self) -> Path:
        return self.root / "inputs" / "run.jsonl"

    def file(self, name: str | bytes, content: bytes) -> str:
        """Write ``content`` under a name (bytes for a name that is not UTF-8)."""
        raw = name if isinstance(name, bytes) else name.encode()
        path = os.path.join(os.fsencode(self.root), raw)
        with open(path, "wb") as stream:
            stream.write(content)
        return os.fsdecode(path)

    def report(
        self, *args: str, gold: str | None = None, run: str | None = None, charts: bool = False
    ) -> list[str]:
        """``report GOLD r=RUN --out OUT -q`` and ``args``; only report.json and the
        per-question file unless ``charts`` (drawing them costs a process per case)."""
        return [
            "report",
            gold or str(self.gold),
            f"r={run or self.run}",
            "--out",
            str(self.out),
            "-q",
            *([] if charts else ["--format", "json"]),
            *args,
        ]

    def merge(self, *shards: str) -> list[str]:
        return ["merge", *shards, "--out", str(self.out), "-q"]


@dataclass(frozen=True)
class Case:
    id: str
    args: Callable[[World], list[str]]
    where: str | None
    """Part of what the error line names before the problem (a file name, an option)."""
    problem: str
    process: bool = False
    """Run a real ``python -m reportgen``: argv bytes, or a pipe that must not block."""
    slow: bool = False
    """A real process that repeats a class a faster case already covers by default."""


def _fifo(world: World) -> str:
    path = world.root / "pipe.jsonl"
    os.mkfifo(path)
    return str(path)


def _per_question_csv(world: World, value: str) -> str:
    folder = world.root / "shard"
    folder.mkdir()
    (folder / "per_question.csv").write_text(
        f"run,qid,kind,status,recall@5\nr,q1,unlabelled,scored,1.0\nr,q2,unlabelled,scored,{value}\n"
    )
    return str(folder)


def _per_question_parquet(world: World, value: float) -> str:
    folder = world.root / "shard"
    folder.mkdir()
    pl.DataFrame(
        {
            "run": ["r", "r"],
            "qid": ["q1", "q2"],
            "kind": ["unlabelled"] * 2,
            "status": ["scored"] * 2,
            "recall@5": [1.0, value],
        }
    ).write_parquet(folder / "per_question.parquet")
    return str(folder)


def _baseline_with(world: World, per_question: bytes | None, report: bytes | None) -> str:
    """A copy of the previous report, with its per_question.csv or report.json replaced."""
    folder = world.root / "baseline"
    shutil.copytree(world.out, folder)
    if per_question is not None:
        (folder / "per_question.csv").write_bytes(per_question)
    if report is not None:
        (folder / "report.json").write_bytes(report)
    return str(folder)


def _nan_per_question(world: World) -> bytes:
    lines = (world.out / "per_question.csv").read_bytes().splitlines(keepends=True)
    header = lines[0].decode().rstrip("\n").split(",")
    cells = lines[1].decode().rstrip("\n").split(",")
    cells[header.index("recall@5")] = "NaN"
    return b"".join([lines[0], ",".join(cells).encode() + b"\n", *lines[2:]])


def _report_with(world: World, text: str) -> bytes:
    """The previous report.json with its version's value replaced by raw JSON text."""
    raw = (world.out / "report.json").read_text()
    version = json.loads(raw)["version"]
    return raw.replace(json.dumps(version), text, 1).encode()


def _trec_eval(world: World, value: str) -> str:
    return world.file("out.txt", f"map\tq1\t0.5\nmap\tq2\t{value}\nrunid\tall\tr\n".encode())


def _promptfoo(world: World, rows: list[object]) -> str:
    return world.file("results.json", json.dumps({"results": {"results": rows}}).encode())


CASES = [
    # a path component over 255 bytes
    Case("long-gold", lambda w: w.report(gold=f"{LONG}.jsonl"), LONG, "255"),
    Case("long-run", lambda w: w.report(run=f"{LONG}.jsonl"), LONG, "255"),
    Case("long-run-folder", lambda w: w.report(run=f"{LONG}/run.jsonl"), LONG, "255"),
    Case(
        "long-out",
        lambda w: ["report", str(w.gold), f"r={w.run}", "--out", str(w.out / LONG), "-q"],
        LONG,
        "255",
    ),
    Case("long-baseline", lambda w: w.report("--baseline", str(w.root / LONG)), LONG, "255"),
    Case("long-manifest", lambda w: w.report("--manifest", LONG + ".txt"), LONG, "255"),
    Case("long-shard", lambda w: w.merge(str(w.root / LONG)), LONG, "255"),
    Case(
        "long-name-and-long-path",
        lambda w: ["report", str(w.gold), f"{LONG}={LONG}.jsonl", "--out", str(w.out), "-q"],
        LONG,
        "255",
    ),
    # --out where nothing can be written
    Case(
        "out-under-sys",
        lambda w: ["report", str(w.gold), f"r={w.run}", "--out", "/sys/reportgen-out", "-q"],
        "/sys/reportgen-out",
        "not permitted",
    ),
    Case(
        "out-under-a-file",
        lambda w: ["report", str(w.gold), f"r={w.run}", "--out", str(w.gold / "out"), "-q"],
        "gold.jsonl",
        "not a folder",
    ),
    Case(
        "out-charts-is-a-file",
        lambda w: (
            shutil.rmtree(w.out / "charts"),
            (w.out / "charts").write_bytes(b"mine"),
            w.report(charts=True),
        )[-1],
        "charts",
        "a file where --out needs a folder",
    ),
    Case(
        "out-report-json-is-a-folder",
        lambda w: ((w.out / "report.json").unlink(), (w.out / "report.json").mkdir(), w.report())[
            -1
        ],
        "report.json",
        "a folder where --out gets a file",
    ),
    # pipes and devices are not regular files, and are never opened
    Case("fifo-gold", lambda w: w.report(gold=_fifo(w)), "pipe.jsonl", "FIFO", process=True),
    Case(
        "fifo-run", lambda w: w.report(run=_fifo(w)), "pipe.jsonl", "FIFO", process=True, slow=True
    ),
    Case(
        "fifo-verdicts",
        lambda w: w.report("--verdicts", _fifo(w)),
        "pipe.jsonl",
        "FIFO",
        process=True,
        slow=True,
    ),
    Case(
        "fifo-manifest",
        lambda w: w.report("--manifest", _fifo(w)),
        "pipe.jsonl",
        "FIFO",
        process=True,
        slow=True,
    ),
    Case(
        "fifo-baseline",
        lambda w: w.report("--baseline", _fifo(w)),
        "pipe.jsonl",
        "FIFO",
        process=True,
        slow=True,
    ),
    Case("fifo-shard", lambda w: w.merge(_fifo(w)), "pipe.jsonl", "FIFO", process=True, slow=True),
    Case("devnull-gold", lambda w: w.report(gold="/dev/null"), "/dev/null", "character device"),
    Case("devnull-run", lambda w: w.report(run="/dev/null"), "/dev/null", "character device"),
    Case(
        "devnull-verdicts",
        lambda w: w.report("--verdicts", "/dev/null"),
        "/dev/null",
        "character device",
    ),
    Case(
        "devnull-manifest",
        lambda w: w.report("--manifest", "/dev/null"),
        "/dev/null",
        "character device",
    ),
    Case(
        "devnull-baseline",
        lambda w: w.report("--baseline", "/dev/null"),
        "/dev/null",
        "character device",
    ),
    Case("devnull-shard", lambda w: w.merge("/dev/null"), "/dev/null", "character device"),
    # other paths the system refuses
    Case(
        "gold-under-a-file",
        lambda w: w.report(gold=str(w.gold / "gold.jsonl")),
        "gold.jsonl",
        "a file, not a folder",
    ),
    Case(
        "run-symlink-loop",
        lambda w: (os.symlink("loop.jsonl", w.root / "loop.jsonl"), w.report(run="loop.jsonl"))[-1],
        "loop.jsonl",
        "symbolic links",
    ),
    Case("run-is-a-directory", lambda w: w.report(run=str(w.out)), "out", "a directory"),
    # names that are not UTF-8: read, and shown with U+FFFD
    Case(
        "non-utf8-gold-name-bad-content",
        lambda w: w.report(gold=w.file(b"g\xe9.jsonl", b'{"id": "q1", "gold": ["c1"]}\n{oops\n')),
        "g\ufffd.jsonl:2",
        "not valid JSON",
    ),
    Case(
        "non-utf8-version",
        lambda w: w.report("--version", f"v{E_ACUTE}"),
        "--version",
        "not UTF-8",
        process=True,
    ),
    Case(
        "non-utf8-merge-version",
        lambda w: [
            "merge",
            str(w.out),
            "--out",
            str(w.root / "m"),
            "--version",
            f"v{E_ACUTE}",
            "-q",
        ],
        "--version",
        "not UTF-8",
        process=True,
        slow=True,
    ),
    # JSON strings with lone surrogates, integers beyond Python's 4,300 digits
    Case(
        "surrogate-gold-id",
        lambda w: w.report(gold=w.file("g.jsonl", b'{"id": "q1\\ud800", "gold": ["c1"]}\n')),
        "g.jsonl:1",
        "lone surrogate",
    ),
    Case(
        "surrogate-gold-question",
        lambda w: w.report(
            gold=w.file("g.jsonl", GOOD_GOLD + b'{"id": "q3", "question": "x\\udc00", "gold": [1]}')
        ),
        "g.jsonl:3",
        "lone surrogate",
    ),
    Case(
        "surrogate-gold-kind",
        lambda w: w.report(
            gold=w.file("g.jsonl", b'{"id": "q1", "kind": "\\uDBFF", "gold": ["c1"]}\n')
        ),
        "g.jsonl:1",
        "lone surrogate",
    ),
    Case(
        "surrogate-run-chunk",
        lambda w: w.report(run=w.file("r.jsonl", b'{"id": "q1", "chunks": ["c\\ud800"]}\n')),
        "r.jsonl:1",
        "lone surrogate",
    ),
    Case(
        "surrogate-ranx-key",
        lambda w: w.report(run=w.file("r.json", b'{"q1": {"c1": 1},\n "q2\\udfff": {"c2": 1}}')),
        "r.json:2",
        "lone surrogate",
    ),
    Case(
        "surrogate-verdict-run",
        lambda w: w.report(
            "--verdicts",
            w.file("v.jsonl", b'{"id": "q1", "correct": true, "run": "r\\ud800"}\n'),
        ),
        "v.jsonl:1",
        "lone surrogate",
    ),
    Case(
        "surrogate-promptfoo",
        lambda w: w.report(
            "--verdicts", w.file("pf.json", b'{"results": {"results": [\n{"vars": "\\ud800"}]}}')
        ),
        "pf.json:2",
        "lone surrogate",
    ),
    Case(
        "surrogate-manifest",
        lambda w: w.report("--manifest", w.file("m.jsonl", b'{"chunk_id": "c1\\udc80"}\n')),
        "m.jsonl:1",
        "lone surrogate",
    ),
    Case(
        "surrogate-baseline-report",
        lambda w: w.report("--baseline", _baseline_with(w, None, _report_with(w, '"v\\ud800"'))),
        "report.json:",
        "lone surrogate",
    ),
    Case(
        "huge-integer-gold-id",
        lambda w: w.report(gold=w.file("g.jsonl", b'{"id": ' + b"1" * 5000 + b', "gold": [1]}\n')),
        "g.jsonl:1",
        "4,300 digits",
    ),
    Case(
        "huge-integer-ranx-score",
        lambda w: w.report(run=w.file("r.json", b'{"q1":\n {"c1": ' + b"9" * 4400 + b"}}")),
        "r.json:2",
        "4,300 digits",
    ),
    Case(
        "huge-integer-verdict",
        lambda w: w.report(
            "--verdicts", w.file("v.jsonl", b'{"id": "q1", "correct": ' + b"1" * 4301 + b"}\n")
        ),
        "v.jsonl:1",
        "4,300 digits",
    ),
    # NaN and infinity never reach report.json
    *[
        Case(
            f"verdict-threshold-{value}",
            lambda w, value=value: w.report(
                "--verdicts",
                w.file("ragas.csv", b"id,faithfulness\nq1,0.9\nq2,0.1\n"),
                "--verdict-metric",
                "faithfulness",
                "--verdict-threshold",
                value,
            ),
            "--verdict-threshold",
            "not a finite number",
        )
        for value in ("nan", "inf", "-inf", "1e400")
    ],
    *[
        Case(
            f"trec-eval-shard-{value}",
            lambda w, value=value: w.merge(_trec_eval(w, value)),
            "out.txt:2",
            "NaN or infinite",
        )
        for value in ("nan", "inf", "-inf", "1e400", "NaN")
    ],
    *[
        Case(
            f"shard-per-question-csv-{value}",
            lambda w, value=value: w.merge(_per_question_csv(w, value)),
            "per_question.csv:3",
            "NaN or infinite",
        )
        for value in ("NaN", "inf", "-Infinity", "1e400")
    ],
    *[
        Case(
            f"shard-per-question-parquet-{value}",
            lambda w, value=value: w.merge(_per_question_parquet(w, value)),
            "per_question.parquet",
            "in row 2",
        )
        for value in (float("nan"), float("inf"))
    ],
    Case(
        "baseline-per-question-nan",
        lambda w: w.report("--baseline", _baseline_with(w, _nan_per_question(w), None)),
        "per_question.csv:2",
        "NaN or infinite",
    ),
    Case(
        "baseline-report-nan",
        lambda w: w.report("--baseline", _baseline_with(w, None, _report_with(w, "NaN"))),
        "report.json:",
        "NaN or infinite",
    ),
    Case(
        "baseline-report-overflow",
        lambda w: w.report("--baseline", _baseline_with(w, None, _report_with(w, "-1e999"))),
        "report.json:",
        "NaN or infinite",
    ),
    Case(
        "ranx-run-infinity",
        lambda w: w.report(run=w.file("r.json", b'{"q1": {"c1": 1},\n "q2": {"c2": Infinity}}')),
        "r.json:2",
        "NaN or infinite",
    ),
    Case(
        "ranx-run-overflow",
        lambda w: w.report(run=w.file("r.json", b'{"q1": {"c1": 1},\n "q2": {"c2": 1e400}}')),
        "r.json:2",
        "NaN or infinite",
    ),
    # where: Parquet, empty verdicts, JSON paths printed once
    Case(
        "nan-in-history-jsonl",
        lambda w: (
            shutil.copytree(w.out, w.root / "site" / "v1"),
            (w.root / "site" / "history.jsonl").write_bytes(
                b'{"version": "v1", "created": "2026-01-01T00:00:00Z", "path": "v1",'
                b' "means": NaN}\n'
            ),
            w.report("--baseline", str(w.root / "site")),
        )[-1],
        "history.jsonl:1",
        "NaN or infinite",
    ),
    Case(
        "parquet-run-truncated",
        lambda w: w.report(run=w.file("r.parquet", b"PAR1\x00\x00garbage")),
        "r.parquet",
        "not a readable Parquet file",
    ),
    Case(
        "verdicts-empty-jsonl",
        lambda w: w.report("--verdicts", w.file("v.jsonl", b"")),
        "v.jsonl:1",
        "no verdicts",
    ),
    Case(
        "verdicts-empty-promptfoo",
        lambda w: w.report("--verdicts", _promptfoo(w, [])),
        "results.json",
        "no verdicts in results.results",
    ),
    Case(
        "promptfoo-path-once",
        lambda w: w.report("--verdicts", _promptfoo(w, [{"vars": {"id": "q1"}}])),
        "results.json",
        "results.results[0]: no success",
    ),
    Case(
        "toml-syntax-names-the-line",
        lambda w: w.report(
            "--config",
            w.file("bad.toml", b'[tool.reportgen]\nmin = [\n  "recall@5=0.8"\n  "x"\n]\n'),
        ),
        "bad.toml:4",
        "not valid TOML (unclosed array at column 3)",
    ),
    Case(
        "toml-huge-integer",
        lambda w: w.report("--config", w.file("big.toml", b"a = 1\nx = " + b"1" * 5000 + b"\n")),
        "big.toml:2",
        "4,300 digits",
    ),
    # what else a hostile user tries against the loaders
    Case(
        "gzip-given-as-jsonl",
        lambda w: w.report(run=w.file("r.jsonl", b"\x1f\x8b\x08\x00" + b"\x00" * 16)),
        "r.jsonl:1",
        "not UTF-8",
    ),
    Case(
        "nul-bytes-line",
        lambda w: w.report(gold=w.file("g.jsonl", GOOD_GOLD + b"\x00\x00\x00\n")),
        "g.jsonl:3",
        "not valid JSON",
    ),
    Case(
        "huge-line-id",
        lambda w: w.report(
            gold=w.file("g.jsonl", b'{"id": "' + b"q" * 2_000_000 + b'", "gold": ["c1"]}\n')
        ),
        "g.jsonl:1",
        "characters long",
    ),
    Case(
        "utf16-gold",
        lambda w: w.report(gold=w.file("g.jsonl", GOOD_GOLD.decode().encode("utf-16"))),
        "g.jsonl:1",
        "not UTF-8",
    ),
    Case(
        "misspelt-gold-key-leaves-no-gold",
        lambda w: w.report(gold=w.file("g.jsonl", b'{"id": "q1", "golds": ["c1"]}\n')),
        "g.jsonl:1",
        'did you mean "gold"',
    ),
    Case(
        "nul-in-a-csv-gold-chunk",
        lambda w: w.report(gold=w.file("g.csv", b"id,chunk_id\nq1,c1\nq2,c\x002\n")),
        "g.csv:3",
        "control character",
    ),
    Case(
        "megabyte-value-is-quoted-short",
        lambda w: w.report(gold=w.file("g.qrels", b"q1 0 c1 " + b"9" * 1_000_000 + b"\n")),
        "g.qrels:1",
        "characters)...",
    ),
    Case(
        "out-is-a-dangling-symlink",
        lambda w: (
            os.symlink(w.root / "nowhere", w.root / "dangling"),
            ["report", str(w.gold), f"r={w.run}", "--out", str(w.root / "dangling"), "-q"],
        )[-1],
        "dangling",
        "symbolic link to nothing",
    ),
    *[
        Case(
            f"cr-only-line-endings-{name}",
            lambda w, name=name, content=content: w.report(gold=w.file(name, content)),
            f"{name}:1",
            "carriage return alone",
        )
        for name, content in (
            ("g.jsonl", GOOD_GOLD.replace(b"\n", b"\r")),
            ("g.qrels", b"q1 0 c1 1\rq2 0 c2 1\r"),
        )
    ],
    Case(
        "control-characters-in-a-file-name",
        lambda w: w.report(gold=w.file("g\n\x1b[31m.jsonl", b"{oops\n")),
        "g\\n\\x1b[31m.jsonl:1",
        "not valid JSON",
    ),
]


def _run(case_args: list[str], process: bool, cwd: Path) -> Outcome:
    if process:
        return run_process(case_args, cwd=cwd, timeout=60)
    return run_cli(case_args, cwd=cwd)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One good run's inputs and report, copied into each case (a report costs ~1 s)."""
    root = tmp_path_factory.mktemp("template")
    previous_report(root)
    return root


@pytest.fixture
def world(template: Path, tmp_path: Path) -> World:
    for name in ("inputs", "out"):
        shutil.copytree(template / name, tmp_path / name)
    return World(tmp_path, tmp_path / "out")


def test_the_corpus_names_each_case_once() -> None:
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
    assert len(CASES) >= 70


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(
            case,
            id=case.id,
            marks=[
                *([pytest.mark.slow] if case.slow else []),
                # a baseline's report.json, broken by hand
                *([pytest.mark.hand_made_reports] if case.id.startswith("baseline-report") else []),
            ],
        )
        for case in CASES
    ],
)
def test_hostile_case_is_a_clean_error_and_keeps_the_report(case: Case, world: World) -> None:
    if case.id == "out-under-sys" and not Path("/sys/kernel").is_dir():
        pytest.skip("no /sys here")
    args = case.args(world)
    before = snapshot(world.out)
    outcome = _run(args, case.process, world.root)
    assert_clean_failure(outcome, 2, case.where, case.problem)
    assert snapshot(world.out) == before


# ---- cases that are not errors: odd names are read, and shown with U+FFFD


@pytest.mark.slow
def test_a_run_file_whose_name_is_not_utf8_is_read_and_shown(world: World) -> None:
    trec = b"q1 Q0 c1 1 2.0 t\nq1 Q0 c2 2 1.0 t\nq2 Q0 c2 1 1.0 t\n"
    parquet = world.root / "p.parquet"
    pl.DataFrame(
        {"qid": ["q1", "q2"], "chunk_id": ["c1", "c2"], "score": [1.0, 1.0]}
    ).write_parquet(parquet)
    odd_parquet = os.path.join(os.fsencode(world.root), b"p\xe9.parquet")
    os.rename(parquet, odd_parquet)
    odd_trec = world.file(b"r\xe9.trec", trec)
    out = world.root / f"o{E_ACUTE}"
    runs = [odd_trec, f"n{E_ACUTE}={os.fsdecode(odd_parquet)}"]
    strict = {"PYTHONIOENCODING": "utf-8:strict"}  # as in a UTF-8 locale other than C
    outcome = run_process(
        ["report", str(world.gold), *runs, "--out", str(out)], cwd=world.root, env=strict
    )
    assert outcome.code == 0, outcome.stderr
    assert f"Wrote {world.root}/o\ufffd/" in outcome.stdout
    report = json.loads((out / "report.json").read_bytes().decode("utf-8"))
    assert list(report["runs"]) == ["r\ufffd", "n\ufffd"]
    assert "r\ufffd" in outcome.stdout and "n\ufffd" in outcome.stdout
    for page in ("index.html", "report.md"):
        assert "r\ufffd" in (out / page).read_text(encoding="utf-8")
    site = world.root / f"s{E_ACUTE}"
    published = run_process(["publish", str(out), "--site", str(site)], cwd=world.root, env=strict)
    assert published.code == 0, published.stderr
    assert "s\ufffd" in published.stdout


def test_a_long_run_name_with_a_short_path_is_a_name_not_a_path(world: World) -> None:
    out = world.root / "long"
    outcome = run_cli(["report", str(world.gold), f"{LONG}={world.run}", "--out", str(out), "-q"])
    assert outcome.code == 0, outcome.stderr
    assert list(json.loads((out / "report.json").read_text())["runs"]) == [LONG]


@pytest.mark.parametrize(
    "name", ["run[1].jsonl", "*.jsonl", "r?n.jsonl", "run{a,b}.jsonl", "r=un.jsonl"]
)
def test_glob_characters_in_a_name_are_the_name(name: str, world: World) -> None:
    path = world.root / name
    shutil.copyfile(world.run, path)
    (world.root / "decoy.jsonl").write_bytes(b"not json\n")
    out = world.root / "globbed"
    outcome = run_cli(["report", str(world.gold), str(path), "--out", str(out), "-q"])
    assert outcome.code == 0, outcome.stderr


def test_bom_and_crlf_are_read_as_plain_lines(world: World) -> None:
    gold = world.file("g.jsonl", b"\xef\xbb\xbf" + GOOD_GOLD.replace(b"\n", b"\r\n"))
    run = world.file("r.jsonl", b"\xef\xbb\xbf" + GOOD_RUN.replace(b"\n", b"\r\n"))
    out = world.root / "crlf"
    assert run_cli(["report", gold, f"r={run}", "--out", str(out), "-q"]).code == 0
    assert snapshot(out)["report.json"].count(b"recall@5") > 0


def test_a_misspelt_gold_key_is_a_warning_naming_the_closest_key(world: World) -> None:
    gold = world.file(
        "g.jsonl",
        b'{"id": "q1", "gold": ["c1"], "knd": "x", "answer": "kept"}\n'
        b'{"id": "q2", "gold": ["c2"], "questoin": "y"}\n',
    )
    out = world.root / "warned"
    outcome = run_cli(["report", gold, f"r={world.run}", "--out", str(out)])
    assert outcome.code == 0, outcome.stderr
    (warning,) = [
        w
        for w in json.loads((out / "report.json").read_text())["warnings"]
        if w["code"] == "misspelt_gold_keys"
    ]
    assert '"knd" (line 1, 1 record(s)): did you mean "kind"?' in warning["message"]
    assert '"questoin" (line 2, 1 record(s)): did you mean "question"?' in warning["message"]
    assert "answer" not in warning["message"], "a key unlike any known one is data, kept quietly"
    assert 'did you mean "kind"' in outcome.stdout


# ---- the operating system refuses: permissions and a full disk, in a real process


def _probe(prefix: list[str], target: Path) -> bool:
    """Whether a child started with ``prefix`` is refused reading ``target`` (mode 000)."""
    done = subprocess.run(
        [*prefix, sys.executable, "-c", f"open({str(target)!r}).read()"],
        capture_output=True,
        check=False,
    )
    return b"PermissionError" in done.stderr


@pytest.fixture
def unprivileged(tmp_path: Path) -> list[str]:
    """A command prefix under which permissions hold (root bypasses them otherwise)."""
    target = tmp_path / "probe"
    target.write_bytes(b"x")
    target.chmod(0)
    if os.geteuid() != 0:
        return []
    caps = "-dac_override,-dac_read_search"
    prefix = ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", "--"]
    if shutil.which("setpriv") is None or not _probe(prefix, target):
        pytest.skip("running as root, and setpriv cannot drop CAP_DAC_OVERRIDE here")
    return prefix


def _read_only(path: Path) -> None:
    path.chmod(stat.S_IRUSR | stat.S_IXUSR)


@dataclass(frozen=True)
class Denied:
    id: str
    setup: Callable[[World], list[str]]
    where: str
    problem: str
    slow: bool = False


DENIED = [
    Denied("read-only-out", lambda w: (_read_only(w.out), w.report())[-1], "out", "permission"),
    Denied(
        "read-only-out-charts",
        lambda w: (_read_only(w.out / "charts"), w.report(charts=True))[-1],
        "out/charts",
        "permission denied",
    ),
    Denied(
        "read-only-parent-of-new-out",
        lambda w: (
            _read_only(w.root / "inputs"),
            ["report", str(w.gold), f"r={w.run}", "--out", str(w.root / "inputs" / "new"), "-q"],
        )[-1],
        "inputs/new",
        "permission denied",
        slow=True,
    ),
    # An unreadable GOLD, --manifest or --baseline that can be stat'ed is refused by
    # Click's own check before reportgen runs (its message is cli.py's to word).
    Denied(
        "unreadable-run",
        lambda w: (w.run.chmod(0), w.report())[-1],
        "run.jsonl",
        "permission denied",
        slow=True,
    ),
    Denied(
        "gold-in-a-folder-that-cannot-be-entered",
        lambda w: (
            (w.root / "locked").mkdir(),
            shutil.copyfile(w.gold, w.root / "locked" / "gold.jsonl"),
            (w.root / "locked").chmod(0),
            w.report(gold=str(w.root / "locked" / "gold.jsonl")),
        )[-1],
        "locked/gold.jsonl",
        "permission denied",
    ),
    Denied(
        "baseline-in-a-folder-that-cannot-be-entered",
        lambda w: (
            shutil.copytree(w.out, w.root / "locked" / "base"),
            (w.root / "locked").chmod(0),
            w.report("--baseline", str(w.root / "locked" / "base")),
        )[-1],
        "locked/base",
        "permission denied",
        slow=True,
    ),
    Denied(
        "unreadable-shard",
        lambda w: (
            shutil.copytree(w.out, w.root / "shard"),
            (w.root / "shard" / "per_question.csv").chmod(0),
            w.merge(str(w.root / "shard")),
        )[-1],
        "per_question.csv",
        "permission denied",
        slow=True,
    ),
]


def _restore_modes(root: Path) -> None:
    """Modes that let the snapshot and pytest's clean-up in again."""
    for folder in [root, *(p for p in root.rglob("*") if p.is_dir())]:
        folder.chmod(0o700)
        for path in folder.iterdir():
            if not path.is_dir():
                path.chmod(0o600)


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(case, id=case.id, marks=[pytest.mark.slow] if case.slow else [])
        for case in DENIED
    ],
)
def test_permission_denied_is_a_clean_error(
    case: Denied, world: World, unprivileged: list[str]
) -> None:
    args = case.setup(world)
    before = snapshot(world.out) if os.access(world.out, os.R_OK | os.X_OK) else None
    try:
        outcome = run_process(args, cwd=world.root, prefix=unprivileged)
    finally:
        _restore_modes(world.root)
    assert_clean_failure(outcome, 2, case.where, case.problem)
    if before is not None:
        assert snapshot(world.out) == before


def test_a_read_only_site_is_a_clean_error(world: World, unprivileged: list[str]) -> None:
    site = world.root / "site"
    assert run_cli(["publish", str(world.out), "--site", str(site), "-q"]).code == 0
    before = snapshot(site)
    _read_only(site)
    try:
        outcome = run_process(
            ["publish", str(world.out), "--site", str(site), "-q"],
            cwd=world.root,
            prefix=unprivileged,
        )
    finally:
        site.chmod(0o700)
    assert_clean_failure(outcome, 2, "site", "permission denied")
    assert "--site" in outcome.error_line
    assert snapshot(site) == before


def test_a_full_disk_is_a_clean_error(world: World) -> None:
    """A file-size limit makes writes fail as a full disk does (EFBIG; CPython ignores
    SIGXFSZ), after part of a file is written: nothing of the old report is lost."""
    if shutil.which("prlimit") is None:
        pytest.skip("prlimit (util-linux) is not installed")
    before = snapshot(world.out)
    outcome = run_process(
        world.report(charts=True), cwd=world.root, prefix=["prlimit", "--fsize=2000", "--"]
    )
    assert_clean_failure(outcome, 2, "out", "file too large")
    assert "ulimit -f" in outcome.error_line
    assert snapshot(world.out) == before
    assert not [p for p in world.out.rglob("*.tmp")], "no temporary file is left behind"


@pytest.mark.parametrize(
    ("code", "problem"),
    [
        (errno.ENOSPC, "no space left on the device"),
        (errno.EDQUOT, "disk quota exceeded"),
        (errno.EROFS, "the file system is read-only"),
        (errno.EIO, "input/output error"),
    ],
)
def test_a_disk_that_refuses_writes_is_a_clean_error(
    code: int, problem: str, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The refusals a test cannot provoke for real here (no small or read-only file
    system to mount): the disk says no when the written files are synced."""

    def refuse(descriptor: int) -> None:
        raise OSError(code, os.strerror(code))

    before = snapshot(world.out)
    monkeypatch.setattr(os, "fsync", refuse)
    outcome = run_cli(world.report())
    monkeypatch.undo()
    assert_clean_failure(outcome, 2, "out", problem)
    assert "--out" in outcome.error_line
    assert snapshot(world.out) == before


def test_a_job_summary_that_cannot_be_written_is_a_warning(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The report is written by then: as when GITHUB_STEP_SUMMARY is unset, a warning."""
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(world.gold / "summary.md"))
    outcome = run_cli([*world.report(charts=True), "--github-summary"])
    assert outcome.code == 0, outcome.stderr
    assert "Traceback" not in outcome.stderr
    assert "gold.jsonl/summary.md: a part of the path is a file, not a folder" in outcome.stderr
