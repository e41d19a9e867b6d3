"""Every malformed input through the CLI: exit 2, ``path:line: problem. Fix: ...``, no traceback.

The loaders' own tests (tests/load/) check each reader's messages in detail; this
corpus checks the promise end to end, for every kind of input file at once.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import cli

REPO = Path(__file__).resolve().parents[2]
GOOD_GOLD = b'{"id": "q1", "gold": ["c1"]}\n{"id": "q2", "gold": ["c2"]}\n'
GOOD_RUN = b'{"id": "q1", "chunks": ["c1", "c2"]}\n{"id": "q2", "chunks": ["c2"]}\n'
LONG = "c" * 600


@dataclass(frozen=True)
class Case:
    id: str
    role: str  # which input is broken: gold, run or manifest
    name: str
    content: bytes | None  # None: a directory stands where the file should be
    line: int | None
    problem: str


def _jsonl(*records: object) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


CORPUS = [
    # gold sets
    Case("gold-empty", "gold", "gold.jsonl", b"", 1, "no questions"),
    Case(
        "gold-truncated",
        "gold",
        "gold.jsonl",
        b'{"id": "q1", "gold": ["c1"]}\n{"id": "q2", "go',
        2,
        "not valid JSON",
    ),
    Case(
        "gold-array-line",
        "gold",
        "gold.jsonl",
        b'{"id": "q1", "gold": ["c1"]}\n[1, 2]\n',
        2,
        "a JSON array",
    ),
    Case(
        "gold-id-list",
        "gold",
        "gold.jsonl",
        _jsonl({"id": ["q1"], "gold": ["c1"]}),
        1,
        "question id is a JSON array",
    ),
    Case(
        "gold-grade-text",
        "gold",
        "gold.jsonl",
        _jsonl({"id": "q1", "gold": {"c1": "high"}}),
        1,
        "not an integer",
    ),
    Case(
        "gold-flag-text",
        "gold",
        "gold.jsonl",
        _jsonl({"id": "q1", "gold": [], "unanswerable": "yes"}),
        1,
        "unanswerable is not",
    ),
    Case(
        "gold-duplicate-id",
        "gold",
        "gold.jsonl",
        GOOD_GOLD + b'{"id": "q1", "gold": ["c9"]}\n',
        3,
        "also on line 1",
    ),
    Case(
        "gold-not-utf8",
        "gold",
        "gold.jsonl",
        b'{"id": "q1", "gold": ["c1"]}\n{"id": "q\xff\xfe"}\n',
        2,
        "not UTF-8",
    ),
    Case(
        "gold-bom-crlf-duplicate",
        "gold",
        "gold.jsonl",
        b'\xef\xbb\xbf{"id": "q1", "gold": ["c1"]}\r\n{"id": "q1", "gold": ["c1"]}\r\n',
        2,
        "also on line 1",
    ),
    Case(
        "gold-qrels-crlf-grade", "gold", "gold.qrels", b"q1 0 c1 1\r\nq2 0 c2 x\r\n", 2, "grade 'x'"
    ),
    Case("gold-qrels-columns", "gold", "gold.qrels", b"q1 0 c1 1 extra\n", 1, "5 columns"),
    Case(
        "gold-long-id",
        "gold",
        "gold.jsonl",
        _jsonl({"id": "q1", "gold": [LONG]}),
        1,
        "600 characters",
    ),
    Case(
        "gold-control-char",
        "gold",
        "gold.jsonl",
        _jsonl({"id": "q\u0007", "gold": ["c1"]}),
        1,
        "control character",
    ),
    Case(
        "gold-csv-no-chunk", "gold", "gold.csv", b"id,question\nq1,hi\n", 1, "no 'chunk_id' column"
    ),
    Case("gold-csv-open-quote", "gold", "gold.csv", b'id,chunk_id\nq1,"c1\n', 2, "not valid CSV"),
    Case(
        "gold-forbidden-type",
        "gold",
        "gold.jsonl",
        _jsonl({"id": "q1", "gold": ["c1"], "forbidden": 3}),
        1,
        "forbidden is a JSON number",
    ),
    Case("gold-directory", "gold", "gold.jsonl", None, None, "a directory"),
    # runs
    Case("run-empty", "run", "run.jsonl", b"", 1, "no results"),
    Case("run-only-blank-crlf", "run", "run.trec", b"\r\n\r\n", 1, "no results"),
    Case("run-truncated", "run", "run.jsonl", GOOD_RUN[:-9], 2, "not valid JSON"),
    Case(
        "run-nan",
        "run",
        "run.jsonl",
        b'{"id": "q1", "chunks": ["c1"], "scores": [NaN]}\n',
        1,
        "NaN or infinite",
    ),
    Case(
        "run-infinite-trec",
        "run",
        "run.trec",
        b"q1 Q0 c1 1 2.0 t\nq1 Q0 c2 2 inf t\n",
        2,
        "NaN or infinite",
    ),
    Case(
        "run-negative-rank",
        "run",
        "run.csv",
        b"id,chunk_id,rank\nq1,c1,1\nq1,c2,-1\n",
        3,
        "rank below 1",
    ),
    Case(
        "run-duplicate-rank",
        "run",
        "run.csv",
        b"id,chunk_id,rank\nq1,c1,1\nq1,c2,1\n",
        3,
        "rank 1 here and on line 2",
    ),
    Case(
        "run-fractional-rank",
        "run",
        "run.csv",
        b"id,chunk_id,rank\nq1,c1,1.5\n",
        2,
        "not a whole number",
    ),
    Case("run-score-text", "run", "run.trec", b"q1 Q0 c1 1 high t\n", 1, "score 'high'"),
    Case("run-trec-columns", "run", "run.trec", b"q1 Q0 c1 1 0.5 t\nq2 Q0 c2\n", 2, "3 columns"),
    Case(
        "run-scores-length",
        "run",
        "run.jsonl",
        b'{"id": "q1", "chunks": ["c1", "c2"], "scores": [1]}\n',
        1,
        "as long as chunks",
    ),
    Case(
        "run-not-utf8",
        "run",
        "run.trec",
        b"q1 Q0 c1 1 0.5 t\nq2 Q0 c\xe92 1 0.5 t\n",
        2,
        "not UTF-8",
    ),
    Case("run-long-id", "run", "run.trec", f"q1 Q0 {LONG} 1 0.5 t\n".encode(), 1, "600 characters"),
    Case(
        "run-null-chunk",
        "run",
        "run.jsonl",
        b'{"id": "q1", "results": [{"chunk_id": null}]}\n',
        1,
        "chunk id is a JSON null",
    ),
    Case(
        "run-half-scored",
        "run",
        "run.csv",
        b"id,chunk_id,score\nq1,c1,0.5\nq1,c2,\n",
        3,
        "no score here",
    ),
    Case("run-ranx-score-text", "run", "run.json", b'{"q1": {"c1": "0.5"}}', 1, "score '0.5'"),
    Case(
        "run-bad-parquet",
        "run",
        "run.parquet",
        b"PAR1 but not really",
        None,
        "not a readable Parquet",
    ),
    Case(
        "run-no-shared-question",
        "run",
        "run.jsonl",
        b'{"id": "1", "chunks": ["c1"]}\n',
        1,
        "shares no question",
    ),
    Case(
        "run-newline-in-quoted-id",
        "run",
        "run.csv",
        b'id,chunk_id\nq1,c1\nq1,"multi\nline"\n',
        3,
        "control character",
    ),
    Case("run-directory", "run", "run.jsonl", None, None, "a directory"),
    # manifests
    Case("manifest-empty", "manifest", "manifest.txt", b"", 1, "no chunk ids"),
    Case(
        "manifest-duplicate", "manifest", "manifest.txt", b"c1\r\nc2\r\nc1\r\n", 3, "also on line 1"
    ),
    Case(
        "manifest-two-fields",
        "manifest",
        "manifest.txt",
        b"\xef\xbb\xbfc1\nc2 public\n",
        2,
        "more than one field",
    ),
    Case(
        "manifest-bad-date",
        "manifest",
        "manifest.jsonl",
        _jsonl({"chunk_id": "c1", "valid_to": "31/12/2026"}),
        1,
        "not a date",
    ),
    Case("manifest-not-utf8", "manifest", "manifest.txt", b"c1\n\xff\n", 2, "not UTF-8"),
    Case("manifest-directory", "manifest", "manifest.txt", None, None, "a directory"),
]


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 30
    assert len({case.id for case in CORPUS}) == len(CORPUS)


def _inputs(case: Case, folder: Path) -> tuple[list[str], Path]:
    """CLI arguments with the broken file in its role and good files elsewhere."""
    paths = {"gold": folder / "gold.jsonl", "run": folder / "run.jsonl"}
    paths["gold"].write_bytes(GOOD_GOLD)
    paths["run"].write_bytes(GOOD_RUN)
    broken = folder / "broken" / case.name
    broken.parent.mkdir()
    if case.content is None:
        broken.mkdir()
    else:
        broken.write_bytes(case.content)
    paths[case.role] = broken
    args = ["report", str(paths["gold"]), f"r={paths['run']}", "--out", str(folder / "out")]
    if case.role == "manifest":
        args += ["--manifest", str(broken)]
    return args, broken


def _expected(case: Case, broken: Path) -> re.Pattern[str]:
    where = re.escape(str(broken)) + ("" if case.line is None else f":{case.line}")
    return re.compile(rf"^Error: {where}: [^\n]*{re.escape(case.problem)}[^\n]*\. Fix: [^\n]+\.$")


@pytest.mark.parametrize("case", CORPUS, ids=[case.id for case in CORPUS])
def test_malformed_input_is_exit_2_with_path_line_and_fix(case: Case, tmp_path: Path) -> None:
    args, broken = _inputs(case, tmp_path)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    message = result.stderr.strip()
    assert _expected(case, broken).match(message), message
    assert "Traceback" not in result.output
    assert not (tmp_path / "out").exists(), "nothing is written when an input is bad"


@pytest.mark.parametrize("case_id", ["gold-not-utf8", "run-nan", "manifest-duplicate"])
def test_a_real_process_prints_no_traceback(case_id: str, tmp_path: Path) -> None:
    case = next(c for c in CORPUS if c.id == case_id)
    args, broken = _inputs(case, tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "reportgen", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert _expected(case, broken).match(done.stderr.strip()), done.stderr
