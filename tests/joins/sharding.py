"""The sharded way in: `reportgen shard`, `reportgen report` on each shard (the line
shards.json gives), `reportgen merge`; as a user's shell runs them, or in-process."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import cli
from tests.joins import writers as w
from tests.joins.dataset import RUNS, DataSet
from tests.joins.paths import Options, Outcome


def reportgen(args: list[str], cwd: Path, subprocess_: bool) -> tuple[int, str]:
    """(exit code, output) of one command, in a real process or click's runner."""
    if subprocess_:
        env = {**os.environ, "GIT_DIR": "/dev/null"}
        done = subprocess.run(
            [sys.executable, "-m", "reportgen", *args, "-q"],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        return done.returncode, done.stdout + done.stderr
    previous = Path.cwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(cli, [*args, "-q"])
    finally:
        os.chdir(previous)
    return result.exit_code, result.output


RUN_WRITERS = {
    "trec": w.run_trec,
    "jsonl": w.run_jsonl,
    "csv": w.run_csv,
    "parquet": w.run_parquet,
    "json": w.run_ranx,
}
"""The run formats `reportgen shard` cuts (trace files and span exports it refuses)."""


@dataclass(frozen=True)
class Sharding:
    shards: int = 2
    runs: str = "trec"
    """The runs' format, a suffix of RUN_WRITERS."""
    merge_data: bool = True
    subprocess: bool = False
    last_shard_extra: tuple[str, ...] = ()
    """More options for the last shard only (a shard measured differently)."""
    per_question: str = "csv"
    """--per-question-format of the shards (what merge reads back)."""
    measured: tuple[int, ...] | None = None
    """The shards measured and merged (None: all): one left out is a missing shard."""
    verdicts_run_on_merge: bool = True
    """Give merge --verdicts-run too (else only the shards are told). Never given to shards
    without merge/, nor --chunks: neither has anything to act on there (test_refusals)."""
    merge_extra: tuple[str, ...] = ()
    """More options for merge (paths relative to the data set's folder)."""
    merge_chunk_every: int | None = None
    """The chunk map merge is given keeps one chunk in n (None: the shards' map)."""


def measure_options(options: Options, root: Path) -> list[str]:
    """What every shard is measured with: all of the report's options."""
    return options.cli(root)


def sharded(data: DataSet, root: Path, options: Options, how: Sharding) -> Outcome:
    """Cut the plain path's files, measure each shard, merge: the merged report.json, or
    the refusal of the step that refused."""
    root.mkdir(parents=True, exist_ok=True)
    gold = w.gold_jsonl(data, root / "gold.jsonl", evidence=options.chunks)
    if options.chunks:
        w.chunk_map_csv(data, root / "chunks.csv", options.chunk_every)
        w.chunk_map_csv(
            data, root / "chunks-merge.csv", how.merge_chunk_every or options.chunk_every
        )
        w.docs_folder(data, root / "docs")
    runs = [f"{name}=runs/{name}.{how.runs}" for name in RUNS]
    for name in RUNS:
        RUN_WRITERS[how.runs](data, name, root / "runs" / f"{name}.{how.runs}")
    w.verdicts_jsonl(data, root / "verdicts.jsonl")
    cut = [gold.name, *runs, "--verdicts", "verdicts.jsonl", "--shards", str(how.shards)]
    code, output = reportgen(["shard", *cut, "--out", "shards"], root, how.subprocess)
    if code != 0:
        return Outcome(None, code, output)
    plan = json.loads((root / "shards" / "shards.json").read_text())
    outs = []
    for i, folder in enumerate(plan["folders"]):
        if how.measured is not None and i not in how.measured:
            continue
        out = root / "outs" / folder
        line = shlex.split(plan["measure"].replace("OUT", str(out)))
        if not how.merge_data:
            line.remove("--merge-data")
        args = [*line[2:], *measure_options(options, root), "--format", "json"]
        args += ["--per-question-format", how.per_question]
        args += list(how.last_shard_extra) if i == len(plan["folders"]) - 1 else []
        code, output = reportgen(["report", *args], root / "shards" / folder, how.subprocess)
        if code not in (0, 1):
            return Outcome(None, code, output)
        outs.append(str(out))
    merge = ["merge", *outs, "--out", str(root / "merged")]
    if options.verdicts_run is not None and how.verdicts_run_on_merge and how.merge_data:
        merge += ["--verdicts-run", options.verdicts_run]
    if options.chunks and how.merge_data:
        merge += ["--chunks", str(root / "chunks-merge.csv"), "--docs", str(root / "docs")]
    code, output = reportgen([*merge, *how.merge_extra], root, how.subprocess)
    if code not in (0, 1):
        return Outcome(None, code, output)
    report = json.loads((root / "merged" / "report.json").read_text())
    return Outcome(report, code, output)
