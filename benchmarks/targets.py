"""Issue #28's and #44's figures as ratios, and the regression check CI runs on them.

    python benchmarks/targets.py                  # full size (1M rows), 3 rounds
    python benchmarks/targets.py --size ci        # reduced size, 5 rounds, checked against
                                                  # benchmarks/baseline.json (what .ci/run does)
    python benchmarks/targets.py --size ci --record   # write the ratios into baseline.json

Each figure is reportgen's time over a reference's, both measured in the same round
(the side that goes first alternating), a ratio per round and the median of the rounds:
load from other jobs hits both sides of a round alike, so ratios hold on a busy
machine where seconds do not.

- ``cold``: ``reportgen report --format json`` with every measure at k = 1,3,5,10,100
  (``--trec-eval``) on a TREC run (10,000 questions x 100, 12 graded gold each), whole
  process, against ``tools/cold_floor.py``: the least Polars program computing those
  means (no checks, no outputs), the figure's floor (target: 1.35x). Printed beside it,
  not checked: reportgen's and the floor's ratios to a pytrec_eval script computing the
  same (whose means must agree).
- ``cold_pool``: the same on the held-out check's shape (``generate.pool_inputs``): ids
  like ``q17`` and ``d45`` written in numeric order, each question's 100 chunks from a
  pool of 200 ids all questions share, 12 of them graded 1-3, random scores.
- ``demo``: ``reportgen demo``, whole process, against the stack floor
  (``tools/stack_floor.py``: imports Polars, Jinja2, Click and vl-convert, draws one chart).
- ``warm``: ``reportgen.evaluate`` on the run as a Polars DataFrame (5 relevant each),
  ``k=(5, 10, 100)``, median of 5 calls after a first, against ranx's ``evaluate`` (numba
  compiled) of the same six measures, each in its own process (``tools/warm_one.py``).
- ``warm_pool`` and ``warm_many``: ``reportgen.evaluate(gold, run)`` with the default
  arguments on frames read from Parquet (``generate.pool_inputs``: 5 relevant chunks of
  a pool of 200; 100 of a pool of 1,000), against ranx on the same data.

``--size ci`` cuts the runs to 2,000 questions x 100 so that the whole check takes a
few minutes on 2 cores (plus ranx's one-off numba compile, ~45 s, in an untimed
warm-up). A ratio more than 25% above its recorded value is a warning, more than 50% a
failure (exit 1). The recorded values change only by a commit that says why.
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
from collections.abc import Callable
from pathlib import Path

from generate import pool_inputs
from run import PYTREC_NAMES, check_means, reportgen_env

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "baseline.json"
SIZES = {"full": (10_000, 3), "ci": (2_000, 5)}
"""Questions (x 100 results) and rounds."""
TARGETS = {
    "cold": 1.35,
    "cold_pool": 1.35,
    "demo": 2.0,
    "warm": 0.50,
    "warm_pool": 0.50,
    "warm_many": 0.50,
}
WARN, FAIL = 1.25, 1.50
NOTES: list[str] = []
"""Lines the set-ups print after the figures, for information."""
KS = "1,3,5,10,100"


def inputs(work: Path, questions: int, gold: int) -> tuple[Path, Path]:
    """Seeded qrels with ``gold`` relevant chunks per question and a run of 100 each."""
    command = [sys.executable, str(HERE / "generate.py"), str(work), str(questions), "100"]
    done = subprocess.run([*command, f"--gold={gold}"], check=True, capture_output=True)
    made = json.loads(done.stdout)
    return Path(made["qrels"]), Path(made["runs"][0])


Seconds = tuple[float, float]
"""Wall and CPU seconds (user + system, the process and the children it waited for)."""


def timed(command: list[str], env: dict[str, str]) -> Seconds:
    """One fresh process; its failure stops the benchmark."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    assert process.stderr is not None
    errors = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"failed: {' '.join(command)}\n{errors.decode()}")
    return wall, usage.ru_utime + usage.ru_stime


def rounds(
    pair: tuple[Callable[[], Seconds], Callable[[], Seconds]], count: int, name: str
) -> list[Seconds]:
    """Ratios ours / reference (wall, CPU), one per round, the side that goes first
    alternating."""
    ratios = []
    for number in range(count):
        if number % 2 == 0:
            ours = pair[0]()
            theirs = pair[1]()
        else:
            theirs = pair[1]()
            ours = pair[0]()
        ratios.append((ours[0] / theirs[0], ours[1] / theirs[1]))
        print(f"  {name} round {number + 1}: wall {ours[0]:.3f} s / {theirs[0]:.3f} s = "
              f"{ratios[-1][0]:.2f}, CPU {ours[1]:.3f} s / {theirs[1]:.3f} s = {ratios[-1][1]:.2f}",
              file=sys.stderr)  # fmt: skip
    return ratios


def cold(work: Path, questions: int, count: int) -> list[Seconds]:
    qrels, run = inputs(work, questions, 12)
    return _cold(work, qrels, run, "cold", count)


def cold_pool(work: Path, questions: int, count: int) -> list[Seconds]:
    made = pool_inputs(work, questions, 100, 200, 12, graded=True)
    return _cold(work, made.qrels, made.run, "cold_pool", count)


def _cold(work: Path, qrels: Path, run: Path, name: str, count: int) -> list[Seconds]:
    """reportgen over the floor per round; pytrec_eval timed in the same rounds."""
    out = work / f"{name}-out"
    theirs, least = work / f"{name}-pytrec.json", work / f"{name}-floor.json"
    ours = [
        sys.executable, "-m", "reportgen", "report", str(qrels), str(run), "--format", "json",
        "--k", KS, "--trec-eval", "--out", str(out), "--quiet",
    ]  # fmt: skip
    tools = HERE / "tools"
    reference = [sys.executable, str(tools / "pytrec_eval_script.py"), str(qrels), KS]
    reference += [str(theirs), str(run)]
    floor = [sys.executable, str(tools / "cold_floor.py"), str(qrels), KS, str(least), str(run)]
    env = reportgen_env()
    times = rounds_of([ours, floor, reference], env, count, name)
    check_means(out, {"pytrec_eval": (theirs, PYTREC_NAMES)})
    worst = max(abs(a - b) for a, b in zip(*map(_means, (least, theirs)), strict=True))
    if worst > 1e-9:
        raise SystemExit(f"{name} floor: its means and pytrec_eval's differ by {worst:.1e}")
    versus = [(o[0] / p[0], o[1] / p[1]) for o, _, p in times]
    below = [(f[0] / p[0], f[1] / p[1]) for _, f, p in times]
    NOTES.append(
        f"{name} against pytrec_eval (not checked): reportgen "
        f"{statistics.median(r[0] for r in versus):.2f}x wall, the floor "
        f"{statistics.median(r[0] for r in below):.2f}x wall"
    )
    return [(o[0] / f[0], o[1] / f[1]) for o, f, _ in times]


def rounds_of(
    commands: list[list[str]], env: dict[str, str], count: int, name: str
) -> list[list[Seconds]]:
    """Each command once per round, the first one rotating; the times per round."""
    found = []
    for number in range(count):
        order = list(range(len(commands)))
        order = order[number % len(order) :] + order[: number % len(order)]
        times: dict[int, Seconds] = {index: timed(commands[index], env) for index in order}
        found.append([times[index] for index in range(len(commands))])
        print(f"  {name} round {number + 1}: wall "
              + " / ".join(f"{t[0]:.3f}" for t in found[-1]) + " s", file=sys.stderr)  # fmt: skip
    return found


def _means(path: Path) -> list[float]:
    """The means of a pytrec_eval_script.py-style file (one run), in name order."""
    (values,) = json.loads(path.read_text()).values()
    return [values[name] for name in sorted(values)]


def demo(work: Path, questions: int, count: int) -> list[Seconds]:
    ours = [sys.executable, "-m", "reportgen", "demo", "--out", str(work / "demo"), "--quiet"]
    floor = [sys.executable, str(HERE / "tools" / "stack_floor.py"), str(work / "floor.svg")]
    env = reportgen_env()
    return rounds((lambda: timed(ours, env), lambda: timed(floor, env)), count, "demo")


def warm(work: Path, questions: int, count: int) -> list[Seconds]:
    qrels, run = inputs(work, questions, 5)
    return _warm(qrels, run, [], count, "warm")


def warm_pool(work: Path, questions: int, count: int) -> list[Seconds]:
    made = pool_inputs(work, questions, 100, 200, 5)
    return _warm(made.qrels, made.run, [made.gold_parquet, made.run_parquet], count, "warm_pool")


def warm_many(work: Path, questions: int, count: int) -> list[Seconds]:
    made = pool_inputs(work, questions, 100, 1000, 100)
    return _warm(made.qrels, made.run, [made.gold_parquet, made.run_parquet], count, "warm_many")


def _warm(qrels: Path, run: Path, frames: list[Path], count: int, name: str) -> list[Seconds]:
    """Median call of each tool in its own process (``tools/warm_one.py``), per round."""
    env = reportgen_env()
    env["PYTHONPATH"] = str(HERE / "tools") + os.pathsep + env["PYTHONPATH"]

    def median_call(tool: str) -> Seconds:
        command = [sys.executable, str(HERE / "tools" / "warm_one.py"), tool, str(qrels), str(run)]
        command += ["5", *map(str, frames)]
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        if done.returncode:
            raise SystemExit(f"failed: {' '.join(command)}\n{done.stderr}")
        found = json.loads(done.stdout)
        means[tool] = found["means"]
        return statistics.median(found["seconds"]), statistics.median(found["cpu"])

    means: dict[str, dict[str, float]] = {}
    print(f"  {name}: ranx's numba kernels compiled or loaded (untimed)", file=sys.stderr)
    median_call("ranx")
    ratios = rounds((lambda: median_call("reportgen"), lambda: median_call("ranx")), count, name)
    worst = max(abs(means["ranx"][key] - value) for key, value in means["reportgen"].items())
    if worst > 1e-6:
        raise SystemExit(f"{name}: reportgen's and ranx's means differ by {worst:.1e}")
    return ratios


SETUPS = {
    "cold": cold,
    "cold_pool": cold_pool,
    "demo": demo,
    "warm": warm,
    "warm_pool": warm_pool,
    "warm_many": warm_many,
}


def level(ratio: float, recorded: float | None) -> int:
    """0 (fine), 1 (more than WARN times worse than recorded) or 2 (more than FAIL)."""
    if recorded is None:
        return 0
    return 2 if ratio > recorded * FAIL else 1 if ratio > recorded * WARN else 0


def verdict(name: str, figure: Seconds, recorded: dict[str, float]) -> tuple[str, int]:
    """The line printed for one figure, and its level: a figure is worse only when both
    its wall-time and its CPU-time ratios are (load from other jobs moves the wall
    time of the side that uses two cores; a real regression adds work, seen in both)."""
    wall, cpu = figure
    line = f"{name}: {wall:.2f}x wall (target <= {TARGETS[name]:.2f}x), {cpu:.2f}x CPU"
    if recorded:
        line += (
            f"; recorded {recorded['wall']:.2f}x wall ({wall / recorded['wall'] - 1:+.0%}), "
            f"{recorded['cpu']:.2f}x CPU ({cpu / recorded['cpu'] - 1:+.0%})"
        )
    worse = min(level(wall, recorded.get("wall")), level(cpu, recorded.get("cpu")))
    if worse == 2:
        return f"FAIL {line}: more than {FAIL - 1:.0%} worse than recorded", 2
    if worse == 1:
        return f"WARNING {line}: more than {WARN - 1:.0%} worse than recorded", 1
    return line, 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=SIZES, default="full")
    parser.add_argument("--rounds", type=int, default=None)
    parser.add_argument("--setups", default=",".join(SETUPS), help="comma-separated")
    parser.add_argument("--record", action="store_true", help="write the ratios to baseline.json")
    parser.add_argument("--work", type=Path, default=None, help="keep the inputs here")
    args = parser.parse_args(argv)
    questions, count = SIZES[args.size]
    count = args.rounds or count
    chosen = [name.strip() for name in args.setups.split(",")]
    unknown = sorted(set(chosen) - set(SETUPS))
    if unknown:
        parser.error(f"unknown set-up {unknown[0]!r}; choose from {', '.join(SETUPS)}")
    work = args.work or Path(tempfile.mkdtemp(prefix="reportgen-targets-"))
    work.mkdir(parents=True, exist_ok=True)
    recorded = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    figures: dict[str, Seconds] = {}
    for name in chosen:
        ratios = SETUPS[name](work, questions, count)
        figures[name] = (
            statistics.median(r[0] for r in ratios),
            statistics.median(r[1] for r in ratios),
        )
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"\n{args.size} size, {count} rounds (medians), load average {load}")
    worst = 0
    for name, figure in figures.items():
        line, found = verdict(name, figure, recorded.get(args.size, {}).get(name, {}))
        print(line)
        worst = max(worst, found)
    for note in NOTES:
        print(note)
    if args.record:
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        recorded.setdefault(args.size, {}).update(
            {name: {"wall": round(w, 3), "cpu": round(c, 3)} for name, (w, c) in figures.items()}
            | {"measured": f"{when}, {count} rounds, load average {load}"}
        )
        BASELINE.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n")
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if worst == 2 else 0


if __name__ == "__main__":
    raise SystemExit(main())
