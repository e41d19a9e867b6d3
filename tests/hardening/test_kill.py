"""SIGKILL a report at random moments: the previous output stays complete and valid.

Every file is staged and synced before any is renamed, so a kill leaves each file
whole, old or new, and never a truncated one; the next run clears our leftovers.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

REPO = Path(__file__).resolve().parents[2]
QUESTIONS = 1500
DEPTH = 40
OUTPUTS = {"report.json", "index.html", "report.md", "summary.md", "per_question.csv", "charts"}


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A gold set and run big enough that writing takes a noticeable part of the run."""
    folder = tmp_path_factory.mktemp("kill-inputs")
    gold, run = folder / "gold.jsonl", folder / "run.jsonl"
    gold.write_text(
        "".join(json.dumps({"id": f"q{i}", "gold": [f"c{i}"]}) + "\n" for i in range(QUESTIONS))
    )
    run.write_text(
        "".join(
            json.dumps({"id": f"q{i}", "chunks": [f"c{(i + j) % 5000}" for j in range(DEPTH)]})
            + "\n"
            for i in range(QUESTIONS)
        )
    )
    return gold, run


def _command(inputs: tuple[Path, Path], out: Path, version: str) -> list[str]:
    gold, run = inputs
    return [
        *(sys.executable, "-m", "reportgen", "report", str(gold), f"r={run}"),
        *("--out", str(out), "--version", version, "-q"),
    ]


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "SOURCE_DATE_EPOCH": "1767225600"}


def _versions(out: Path) -> dict[str, str]:
    """Each output file checked whole; the version label it carries."""
    report = json.loads((out / "report.json").read_text())
    html = (out / "index.html").read_text()
    markdown = (out / "report.md").read_text()
    assert html.rstrip().endswith("</html>")
    assert markdown.startswith("# Retrieval report ") and "## Glossary" in markdown
    frame = pl.read_csv(out / "per_question.csv")
    assert frame.columns[:4] == ["run", "qid", "kind", "status"]
    # 6 measures at k = 1, 3, 5, 10, 3 whole-list ones, and judged@k and hole@k at each k
    assert len(frame.columns) == 4 + 27 + 8
    assert frame.height == QUESTIONS
    return {
        "report.json": report["version"],
        "index.html": html.split('<span class="version">', 1)[1].split("<", 1)[0],
        "report.md": markdown.split("\n", 1)[0].removeprefix("# Retrieval report "),
    }


def _staged(out: Path) -> set[str]:
    return {entry.name for entry in os.scandir(out) if entry.name.endswith(".tmp")}


def _kill_while_writing(process: subprocess.Popen[bytes], out: Path, delay: float) -> bool:
    """Kill ``delay`` seconds after the first staged file appears; False if none did."""
    earlier = _staged(out)  # leftovers of earlier kills, cleared by this run
    while process.poll() is None:
        if _staged(out) - earlier:
            time.sleep(delay)
            process.send_signal(signal.SIGKILL)
            return True
        time.sleep(0.0005)
    return False


def _trials(
    inputs: tuple[Path, Path], tmp_path: Path, moments: list[float], *, require_hit: bool
) -> None:
    """A kill at each moment: >= 0 a fraction of a run's time, < 0 that many seconds
    (negated) after the first file is staged, the window where files are replaced.

    Whether a kill lands inside that short window depends on the machine's load, so
    only the many-trial run requires that one did."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("not reportgen's")
    subprocess.run(_command(inputs, out, "v0"), env=_env(), check=True, timeout=120)
    started = time.monotonic()
    subprocess.run(_command(inputs, out, "warm"), env=_env(), check=True, timeout=120)
    duration = time.monotonic() - started
    outcomes = set()
    for trial, moment in enumerate(moments, start=1):
        process = subprocess.Popen(_command(inputs, out, f"v{trial}"), env=_env())
        if moment < 0:
            outcomes.add(_kill_while_writing(process, out, -moment))
        else:
            time.sleep(moment * duration)
            process.send_signal(signal.SIGKILL)
        process.wait(timeout=60)
        versions = _versions(out)
        assert set(versions.values()) <= {"warm", *(f"v{i}" for i in range(trial + 1))}
        assert {p.name for p in out.iterdir() if not p.name.startswith(".")} == {
            *OUTPUTS, "mine.txt"
        }  # fmt: skip
    assert True in outcomes or not require_hit, "no kill hit the writing"
    assert (out / "mine.txt").read_text() == "not reportgen's"
    subprocess.run(_command(inputs, out, "final"), env=_env(), check=True, timeout=120)
    assert set(_versions(out).values()) == {"final"}
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.slow
def test_kills_while_writing_leave_whole_files(inputs: tuple[Path, Path], tmp_path: Path) -> None:
    _trials(inputs, tmp_path, [-0.0, -0.002, 0.8], require_hit=False)


@pytest.mark.slow
def test_kills_at_random_moments_leave_whole_files(
    inputs: tuple[Path, Path], tmp_path: Path
) -> None:
    rng = random.Random(20261130)
    moments = [rng.uniform(0.2, 1.1) for _ in range(20)] + [
        -rng.uniform(0, 0.03) for _ in range(20)
    ]
    _trials(inputs, tmp_path, moments, require_hit=True)
