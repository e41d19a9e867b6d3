"""reportgen against pytrec_eval and ranx, side by side, whole processes from files to output.

    python benchmarks/run.py                  # every scenario, 5 repetitions (~5 min)
    python benchmarks/run.py --quick          # 1M rows only, 3 repetitions
    python benchmarks/run.py --scenarios 1m,demo --repeat 7

Inputs are generated once with a fixed seed into --work (default: a temporary
folder). Every timed command is a fresh process; tools alternate within each
repetition (the first tool rotates), and the table shows the median and the peak
resident memory (the child's ru_maxrss). ranx compiles its numba kernels on first
use (~45 s the very first time on this machine): one untimed run warms its cache
before the timed ones, so its numbers are the warm ones. Each tool's means are
checked against reportgen's before any time is shown.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

KS = "1,3,5,10,100"
REALDATA = REPO.parent / "shared" / "realdata" / "trec-dl19-passage"
TOLERANCE = 1e-4
"""Means of different tools agree to this; ties in float32 scores can move the 5th digit."""

# trec_eval / pytrec_eval name -> reportgen key, and ranx name -> reportgen key
PYTREC_NAMES = {
    **{f"{m}_{k}": f"{r}@{k}" for k in KS.split(",") for m, r in
       (("success", "hit"), ("recall", "recall"), ("P", "precision"), ("ndcg_cut", "ndcg"),
        ("map_cut", "ap"))},
    "recip_rank": "mrr", "map": "ap", "Rprec": "r-precision",
}  # fmt: skip
RANX_NAMES = {
    **{f"{m}@{k}": f"{r}@{k}" for k in KS.split(",") for m, r in
       (("hit_rate", "hit"), ("recall", "recall"), ("precision", "precision"), ("mrr", "mrr"),
        ("ndcg", "ndcg"), ("map", "ap"))},
    "mrr": "mrr", "map": "ap", "r-precision": "r-precision",
}  # fmt: skip


@dataclass
class Sample:
    seconds: float
    peak_mb: float


@dataclass
class Row:
    scenario: str
    tool: str
    samples: list[Sample] = field(default_factory=list)
    target: str = ""
    note: str = ""

    @property
    def median(self) -> float:
        return statistics.median(s.seconds for s in self.samples)

    @property
    def peak_mb(self) -> float:
        return max(s.peak_mb for s in self.samples)


@dataclass(frozen=True)
class Inputs:
    qrels: Path
    runs: tuple[Path, ...]


def generate(
    folder: Path, questions: int, depth: int, *, runs: int = 1, parquet: bool = False
) -> Inputs:
    """Seeded inputs, made by generate.py in its own process.

    This process must stay small: a child's peak memory (ru_maxrss) starts from its
    parent's size when it is forked, so a runner that had loaded 10M rows would make
    every small tool look as large.
    """
    command = [sys.executable, str(HERE / "generate.py"), str(folder), str(questions), str(depth)]
    command += [str(runs), *(["--parquet"] if parquet else [])]
    made = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return Inputs(Path(made["qrels"]), tuple(Path(p) for p in made["runs"]))


def timed(command: Sequence[str], env: dict[str, str] | None = None) -> Sample:
    """Wall time and peak memory of one fresh process; its failure stops the benchmark."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env or os.environ.copy()
    )
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode not in (0, 1):
        raise SystemExit(f"failed ({process.returncode}): {' '.join(command)}\n{errors.decode()}")
    return Sample(seconds, usage.ru_maxrss / 1024)


def reportgen_env() -> dict[str, str]:
    """This checkout's reportgen, whatever is installed, with a fixed creation time.

    Its modules are compiled to bytecode first, as ``pip install`` does for a user:
    with ``PYTHONDONTWRITEBYTECODE`` set (CI machines, containers) and no ``__pycache__``
    yet, every timed process would compile ~120 modules from source (0.1-0.2 s) that an
    installed reportgen never compiles, while the reference libraries' bytecode came
    with their install.
    """
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(REPO / "reportgen")],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    env = os.environ.copy()
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["SOURCE_DATE_EPOCH"] = "1700000000"
    return env


def reportgen(qrels: Path, runs: Sequence[Path], out: Path, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "reportgen", "report", str(qrels), *map(str, runs),
        "--out", str(out), "--quiet", *extra,
    ]  # fmt: skip


def tool_script(name: str, qrels: Path, runs: Sequence[Path], out: Path) -> list[str]:
    script = HERE / "tools" / f"{name}_script.py"
    return [sys.executable, str(script), str(qrels), KS, str(out), *map(str, runs)]


def compare(commands: dict[str, Callable[[], list[str]]], repeat: int, scenario: str) -> list[Row]:
    """Run every tool ``repeat`` times, alternating, the first tool rotating each time."""
    rows = {tool: Row(scenario, tool) for tool in commands}
    tools = list(commands)
    env = reportgen_env()
    for rep in range(repeat):
        order = tools[rep % len(tools) :] + tools[: rep % len(tools)]
        for tool in order:
            rows[tool].samples.append(timed(commands[tool](), env))
            print(f"  {scenario} {tool} #{rep + 1}: {rows[tool].samples[-1].seconds:.2f} s",
                  file=sys.stderr)  # fmt: skip
    return list(rows.values())


def check_means(report_dir: Path, others: dict[str, tuple[Path, dict[str, str]]]) -> str:
    """Largest difference between reportgen's means and each other tool's, per run."""
    report = json.loads((report_dir / "report.json").read_text())
    worst: dict[str, float] = {}
    for tool, (path, names) in others.items():
        theirs = json.loads(path.read_text())
        for run_path, values in theirs.items():
            ours = report["runs"][Path(run_path).stem]["means"]
            diffs = [abs(ours[key] - values[name]) for name, key in names.items() if name in values]
            if not diffs:
                raise SystemExit(f"{tool} computed none of the measures")
            worst[tool] = max(worst.get(tool, 0.0), *diffs)
    # pytrec_eval follows trec_eval exactly; ranx breaks score ties its own way
    bad = {tool: d for tool, d in worst.items() if d > TOLERANCE and tool == "pytrec_eval"}
    if bad:
        raise SystemExit(f"means disagree with reportgen's: {bad}")
    return ", ".join(f"{tool} max abs diff {d:.1e}" for tool, d in worst.items())


def versus_references(
    scenario: str,
    qrels: Path,
    runs: Sequence[Path],
    work: Path,
    repeat: int,
    trec: list[str],
    with_ranx: bool = True,
) -> list[Row]:
    """reportgen (report.json + per-question CSV), pytrec_eval and warm ranx on the same files."""
    out = work / f"out-{scenario}"
    outs = {name: work / f"{scenario}-{name}.json" for name in ("pytrec_eval", "ranx")}
    commands: dict[str, Callable[[], list[str]]] = {
        "reportgen": lambda: reportgen(qrels, runs, out, "--format", "json", "--k", KS, *trec),
        "pytrec_eval": lambda: tool_script("pytrec_eval", qrels, runs, outs["pytrec_eval"]),
    }
    if with_ranx:
        commands["ranx (warm)"] = lambda: tool_script("ranx", qrels, runs, outs["ranx"])
        print(f"  {scenario}: warming ranx's numba cache (untimed)", file=sys.stderr)
        timed(commands["ranx (warm)"]())
    else:
        del outs["ranx"]
    rows = compare(commands, repeat, scenario)
    names = {"pytrec_eval": PYTREC_NAMES, "ranx": RANX_NAMES}
    agreement = check_means(out, {tool: (outs[tool], names[tool]) for tool in outs})
    base = rows[0].median
    rows[0].note = agreement
    for row in rows[1:]:
        row.note = f"takes {row.median / base:.1f}x reportgen's time"
    return rows


def scenario_small(work: Path, repeat: int) -> list[Row]:
    """A smoke test of the harness: 200 questions x 20, no ranx (its compile takes long)."""
    inputs = generate(work, 200, 20)
    return versus_references(
        "small", inputs.qrels, inputs.runs, work, repeat, ["--trec-eval"], with_ranx=False
    )


def scenario_1m(work: Path, repeat: int) -> list[Row]:
    inputs = generate(work, 10_000, 100)
    rows = versus_references("1M rows", inputs.qrels, inputs.runs, work, repeat, ["--trec-eval"])
    rows[0].target = ">= 2x faster than pytrec_eval, faster than warm ranx"
    return rows


def scenario_10m(work: Path, repeat: int) -> list[Row]:
    inputs = generate(work, 10_000, 1000, parquet=True)
    trec, parquet = inputs.runs
    rows = []
    for label, run in (("10M rows, TREC text", trec), ("10M rows, Parquet", parquet)):
        out = work / "out-10m"
        command = reportgen(inputs.qrels, [run], out, "--format", "json", "--k", KS, "--trec-eval")
        (row,) = compare({"reportgen": lambda c=command: c}, repeat, label)
        row.target = "< 15 s, < 4 GB"
        rows.append(row)
    return rows


def scenario_demo(work: Path, repeat: int) -> list[Row]:
    out = work / "out-demo"
    command = [sys.executable, "-m", "reportgen", "demo", "--out", str(out), "--quiet"]
    (row,) = compare({"reportgen": lambda: command}, repeat, "demo, full report")
    row.target = "<= 2.0x the stack floor (targets.py)"
    return [row]


def scenario_six_runs(work: Path, repeat: int) -> list[Row]:
    inputs = generate(work, 10_000, 100, runs=6)
    out = work / "out-6runs"
    command = reportgen(inputs.qrels, inputs.runs, out)
    (row,) = compare({"reportgen": lambda: command}, repeat, "10k questions x 6 runs, full report")
    html = out / "index.html"
    size = html.stat().st_size / 1e6 if html.exists() else float("nan")
    row.target = "< 15 s, HTML < 5 MB"
    row.note = f"HTML {size:.2f} MB"
    return [row]


def scenario_dl19(work: Path, repeat: int) -> list[Row]:
    if not REALDATA.is_dir():
        print(f"  DL19 skipped: {REALDATA} not found", file=sys.stderr)
        return []
    qrels = REALDATA / "qrels.dl19-passage.txt"
    # ranx and pytrec_eval name runs by path; reportgen by stem: keep the stems unique
    runs = sorted((REALDATA / "runs").glob("run.dl19.*.txt"))
    local = work / "dl19"
    local.mkdir(exist_ok=True)
    for run in runs:
        target = local / run.name.removeprefix("run.dl19.")
        if not target.exists():
            shutil.copyfile(run, target)
    copies = sorted(local.glob("*.txt"))
    return versus_references("DL19, 6 real runs", qrels, copies, work, repeat, ["--trec-eval"])


def in_process(tool: str, *arguments: str) -> dict[str, object]:
    """One fresh process of benchmarks/tools/TOOL.py, timing calls inside it: its JSON."""
    command = [sys.executable, str(HERE / "tools" / f"{tool}.py"), *arguments]
    done = subprocess.run(command, capture_output=True, text=True, env=reportgen_env())
    if done.returncode:
        raise SystemExit(f"failed: {' '.join(command)}\n{done.stderr}")
    found: dict[str, object] = json.loads(done.stdout)
    return found


def scenario_warm(work: Path, repeat: int) -> list[Row]:
    """reportgen.evaluate on a 1M-row Polars DataFrame against ranx's evaluate, both warm,
    in one process (issue #18): the second and later calls, medians of ``repeat``."""
    inputs = generate(work, 10_000, 100)
    found = in_process("notebook_warm", str(inputs.qrels), str(inputs.runs[0]), str(repeat))
    ours, theirs = (Row("warm, 1M rows in memory", tool) for tool in ("reportgen", "ranx"))
    for row, times in ((ours, found["reportgen"]), (theirs, found["ranx"])):
        assert isinstance(times, list)
        row.samples = [Sample(seconds, float("nan")) for seconds in times]
    ours.target = "<= 0.5x ranx's warm evaluate"
    cpu: dict[str, float] = {}
    for tool in ("reportgen", "ranx"):  # CPU of the process: both cores' work, if any
        seconds = found[f"{tool}_cpu"]
        assert isinstance(seconds, list)
        cpu[tool] = statistics.median(seconds)
    ours.note = (
        f"{ours.median / theirs.median:.2f}x ranx; CPU {cpu['reportgen']:.2f} s against "
        f"{cpu['ranx']:.2f} s ({cpu['reportgen'] / cpu['ranx']:.2f}x); "
        f"means max abs diff {found['max_abs_diff']:.1e}"
    )
    theirs.note = "Qrels and Run built before timing (not counted)"
    return [ours, theirs]


def scenario_sweep(work: Path, repeat: int) -> list[Row]:
    """docs/python-api.md's fusion sweep at scale: 21 weights over two runs of 1M rows."""
    inputs = generate(work, 10_000, 100, runs=2)
    found = in_process("notebook_sweep", str(inputs.qrels), *map(str, inputs.runs), str(repeat))
    row = Row("sweep, 21 weights x 2 runs of 1M rows", "reportgen")
    times = found["seconds"]
    assert isinstance(times, list)
    row.samples = [Sample(seconds, float("nan")) for seconds in times]
    row.target = "reported, no target"
    row.note = (
        f"{row.median / 21:.2f} s a step (fusing in Polars + evaluate); best weight {found['best']}"
    )
    return [row]


def scenario_spans(work: Path, repeat: int) -> list[Row]:
    """10,000 questions of evidence spans against a 1M-chunk map, one run of 100 each."""
    folder = work / "spans"
    command = [sys.executable, str(HERE / "generate_spans.py"), str(folder), "10000", "1000000"]
    made = json.loads(
        subprocess.run([*command, "100"], check=True, capture_output=True, text=True).stdout
    )
    out = work / "out-spans"
    report = [
        sys.executable, "-m", "reportgen", "report", made["gold"], f"run={made['run']}",
        "--chunks", made["chunks"], "--format", "json", "--out", str(out), "--quiet",
    ]  # fmt: skip
    (row,) = compare({"reportgen": lambda: report}, repeat, "spans: 10k questions x 1M-chunk map")
    row.target = "a few seconds"
    means = json.loads((out / "report.json").read_text())["runs"]["run"]["means"]
    row.note = f"span_recall@5 {means['span_recall@5']:.3f}, 1M run rows (Parquet)"
    return [row]


SCENARIOS: dict[str, Callable[[Path, int], list[Row]]] = {
    "1m": scenario_1m,
    "10m": scenario_10m,
    "demo": scenario_demo,
    "6runs": scenario_six_runs,
    "dl19": scenario_dl19,
    "spans": scenario_spans,
    "small": scenario_small,
    "warm": scenario_warm,
    "sweep": scenario_sweep,
}


def table(rows: Sequence[Row], repeat: int) -> str:
    lines = [
        f"| scenario | tool | median of {repeat} (s) | peak memory (MB) | target | note |",
        "| --- | --- | ---: | ---: | --- | --- |",
    ]
    for row in rows:
        lines.append(
            f"| {row.scenario} | {row.tool} | {row.median:.2f} | {_megabytes(row.peak_mb)} | "
            f"{row.target} | {row.note} |"
        )
    return "\n".join(lines)


def _megabytes(peak: float) -> str:
    """Peak memory, or "-" for in-process timings (one process holds both tools)."""
    return "-" if peak != peak else f"{peak:.0f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default = ",".join(name for name in SCENARIOS if name != "small")
    parser.add_argument("--scenarios", default=default, help="comma-separated")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="1M rows only, 3 repetitions")
    parser.add_argument("--work", type=Path, default=None, help="keep inputs here (reused)")
    args = parser.parse_args(argv)
    chosen = ["1m"] if args.quick else [s.strip() for s in args.scenarios.split(",")]
    repeat = 3 if args.quick else args.repeat
    unknown = [s for s in chosen if s not in SCENARIOS]
    if unknown:
        parser.error(f"unknown scenario {unknown[0]!r}; choose from {', '.join(SCENARIOS)}")
    work = args.work or Path(tempfile.mkdtemp(prefix="reportgen-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    for name in chosen:
        rows.extend(SCENARIOS[name](work, repeat))
    print(f"\n{os.cpu_count()} cores, Python {sys.version.split()[0]}, inputs in {work}\n")
    print(table(rows, repeat))
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
